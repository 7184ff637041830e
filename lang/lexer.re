// The Herald scanner (language.md section 1). re2c turns each /*!re2c */
// block into a DFA; around them sits the pull-lexer state: the stack of open
// string interpolations, the pending doc block, and error recovery.
//
// End of input: the source text is a std::string, so the byte at `limit_` is
// always NUL. That NUL is re2c's sentinel; when the DFA reads a NUL it checks
// `limit_`, so a NUL inside the file is an ordinary (stray) character.

#include <cstring>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "frontend/lex_literals.h"
#include "frontend/lexer.h"

namespace herald {

/*!re2c
  re2c:define:YYCTYPE = "unsigned char";
  re2c:define:YYCURSOR = cur_;
  re2c:define:YYMARKER = marker_;
  re2c:define:YYLIMIT = limit_;
  re2c:yyfill:enable = 0;
  re2c:eof = 0;

  ident = [A-Za-z_][A-Za-z0-9_]*;
  // Letters are taken in so that `12abc` or `0x1F` is one invalid number
  // rather than a number followed by an identifier.
  num = [0-9][0-9A-Za-z_]*;
  newline = "\n";
*/

namespace {

std::string_view textBetween(const unsigned char* begin,
                             const unsigned char* end) {
  return {reinterpret_cast<const char*>(begin),
          static_cast<std::size_t>(end - begin)};
}

const unsigned char* lineEnd(const unsigned char* p,
                             const unsigned char* limit) {
  const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(limit - p));
  return nl != nullptr ? static_cast<const unsigned char*>(nl) : limit;
}

// [begin, end) is one line: `---` with only blanks around it.
bool isMarkerLine(const unsigned char* begin, const unsigned char* end) {
  const unsigned char* p = begin;
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  if (end - p < 3 || p[0] != '-' || p[1] != '-' || p[2] != '-') return false;
  p += 3;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
  return p == end;
}

}  // namespace

Lexer::Lexer(const SourceFile& file, DiagnosticEngine& diags)
    : diags_(diags),
      fileId_(file.id()),
      base_(reinterpret_cast<Cursor>(file.text().data())),
      start_(base_),
      limit_(base_ + file.text().size()),
      cur_(base_) {
  if (file.text().starts_with("\xEF\xBB\xBF")) start_ = cur_ = base_ + 3;
}

Token Lexer::make(TokenKind kind, Cursor begin, Cursor end) {
  Token token;
  token.kind = kind;
  token.range = rangeOf(begin, end);
  token.firstOnLine = atLineStart_;
  atLineStart_ = false;
  if (pendingDoc_.begin != pendingDoc_.end) {
    token.doc = pendingDoc_;
    pendingDoc_ = {};
  }
  return token;
}

