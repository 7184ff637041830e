#include "tools/lsp/position.h"

#include <cctype>
#include <string_view>

namespace herald::lsp {
namespace {

// UTF-16 code units of UTF-8 `text`: one per character, two for those
// outside the Basic Multilingual Plane (a four-byte sequence). A byte that
// is not valid UTF-8 counts as one unit, as editors show it as one
// replacement character.
// The bytes of the character `text` begins with.
std::size_t charLength(std::string_view text) {
  auto lead = static_cast<unsigned char>(text[0]);
  std::size_t length = lead < 0x80           ? 1
                       : (lead >> 5) == 0x6  ? 2
                       : (lead >> 4) == 0xE  ? 3
                       : (lead >> 3) == 0x1E ? 4
                                             : 1;
  if (length > text.size()) return 1;
  for (std::size_t k = 1; k < length; ++k)
    if ((static_cast<unsigned char>(text[k]) & 0xC0) != 0x80) return 1;
  return length;
}

std::uint32_t utf16Length(std::string_view text) {
  std::uint32_t units = 0;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = charLength(text.substr(i));
    units += length == 4 ? 2 : 1;
    i += length;
  }
  return units;
}

}  // namespace

nlohmann::json toPosition(const SourceFile& file, std::uint32_t offset) {
  std::string_view text = file.text();
  if (offset > text.size()) offset = static_cast<std::uint32_t>(text.size());
  LineColumn at = file.lineColumn(offset);
  std::string_view before =
      text.substr(offset - (at.column - 1), at.column - 1);
  return {{"line", at.line - 1}, {"character", utf16Length(before)}};
}

nlohmann::json toRange(const SourceFile& file, std::uint32_t begin,
                       std::uint32_t end) {
  return {{"start", toPosition(file, begin)}, {"end", toPosition(file, end)}};
}

nlohmann::json toRange(const SourceFile& file, SourceRange range) {
  return toRange(file, range.begin, range.end);
}

std::uint32_t toOffset(const SourceFile& file, std::uint32_t line,
                       std::uint32_t character) {
  std::string_view text = file.text();
  if (line >= file.lineCount()) return static_cast<std::uint32_t>(text.size());
  std::string_view lineText = file.lineText(line + 1);
  auto begin = static_cast<std::size_t>(lineText.data() - text.data());
  std::size_t i = 0;
  for (std::uint32_t units = 0; i < lineText.size() && units < character;) {
    std::size_t length = charLength(lineText.substr(i));
    units += length == 4 ? 2 : 1;
    i += length;
  }
  return static_cast<std::uint32_t>(begin + i);
}

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

}  // namespace herald::lsp
