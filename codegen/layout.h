// The layout of generated C++: every line within kLineWidth columns, broken
// the way the project's own code is (README.md, "Layout"). The emitters
// write each construct on one line; layOut() breaks the lines that are too
// long, so every emitter's output is laid out by the same rules.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace herald::codegen {

// The widest line generated code has.
inline constexpr std::size_t kLineWidth = 100;

// `text` (whole lines of generated C++, each ending in a newline) with each
// line longer than kLineWidth broken: at the operators of the lowest
// precedence outside brackets, or inside the largest bracketed list (after
// its commas, aligned after the opening bracket or on lines indented four
// more than the line it opens on), a string literal split into adjacent
// literals, a `//` comment wrapped at spaces. Preprocessor lines and lines
// that fit are kept as they are.
[[nodiscard]] std::string layOut(std::string_view text);

}  // namespace herald::codegen