Token Lexer::next() {
  for (;;) {
    const Cursor tok = cur_;
    /*!re2c
      $ {
        if (!interpolations_.empty()) return closeOpenInterpolation(cur_);
        return make(TokenKind::EndOfFile, cur_, cur_);
      }
      [ \t\r]+ { continue; }
      newline {
        if (!interpolations_.empty()) {
          // Strings end on their line: close the open interpolations
          // first, and see this newline again afterwards.
          cur_ = tok;
          return closeOpenInterpolation(tok);
        }
        atLineStart_ = true;
        continue;
      }
      "--" {
        if (*cur_ == '-' && isDocMarker(tok)) {
          skipDocBlock(tok);
        } else {
          skipComment();
          if (comments_ != nullptr) [[unlikely]]
            recordComment(tok);
        }
        continue;
      }

      "context"    { return make(TokenKind::KwContext, tok, cur_); }
      "consumes"   { return make(TokenKind::KwConsumes, tok, cur_); }
      "as"         { return make(TokenKind::KwAs, tok, cur_); }
      "type"       { return make(TokenKind::KwType, tok, cur_); }
      "event"      { return make(TokenKind::KwEvent, tok, cur_); }
      "actor"      { return make(TokenKind::KwActor, tok, cur_); }
      "capability" { return make(TokenKind::KwCapability, tok, cur_); }
      "fn"         { return make(TokenKind::KwFn, tok, cur_); }
      "agent"      { return make(TokenKind::KwAgent, tok, cur_); }
      "key"        { return make(TokenKind::KwKey, tok, cur_); }
      "store"      { return make(TokenKind::KwStore, tok, cur_); }
      "invariant"  { return make(TokenKind::KwInvariant, tok, cur_); }
      "service"    { return make(TokenKind::KwService, tok, cur_); }
      "from"       { return make(TokenKind::KwFrom, tok, cur_); }
      "via"        { return make(TokenKind::KwVia, tok, cur_); }
      "on"         { return make(TokenKind::KwOn, tok, cur_); }
      "call"       { return make(TokenKind::KwCall, tok, cur_); }
      "by"         { return make(TokenKind::KwBy, tok, cur_); }
      "given"      { return make(TokenKind::KwGiven, tok, cur_); }
      "let"        { return make(TokenKind::KwLet, tok, cur_); }
      "if"         { return make(TokenKind::KwIf, tok, cur_); }
      "else"       { return make(TokenKind::KwElse, tok, cur_); }
      "match"      { return make(TokenKind::KwMatch, tok, cur_); }
      "true"       { return make(TokenKind::KwTrue, tok, cur_); }
      "false"      { return make(TokenKind::KwFalse, tok, cur_); }
      "opaque"     { return make(TokenKind::KwOpaque, tok, cur_); }
      "where"      { return make(TokenKind::KwWhere, tok, cur_); }
      "fail"       { return make(TokenKind::KwFail, tok, cur_); }
      "_"          { return make(TokenKind::Underscore, tok, cur_); }
      ident        { return make(TokenKind::Identifier, tok, cur_); }

      num { return lexInteger(tok, cur_); }
      num "." [0-9][0-9A-Za-z_]* { return lexFloat(tok, cur_); }
      num "." "ms" { return lexDuration(tok, DurationUnit::Milliseconds); }
      num "." "second" "s"? { return lexDuration(tok, DurationUnit::Seconds); }
      num "." "minute" "s"? { return lexDuration(tok, DurationUnit::Minutes); }
      num "." "hour" "s"? { return lexDuration(tok, DurationUnit::Hours); }
      num "." "day" "s"? { return lexDuration(tok, DurationUnit::Days); }
      // Not a unit (`1.daysx`, `n.count`): the integer, then `.` on its own.
      num "." ident {
        cur_ = static_cast<Cursor>(
            std::memchr(tok, '.', static_cast<std::size_t>(cur_ - tok)));
        return lexInteger(tok, cur_);
      }

      "\"" { return scanString(tok, offset(tok), false); }

      "(" {
        if (!interpolations_.empty()) ++interpolations_.back().depth;
        return make(TokenKind::LParen, tok, cur_);
      }
      "[" {
        if (!interpolations_.empty()) ++interpolations_.back().depth;
        return make(TokenKind::LBracket, tok, cur_);
      }
      "{" {
        if (!interpolations_.empty()) ++interpolations_.back().depth;
        return make(TokenKind::LBrace, tok, cur_);
      }
      ")" {
        if (!interpolations_.empty()) {
          Interpolation& open = interpolations_.back();
          if (open.depth == 0) {
            const std::uint32_t quote = open.quote;
            interpolations_.pop_back();
            return scanString(tok, quote, true);
          }
          --open.depth;
        }
        return make(TokenKind::RParen, tok, cur_);
      }
      "]" {
        if (!interpolations_.empty() && interpolations_.back().depth > 0) {
          --interpolations_.back().depth;
        }
        return make(TokenKind::RBracket, tok, cur_);
      }
      "}" {
        if (!interpolations_.empty() && interpolations_.back().depth > 0) {
          --interpolations_.back().depth;
        }
        return make(TokenKind::RBrace, tok, cur_);
      }

      ","  { return make(TokenKind::Comma, tok, cur_); }
      ":"  { return make(TokenKind::Colon, tok, cur_); }
      "."  { return make(TokenKind::Dot, tok, cur_); }
      ".." { return make(TokenKind::DotDot, tok, cur_); }
      ":=" { return make(TokenKind::ColonEq, tok, cur_); }
      "=>" { return make(TokenKind::FatArrow, tok, cur_); }
      "->" { return make(TokenKind::Arrow, tok, cur_); }
      "==" { return make(TokenKind::EqEq, tok, cur_); }
      "!=" { return make(TokenKind::NotEq, tok, cur_); }
      "<=" { return make(TokenKind::LtEq, tok, cur_); }
      ">=" { return make(TokenKind::GtEq, tok, cur_); }
      "<"  { return make(TokenKind::Lt, tok, cur_); }
      ">"  { return make(TokenKind::Gt, tok, cur_); }
      "&&" { return make(TokenKind::AmpAmp, tok, cur_); }
      "||" { return make(TokenKind::PipePipe, tok, cur_); }
      "|"  { return make(TokenKind::Pipe, tok, cur_); }
      "!"  { return make(TokenKind::Bang, tok, cur_); }
      "+"  { return make(TokenKind::Plus, tok, cur_); }
      "-"  { return make(TokenKind::Minus, tok, cur_); }
      "*"  { return make(TokenKind::Star, tok, cur_); }
      "/"  { return make(TokenKind::Slash, tok, cur_); }
      "%"  { return make(TokenKind::Percent, tok, cur_); }
      "="  { return make(TokenKind::Eq, tok, cur_); }
      "@"  { return make(TokenKind::At, tok, cur_); }

      * {
        reportStray(tok);
        continue;
      }
    */
  }
}

