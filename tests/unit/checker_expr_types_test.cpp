// The type of each expression, as the checker records it when asked
// (CheckOptions::recordUses, Program::exprTypes): every kind of
// expression, each link of the chains it checks in loops, one record per
// expression, and nothing for an expression whose type is an error.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "checker/checker.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "ir/program.h"
#include "ir/text.h"

namespace herald::check {
namespace {

struct Checked {
  SourceManager sources;
  DiagnosticEngine diags;
  ParseResult parsed;
  std::unique_ptr<Program> program;
  std::string text;

  Checked(std::string source, bool record) : text(std::move(source)) {
    const FileId id = sources.addFile("test.herald", text);
    parsed = parse(sources.file(id), diags);
    std::vector<const ast::File*> files{parsed.file};
    program =
        checkProgram(files, sources, diags, CheckOptions{.recordUses = record});
    diags.finalize();
  }

  // "source text: type" of every expression recorded, in source order.
  [[nodiscard]] std::vector<std::string> all() const {
    std::vector<std::string> out;
    for (const ExprType& e : program->exprTypes.all())
      out.push_back(std::string(sources.textOf(e.range)) + ": " +
                    typeText(e.type));
    return out;
  }

  // "source text: type" of the innermost expression at `name` inside the
  // first `around`, shifted `shift` bytes; empty for none.
  [[nodiscard]] std::string at(const std::string& around,
                               const std::string& name,
                               std::size_t shift = 0) const {
    std::size_t where = text.find(around);
    REQUIRE(where != std::string::npos);
    std::size_t inside = around.find(name);
    REQUIRE(inside != std::string::npos);
    const ExprType* e = program->exprTypes.at(
        0, static_cast<std::uint32_t>(where + inside + shift));
    if (e == nullptr) return {};
    return std::string(sources.textOf(e->range)) + ": " + typeText(e->type);
  }
};

bool has(const std::vector<std::string>& all, const std::string& entry) {
  for (const std::string& e : all)
    if (e == entry) return true;
  return false;
}

const char* kProgram = R"H(context t

type Money = { cents: Int, currency: String }
type Region = | Domestic | International

event Paid = { amount: Money, region: Region }

fn twice(m: Money) -> Money {
  Money { cents: m.cents * 2, currency: m.currency }
}

fn label(r: Region, b: Bool) -> String {
  match r {
    Domestic => if b { "a" } else if !!b { "b" } else { "c" },
    International => "i",
  }
}

fn size(xs: List[Int], m: Money) -> Int {
  (xs.len() + 1 + -xs.len()) * (m).cents
}

agent Order {
  key id: String
  store total: Money = Money { cents: 0, currency: "EUR" }

  on pay(amount: Money) given Events {
    total := twice(amount)
    Events.emit(Paid { amount: total, region: Region.Domestic })
  }
}
)H";

}  // namespace

TEST_CASE("nothing is recorded unless asked") {
  Checked c(kProgram, false);
  CHECK(c.diags.errorCount() == 0);
  CHECK(c.program->exprTypes.all().empty());
}

TEST_CASE("every kind of expression, with the type the checker inferred") {
  Checked c(kProgram, true);
  REQUIRE(c.diags.errorCount() == 0);
  std::vector<std::string> all = c.all();
  // Literals, names, a field access, an operator, a record literal.
  CHECK(has(all, "2: Int"));
  CHECK(has(all, "\"EUR\": String"));
  CHECK(has(all, "m: t.Money"));
  CHECK(has(all, "m.cents: Int"));
  CHECK(has(all, "m.cents * 2: Int"));
  CHECK(
      has(all, "Money { cents: m.cents * 2, currency: m.currency }: t.Money"));
  // A call, a path naming a variant, an event literal, an emit (`()`).
  CHECK(has(all, "twice(amount): t.Money"));
  CHECK(has(all, "Region.Domestic: t.Region"));
  CHECK(has(all, "Paid { amount: total, region: Region.Domestic }: t.Paid"));
  CHECK(has(all,
            "Events.emit(Paid { amount: total, region: Region.Domestic }): "
            "()"));
  // A `match` and each `if` of its `else if` chain, each `!` of a run.
  CHECK(
      has(all, "if b { \"a\" } else if !!b { \"b\" } else { \"c\" }: String"));
  CHECK(has(all, "if !!b { \"b\" } else { \"c\" }: String"));
  CHECK(has(all, "!!b: Bool"));
  CHECK(has(all, "!b: Bool"));
  CHECK(c.at("match r", "match").rfind("match r {", 0) == 0);
  CHECK(c.at("match r", "match").ends_with("}: String"));
  // Each link of a postfix chain and of an operator chain, parentheses.
  CHECK(has(all, "xs.len(): Int"));
  CHECK(has(all, "xs.len() + 1: Int"));
  CHECK(has(all, "xs.len() + 1 + -xs.len(): Int"));
  CHECK(has(all, "-xs.len(): Int"));
  CHECK(has(all, "(xs.len() + 1 + -xs.len()): Int"));
  CHECK(has(all, "(m): t.Money"));
  CHECK(has(all, "(m).cents: Int"));
  CHECK(has(all, "(xs.len() + 1 + -xs.len()) * (m).cents: Int"));
  // A block is not an expression recorded.
  CHECK(!has(all, "{ \"a\" }: String"));
  // Each expression once.
  for (std::size_t i = 1; i < c.program->exprTypes.all().size(); ++i)
    CHECK(!(c.program->exprTypes.all()[i].range ==
            c.program->exprTypes.all()[i - 1].range));
}

TEST_CASE("the innermost expression at a position") {
  Checked c(kProgram, true);
  CHECK(c.at("m.cents * 2", ".") == "m.cents: Int");
  CHECK(c.at("m.cents * 2", "*") == "m.cents * 2: Int");
  CHECK(c.at("m.cents * 2", "2") == "2: Int");
  CHECK(c.at("twice(amount)", "(") == "twice(amount): t.Money");
  CHECK(c.at("+ -xs", "-") == "-xs.len(): Int");
  CHECK(c.at("(xs.len() + 1", "(") == "(xs.len() + 1 + -xs.len()): Int");
  // Outside every expression: a declaration, a keyword of a statement.
  CHECK(c.at("fn twice", "fn").empty());
  CHECK(c.at("total := twice", ":=").empty());
  CHECK(c.at("type Money", "Money").empty());
}

TEST_CASE("an expression whose type is an error is not recorded") {
  Checked c(R"H(context t

fn f(x: Int) -> Int {
  x + nothing
}
)H",
            true);
  CHECK(c.diags.errorCount() > 0);
  std::vector<std::string> all = c.all();
  CHECK(has(all, "x: Int"));
  CHECK(!has(all, "nothing: {error}"));
  CHECK(c.at("x + nothing", "nothing").empty());
}

TEST_CASE("a chain of operators is one record per operator") {
  constexpr int kLinks = 2000;
  std::string sum = "1";
  for (int i = 0; i < kLinks; ++i) sum += " + 1";
  Checked c("context t\n\nfn f() -> Int {\n  " + sum + "\n}\n", true);
  REQUIRE(c.diags.errorCount() == 0);
  // Every literal and every `+`.
  CHECK(c.program->exprTypes.all().size() == 2 * kLinks + 1);
  CHECK(c.at(sum, "1", sum.size() - 1) == "1: Int");
  CHECK(c.at(sum, "+", sum.size() - 5) == sum + ": Int");
  CHECK(c.at(sum, "+") == "1 + 1: Int");
}

}  // namespace herald::check
