// Breaks generated lines longer than kLineWidth.
//
// A line is read as a sequence of text, string literals, binary operators
// (written with a space on each side, as the emitters write them) and
// bracketed lists (their items separated by top-level commas; a bracket
// left open at the end of the line, as a lambda's `{` is, holds the rest of
// the line). A template's argument list stays with its name. A sequence that
// does not fit is laid out each way that applies, and the layout with the
// fewest overflowing columns, then the fewest lines, wins:
//
//  - at its operators of the lowest precedence, each further operand on a
//    line indented four more than the line the sequence starts on (an
//    assignment's `=` and a comma end their line, other operators start
//    theirs);
//  - inside its largest bracketed list, whose items fill lines either
//    aligned after the opening bracket (each item whole) or from a line
//    indented four more than the line the bracket opens on (an item too
//    long for a line laid out in turn);
//  - a string literal too long for its line as adjacent literals, split
//    after a space where one is near, never inside an escape.
#include "codegen/layout.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <memory_resource>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "codegen/line.h"

namespace herald::codegen {

namespace {

using line::Kind;
using line::Node;
using line::readLine;
using line::Seq;
using line::Span;
using line::width;

template <class String>
void appendFlat(String& out, Span seq);

template <class String>
void appendFlat(String& out, const Node& n) {
  switch (n.kind) {
    case Kind::Text:
    case Kind::String:
      out += n.text;
      return;
    case Kind::Op:
      if (n.text == ",") {
        out += ", ";
        return;
      }
      out += ' ';
      out += n.text;
      out += ' ';
      return;
    case Kind::Group:
      out += n.text;
      for (std::size_t k = 0; k < n.items.size(); ++k) {
        if (k != 0) out += ", ";
        appendFlat(out, n.items[k]);
      }
      out += n.close;
      return;
  }
}

template <class String>
void appendFlat(String& out, Span seq) {
  for (const Node& n : seq) appendFlat(out, n);
}

std::string flat(Span seq) {
  std::string out;
  out.reserve(width(seq));
  appendFlat(out, seq);
  return out;
}

// ---- Laying out

class Layout {
 public:
  Layout(std::size_t indent, std::pmr::memory_resource* arena) : lines_(arena) {
    // Most layouts of a line take a few lines.
    lines_.reserve(8);
    lines_.push_back(line(indent));
  }

  [[nodiscard]] std::pmr::memory_resource* arena() const {
    return lines_.get_allocator().resource();
  }

  [[nodiscard]] std::size_t col() const { return lines_.back().size(); }
  // The indentation of the current line.
  [[nodiscard]] std::size_t indent() const {
    const std::pmr::string& l = lines_.back();
    std::size_t n = l.find_first_not_of(' ');
    return n == std::string::npos ? l.size() : n;
  }
  // Nothing but indentation on the current line yet.
  [[nodiscard]] bool fresh() const {
    return lines_.back().find_first_not_of(' ') == std::string::npos;
  }
  // A layout that goes on from this one's current line, for one way of
  // laying out what follows. The lines before it are the same for every
  // branch of a layout, so branches compare by cost() alone, and the one
  // chosen is adopt()ed.
  [[nodiscard]] Layout branch() const {
    Layout b(0, arena());
    b.lines_.back() = lines_.back();
    return b;
  }
  void adopt(Layout&& b) {
    lines_.pop_back();
    lines_.insert(lines_.end(), std::make_move_iterator(b.lines_.begin()),
                  std::make_move_iterator(b.lines_.end()));
  }

  void put(std::string_view text) { lines_.back() += text; }
  void putFlat(Span seq) { appendFlat(lines_.back(), seq); }
  void putFlat(const Node& n) { appendFlat(lines_.back(), n); }
  void newline(std::size_t indent) { lines_.push_back(line(indent)); }

  // Overflowing lines, overflowing columns, lines: lower is better.
  // `reserve` columns are still to come on the last line.
  [[nodiscard]] std::tuple<std::size_t, std::size_t, std::size_t> cost(
      std::size_t reserve) const {
    std::size_t over = 0;
    std::size_t columns = 0;
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      std::size_t w = lines_[k].size() + (k + 1 == lines_.size() ? reserve : 0);
      if (w > kLineWidth) {
        ++over;
        columns += w - kLineWidth;
      }
    }
    return {over, columns, lines_.size()};
  }

  // No line overflows (with `reserve` columns still to come on the last)
  // and there are at most `lines` lines: no other way of laying out the
  // same text from the same line can cost less, since one that does not
  // overflow needs a line break (the text did not fit on one line).
  [[nodiscard]] bool settled(std::size_t reserve, std::size_t lines) const {
    if (lines_.size() > lines) return false;
    const auto [over, columns, count] = cost(reserve);
    return over == 0;
  }