// Scans string text from `cur_` up to the closing `"`, the next `\(`, or the
// end of the line. `tokenBegin` is the opening `"` or, for a `continuation`,
// the `)` that closed an interpolation.
Token Lexer::scanString(Cursor tokenBegin, std::uint32_t quote,
                        bool continuation) {
  std::string value;
  for (;;) {
    const Cursor piece = cur_;
    /*!re2c
      "\"" {
        Token token = make(continuation ? TokenKind::StringTail
                                        : TokenKind::StringLiteral,
                           tokenBegin, cur_);
        token.stringValue = std::move(value);
        return token;
      }
      "\\(" {
        interpolations_.push_back({0, quote, offset(cur_ - 2)});
        Token token = make(continuation ? TokenKind::StringMiddle
                                        : TokenKind::StringHead,
                           tokenBegin, cur_);
        token.stringValue = std::move(value);
        return token;
      }
      "\\n"  { value += '\n'; continue; }
      "\\t"  { value += '\t'; continue; }
      "\\\"" { value += '"'; continue; }
      "\\\\" { value += '\\'; continue; }
      "\\u{" [0-9A-Za-z]* "}" {
        lexUnicodeEscape(piece, cur_, value);
        continue;
      }
      "\\u{" [0-9A-Za-z]* {
        diags_.report<diag::InvalidUnicodeEscape>(
            rangeOf(piece, cur_), "missing '}' after the hex digits");
        continue;
      }
      "\\u" {
        diags_.report<diag::InvalidUnicodeEscape>(
            rangeOf(piece, cur_), "'\\u' must be followed by '{hex digits}'");
        continue;
      }
      "\\" {
        reportEscape(piece);
        continue;
      }
      [^"\\\n\r\x80-\xff]+ {
        value.append(reinterpret_cast<const char*>(piece),
                     static_cast<std::size_t>(cur_ - piece));
        continue;
      }
      "\r" { value += '\r'; continue; }
      [\x80-\xff] {
        lexUtf8InString(piece, value);
        continue;
      }
      newline | "\r\n" {
        cur_ = piece;
        return unterminatedString(tokenBegin, quote, continuation,
                                  std::move(value));
      }
      $ {
        return unterminatedString(tokenBegin, quote, continuation,
                                  std::move(value));
      }
    */
  }
}

Token Lexer::unterminatedString(Cursor tokenBegin, std::uint32_t quote,
                                bool continuation, std::string value) {
  // Inside an open interpolation, the enclosing string is reported instead:
  // it cannot be terminated either, and its `\(` is the likelier mistake.
  if (interpolations_.empty()) {
    DiagnosticBuilder report = diags_.report<diag::UnterminatedString>(
        SourceRange{fileId_, quote, quote + 1});
    report.note("a string literal ends on the line where it starts");
    if (cur_[-1] != '\\') report.fixit(rangeOf(cur_, cur_), "\"");
  }
  Token token =
      make(continuation ? TokenKind::StringTail : TokenKind::StringLiteral,
           tokenBegin, cur_);
  token.stringValue = std::move(value);
  return token;
}

// The line ends inside `\( ... )`: closes the innermost open string with an
// empty StringTail, so the parser still sees a complete string. One error
// covers the whole nest, at the outermost string.
Token Lexer::closeOpenInterpolation(Cursor at) {
  const Interpolation open = interpolations_.back();
  interpolations_.pop_back();
  if (interpolations_.empty()) {
    diags_
        .report<diag::UnterminatedString>(
            SourceRange{fileId_, open.quote, open.quote + 1})
        .note(SourceRange{fileId_, open.open, open.open + 2},
              "this interpolation is not closed by ')'");
  }
  return make(TokenKind::StringTail, at, at);
}

