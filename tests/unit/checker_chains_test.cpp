// Long chains (field accesses and calls, `else if`, runs of `!` and `-`,
// constant arithmetic) are checked in loops: a chain of thousands of links
// checks clean when its short form does, and a wrong link is reported once,
// as it is in the short form, wherever it stands in the chain.
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "checker/checker.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "ir/program.h"

namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& items) {
    std::string out = "{";
    for (const std::string& item : items) out += " " + item;
    return (out + " }").c_str();
  }
};
}  // namespace doctest

namespace herald::check {
namespace {

// Each diagnostic as "CODE message @ the source text it points at", with
// every note's message: what must not depend on the chain's length.
std::vector<std::string> diagnosticsOf(const std::string& text) {
  SourceManager sources;
  DiagnosticEngine diags;
  const FileId id = sources.addFile("test.herald", text);
  ParseResult parsed = parse(sources.file(id), diags);
  std::vector<const ast::File*> files{parsed.file};
  std::unique_ptr<Program> program = checkProgram(files, sources, diags);
  diags.finalize();
  std::vector<std::string> out;
  for (const Diagnostic& d : diags.diagnostics()) {
    std::string line = std::string(diagInfo(d.kind).code) + " " + d.message +
                       " @ " + std::string(sources.textOf(d.range));
    for (const DiagnosticNote& note : d.notes) line += " | " + note.message;
    out.push_back(line);
  }
  return out;
}

std::string repeat(const std::string& piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

const char* kRecord = R"H(context t

type R = { o: Option[R], s: String }

fn g(r: R) -> R {
  r
}

)H";

// `body` as the body of `fn f(r: R, x: Int, b: Bool) -> RESULT`.
std::string program(const std::string& result, const std::string& body) {
  return std::string(kRecord) + "fn f(r: R, x: Int, b: Bool) -> " + result +
         " {\n  " + body + "\n}\n";
}

constexpr int kLinks = 2500;  // each repeated piece is two links

TEST_CASE("a long mixed chain of calls and fields checks clean") {
  for (int n : {1, kLinks}) {
    CAPTURE(n);
    CHECK(diagnosticsOf(
              program("Int", "g(r)" + repeat(".o.getOr(g(r))", n) + ".s.len()"))
              .empty());
  }
}

TEST_CASE("an unknown field at the top of a long chain, once") {
  const std::vector<std::string> shortForm =
      diagnosticsOf(program("Int", "r.o.getOr(r).zz"));
  REQUIRE(shortForm.size() == 1);
  CHECK(shortForm[0].rfind("E0305 ", 0) == 0);
  CHECK(diagnosticsOf(program(
            "Int", "r" + repeat(".o.getOr(r)", kLinks) + ".zz")) == shortForm);
  // A field chain of a value with no fields: the first link is wrong, and
  // every link above it stays quiet.
  const std::vector<std::string> fields =
      diagnosticsOf(program("Int", "x.a.a"));
  REQUIRE(fields.size() == 1);
  CHECK(diagnosticsOf(program("Int", "x" + repeat(".a", 2 * kLinks))) ==
        fields);
}

TEST_CASE("an unknown name at the bottom of a long chain, once") {
  const std::vector<std::string> shortForm =
      diagnosticsOf(program("Int", "q.o.getOr(r).s.len()"));
  REQUIRE(shortForm.size() == 1);
  CHECK(shortForm[0].rfind("E0201 ", 0) == 0);
  CHECK(diagnosticsOf(program("Int", "q" + repeat(".o.getOr(r)", kLinks) +
                                         ".s.len()")) == shortForm);
  // A path of fields resolved once: the unknown first name is all there is.
  const std::vector<std::string> path = diagnosticsOf(program("Int", "q.a.b"));
  REQUIRE(path.size() == 1);
  CHECK(diagnosticsOf(program("Int", "q" + repeat(".a", 2 * kLinks))) == path);
}

TEST_CASE("a wrong call in the middle of a long chain, once") {
  const std::string wrong = ".o.gotOr(r)";
  const std::vector<std::string> shortForm =
      diagnosticsOf(program("Int", "r" + wrong + ".o.getOr(r).s.len()"));
  REQUIRE(shortForm.size() == 1);
  CHECK(shortForm[0].rfind("E0319 ", 0) == 0);
  CHECK(diagnosticsOf(program("Int", "r" + repeat(".o.getOr(r)", kLinks) +
                                         wrong + repeat(".o.getOr(r)", kLinks) +
                                         ".s.len()")) == shortForm);
}

TEST_CASE("a long else-if chain joins its branches as a short one does") {
  auto chain = [](int branches, const std::string& last) {
    std::string body = "if x == 0 { 0 }";
    for (int i = 1; i < branches; ++i)
      body += " else if x == " + std::to_string(i) + " { " + std::to_string(i) +
              " }";
    return program("Int", body + " else { " + last + " }");
  };
  CHECK(diagnosticsOf(chain(2, "1")).empty());
  CHECK(diagnosticsOf(chain(5000, "1")).empty());
  const std::vector<std::string> shortForm = diagnosticsOf(chain(2, "\"s\""));
  REQUIRE(shortForm.size() == 1);
  CHECK(diagnosticsOf(chain(5000, "\"s\"")) == shortForm);
}

TEST_CASE("a long run of ! and - is checked as a short one") {
  CHECK(diagnosticsOf(program("Bool", repeat("!", 5000) + "b")).empty());
  CHECK(diagnosticsOf(program("Int", repeat("- ", 5000) + "x")).empty());
  CHECK(diagnosticsOf(program("Bool", repeat("!- ", 2500) + "x == x")) ==
        diagnosticsOf(program("Bool", "!- x == x")));
  const std::vector<std::string> shortForm =
      diagnosticsOf(program("Bool", "!!x"));
  REQUIRE(shortForm.size() == 1);
  CHECK(shortForm[0].rfind("E0314 ", 0) == 0);
  CHECK(diagnosticsOf(program("Bool", repeat("!", 5000) + "x")) == shortForm);
}

TEST_CASE("long constant chains are folded and checked") {
  auto constant = [](const std::string& value) {
    return "context t\n\ntype Small = Int where self < 100\n\nfn f() -> Small "
           "{\n  " +
           value + "\n}\n";
  };
  CHECK(diagnosticsOf(constant("1" + repeat(" + 0", 5000))).empty());
  CHECK(diagnosticsOf(constant(repeat("- ", 5000) + "1")).empty());
  const std::vector<std::string> over =
      diagnosticsOf(constant("1" + repeat(" + 1", 5000)));
  REQUIRE(over.size() == 1);
  CHECK(over[0].rfind("E0310 '5001' does not satisfy", 0) == 0);
  const std::vector<std::string> negative =
      diagnosticsOf(constant(repeat("- ", 5001) + "200"));
  CHECK(negative.empty());
  // The first failure of the chain is the one reported, as it is in the
  // short form: here the overflow at the third operator.
  const std::vector<std::string> overflow = diagnosticsOf(
      constant("9223372036854775807 - 1 + 1 + 1" + repeat(" - 1", 5000)));
  REQUIRE(overflow.size() == 1);
  CHECK(overflow[0].rfind("E0321 ", 0) == 0);
}

TEST_CASE("a long refinement predicate is checked and evaluated whole") {
  auto refined = [](const std::string& first, int terms,
                    const std::string& value) {
    std::string predicate = first;
    for (int i = 0; i < terms; ++i)
      predicate += " && self > " + std::to_string(-i);
    return "context t\n\ntype Q = Int where " + predicate +
           " && self < 10\n\nfn f() -> Q {\n  Q(" + value + ")\n}\n";
  };
  CHECK(diagnosticsOf(refined("self > 0", 1000, "5")).empty());
  CHECK(diagnosticsOf(refined("self > 0", 1000, "- - 5")).empty());
  // The value violates the last comparison, after a thousand others.
  const std::vector<std::string> violated =
      diagnosticsOf(refined("self > 0", 1000, "20"));
  REQUIRE(violated.size() == 1);
  CHECK(violated[0].rfind("E0310 '20' does not satisfy", 0) == 0);
  // A wrong operand at the bottom of the chain is reported as in a short
  // one.
  const std::vector<std::string> bad =
      diagnosticsOf(refined("\"s\"", 1000, "5"));
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].rfind("E0318 ", 0) == 0);
  CHECK(bad == diagnosticsOf(refined("\"s\"", 1, "5")));
  const std::string run = repeat("!", 1001);
  CHECK(diagnosticsOf("context t\n\ntype B = Int where " + run +
                      "(self > 0)\n\nfn f() -> B {\n  B(0)\n}\n")
            .empty());
}

}  // namespace
}  // namespace herald::check
