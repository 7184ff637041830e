// A generated line read as nodes: text, string literals, binary operators
// and bracketed lists (layout.cpp lays them out; line_read.cpp reads them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <span>
#include <string_view>
#include <vector>

namespace herald::codegen::line {

enum class Kind : std::uint8_t { Text, String, Op, Group };

struct Node;
// A line's nodes, and the lines of its layouts, are allocated in an arena
// of the line (layOutLine in layout.cpp), released at once when it is laid out.
using Seq = std::pmr::vector<Node>;
// A run of nodes of a sequence, laid out without copying them.
using Span = std::span<const Node>;

struct Node {
  Node() = default;
  explicit Node(std::pmr::memory_resource* arena) : items(arena) {}

  Kind kind = Kind::Text;
  // A comment, which no break may enter.
  bool fixed = false;
  // Text and string literals: the text. Op: the operator. Group: the
  // opening bracket. (Views of the line being laid out.)
  std::string_view text;
  // Op: lower binds looser; `after`: the operator ends its line.
  int prec = 0;
  bool after = false;
  // Group: the closing bracket (empty when the line ends first) and the
  // items between the commas.
  std::string_view close;
  std::pmr::vector<Seq> items;
  // The node's width written on one line (set once it is complete).
  std::size_t width = 0;
};

// The width of `seq` written on one line.
inline std::size_t width(Span seq) {
  std::size_t w = 0;
  for (const Node& n : seq) w += n.width;
  return w;
}

// Reads `line` into nodes, each with its width. A bracket left open at the
// end of the line holds the rest of it; a comma outside any bracket is an
// operator of the lowest precedence.
Seq readLine(std::string_view line, std::pmr::memory_resource* arena);

}  // namespace herald::codegen::line