  void appendTo(std::string& out) const {
    for (const std::pmr::string& l : lines_) {
      std::size_t end = l.find_last_not_of(' ');
      out.append(l, 0, end == std::string::npos ? 0 : end + 1);
      out += '\n';
    }
  }

 private:
  // A new line of `indent` spaces, with room for a line that fits (lines
  // grow by many small appends).
  [[nodiscard]] std::pmr::string line(std::size_t indent) const {
    std::pmr::string l(arena());
    l.reserve(kLineWidth + kLineWidth / 4);
    l.assign(indent, ' ');
    return l;
  }

  std::pmr::vector<std::pmr::string> lines_;
};

bool fits(const Layout& l, std::size_t width) {
  return l.col() + width <= kLineWidth;
}

// `words`: text may break at its spaces (a declaration, not an item of a
// list).
void render(Layout& l, Span seq, std::size_t reserve, bool words = false);

// Where an escape sequence of a literal's body starting at `at` ends.
std::size_t escapeEnd(std::string_view body, std::size_t at) {
  if (body[at] != '\\' || at + 1 >= body.size()) return at + 1;
  std::size_t end = at + 2;
  if (body[at + 1] >= '0' && body[at + 1] <= '7')
    while (end < body.size() && end < at + 4 && body[end] >= '0' &&
           body[end] <= '7')
      ++end;
  return end;
}

// `literal` as adjacent literals, each on a line of its own from the
// column it starts at.
void splitLiteral(Layout& l, std::string_view literal, std::size_t reserve) {
  constexpr std::size_t kMinRoom = 40;
  if (kLineWidth - std::min(l.col(), kLineWidth) < kMinRoom && !l.fresh())
    l.newline(l.indent() + 4);
  std::size_t column = l.col();
  std::string_view body(literal);
  body = body.substr(1, body.size() - 2);
  bool first = true;
  while (!body.empty()) {
    std::size_t room = kLineWidth > column + 2 ? kLineWidth - column - 2 : 1;
    if (body.size() + reserve <= room) room = body.size();
    // Cut at escape boundaries only, after the last space in the second
    // half of the room when there is one.
    std::size_t cut = 0;
    std::size_t space = 0;
    for (std::size_t i = 0; i < body.size();) {
      std::size_t next = escapeEnd(body, i);
      if (next > room && cut > 0) break;
      if (body[i] == ' ') space = next;
      cut = next;
      i = next;
    }
    if (cut < body.size() && space > room / 2) cut = space;
    if (!first) l.newline(column);
    l.put("\"" + std::string(body.substr(0, cut)) + "\"");
    body.remove_prefix(cut);
    first = false;
  }
}

// Text as it is, but for a string literal too long for its line (split
// into adjacent literals) and, when `words`, text too long for its line
// (broken at a space: a declaration's result type on a line of its own).
void plain(Layout& l, Span seq, std::size_t reserve, bool words) {
  for (std::size_t k = 0; k < seq.size(); ++k) {
    const Node& n = seq[k];
    std::size_t r = k + 1 == seq.size() ? reserve : 0;
    if (n.kind == Kind::String && !fits(l, n.width + r) && n.width > 2) {
      splitLiteral(l, n.text, r);
      continue;
    }
    if (words && n.kind == Kind::Text && !n.fixed) {
      std::string_view rest(n.text);
      std::size_t cont = l.fresh() ? l.indent() : l.indent() + 4;
      while (!fits(l, rest.size() + r)) {
        std::size_t room = kLineWidth > l.col() ? kLineWidth - l.col() : 0;
        std::size_t space = rest.substr(0, room + 1).rfind(' ');
        if (space == std::string_view::npos || space == 0) break;
        l.put(rest.substr(0, space));
        l.newline(cont);
        rest.remove_prefix(space + 1);
      }
      l.put(rest);
      continue;
    }
    l.putFlat(n);
  }
}

// At the operators of the lowest precedence.
void byOps(Layout& l, Span seq, std::size_t reserve, bool words) {
  int prec = 1 << 20;
  for (const Node& n : seq)
    if (n.kind == Kind::Op) prec = std::min(prec, n.prec);
  std::pmr::vector<Span> pieces(l.arena());
  std::pmr::vector<const Node*> ops(1, nullptr, l.arena());
  std::size_t start = 0;
  for (std::size_t k = 0; k < seq.size(); ++k) {
    const Node& n = seq[k];
    if (n.kind == Kind::Op && n.prec == prec) {
      pieces.push_back(seq.subspan(start, k - start));
      ops.push_back(&n);
      start = k + 1;
    }
  }
  pieces.push_back(seq.subspan(start));
  // An assignment's value and a conditional's branches four columns in,
  // other operands aligned with the first (or four in when it starts the
  // line).
  std::size_t cont = l.col();
  if (prec <= 1 || cont == l.indent()) cont = l.indent() + 4;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    bool last = k + 1 == pieces.size();
    // What stays on the piece's last line after it: an operator that ends
    // its line, after a space unless it is a comma.
    std::string_view endOp;
    if (!last && ops[k + 1]->after) endOp = ops[k + 1]->text;
    const bool endSpace = !endOp.empty() && endOp != ",";
    auto putEnd = [&](Layout& to) {
      if (endSpace) to.put(" ");
      to.put(endOp);
    };
    std::size_t r = last ? reserve : endOp.size() + (endSpace ? 1 : 0);
    const std::size_t text = width(pieces[k]);
    if (k > 0) {
      const Node& op = *ops[k];
      // Before the operand: a space, and the operator when it starts its
      // line.
      const std::size_t lead = op.after ? 1 : op.text.size() + 2;
      if (fits(l, lead + text + r)) {
        l.put(" ");
        if (!op.after) {
          l.put(op.text);
          l.put(" ");
        }
        l.putFlat(pieces[k]);
        putEnd(l);
        continue;
      }
      // After an assignment, the value may start on the line and break
      // inside.
      if (op.after && op.prec <= 0) {
        Layout same = l.branch();
        same.put(" ");
        render(same, pieces[k], r, words);
        // The value below takes two lines at least, and only a shorter
        // layout replaces the one on the line.
        if (same.settled(r, 2)) {
          l.adopt(std::move(same));
        } else {
          Layout below = l.branch();
          below.newline(cont);
          render(below, pieces[k], r, words);
          l.adopt(below.cost(r) < same.cost(r) ? std::move(below)
                                               : std::move(same));
        }
        putEnd(l);
        continue;
      }
      l.newline(cont);
      if (!op.after) {
        l.put(op.text);
        l.put(" ");
      }
    }
    render(l, pieces[k], r, words);
    putEnd(l);
  }
}

