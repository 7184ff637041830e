// Reading a generated line into nodes (codegen/line.h).
#include <algorithm>
#include <cstddef>
#include <memory_resource>
#include <optional>
#include <string_view>
#include <vector>

#include "codegen/line.h"

namespace herald::codegen::line {

namespace {

std::size_t opWidth(const Node& n) {
  return n.text == "," ? 2 : n.text.size() + 2;
}

// Sets `n.width` from its text and, for a group, its items' widths.
void measure(Node& n) {
  switch (n.kind) {
    case Kind::Text:
    case Kind::String:
      n.width = n.text.size();
      return;
    case Kind::Op:
      n.width = opWidth(n);
      return;
    case Kind::Group:
      n.width = n.text.size() + n.close.size();
      for (std::size_t k = 0; k < n.items.size(); ++k)
        n.width += (k == 0 ? 0 : 2) + width(n.items[k]);
      return;
  }
}

struct Token {
  enum class Type : std::uint8_t {
    Text,
    Comment,
    String,
    Op,
    Open,
    Close,
    Comma
  };
  Type type;
  std::string_view text;  // a view of the line
  int prec = 0;
  bool after = false;
};

struct OpInfo {
  std::string_view text;
  int prec;
  bool after;
};

// The conditional operator's `?` and `:` start their lines, the other
// operators end theirs.
constexpr OpInfo kOps[] = {
    {"=", 0, true},  {"+=", 0, true}, {"-=", 0, true}, {"?", 1, false},
    {":", 1, false}, {"||", 2, true}, {"&&", 3, true}, {"==", 4, true},
    {"!=", 4, true}, {"<", 5, true},  {"<=", 5, true}, {">", 5, true},
    {">=", 5, true}, {"+", 6, true},  {"-", 6, true},  {"*", 7, true},
    {"/", 7, true},  {"%", 7, true},
};

bool identChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

bool opChar(char c) {
  return std::string_view("=+-*/%<>!&|?:").find(c) != std::string_view::npos;
}

// The end of the quoted literal that opens at `at`.
std::size_t literalEnd(std::string_view s, std::size_t at) {
  char quote = s[at];
  std::size_t i = at + 1;
  while (i < s.size() && s[i] != quote) i += s[i] == '\\' ? 2 : 1;
  return std::min(i + 1, s.size());
}

// The end of the template argument list that opens at `at` (a `<` right
// after a name), or nullopt when it is not one.
std::optional<std::size_t> templateEnd(std::string_view s, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < s.size(); ++i) {
    char c = s[i];
    if (c == '<') {
      ++depth;
    } else if (c == '>') {
      if (--depth == 0) return i + 1;
    } else if (!identChar(c) && c != ':' && c != ',' && c != ' ' && c != '*' &&
               c != '&') {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::pmr::vector<Token> tokenize(std::string_view s,
                                 std::pmr::memory_resource* arena) {
  std::pmr::vector<Token> out(arena);
  // The text read since the last token: s[textBegin, textEnd).
  std::size_t textBegin = 0;
  std::size_t textEnd = 0;
  auto flush = [&] {
    if (textEnd > textBegin)
      out.push_back(
          {Token::Type::Text, s.substr(textBegin, textEnd - textBegin)});
    textBegin = textEnd = 0;
  };
  // Text runs are contiguous: every other token flushes the run first.
  auto extend = [&](std::size_t from, std::size_t to) {
    if (textEnd == textBegin) textBegin = from;
    textEnd = to;
  };
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (identChar(c)) {
      // Most of a line: a name or a number, text as it is.
      std::size_t j = i + 1;
      while (j < s.size() && identChar(s[j])) ++j;
      extend(i, j);
      i = j;
      continue;
    }
    if (c == '"' || (c == '\'' && (i == 0 || !identChar(s[i - 1])))) {
      flush();
      std::size_t end = literalEnd(s, i);
      out.push_back({c == '"' ? Token::Type::String : Token::Type::Text,
                     s.substr(i, end - i)});
      i = end;
      continue;
    }
    if (s.substr(i, 2) == "//") {
      // A comment to the end of the line stays whole.
      flush();
      out.push_back({Token::Type::Comment, s.substr(i)});
      break;
    }
    if (c == '<' && i > 0 && identChar(s[i - 1]) && i + 1 < s.size() &&
        s[i + 1] != '=' && s[i + 1] != '<') {
      if (std::optional<std::size_t> end = templateEnd(s, i)) {
        extend(i, *end);
        i = *end;
        continue;
      }
    }
    if (c == '(' || c == '[' || c == '{') {
      flush();
      out.push_back({Token::Type::Open, s.substr(i, 1)});
      ++i;
      continue;
    }
    if (c == ')' || c == ']' || c == '}') {
      flush();
      out.push_back({Token::Type::Close, s.substr(i, 1)});
      ++i;
      continue;
    }
    if (c == ',') {
      flush();
      out.push_back({Token::Type::Comma, ","});
      i += i + 1 < s.size() && s[i + 1] == ' ' ? 2 : 1;
      continue;
    }
    if (c == ' ') {
      std::size_t j = i + 1;
      while (j < s.size() && opChar(s[j])) ++j;
      if (j > i + 1 && j < s.size() && s[j] == ' ') {
        std::string_view op = s.substr(i + 1, j - i - 1);
        const auto* info =
            std::find_if(std::begin(kOps), std::end(kOps),
                         [&](const OpInfo& o) { return o.text == op; });
        if (info != std::end(kOps)) {
          flush();
          out.push_back({Token::Type::Op, op, info->prec, info->after});
          i = j + 1;
          continue;
        }
      }
    }
    extend(i, i + 1);
    ++i;
  }
  flush();
  return out;
}

Node leaf(const Token& t) {
  Node n;
  n.kind = t.type == Token::Type::String ? Kind::String
           : t.type == Token::Type::Op   ? Kind::Op
                                         : Kind::Text;
  n.fixed = t.type == Token::Type::Comment;
  n.text = t.text;
  n.prec = t.prec;
  n.after = t.after;
  measure(n);
  return n;
}

// The items of the group whose opening bracket is before `at`.
Node group(const std::pmr::vector<Token>& ts, std::size_t& at,
           std::string_view open, std::pmr::memory_resource* arena) {
  Node g(arena);
  g.kind = Kind::Group;
  g.text = open;
  Seq item(arena);
  while (at < ts.size()) {
    const Token& t = ts[at++];
    switch (t.type) {
      case Token::Type::Close:
        g.close = t.text;
        if (!item.empty() || !g.items.empty())
          g.items.push_back(std::move(item));
        measure(g);
        return g;
      case Token::Type::Comma:
        g.items.push_back(std::move(item));
        item.clear();
        break;
      case Token::Type::Open:
        item.push_back(group(ts, at, t.text, arena));
        break;
      case Token::Type::Text:
      case Token::Type::Comment:
      case Token::Type::String:
      case Token::Type::Op:
        item.push_back(leaf(t));
        break;
    }
  }
  // The line ends inside the group; a comma that ends it follows the last
  // item.
  if (!item.empty())
    g.items.push_back(std::move(item));
  else if (!g.items.empty())
    g.close = ",";
  measure(g);
  return g;
}

}  // namespace

Seq readLine(std::string_view line, std::pmr::memory_resource* arena) {
  std::pmr::vector<Token> ts = tokenize(line, arena);
  Seq out(arena);
  std::size_t at = 0;
  while (at < ts.size()) {
    const Token& t = ts[at++];
    switch (t.type) {
      case Token::Type::Open:
        out.push_back(group(ts, at, t.text, arena));
        break;
      case Token::Type::Comma: {
        // A comma outside any bracket of this line (after a lambda's `}`).
        Node n;
        n.kind = Kind::Op;
        n.text = ",";
        n.prec = -1;
        n.after = true;
        measure(n);
        out.push_back(std::move(n));
        break;
      }
      case Token::Type::Close:
      case Token::Type::Text:
      case Token::Type::Comment:
      case Token::Type::String:
      case Token::Type::Op:
        out.push_back(leaf(t));
        break;
    }
  }
  return out;
}

}  // namespace herald::codegen::line
