// Positions in the tests' documents: where a name is written inside a
// snippet of an (ASCII) text, as a byte offset, an LSP Position, Range or
// Location.
#pragma once

#include <cstddef>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

namespace herald::lsp::test {

// Where `name` is written inside the first occurrence of `around` in
// `text`: its offset.
inline std::size_t offsetOf(const std::string& text, const std::string& around,
                            const std::string& name) {
  std::size_t at = text.find(around);
  REQUIRE(at != std::string::npos);
  std::size_t inside = around.find(name);
  REQUIRE(inside != std::string::npos);
  return at + inside;
}

inline nlohmann::json position(const std::string& text, std::size_t offset) {
  std::size_t lineStart = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  lineStart = lineStart == std::string::npos || offset == 0 ? 0 : lineStart + 1;
  std::size_t line = 0;
  for (std::size_t i = 0; i < lineStart; ++i) line += text[i] == '\n' ? 1 : 0;
  return {{"line", line}, {"character", offset - lineStart}};
}

inline nlohmann::json rangeOf(const std::string& text,
                              const std::string& around,
                              const std::string& name) {
  std::size_t at = offsetOf(text, around, name);
  return {{"start", position(text, at)},
          {"end", position(text, at + name.size())}};
}

inline nlohmann::json location(const std::string& uri, const std::string& text,
                               const std::string& around,
                               const std::string& name) {
  return {{"uri", uri}, {"range", rangeOf(text, around, name)}};
}

}  // namespace herald::lsp::test
