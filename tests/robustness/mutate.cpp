#include "tests/robustness/mutate.h"

#include <fmt/format.h>

#include "frontend/diagnostic.h"
#include "frontend/lexer.h"
#include "frontend/source.h"

namespace herald::robustness {

std::uint64_t Rng::next() {
  state_ += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

std::uint64_t hashName(const std::string& name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : name) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

const char* mutationKindName(MutationKind kind) {
  switch (kind) {
    case MutationKind::DeleteToken:
      return "delete-token";
    case MutationKind::SwapIdentifiers:
      return "swap-identifiers";
    case MutationKind::TruncateMidToken:
      return "truncate-mid-token";
    case MutationKind::TruncateAtByte:
      return "truncate-at-byte";
    case MutationKind::DuplicateLine:
      return "duplicate-line";
    case MutationKind::DropClosingBrace:
      return "drop-closing-brace";
  }
  return "?";
}

std::vector<TokenSpan> tokenize(const std::string& name,
                                const std::string& text) {
  SourceManager sources;
  const FileId id = sources.addFile(name, text);
  DiagnosticEngine ignored;
  Lexer lexer(sources.file(id), ignored);
  std::vector<TokenSpan> tokens;
  for (Token t = lexer.next(); t.kind != TokenKind::EndOfFile;
       t = lexer.next()) {
    if (t.range.end <= t.range.begin) continue;
    tokens.push_back({t.range.begin, t.range.end,
                      t.kind == TokenKind::Identifier,
                      t.kind == TokenKind::RBrace});
  }
  return tokens;
}

namespace {

// 1-based line and column of a byte offset, for the failure message.
std::string position(const std::string& text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("{}:{}", line, column);
}

std::string spelling(const std::string& text, const TokenSpan& t) {
  return text.substr(t.begin, t.end - t.begin);
}

bool deleteToken(const std::string& text, const std::vector<TokenSpan>& tokens,
                 std::size_t ordinal, std::size_t planned, Mutation& out) {
  if (tokens.empty()) return false;
  const std::size_t stride = std::max<std::size_t>(1, tokens.size() / planned);
  const std::size_t index = ordinal * stride + stride / 2;
  if (index >= tokens.size()) return false;
  const TokenSpan& t = tokens[index];
  out.detail = fmt::format("token {} of {} '{}' at {}", index, tokens.size(),
                           spelling(text, t), position(text, t.begin));
  out.text = text.substr(0, t.begin) + text.substr(t.end);
  return true;
}

bool swapIdentifiers(const std::string& text,
                     const std::vector<TokenSpan>& tokens, Rng& rng,
                     Mutation& out) {
  std::vector<const TokenSpan*> idents;
  for (const TokenSpan& t : tokens) {
    if (t.identifier) idents.push_back(&t);
  }
  if (idents.size() < 2) return false;
  // A few draws to find two different spellings; files where every
  // identifier is the same offer no swap.
  for (int attempt = 0; attempt < 16; ++attempt) {
    const TokenSpan* a = idents[rng.below(idents.size())];
    const TokenSpan* b = idents[rng.below(idents.size())];
    if (a->begin > b->begin) std::swap(a, b);
    const std::string sa = spelling(text, *a);
    const std::string sb = spelling(text, *b);
    if (sa == sb) continue;
    out.detail =
        fmt::format("'{}' at {} with '{}' at {}", sa, position(text, a->begin),
                    sb, position(text, b->begin));
    out.text = text.substr(0, a->begin);
    out.text.append(sb)
        .append(text, a->end, b->begin - a->end)
        .append(sa)
        .append(text, b->end);
    return true;
  }
  return false;
}

bool truncateMidToken(const std::string& text,
                      const std::vector<TokenSpan>& tokens, Rng& rng,
                      Mutation& out) {
  std::vector<const TokenSpan*> longTokens;
  for (const TokenSpan& t : tokens) {
    if (t.end - t.begin >= 2) longTokens.push_back(&t);
  }
  if (longTokens.empty()) return false;
  const TokenSpan& t = *longTokens[rng.below(longTokens.size())];
  const std::size_t cut = t.begin + (t.end - t.begin) / 2;
  out.detail =
      fmt::format("at byte {} of {}, inside '{}' at {}", cut, text.size(),
                  spelling(text, t), position(text, t.begin));
  out.text = text.substr(0, cut);
  return true;
}

bool truncateAtByte(const std::string& text, Rng& rng, Mutation& out) {
  if (text.size() < 2) return false;
  const std::size_t cut = 1 + rng.below(text.size() - 1);
  out.detail = fmt::format("at byte {} of {} ({})", cut, text.size(),
                           position(text, cut));
  out.text = text.substr(0, cut);
  return true;
}

bool duplicateLine(const std::string& text, Rng& rng, Mutation& out) {
  if (text.empty()) return false;
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  const std::size_t line = rng.below(starts.size());
  const std::size_t begin = starts[line];
  const std::size_t newline = text.find('\n', begin);
  const std::size_t end =
      newline == std::string::npos ? text.size() : newline + 1;
  std::string copy = text.substr(begin, end - begin);
  if (copy.empty() || copy.back() != '\n') copy += '\n';
  out.detail = fmt::format("line {}", line + 1);
  out.text = text.substr(0, end);
  if (end == text.size() && text.back() != '\n') out.text += '\n';
  out.text.append(copy).append(text, end);
  return true;
}

bool dropClosingBrace(const std::string& text,
                      const std::vector<TokenSpan>& tokens, Rng& rng,
                      Mutation& out) {
  std::vector<const TokenSpan*> braces;
  for (const TokenSpan& t : tokens) {
    if (t.closingBrace) braces.push_back(&t);
  }
  if (braces.empty()) return false;
  const TokenSpan& t = *braces[rng.below(braces.size())];
  out.detail = fmt::format("'}}' at {}", position(text, t.begin));
  out.text = text.substr(0, t.begin) + text.substr(t.end);
  return true;
}

}  // namespace

bool mutate(MutationKind kind, const std::string& text,
            const std::vector<TokenSpan>& tokens, std::size_t ordinal,
            std::size_t planned, Rng& rng, Mutation& out) {
  out.kind = kind;
  switch (kind) {
    case MutationKind::DeleteToken:
      return deleteToken(text, tokens, ordinal, planned, out);
    case MutationKind::SwapIdentifiers:
      return swapIdentifiers(text, tokens, rng, out);
    case MutationKind::TruncateMidToken:
      return truncateMidToken(text, tokens, rng, out);
    case MutationKind::TruncateAtByte:
      return truncateAtByte(text, rng, out);
    case MutationKind::DuplicateLine:
      return duplicateLine(text, rng, out);
    case MutationKind::DropClosingBrace:
      return dropClosingBrace(text, tokens, rng, out);
  }
  return false;
}

}  // namespace herald::robustness