Token Lexer::lexInteger(Cursor begin, Cursor end) {
  Token token = make(TokenKind::IntLiteral, begin, end);
  if (auto error =
          lex::decodeInteger(textBetween(begin, end), token.intValue)) {
    reportNumber(begin, end, *error);
  } else if (token.intValue >= lex::kMinIntMagnitude) {
    // Only here is the `-` before a literal still visible as text; the
    // parser sees the magnitude alone.
    const std::string_view text(reinterpret_cast<const char*>(base_),
                                static_cast<std::size_t>(limit_ - base_));
    const bool negated = lex::followsPrefixMinus(text, offset(begin));
    if (auto range = lex::checkIntRange(token.intValue, negated)) {
      reportNumber(begin, end, *range);
      token.intValue = 0;
    }
  }
  return token;
}

Token Lexer::lexFloat(Cursor begin, Cursor end) {
  Token token = make(TokenKind::FloatLiteral, begin, end);
  if (auto error =
          lex::decodeFloat(textBetween(begin, end), token.floatValue)) {
    reportNumber(begin, end, *error);
  }
  return token;
}

Token Lexer::lexDuration(Cursor begin, DurationUnit unit) {
  Token token = make(TokenKind::DurationLiteral, begin, cur_);
  token.durationUnit = unit;
  const auto* dot = static_cast<Cursor>(
      std::memchr(begin, '.', static_cast<std::size_t>(cur_ - begin)));
  if (auto error =
          lex::decodeInteger(textBetween(begin, dot), token.intValue)) {
    reportNumber(begin, dot, *error);
  }
  return token;
}

void Lexer::reportNumber(Cursor begin, Cursor end, const std::string& reason) {
  diags_.report<diag::InvalidNumber>(rangeOf(begin, end),
                                     textBetween(begin, end), reason);
}

// `backslash` starts an escape that is not one of the valid ones.
void Lexer::reportEscape(Cursor backslash) {
  Cursor end = backslash + 1;
  std::string spelling;
  if (end < limit_ && *end != '\n' && *end != '\r') {
    const unsigned length = lex::utf8Length(end, limit_);
    if (length == 0) {
      // Leave the stray byte to the string scanner, which reports it.
      spelling = "\\ followed by a byte that is not UTF-8";
    } else if (length == 1 && (*end < 0x21 || *end > 0x7E)) {
      spelling =
          fmt::format("\\ followed by {}", lex::describeCharacter(end, 1));
      end += 1;
    } else {
      spelling = fmt::format("\\{}", textBetween(end, end + length));
      end += length;
    }
  } else {
    // A backslash at the end of the line or file escapes nothing.
    spelling = "\\";
  }
  cur_ = end;
  diags_.report<diag::InvalidEscape>(rangeOf(backslash, end), spelling);
}

void Lexer::lexUnicodeEscape(Cursor begin, Cursor end, std::string& value) {
  // Between `\u{` and `}`.
  std::string_view digits = textBetween(begin + 3, end - 1);
  char32_t scalar = 0;
  if (auto error = lex::decodeUnicodeScalar(digits, scalar)) {
    diags_.report<diag::InvalidUnicodeEscape>(rangeOf(begin, end), *error);
    return;
  }
  lex::appendUtf8(value, scalar);
}

void Lexer::lexUtf8InString(Cursor at, std::string& value) {
  const unsigned length = lex::utf8Length(at, limit_);
  if (length == 0) {
    cur_ = reportInvalidUtf8(at);
    lex::appendUtf8(value, U'\uFFFD');
    return;
  }
  value.append(reinterpret_cast<const char*>(at), length);
  cur_ = at + length;
}

Lexer::Cursor Lexer::reportInvalidUtf8(Cursor at) {
  Cursor end = at;
  while (end < limit_ && *end >= 0x80 && lex::utf8Length(end, limit_) == 0) {
    ++end;
  }
  diags_.report<diag::InvalidUtf8>(rangeOf(at, end));
  return end;
}

void Lexer::checkUtf8(Cursor begin, Cursor end) {
  Cursor p = begin;
  while (p < end) {
    if (*p < 0x80) {
      ++p;
      continue;
    }
    const unsigned length = lex::utf8Length(p, end);
    p = length != 0 ? p + length : reportInvalidUtf8(p);
  }
}

