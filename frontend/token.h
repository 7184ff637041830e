// Tokens produced by the lexer (lang/lexer.re).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "frontend/source.h"

namespace herald {

enum class TokenKind : std::uint8_t {
#define TOKEN(Id, Describe) Id,
#define KEYWORD(Id, Spelling) Id,
#define PUNCT(Id, Spelling) Id,
#include "frontend/token_kinds.def"
};

enum class DurationUnit : std::uint8_t { Milliseconds, Seconds, Minutes, Hours, Days };

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  // No other token precedes this one on its line. The parser uses it so that
  // `(`, `[` and `-` at the start of a line begin a new statement instead of
  // continuing the previous expression.
  bool firstOnLine = false;
  SourceRange range;
  // The `---` doc block right before this token (the lines between the
  // markers); empty range when there is none.
  SourceRange doc;
  // IntLiteral, DurationLiteral: the magnitude (always non-negative; `-` is
  // a separate token).
  std::uint64_t intValue = 0;
  // FloatLiteral.
  double floatValue = 0;
  // DurationLiteral.
  DurationUnit durationUnit = DurationUnit::Milliseconds;
  // String tokens: the text with escapes decoded, without quotes or the
  // interpolation delimiters.
  std::string stringValue;
};

// How diagnostics name a kind: "'{'", "'context'", "identifier".
[[nodiscard]] std::string_view describeTokenKind(TokenKind kind);
// The enumerator name, for dumps: "LBrace", "KwContext".
[[nodiscard]] std::string_view tokenKindName(TokenKind kind);
[[nodiscard]] std::string_view durationUnitName(DurationUnit unit);

}  // namespace herald
