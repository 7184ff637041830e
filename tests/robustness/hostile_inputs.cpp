#include "tests/robustness/hostile_inputs.h"

#include <cstdint>
#include <string_view>

#include <fmt/format.h>

namespace herald::robustness {
namespace {

// SplitMix64: a fixed sequence, so every run checks the same bytes.
class Bytes {
 public:
  explicit Bytes(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
  }

 private:
  std::uint64_t state_;
};

std::string repeat(std::string_view piece, std::size_t bytes) {
  std::string out;
  out.reserve(bytes);
  while (out.size() + piece.size() <= bytes) out += piece;
  return out;
}

std::string randomBytes(std::size_t bytes, std::uint64_t seed) {
  Bytes rng(seed);
  std::string out(bytes, '\0');
  for (char& c : out) c = static_cast<char>(rng.next() & 0xFFU);
  return out;
}

// Random picks from the language's own tokens: every kind of construct
// opened and abandoned at random.
std::string tokenSoup(std::size_t bytes, std::uint64_t seed) {
  static constexpr std::string_view kTokens[] = {
      "context", "event", "type", "agent", "service", "on",    "fn",
      "let",     "if",    "else", "match", "emit",    "given", "by",
      "store",   "{",     "}",    "(",     ")",       "[",     "]",
      ":",       ",",     ".",    "=",     "->",      "=>",    "+",
      "-",       "*",     "==",   "&&",    "||",      "!",     ":=",
      "x",       "Money", "1",    "2.5",   "\"s\"",   "\"\\(", "--c\n",
      "\n",      "\n",    " ",    "true",  "None",    "Some",  "10s"};
  Bytes rng(seed);
  std::string out;
  out.reserve(bytes + 16);
  while (out.size() < bytes) {
    out += kTokens[rng.next() % std::size(kTokens)];
    out += ' ';
  }
  out.resize(bytes);
  return out;
}

std::string inFn(std::string_view body) {
  return fmt::format("context hostile.deep\n\nfn f(x: Int) -> Int {{\n{}\n}}\n",
                     body);
}

std::string plusChain(std::size_t terms) {
  std::string body = "  1";
  for (std::size_t i = 1; i < terms; ++i) body += " + 1";
  return inFn(body);
}

std::string elseIfChain(std::size_t branches) {
  std::string body = "  if x == 0 {\n    0\n  }";
  for (std::size_t i = 1; i < branches; ++i)
    body += fmt::format(" else if x == {} {{\n    {}\n  }}", i, i);
  body += " else {\n    -1\n  }";
  return inFn(body);
}

// `r.o.getOr(r)` again and again: field accesses and method calls
// alternating, on a record that refers to itself through an Option.
std::string mixedChain(std::size_t bytes) {
  std::string body = "  r" + repeat(".o.getOr(r)", bytes) + ".s.len()";
  return fmt::format(
      "context hostile.deep\n\ntype R = {{ o: Option[R], s: String }}\n\n"
      "fn f(r: R) -> Int {{\n{}\n}}\n",
      body);
}

// A constant the checker folds (a refined type wants its value): a chain
// of operators or a run of `-`.
std::string constantOf(std::string_view value) {
  return fmt::format(
      "context hostile.deep\n\ntype Small = Int where self < 10000000\n\n"
      "fn f() -> Small {{\n  {}\n}}\n",
      value);
}

std::string bigMatch(std::size_t arms) {
  std::string body = "  match x {\n";
  for (std::size_t i = 0; i < arms; ++i)
    body += fmt::format("    {} => {}\n", i, i);
  body += "    _ => -1\n  }";
  return inFn(body);
}

std::string nested(std::string_view open, std::string_view close,
                   std::size_t depth) {
  std::string body = "  ";
  for (std::size_t i = 0; i < depth; ++i) body += open;
  body += "1";
  for (std::size_t i = 0; i < depth; ++i) body += close;
  return inFn(body);
}

std::string unknownNames(std::size_t count) {
  std::string out = "context hostile.names\n\n";
  for (std::size_t i = 0; i < count; ++i)
    out += fmt::format("type T{} = {{ a: Unknown{} }}\n", i, i);
  return out;
}

std::string manyContexts(std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i)
    out += fmt::format("context c{} {{\n  type T = {{ a: Int }}\n}}\n", i);
  return out;
}

std::string manySyntaxErrors(std::size_t bytes) {
  return "context hostile.errors\n\n" + repeat("type T = { a: }\n", bytes);
}

}  // namespace

