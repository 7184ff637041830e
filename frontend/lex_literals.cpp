#include "frontend/lex_literals.h"

#include <algorithm>
#include <charconv>
#include <system_error>

#include <fmt/format.h>

namespace herald::lex {

namespace {

bool isContinuation(const unsigned char* p, const unsigned char* end,
                    unsigned index) {
  return p + index < end && (p[index] & 0xC0U) == 0x80U;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Decimal digits with `_` only between two digits.
std::optional<std::string> checkDigits(std::string_view digits) {
  for (char c : digits) {
    if (!isDigit(c) && c != '_') {
      if (digits.size() > 1 && digits[0] == '0' &&
          (digits[1] == 'x' || digits[1] == 'X' || digits[1] == 'b' ||
           digits[1] == 'B' || digits[1] == 'o' || digits[1] == 'O')) {
        return std::string("only decimal literals are supported");
      }
      return fmt::format("'{}' is not a decimal digit", c);
    }
  }
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (digits[i] != '_') continue;
    if (i == 0 || i + 1 == digits.size() || digits[i + 1] == '_') {
      return std::string("'_' must sit between two digits");
    }
  }
  return std::nullopt;
}

}  // namespace

unsigned utf8Length(const unsigned char* p, const unsigned char* end) {
  const unsigned c = p[0];
  if (c < 0x80U) return 1;
  if (c >= 0xC2U && c <= 0xDFU) return isContinuation(p, end, 1) ? 2 : 0;
  if (c >= 0xE0U && c <= 0xEFU) {
    if (!isContinuation(p, end, 1) || !isContinuation(p, end, 2)) return 0;
    // Overlong forms and UTF-16 surrogates are not UTF-8.
    if (c == 0xE0U && p[1] < 0xA0U) return 0;
    if (c == 0xEDU && p[1] > 0x9FU) return 0;
    return 3;
  }
  if (c >= 0xF0U && c <= 0xF4U) {
    if (!isContinuation(p, end, 1) || !isContinuation(p, end, 2) ||
        !isContinuation(p, end, 3)) {
      return 0;
    }
    if (c == 0xF0U && p[1] < 0x90U) return 0;
    if (c == 0xF4U && p[1] > 0x8FU) return 0;
    return 4;
  }
  return 0;
}

char32_t decodeUtf8(const unsigned char* p, unsigned length) {
  switch (length) {
    case 1:
      return p[0];
    case 2:
      return (char32_t{p[0] & 0x1FU} << 6) | (p[1] & 0x3FU);
    case 3:
      return (char32_t{p[0] & 0x0FU} << 12) | (char32_t{p[1] & 0x3FU} << 6) |
             (p[2] & 0x3FU);
    default:
      return (char32_t{p[0] & 0x07U} << 18) | (char32_t{p[1] & 0x3FU} << 12) |
             (char32_t{p[2] & 0x3FU} << 6) | (p[3] & 0x3FU);
  }
}

void appendUtf8(std::string& out, char32_t scalar) {
  auto put = [&out](char32_t byte) { out.push_back(static_cast<char>(byte)); };
  if (scalar < 0x80) {
    put(scalar);
  } else if (scalar < 0x800) {
    put(0xC0 | (scalar >> 6));
    put(0x80 | (scalar & 0x3F));
  } else if (scalar < 0x10000) {
    put(0xE0 | (scalar >> 12));
    put(0x80 | ((scalar >> 6) & 0x3F));
    put(0x80 | (scalar & 0x3F));
  } else {
    put(0xF0 | (scalar >> 18));
    put(0x80 | ((scalar >> 12) & 0x3F));
    put(0x80 | ((scalar >> 6) & 0x3F));
    put(0x80 | (scalar & 0x3F));
  }
}

std::string describeCharacter(const unsigned char* p, unsigned length) {
  const char32_t scalar = decodeUtf8(p, length);
  if (length == 1) {
    if (scalar > 0x20 && scalar < 0x7F) {
      return fmt::format("'{}'", static_cast<char>(scalar));
    }
    return fmt::format("U+{:04X}", static_cast<std::uint32_t>(scalar));
  }
  return fmt::format("'{}' (U+{:04X})",
                     std::string_view(reinterpret_cast<const char*>(p), length),
                     static_cast<std::uint32_t>(scalar));
}

std::optional<std::string> decodeInteger(std::string_view spelling,
                                         std::uint64_t& value) {
  value = 0;
  if (auto error = checkDigits(spelling)) return error;
  std::uint64_t result = 0;
  for (char c : spelling) {
    if (c == '_') continue;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (result > (UINT64_MAX - digit) / 10) {
      return std::string(
          "the value does not fit in Int (the largest is "
          "9223372036854775807)");
    }
    result = result * 10 + digit;
  }
  value = result;
  return std::nullopt;
}

namespace {

bool isWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// A keyword that may stand before an expression (`if`, `match`, `else`,
// ...): `true` and `false` end one instead.
bool keywordBeforeExpression(std::string_view word) {
  static constexpr std::string_view kKeywords[] = {
#define KEYWORD(Id, Spelling) Spelling,
#include "frontend/token_kinds.def"
  };
  if (word == "true" || word == "false") return false;
  for (std::string_view k : kKeywords)
    if (k == word) return true;
  return false;
}

}  // namespace

bool followsPrefixMinus(std::string_view text, std::size_t at) {
  std::size_t i = std::min(at, text.size());
  while (i > 0 && isBlank(text[i - 1])) --i;
  if (i == 0 || text[i - 1] != '-') return false;
  --i;
  while (i > 0 && isBlank(text[i - 1])) --i;
  // First on its line: a new expression starts.
  if (i == 0 || text[i - 1] == '\n') return true;
  const char before = text[i - 1];
  if (before == ')' || before == ']' || before == '}' || before == '"')
    return false;
  if (!isWordByte(before)) return true;
  std::size_t start = i;
  while (start > 0 && isWordByte(text[start - 1])) --start;
  const std::string_view word = text.substr(start, i - start);
  // A name or a number (`5.seconds` ends in a word too) ends an operand.
  return keywordBeforeExpression(word);
}

std::optional<std::string> checkIntRange(std::uint64_t magnitude,
                                         bool negated) {
  if (magnitude < kMinIntMagnitude) return std::nullopt;
  if (magnitude == kMinIntMagnitude && negated) return std::nullopt;
  if (magnitude == kMinIntMagnitude)
    return std::string(
        "the value does not fit in Int (the largest is 9223372036854775807; "
        "only '-9223372036854775808' may be written)");
  return std::string(
      "the value does not fit in Int (the largest is 9223372036854775807)");
}

std::optional<std::string> decodeFloat(std::string_view spelling,
                                       double& value) {
  value = 0;
  const std::size_t dot = spelling.find('.');
  if (dot == std::string_view::npos) {
    return std::string("a float needs digits on both sides of '.'");
  }
  if (auto error = checkDigits(spelling.substr(0, dot))) return error;
  if (auto error = checkDigits(spelling.substr(dot + 1))) return error;
  std::string digits;
  digits.reserve(spelling.size());
  for (char c : spelling) {
    if (c != '_') digits.push_back(c);
  }
  double result = 0;
  auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), result);
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    return std::string("the value is out of range for a float");
  }
  value = result;
  return std::nullopt;
}

std::optional<std::string> decodeUnicodeScalar(std::string_view digits,
                                               char32_t& value) {
  value = 0;
  std::uint32_t result = 0;
  for (char c : digits) {
    std::uint32_t digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<std::uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<std::uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<std::uint32_t>(c - 'A' + 10);
    } else {
      return fmt::format("'{}' is not a hex digit", c);
    }
    // Saturate: the length check below reports long spellings anyway.
    if (result <= 0x10FFFF) result = result * 16 + digit;
  }
  if (digits.empty() || digits.size() > 6) {
    return std::string("'\\u{...}' takes 1 to 6 hex digits");
  }
  if (result > 0x10FFFF) {
    return fmt::format("U+{:X} is beyond U+10FFFF, the last Unicode scalar",
                       result);
  }
  if (result >= 0xD800 && result <= 0xDFFF) {
    return fmt::format("U+{:04X} is a surrogate, not a Unicode scalar", result);
  }
  value = result;
  return std::nullopt;
}

}  // namespace herald::lex
