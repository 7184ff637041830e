// The body lowering: the exact C++ of small bodies, checked with the real
// checker, in the shape codegen/README.md ("Bodies") fixes.
#include "codegen/lower_body.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <llvm/Support/Casting.h>

#include "checker/checker.h"
#include "codegen/names.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "ir/program.h"

namespace herald::codegen {
namespace {

struct Run {
  std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
  std::unique_ptr<DiagnosticEngine> diags =
      std::make_unique<DiagnosticEngine>();
  std::vector<ParseResult> parses;
  std::unique_ptr<check::Program> program;

  const check::ContextInfo& context(llvm::StringRef name) const {
    const check::ContextInfo* c = program->context(name);
    REQUIRE(c != nullptr);
    return *c;
  }
  template <typename T>
  const T& decl(llvm::StringRef ctx, llvm::StringRef name) const {
    const T* d = llvm::dyn_cast_or_null<T>(context(ctx).lookup(name));
    REQUIRE(d != nullptr);
    return *d;
  }
  std::string lower(llvm::StringRef ctx, check::BodyId body,
                    unsigned indent = 2) const {
    Spelling spelling(context(ctx));
    return BodyLowering(*program, spelling).statements(body, indent);
  }
  std::string value(llvm::StringRef ctx, check::BodyId body) const {
    Spelling spelling(context(ctx));
    return BodyLowering(*program, spelling).expression(body);
  }
  std::string fn(llvm::StringRef ctx, llvm::StringRef name) const {
    return lower(ctx, decl<check::FnInfo>(ctx, name).body);
  }
  std::string handler(llvm::StringRef ctx, llvm::StringRef owner,
                      llvm::StringRef name) const {
    const check::DeclInfo* d = context(ctx).lookup(owner);
    REQUIRE(d != nullptr);
    const check::HandlerInfo* h = nullptr;
    if (const auto* a = llvm::dyn_cast<check::AgentInfo>(d))
      h = a->handler(name);
    if (const auto* s = llvm::dyn_cast<check::ServiceInfo>(d))
      h = s->handler(name);
    REQUIRE(h != nullptr);
    return lower(ctx, h->body);
  }
};

std::unique_ptr<Run> check(
    const std::vector<std::pair<std::string, std::string>>& files) {
  auto run = std::make_unique<Run>();
  std::vector<const ast::File*> asts;
  for (const auto& [name, text] : files) {
    FileId id = run->sources->addFile(name, text);
    run->parses.push_back(parse(run->sources->file(id), *run->diags));
    asts.push_back(run->parses.back().file);
  }
  run->program = check::checkProgram(asts, *run->sources, *run->diags);
  run->diags->finalize();
  std::string reported;
  for (const Diagnostic& d : run->diags->diagnostics())
    reported += d.message + "\n";
  INFO(reported);
  REQUIRE(!run->diags->hasErrors());
  return run;
}

std::unique_ptr<Run> check(std::string text) {
  return check({{"test.herald", std::move(text)}});
}

const char* kProgram = R"H(context t
type Money = { cents: Int, currency: String }
type Outcome = | Settled | Refunded(reason: String, cents: Int)
type Q = Int where self > 0 && self < 100
type Tag = opaque String
event Paid = { cents: Int, note: Option[String] = None, tag: Tag = Tag("x") }
capability Ledger { fn record(m: Money) -> Bool }
fn f(o: Outcome, m: Option[Money]) -> String {
  let n = 1 + 2 * m.getOr(Money { cents: 3, currency: "x" }).cents
  match o {
    Settled => "settled \(n)",
    Refunded(reason: r, cents: 0..10) => "small \(r)",
    Refunded(r, _) => r,
  }
}
fn lits() -> List[Float] {
  let a = -9223372036854775808
  let b = "q\"\\\n\t\u{e9}\u{1}1"
  let c = 250.ms + 2.hours
  let q: Q = 5
  let d = a / 7 % 3 - -a
  let e = 3 - -5
  [1.0, 0.1, 2.5]
}
fn pick(x: Int) -> String {
  let s = if x > 0 { "pos" } else { "neg" }
  if x == 0 { "zero" } else if x < 0 { s } else { fail("big \(x)") }
}
fn opts(x: Option[Int], l: List[String], m: Map[String, Int]) -> Bool {
  let y = match x { Some(1) | None => 0, Some(v) => v }
  let k = m.put("a", 1).get("a").getOr(0) + l.append("z").len() + "ab".len()
  y == k && l.contains("a") && !x.isSome()
}
agent Acc {
  key id: String
  store total: Int = 0
  store last: Option[Outcome] = None
  invariant small: under(10)
  fn under(n: Int) -> Bool { total < n }
  on add(n: Int) given Ledger, Events, Random {
    total := total + n
    let ok = Ledger.record(Money { cents: n, currency: "EUR" })
    if ok { Events.emit(Paid { cents: Random.int(1, 6) }) }
  }
}
service Fan given Accs: Ref[Acc], Logger {
  on call go(id: String) {
    Accs(id).add(3)
    Logger.info("sent \(id)")
  }
}
)H";

TEST_CASE("a match binds payload fields and tests a range") {
  auto run = check(kProgram);
  CHECK(
      run->fn("t", "f") ==
      R"C(  const auto n = herald::ops::add(1, herald::ops::mul(2, m.value_or(Money{.cents = 3, .currency = "x"}).cents));
  if (std::holds_alternative<Outcome::Settled>(o.value)) {
    return herald::text("settled ", n);
  } else if (std::holds_alternative<Outcome::Refunded>(o.value) && std::get<Outcome::Refunded>(o.value).cents >= 0 && std::get<Outcome::Refunded>(o.value).cents <= 10) {
    const auto r = std::get<Outcome::Refunded>(o.value).reason;
    return herald::text("small ", r);
  } else {
    const auto r_2 = std::get<Outcome::Refunded>(o.value).reason;
    return r_2;
  }
)C");
}

TEST_CASE(
    "literals: the most negative Int, escapes, durations, a refinement, "
    "checked arithmetic") {
  auto run = check(kProgram);
  CHECK(run->fn("t", "lits") ==
        R"C(  const auto a = std::numeric_limits<std::int64_t>::min();
  [[maybe_unused]] const auto b = std::string("q\"\\\n\t\303\251\0011");
  [[maybe_unused]] const auto c = std::chrono::milliseconds(250) + std::chrono::milliseconds(7200000);
  [[maybe_unused]] const auto q = Q::from(5);
  [[maybe_unused]] const auto d = herald::ops::sub(herald::ops::rem(herald::ops::div(a, 7), 3), herald::ops::neg(a));
  [[maybe_unused]] const auto e = herald::ops::sub(3, -5);
  return std::vector<double>{1.0, 0.1, 2.5};
)C");
}

TEST_CASE(
    "an if with plain branches is a conditional; else-if chains end in fail") {
  auto run = check(kProgram);
  CHECK(run->fn("t", "pick") ==
        R"C(  const auto s_ = x > 0 ? std::string("pos") : std::string("neg");
  if (x == 0) {
    return "zero";
  } else if (x < 0) {
    return s_;
  } else {
    herald::fail(herald::text("big ", x));
  }
)C");
}

TEST_CASE(
    "a match in value position is a lambda; or-patterns; built-in methods") {
  auto run = check(kProgram);
  CHECK(run->fn("t", "opts") == R"C(  const auto y = [&]() -> std::int64_t {
    if ((x.has_value() && *x == 1) || !x.has_value()) {
      return 0;
    } else {
      const auto v = *x;
      return v;
    }
  }();
  const auto k = herald::ops::add(herald::ops::add(herald::ops::get(herald::ops::put(m, std::string("a"), std::int64_t(1)), std::string("a")).value_or(0), herald::ops::len(herald::ops::append(l, std::string("z")))), herald::ops::len("ab"));
  return y == k && herald::ops::contains(l, std::string("a")) && !x.has_value();
)C");
}

