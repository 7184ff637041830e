// `heraldc parse --dump-tokens`: one line per token.
#include <fmt/format.h>

#include "frontend/lex_literals.h"
#include "frontend/lexer.h"

namespace herald {

namespace {

// Quotes `text` so that every byte is visible and the line stays one line.
void appendQuoted(std::string& out, std::string_view text, char quote) {
  out += quote;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    const unsigned char c = *p;
    if (c == '\\' || c == static_cast<unsigned char>(quote)) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      out += fmt::format("\\x{:02X}", c);
    } else if (c >= 0x80) {
      const unsigned length = lex::utf8Length(p, end);
      if (length == 0) {
        out += fmt::format("\\x{:02X}", c);
      } else {
        out.append(reinterpret_cast<const char*>(p), length);
        p += length;
        continue;
      }
    } else {
      out += static_cast<char>(c);
    }
    ++p;
  }
  out += quote;
}

std::string_view textOf(const SourceFile& file, SourceRange range) {
  return file.text().substr(range.begin, range.end - range.begin);
}

}  // namespace

std::string dumpTokens(const SourceFile& file,
                       const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& token : tokens) {
    const LineColumn at = file.lineColumn(token.range.begin);
    out += fmt::format("{}:{} {}", at.line, at.column,
                       tokenKindName(token.kind));
    if (token.kind != TokenKind::EndOfFile) {
      out += ' ';
      appendQuoted(out, textOf(file, token.range), '\'');
    }
    switch (token.kind) {
      case TokenKind::IntLiteral:
        out += fmt::format(" = {}", token.intValue);
        break;
      case TokenKind::FloatLiteral:
        out += fmt::format(" = {}", token.floatValue);
        break;
      case TokenKind::DurationLiteral:
        out += fmt::format(" = {} {}", token.intValue,
                           durationUnitName(token.durationUnit));
        break;
      case TokenKind::StringLiteral:
      case TokenKind::StringHead:
      case TokenKind::StringMiddle:
      case TokenKind::StringTail:
        out += " = ";
        appendQuoted(out, token.stringValue, '"');
        break;
#define TOKEN(Id, Describe)
#define KEYWORD(Id, Spelling) case TokenKind::Id:
#define PUNCT(Id, Spelling) case TokenKind::Id:
#include "frontend/token_kinds.def"
      case TokenKind::EndOfFile:
      case TokenKind::Identifier:
        break;
    }
    if (token.doc.begin != token.doc.end) {
      out += " doc ";
      appendQuoted(out, textOf(file, token.doc), '"');
    }
    out += '\n';
  }
  return out;
}

}  // namespace herald
