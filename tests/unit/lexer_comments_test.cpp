// collectComments(): the `--` comments of a file, as the scanner sees them.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/lexer.h"

namespace {

std::vector<std::string> commentsOf(const std::string& text) {
  herald::SourceFile file(0, "input.herald", text);
  std::vector<std::string> out;
  for (herald::SourceRange r : herald::collectComments(file))
    out.emplace_back(file.text().substr(r.begin, r.end - r.begin));
  return out;
}

}  // namespace

TEST_CASE("comments are found in source order, trailing blanks dropped") {
  CHECK(commentsOf("-- a\ncontext x -- b  \t\r\ntype A = Int --\n--c") ==
        std::vector<std::string>{"-- a", "-- b", "--", "--c"});
}

TEST_CASE("dashes inside strings and interpolations are not comments") {
  CHECK(commentsOf("let s = \"a -- b\" -- real\n").size() == 1);
  CHECK(commentsOf("let s = \"a -- b\" -- real\n").front() == "-- real");
  CHECK(commentsOf("let t = \"\\(x) -- \\(\"--\")\"\n").empty());
  CHECK(commentsOf("let n = 1 - -2\n").empty());
}

TEST_CASE("doc blocks are not comments, comments around them are") {
  CHECK(
      commentsOf("-- before\n---\ndoc -- text\n---\n-- after\ntype A = Int") ==
      std::vector<std::string>{"-- before", "-- after"});
  // `---` with other text on its line is an ordinary comment.
  CHECK(commentsOf("type A = Int --- not a doc marker\n") ==
        std::vector<std::string>{"--- not a doc marker"});
}

TEST_CASE("a comment ending the file without a newline, and lexical errors") {
  CHECK(commentsOf("context x\n-- last") ==
        std::vector<std::string>{"-- last"});
  // Errors do not stop the scan.
  CHECK(commentsOf("let s = \"open\n-- after an unterminated string\n# -- x") ==
        std::vector<std::string>{"-- after an unterminated string", "-- x"});
}

TEST_CASE("ordinary lexing records nothing and is unchanged") {
  herald::SourceFile file(0, "input.herald", "a -- c\nb");
  herald::DiagnosticEngine diags;
  std::vector<herald::Token> tokens = herald::lexAll(file, diags);
  REQUIRE(tokens.size() == 3);
  CHECK(tokens[1].firstOnLine);
  CHECK_FALSE(diags.hasErrors());
}