TEST_CASE(
    "store writes, a user capability, an emission with field defaults, "
    "Random") {
  auto run = check(kProgram);
  CHECK(run->handler("t", "Acc", "add") ==
        R"C(  s.total = herald::ops::add(s.total, n);
  const auto ok = tx.capability<Ledger>("t.Ledger").record(Money{.cents = n, .currency = "EUR"});
  if (ok) {
    tx.events().emit(Paid{.cents = tx.random().next_int(1, 6), .note = std::optional<std::string>(), .tag = Tag::from_raw("x")});
  }
)C");
}

TEST_CASE("a message to an agent and a first-party capability") {
  auto run = check(kProgram);
  CHECK(run->handler("t", "Fan", "go") == R"C(  Acc::Ref{id}.add(tx, 3);
  tx.logger().info(herald::text("sent ", id));
)C");
}

TEST_CASE("invariants and store initialisers need no invocation") {
  auto run = check(kProgram);
  const auto& acc = run->decl<check::AgentInfo>("t", "Acc");
  // An agent fn that only reads stores takes no invocation, so an
  // invariant can call it.
  CHECK(run->value("t", acc.invariants[0].body) == "Acc_under(s, id, 10)");
  CHECK(run->value("t", acc.stores[1].body) == "std::optional<Outcome>()");
  CHECK(run->lower("t", acc.fns[0]->body) == "  return s.total < n;\n");
}

TEST_CASE("operands with effects are computed in order") {
  auto run = check(R"H(context t
agent Dice {
  key id: String
  store last: Int = 0
  on roll() given Random {
    last := Random.int(1, 6) - Random.int(1, 6)
    last := last + Random.int(1, 6)
  }
}
)H");
  CHECK(run->handler("t", "Dice", "roll") ==
        R"C(  s.last = [&]() -> std::int64_t {
    const auto arg = tx.random().next_int(1, 6);
    const auto arg_2 = tx.random().next_int(1, 6);
    return herald::ops::sub(arg, arg_2);
  }();
  s.last = herald::ops::add(s.last, tx.random().next_int(1, 6));
)C");
}

TEST_CASE("a match with one arm computes its scrutinee once") {
  auto run = check(R"H(context t
fn one(x: Int) -> Int {
  match x + 1 { y => y * 2 }
}
)H");
  CHECK(run->fn("t", "one") ==
        R"C(  const auto scrutinee = herald::ops::add(x, 1);
  {
    const auto y = scrutinee;
    return herald::ops::mul(y, 2);
  }
)C");
}

}  // namespace
}  // namespace herald::codegen
