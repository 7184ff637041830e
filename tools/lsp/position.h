// Byte offsets (the compiler's locations) as LSP positions: 0-based lines
// and characters counted in UTF-16 code units, the protocol's default
// encoding.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "frontend/source.h"

namespace herald::lsp {

// {"line": L, "character": C} for the byte `offset` of `file`.
[[nodiscard]] nlohmann::json toPosition(const SourceFile& file,
                                        std::uint32_t offset);
// {"start": ..., "end": ...} for the bytes [begin, end) of `file`.
[[nodiscard]] nlohmann::json toRange(const SourceFile& file,
                                     std::uint32_t begin, std::uint32_t end);
[[nodiscard]] nlohmann::json toRange(const SourceFile& file, SourceRange range);

// The byte offset of the 0-based `line` and UTF-16 `character` of `file`:
// a character past the line's end is its end, a line past the file's end
// the file's end (positions a client sends may lag behind the text).
[[nodiscard]] std::uint32_t toOffset(const SourceFile& file, std::uint32_t line,
                                     std::uint32_t character);

// Whether `c` belongs to a word under the cursor: a letter, a digit or `_`.
[[nodiscard]] bool isWordChar(char c);

}  // namespace herald::lsp
