// The formatter's comment guarantee: every comment printed exactly once, and
// a failure to place one reported rather than printed away.
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/ast_print.h"
#include "frontend/diagnostic.h"
#include "frontend/format.h"
#include "frontend/lexer.h"
#include "frontend/parser.h"

namespace {

struct Parsed {
  herald::SourceFile source;
  herald::ParseResult result;
  bool errors = false;
};

Parsed parseText(const std::string& text) {
  Parsed p{herald::SourceFile(0, "input.herald", text), {}, false};
  herald::DiagnosticEngine diags;
  p.result = herald::parse(p.source, diags);
  p.errors = diags.hasErrors();
  return p;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos;
       at = text.find(part, at + 1))
    ++n;
  return n;
}

}  // namespace

TEST_CASE("every comment is printed exactly once, and formatting is stable") {
  const std::string text =
      "-- top\ncontext c -- header\ntype A = { a: Int, -- field\n b: Int }\n"
      "fn f(x: Int, -- param\n y: Int) -> Int {\n  x -- stmt\n  -- end\n}\n";
  Parsed p = parseText(text);
  REQUIRE_FALSE(p.errors);
  herald::FormatResult r = herald::formatFile(*p.result.file, p.source);
  REQUIRE(r.error.empty());
  for (const char* c :
       {"-- top", "-- header", "-- field", "-- param", "-- stmt", "-- end"})
    CHECK(count(r.text, c) == 1);
  Parsed again = parseText(r.text);
  REQUIRE_FALSE(again.errors);
  herald::FormatResult second =
      herald::formatFile(*again.result.file, again.source);
  CHECK(second.error.empty());
  CHECK(second.text == r.text);
}

TEST_CASE("a comment the printer cannot place is reported, not dropped") {
  // Inside a string interpolation everything is printed on one line, so no
  // comment can go there. The scanner never finds one there; a range given
  // by hand stands in for a printer that misplaces one.
  const std::string text =
      "context c\nfn f(x: Int) -> String {\n"
      "  \"\\(match x { _ => { 1 } })\"\n}\n";
  Parsed p = parseText(text);
  REQUIRE_FALSE(p.errors);
  const auto inner = static_cast<std::uint32_t>(text.find("1 }"));
  std::vector<herald::SourceRange> fake{{0, inner, inner + 1}};
  herald::PrintedFile printed =
      herald::printFile(*p.result.file, p.source, fake);
  REQUIRE(printed.misplaced.size() == 1);
  CHECK(printed.misplaced.front().begin == inner);
}

TEST_CASE("compareComments finds a lost and a duplicated comment") {
  herald::SourceFile before(0, "a", "-- one\nx -- two\n");
  herald::SourceFile lost(1, "b", "-- one\nx\n");
  herald::SourceFile doubled(2, "c", "-- one\n-- one\nx -- two\n");
  herald::SourceFile moved(3, "d", "-- two\n-- one\nx\n");
  auto compare = [&](const herald::SourceFile& after) {
    return herald::compareComments(before, herald::collectComments(before),
                                   after, herald::collectComments(after));
  };
  std::optional<std::string> missing = compare(lost);
  REQUIRE(missing);
  CHECK(*missing ==
        "line 2: the comment `-- two` is missing from the "
        "formatted output");
  std::optional<std::string> extra = compare(doubled);
  REQUIRE(extra);
  CHECK(extra->find("line 2 of the formatted output") == 0);
  CHECK_FALSE(compare(moved));
}