std::vector<HostileInput> hostileInputs() {
  using Make = std::function<std::string(std::size_t)>;
  // Leaves room for the few bytes of a header around a repeated body.
  auto body = [](std::size_t max) { return max - 256; };
  auto fixed = [](std::string (*f)(std::size_t), std::size_t n) -> Make {
    return [f, n](std::size_t) { return f(n); };
  };
  std::vector<HostileInput> inputs = {
      {"random_bytes", false, [](std::size_t m) { return randomBytes(m, 1); }},
      {"random_tokens", false, [](std::size_t m) { return tokenSoup(m, 2); }},
      {"semicolons", false, [](std::size_t m) { return std::string(m, ';'); }},
      {"one_identifier", false, [](std::size_t m) { return repeat("a ", m); }},
      {"one_keyword", false,
       [](std::size_t m) { return repeat("context ", m); }},
      {"newlines", false, [](std::size_t m) { return std::string(m, '\n'); }},
      {"open_braces", false, [](std::size_t m) { return std::string(m, '{'); }},
      {"open_parens", false,
       [body](std::size_t m) { return inFn(std::string(body(m), '(')); }},
      {"close_braces", false,
       [](std::size_t m) { return std::string(m, '}'); }},
      {"unterminated_string", false,
       [body](std::size_t m) { return "\"" + std::string(body(m), 'a'); }},
      {"one_long_comment", false,
       [body](std::size_t m) { return "-- " + std::string(body(m), 'c'); }},
      {"unterminated_doc", false,
       [body](std::size_t m) {
         return "---\n" + repeat("doc line\n", body(m));
       }},
      {"stray_bytes", false,
       [](std::size_t m) { return std::string(m, '\x01'); }},
      {"invalid_utf8", false,
       [](std::size_t m) { return std::string(m, '\xFF'); }},
      {"deep_parens", false,
       [](std::size_t) { return nested("(", ")", 100000); }},
      {"deep_blocks", false,
       [](std::size_t) { return nested("{ ", " }", 100000); }},
      {"deep_lists", false,
       [](std::size_t) { return nested("[", "]", 100000); }},
      // `--` would start a comment: the operators are spaced.
      {"deep_unary", true,
       [body](std::size_t m) {
         return inFn("  " + repeat("- ", body(m)) + "1");
       }},
      {"long_field_chain",
       false,
       [body](std::size_t m) { return inFn("  x" + repeat(".a", body(m))); },
       {"E0305"}},
      {"many_syntax_errors", false,
       [body](std::size_t m) { return manySyntaxErrors(body(m)); }},
      // `-` twice would start a comment: `!` makes a prefix chain.
      {"deep_not",
       false,
       [body](std::size_t m) { return inFn(std::string(body(m), '!') + "x"); },
       {"E0314"}},
      // Chains are not nesting: every walk iterates over them, so these
      // check clean (or report their one mistake once) however long they
      // are.
      {"not_run", true,
       [](std::size_t m) {
         return "context hostile.deep\n\nfn f(b: Bool) -> Bool {\n  " +
                std::string(m - 256, '!') + "b\n}\n";
       }},
      {"mixed_chain", true,
       [body](std::size_t m) { return mixedChain(body(m)); }},
      {"const_operator_chain", true,
       [](std::size_t) {
         return constantOf("1" + repeat(" + 1", 4 * 200000));
       }},
      {"const_negation_run", true,
       [](std::size_t) { return constantOf(repeat("- ", 2 * 200000) + "1"); }},
      {"plus_chain_5000", true, fixed(plusChain, 5000)},
      {"plus_chain_200000", true, fixed(plusChain, 200000)},
      {"plus_chain_megabyte", true,
       [](std::size_t) { return plusChain(std::size_t{1} << 18); }},
      {"else_if_chain_1000", true, fixed(elseIfChain, 1000)},
      {"else_if_chain_100000", true, fixed(elseIfChain, 100000)},
      {"match_10000_arms", true, fixed(bigMatch, 10000)},
      {"unknown_names_20000", false, fixed(unknownNames, 20000)},
      {"contexts_10000", true, fixed(manyContexts, 10000)},
  };
  for (HostileInput& input : inputs) {
    input.make = [make = std::move(input.make)](std::size_t m) {
      std::string text = make(m);
      if (text.size() > m) text.resize(m);
      return text;
    };
  }
  return inputs;
}

}  // namespace herald::robustness