// The items of a group, filling lines that start at `column`; an item too
// long for a line is laid out in turn.
void fill(Layout& l, const Node& g, std::size_t column, std::size_t reserve) {
  bool broken = false;
  for (std::size_t k = 0; k < g.items.size(); ++k) {
    bool last = k + 1 == g.items.size();
    std::string_view sep = last ? g.close : ",";
    std::size_t r = last ? g.close.size() + reserve : 1;
    const std::size_t text = width(g.items[k]);
    if (!l.fresh() && (k > 0 || l.col() != column)) {
      if (!broken && k > 0 && fits(l, 1 + text + r)) {
        l.put(" ");
        l.putFlat(g.items[k]);
        l.put(sep);
        continue;
      }
      if (k > 0) l.newline(column);
    }
    if (fits(l, text + r)) {
      l.putFlat(g.items[k]);
      broken = false;
    } else {
      render(l, g.items[k], r);
      broken = true;
    }
    l.put(sep);
  }
}

// `{ statements }` (a function's body written on its line) as a block.
bool isBlock(const Node& g) {
  return g.text == "{" && g.close == "}" && g.items.size() == 1 &&
         !g.items[0].empty() && g.items[0].front().kind == Kind::Text &&
         !g.items[0].front().text.empty() && g.items[0].front().text[0] == ' ';
}

void renderGroup(Layout& l, const Node& g, std::size_t reserve) {
  if (isBlock(g)) {
    std::string body = flat(g.items[0]);
    std::size_t first = body.find_first_not_of(' ');
    std::size_t last = body.find_last_not_of(' ');
    std::size_t indent = l.indent();
    l.put("{");
    l.newline(indent + 2);
    render(l,
           readLine(std::string_view(body).substr(first, last - first + 1),
                    l.arena()),
           0, true);
    l.newline(indent);
    l.put("}");
    return;
  }
  l.put(g.text);
  if (g.items.empty()) {
    l.put(g.close);
    return;
  }
  std::size_t open = l.col();
  // Items aligned after the bracket, an item too long for its line broken
  // in turn, when that is as short as the items after a line break.
  Layout after = l.branch();
  fill(after, g, open, reserve);
  // Those take two lines at least, so they cannot be shorter.
  if (after.settled(reserve, 2)) {
    l.adopt(std::move(after));
    return;
  }
  // Items after a line break, four columns in.
  Layout below = l.branch();
  below.newline(l.indent() + 4);
  fill(below, g, below.col(), reserve);
  l.adopt(after.cost(reserve) <= below.cost(reserve) ? std::move(after)
                                                     : std::move(below));
}