namespace {

// Whether `c` can begin no token, blank or comment: a run of such bytes is
// one stray-character error. Bytes that begin a token when followed by the
// right one (`&` of `&&`) are left out, so they are reported on their own.
bool neverStartsToken(unsigned char c) {
  if (c >= 0x80) return true;  // valid UTF-8 is checked by the caller
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
      (c >= '0' && c <= '9'))
    return false;
  return std::strchr("_ \t\r\n\"(){}[],:.=<>!&|+-*/%@", c) == nullptr ||
         c == '\0';
}

}  // namespace

// A run of characters that begin no token is reported once, over the run.
void Lexer::reportStray(Cursor at) {
  if (*at >= 0x80) {
    const unsigned length = lex::utf8Length(at, limit_);
    if (length == 0) {
      cur_ = reportInvalidUtf8(at);
      return;
    }
    cur_ = at + length;
  }
  const Cursor firstEnd = cur_;
  std::size_t more = 0;
  while (cur_ < limit_ && neverStartsToken(*cur_)) {
    unsigned length = 1;
    if (*cur_ >= 0x80) {
      length = lex::utf8Length(cur_, limit_);
      if (length == 0) break;  // invalid UTF-8, reported on its own
    }
    cur_ += length;
    ++more;
  }
  std::string what =
      lex::describeCharacter(at, static_cast<unsigned>(firstEnd - at));
  if (more != 0)
    what += fmt::format(" and the {} character{} after it", more,
                        more == 1 ? "" : "s");
  diags_.report<diag::StrayCharacter>(rangeOf(at, cur_), what);
}

// Trailing blanks (and the `\r` of a CRLF line end) are not part of it.
void Lexer::recordComment(Cursor dashes) {
  Cursor end = cur_;
  while (end > dashes + 2 &&
         (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
    --end;
  comments_->push_back(rangeOf(dashes, end));
}

void Lexer::skipComment() {
  const Cursor end = lineEnd(cur_, limit_);
  checkUtf8(cur_, end);
  cur_ = end;
}

// `dashes` is at `---`: a doc marker when nothing but blanks shares its line.
bool Lexer::isDocMarker(Cursor dashes) const {
  Cursor lineBegin = dashes;
  while (lineBegin > start_ &&
         (lineBegin[-1] == ' ' || lineBegin[-1] == '\t')) {
    --lineBegin;
  }
  if (lineBegin != start_ && lineBegin[-1] != '\n') return false;
  return isMarkerLine(dashes, lineEnd(dashes, limit_));
}

// The doc text is the lines between this marker line and the next one; it
// is attached to the next token.
void Lexer::skipDocBlock(Cursor marker) {
  Cursor line = lineEnd(marker, limit_);
  const Cursor content = line == limit_ ? limit_ : line + 1;
  line = content;
  while (line < limit_) {
    const Cursor end = lineEnd(line, limit_);
    if (isMarkerLine(line, end)) {
      Cursor docEnd = line;
      if (docEnd > content) --docEnd;  // the '\n' ending the last doc line
      if (docEnd > content && docEnd[-1] == '\r') --docEnd;
      pendingDoc_ = rangeOf(content, docEnd);
      cur_ = end;
      return;
    }
    checkUtf8(line, end);
    line = end == limit_ ? limit_ : end + 1;
  }
  diags_.report<diag::UnterminatedDocComment>(rangeOf(marker, marker + 3))
      .note("close it with a line holding only '---'");
  cur_ = limit_;
}

std::vector<Token> lexAll(const SourceFile& file, DiagnosticEngine& diags) {
  Lexer lexer(file, diags);
  std::vector<Token> tokens;
  // Realistic code averages more than four bytes per token; growing past
  // this estimate is fine, it only saves the early reallocations.
  tokens.reserve(file.text().size() / 4 + 1);
  do {
    tokens.push_back(lexer.next());
  } while (tokens.back().kind != TokenKind::EndOfFile);
  return tokens;
}

std::vector<SourceRange> collectComments(const SourceFile& file) {
  DiagnosticEngine ignored;
  Lexer lexer(file, ignored);
  std::vector<SourceRange> comments;
  lexer.recordComments(&comments);
  while (lexer.next().kind != TokenKind::EndOfFile) {
  }
  return comments;
}

}  // namespace herald
