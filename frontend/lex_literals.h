// Decoding the text of literals and checking UTF-8, for the scanner in
// lang/lexer.re. Kept apart from the generated code so it is compiled with
// the project's warnings and can be tested on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace herald::lex {

// Length of the well-formed UTF-8 sequence starting at `p` (p < end), or 0
// when `p` does not start one (overlong forms and surrogates included).
[[nodiscard]] unsigned utf8Length(const unsigned char* p,
                                  const unsigned char* end);
// Decodes a sequence that utf8Length accepted.
[[nodiscard]] char32_t decodeUtf8(const unsigned char* p, unsigned length);
void appendUtf8(std::string& out, char32_t scalar);

// How a diagnostic names one character: "'$'", "U+0000", "'é' (U+00E9)".
[[nodiscard]] std::string describeCharacter(const unsigned char* p,
                                            unsigned length);

// The magnitude of the most negative Int. As a literal it is valid only as
// the operand of a prefix minus (`-9223372036854775808`); every other Int
// literal is at most 2^63 - 1.
inline constexpr std::uint64_t kMinIntMagnitude = 9223372036854775808ULL;

// Whether the integer literal starting at offset `at` of `text` is the
// operand of a prefix `-`: a `-` right before it on its line that does not
// follow something ending an expression (a name, a literal, a closing
// bracket; the rule the parser uses to tell `a -1` from `f(-1)`).
[[nodiscard]] bool followsPrefixMinus(std::string_view text, std::size_t at);

// Why `magnitude`, an Int literal's value, is out of the Int range, or
// nothing when it fits (`negated`: it follows a prefix minus).
[[nodiscard]] std::optional<std::string> checkIntRange(std::uint64_t magnitude,
                                                       bool negated);

// Each returns why the spelling is invalid, or nothing when it is valid.
// A decimal integer with `_` between digits that fits in 64 bits.
[[nodiscard]] std::optional<std::string> decodeInteger(
    std::string_view spelling, std::uint64_t& value);
// `digits.digits`, each part as for integers.
[[nodiscard]] std::optional<std::string> decodeFloat(std::string_view spelling,
                                                     double& value);
// The text between the braces of `\u{...}`.
[[nodiscard]] std::optional<std::string> decodeUnicodeScalar(
    std::string_view digits, char32_t& value);

}  // namespace herald::lex