// Inside the largest group, the rest as it fits.
void byGroup(Layout& l, Span seq, std::size_t reserve, bool words) {
  std::size_t best = seq.size();
  std::size_t size = 0;
  for (std::size_t k = 0; k < seq.size(); ++k) {
    if (seq[k].kind != Kind::Group || seq[k].items.empty()) continue;
    std::size_t s = seq[k].width;
    if (best == seq.size() || s > size) best = k, size = s;
  }
  plain(l, seq.first(best), seq[best].text.size(), words);
  const Span rest = seq.subspan(best + 1);
  // The text that follows the closing bracket up to the next place the rest
  // may break.
  std::size_t glue = 0;
  bool stop = false;
  for (const Node& n : rest) {
    if (n.kind == Kind::Op || n.kind == Kind::Group) {
      glue += n.kind == Kind::Group ? n.text.size() : 0;
      stop = true;
      break;
    }
    glue += n.width;
  }
  if (!stop) glue += reserve;
  renderGroup(l, seq[best], glue);
  render(l, rest, reserve, words);
}

void render(Layout& l, Span seq, std::size_t reserve, bool words) {
  if (fits(l, width(seq) + reserve)) {
    l.putFlat(seq);
    return;
  }
  bool ops = false;
  bool groups = false;
  int prec = -1;
  for (const Node& n : seq) {
    if (n.kind == Kind::Op) ops = true, prec = std::max(prec, n.prec);
    if (n.kind == Kind::Group && !n.items.empty()) groups = true;
  }
  // The ways that apply, in order of preference (the first of equal cost
  // wins). Operators outside brackets break before anything inside them
  // does; an assignment keeps its value on its line when that is as short.
  enum class Way : std::uint8_t { ByGroup, ByOps, Plain };
  std::array<Way, 3> ways{};
  std::size_t count = 0;
  if (groups && (!ops || prec <= 0)) ways[count++] = Way::ByGroup;
  if (ops) ways[count++] = Way::ByOps;
  ways[count++] = Way::Plain;
  std::optional<Layout> best;
  for (std::size_t k = 0; k < count; ++k) {
    Layout option = l.branch();
    switch (ways[k]) {
      case Way::ByGroup:
        byGroup(option, seq, reserve, words);
        break;
      case Way::ByOps:
        byOps(option, seq, reserve, words);
        break;
      case Way::Plain:
        plain(option, seq, reserve, words);
        break;
    }
    if (!best || option.cost(reserve) < best->cost(reserve))
      best.emplace(std::move(option));
    // Two lines that do not overflow: no later way can cost less.
    if (best->settled(reserve, 2)) break;
  }
  l.adopt(std::move(*best));
}

// A `//` comment line wrapped at spaces.
void wrapComment(std::string_view line, std::string& out) {
  std::size_t indent = line.find_first_not_of(' ');
  std::string lead = std::string(indent, ' ') + "// ";
  std::string_view rest = line.substr(indent + 2);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  std::string current = lead;
  while (!rest.empty()) {
    std::size_t end = rest.find(' ');
    std::string_view word = rest.substr(0, end);
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    if (word.empty()) continue;
    if (current.size() > lead.size() &&
        current.size() + 1 + word.size() > kLineWidth) {
      out += current + "\n";
      current = lead;
    }
    current += (current.size() > lead.size() ? " " : "") + std::string(word);
  }
  out += current + "\n";
}

void layOutLine(std::string_view line, std::string& out,
                std::span<std::byte> buffer) {
  std::size_t indent = line.find_first_not_of(' ');
  if (line.size() <= kLineWidth || indent == std::string_view::npos ||
      line[indent] == '#') {
    out += line;
    out += '\n';
    return;
  }
  if (line.substr(indent, 2) == "//") {
    wrapComment(line, out);
    return;
  }
  // What the line needs beyond `buffer` comes from the heap, and goes
  // back when the line is laid out.
  std::pmr::monotonic_buffer_resource arena(buffer.data(), buffer.size());
  Layout l(indent, &arena);
  render(l, readLine(line.substr(indent), &arena), 0, true);
  l.appendTo(out);
}

}  // namespace

std::string layOut(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  // The arena of each line laid out (most take a few KiB).
  constexpr std::size_t kArena = std::size_t{256} << 10;
  const std::unique_ptr<std::byte[]> buffer(new std::byte[kArena]);
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    layOutLine(line, out, {buffer.get(), kArena});
    if (end == std::string_view::npos) {
      out.pop_back();  // the text ended without a newline
      break;
    }
    text.remove_prefix(end + 1);
  }
  return out;
}

}  // namespace herald::codegen
