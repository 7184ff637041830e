// The bodies pass: expected-type inference, the side tables codegen reads,
// match exhaustiveness, effects and roles, and commit shapes.
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <llvm/Support/Casting.h>

#include "checker/checker.h"
#include "checker/ir.h"
#include "frontend/ast.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"

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

struct Run {
  std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
  std::unique_ptr<DiagnosticEngine> diags =
      std::make_unique<DiagnosticEngine>();
  std::vector<ParseResult> parses;
  std::vector<const ast::File*> files;
  std::unique_ptr<Program> program;

  std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const Diagnostic& d : diags->diagnostics())
      out.emplace_back(diagInfo(d.kind).code);
    return out;
  }
  std::string text(const ast::Expr* e) const {
    return std::string(sources->textOf(e->range));
  }
  const ContextInfo& context(llvm::StringRef name) const {
    const ContextInfo* c = program->context(name);
    REQUIRE(c != nullptr);
    return *c;
  }
  template <typename T>
  const T* decl(llvm::StringRef ctx, llvm::StringRef name) const {
    const T* d = llvm::dyn_cast_or_null<T>(context(ctx).lookup(name));
    REQUIRE(d != nullptr);
    return d;
  }
  // The statements of a context-level fn's body.
  llvm::ArrayRef<ast::Stmt*> body(llvm::StringRef ctx,
                                  llvm::StringRef fn) const {
    const FnInfo* f = decl<FnInfo>(ctx, fn);
    REQUIRE(f->fn != nullptr);
    REQUIRE(f->fn->body != nullptr);
    return f->fn->body->stmts;
  }
  const ExprInfo& info(const ast::Expr* e) const {
    const ExprInfo* i = program->bodies.find(e);
    REQUIRE(i != nullptr);
    return *i;
  }
};

std::unique_ptr<Run> check(
    const std::vector<std::pair<std::string, std::string>>& files) {
  auto run = std::make_unique<Run>();
  for (const auto& [name, text] : files) {
    FileId id = run->sources->addFile(name, text);
    run->parses.push_back(parse(run->sources->file(id), *run->diags));
    run->files.push_back(run->parses.back().file);
  }
  run->program = checkProgram(run->files, *run->sources, *run->diags);
  run->diags->finalize();
  return run;
}

std::unique_ptr<Run> check(std::string text) {
  return check({{"test.herald", std::move(text)}});
}

using Codes = std::vector<std::string>;

const char* kTypes = R"H(context t
type Status = | Pending | Paid | Cancelled(reason: String)
type Q = Int where self > 0 && self < 10
type Money = { cents: Int, currency: String }
)H";

TEST_CASE("a bare variant takes its type from the expected type") {
  auto run = check(std::string(kTypes) + R"H(
fn f(s: Status) -> Status {
  let a: Status = Paid
  let b = s != Pending
  let c: Status = Cancelled(reason: "late")
  Pending
}
)H");
  CHECK(run->codes() == Codes{});
  auto stmts = run->body("t", "f");
  const ExprInfo& paid = run->info(stmts[0]->value);
  CHECK(paid.ref == RefKind::Variant);
  REQUIRE(paid.variant() != nullptr);
  CHECK(paid.variant()->name == "Paid");
  CHECK(displayName(paid.type) == "Status");
  CHECK(displayName(run->program->bodies.lets.lookup(stmts[1])) == "Bool");
  const ExprInfo& cancelled = run->info(stmts[2]->value);
  CHECK(cancelled.ref == RefKind::Variant);
  CHECK(cancelled.variant()->index == 2);
  CHECK(run->info(stmts[3]->value).ref == RefKind::Variant);
}

TEST_CASE("None, [] and Some infer from the expected type or their argument") {
  auto run = check(std::string(kTypes) + R"H(
fn f() {
  let a: Option[Int] = None
  let b: List[Money] = []
  let c = Some("x")
  let d: Option[Status] = Some(Paid)
  let e = [1, 2]
}
)H");
  CHECK(run->codes() == Codes{});
  auto stmts = run->body("t", "f");
  auto let = [&](std::size_t i) {
    return displayName(run->program->bodies.lets.lookup(stmts[i]));
  };
  CHECK(let(0) == "Option[Int]");
  CHECK(run->info(stmts[0]->value).ref == RefKind::OptionNone);
  CHECK(let(1) == "List[Money]");
  CHECK(let(2) == "Option[String]");
  CHECK(run->info(stmts[2]->value).ref == RefKind::OptionSome);
  CHECK(let(3) == "Option[Status]");
  CHECK(let(4) == "List[Int]");
}

TEST_CASE(
    "without an expected type, None, [] and bare variants cannot be inferred") {
  auto run = check(std::string(kTypes) + R"H(
fn f() {
  let a = None
  let b = []
  let c = Paid
}
)H");
  CHECK(run->codes() == Codes{"E0316", "E0316", "E0316"});
}

TEST_CASE("refined types: base values are checked, constants at compile time") {
  auto run = check(std::string(kTypes) + R"H(
fn f(n: Int, q: Q) -> Int {
  let a: Q = 5
  let b: Q = n
  let c: Q = 10
  q + n
}
)H");
  CHECK(run->codes() == Codes{"E0310"});
  auto stmts = run->body("t", "f");
  CHECK(run->info(stmts[0]->value).coercion == Coercion::RefineCheck);
  CHECK(run->info(stmts[1]->value).coercion == Coercion::RefineCheck);
  CHECK(displayName(run->info(stmts[3]->value).type) == "Int");
}

TEST_CASE("names record what they refer to") {
  auto run = check(R"H(context t
agent A {
  key id: String
  store n: Int = 0
  on h(x: Int) by c: Caller {
    let y = x + n
    n := y
    let who = c.name
    let k = id
  }
}
actor Caller(name: String)
)H");
  CHECK(run->codes() == Codes{});
  const auto* agent = run->decl<AgentInfo>("t", "A");
  auto stmts = agent->handlers[0].decl->body->stmts;
  const auto* sum = llvm::cast<ast::BinaryExpr>(stmts[0]->value);
  CHECK(run->info(sum->lhs).ref == RefKind::Param);
  CHECK(run->info(sum->rhs).ref == RefKind::Store);
  CHECK(run->info(stmts[1]->value).ref == RefKind::Local);
  const auto* field = llvm::cast<ast::FieldExpr>(stmts[2]->value);
  CHECK(run->info(field->base).ref == RefKind::ActorBinder);
  CHECK(run->info(field).ref == RefKind::FieldAccess);
  CHECK(run->info(stmts[3]->value).ref == RefKind::Key);
  CHECK(agent->handlers[0].commit.writes == std::vector<std::string>{"n"});
}

TEST_CASE("if branches must agree; fail fits any branch") {
  auto run = check(std::string(kTypes) + R"H(
fn f(b: Bool) -> Int {
  let x = if b { 1 } else { fail("no") }
  let y = if b { 1 } else { "one" }
  x
}
)H");
  CHECK(run->codes() == Codes{"E0301"});
  auto stmts = run->body("t", "f");
  CHECK(displayName(run->program->bodies.lets.lookup(stmts[0])) == "Int");
}

TEST_CASE("match: exhaustiveness for sums, Option and Bool") {
  auto ok = check(std::string(kTypes) + R"H(
fn f(s: Status, o: Option[Int], b: Bool, n: Int) -> Int {
  let a = match s { Pending | Paid => 1, Cancelled(reason: r) => r.len() }
  let c = match o { Some(v) => v, None => 0 }
  let d = match b { true => 1, false => 0 }
  match n { 0 => 0, other => other }
}
)H");
  CHECK(ok->codes() == Codes{});
  auto stmts = ok->body("t", "f");
  const auto* m = llvm::cast<ast::MatchExpr>(stmts[1]->value);
  const auto* some = llvm::cast<ast::ConstructorPattern>(m->arms[0].pattern);
  const Type* bound =
      ok->program->bodies.bindings.lookup(some->fields[0].value);
  CHECK(displayName(bound) == "Int");

  auto bad = check(std::string(kTypes) + R"H(
fn f(s: Status, o: Option[Int], b: Bool, n: Int) -> Int {
  let a = match s { Pending => 1, Cancelled(..) => 2 }
  let c = match o { Some(1) => 1, None => 0 }
  let d = match b { true => 1 }
  match n { 0 => 0 }
}
)H");
  CHECK(bad->codes() == Codes{"E0307", "E0307", "E0307", "E0307"});
  bool namesMissing = false;
  for (const Diagnostic& d : bad->diags->diagnostics())
    if (d.message.find("'Paid' not covered") != std::string::npos)
      namesMissing = true;
  CHECK(namesMissing);
}

TEST_CASE("match: arms after full coverage are unreachable") {
  auto run = check(std::string(kTypes) + R"H(
fn f(s: Status, n: Int) -> Int {
  let a = match s { _ => 1, Paid => 2 }
  let b = match s { Paid => 1, Paid => 2, _ => 3 }
  match n { _ => 0 }
}
)H");
  CHECK(run->codes() == Codes{"W0308", "W0308"});
}

TEST_CASE("capabilities must be given; agent fns report at the call") {
  auto run = check(R"H(context t
capability Fx { fn rate(to: String) -> Float }
agent A {
  key id: String
  fn stamp() -> Instant { Clock.now }
  on ok() given Clock, Logger {
    let at = stamp()
    Logger.info("x")
  }
  on bad() {
    let at = stamp()
  }
}
service S given Logger, Converter: Fx {
  on call go() given Random {
    let r = Converter.rate("EUR")
    Logger.warn("\(Random.int(1, 2))")
  }
}
)H");
  CHECK(run->codes() == Codes{"E0401"});
  REQUIRE(run->diags->diagnostics().size() == 1);
  const Diagnostic& d = run->diags->diagnostics()[0];
  CHECK(d.message == "capability 'Clock' is used without being given");
  REQUIRE(!d.notes.empty());
  CHECK(d.notes[0].hasRange);  // at the use inside the agent fn
  REQUIRE(d.fixits.size() == 1);
  CHECK(d.fixits[0].replacement == "given Clock ");

  const auto* agent = run->decl<AgentInfo>("t", "A");
  std::vector<std::string> used;
  for (const CapabilityInfo* c : agent->handlers[0].capabilitiesUsed)
    used.push_back(c->name);
  CHECK(used == std::vector<std::string>{"Clock", "Logger"});
  const auto* service = run->decl<ServiceInfo>("t", "S");
  used.clear();
  for (const CapabilityInfo* c : service->handlers[0].capabilitiesUsed)
    used.push_back(c->name);
  CHECK(used == std::vector<std::string>{"Fx", "Logger", "Random"});
  REQUIRE(agent->fns.size() == 1);
  CHECK(agent->fns[0]->capabilitiesUsed.size() == 1);
}

TEST_CASE("pure fns, store initialisers and invariants use no capabilities") {
  auto run = check(R"H(context t
fn f() -> Instant { Clock.now }
fn g() -> Instant { Clock.now }
agent A {
  key id: String
  store n: Int = Random.int(1, 2)
  invariant i: n > Random.int(0, 1)
}
)H");
  CHECK(run->codes() == Codes{"E0402", "E0402", "E0402", "E0406"});
}

TEST_CASE("stores: written only from agents, and only stores") {
  auto run = check(R"H(context t
fn f(x: Int) { x := 1 }
agent A {
  key id: String
  store n: Int = 0
  on h(p: Int) {
    n := p
    p := 2
    m := 3
    n := "no"
  }
}
)H");
  CHECK(run->codes() == Codes{"E0403", "E0404", "E0404", "E0301"});
}

TEST_CASE(
    "agent fns: effects merge transitively into callers, recursion ends") {
  auto run = check({{"rooms.herald", R"H(context rooms
agent Room {
  key id: String
  on post(text: String) { }
}
)H"},
                    {"shop.herald", R"H(context shop
consumes rooms
event Sold = { n: Int }
agent Shop {
  key id: String
  store count: Int = 0
  store total: Int = 0
  fn tick(n: Int) -> Int {
    count := count + 1
    if n > 0 { tock(n - 1) } else { 0 }
  }
  fn tock(n: Int) -> Int {
    total := total + n
    Events.emit(Sold { n: n })
    tick(n)
  }
  on sell(n: Int) given Events, Rooms: Ref[Room] {
    Rooms(id).post("a")
    let x = tick(n)
    Rooms(id).post("b")
  }
  on call peek() -> Int { count + total }
}
)H"}});
  CHECK(run->codes() == Codes{});
  const auto* shop = run->decl<AgentInfo>("shop", "Shop");
  const HandlerInfo& sell = shop->handlers[0];
  CHECK(sell.commit.writes == std::vector<std::string>{"count", "total"});
  REQUIRE(sell.commit.emits.size() == 1);
  CHECK(sell.commit.emits[0]->qualified == "shop.Sold");
  REQUIRE(sell.commit.sends.size() == 2);
  CHECK(sell.commit.sends[0].handler == "post");
  CHECK(sell.commit.sends[0].range.begin < sell.commit.sends[1].range.begin);
  REQUIRE(sell.capabilitiesUsed.size() == 1);
  CHECK(sell.capabilitiesUsed[0]->name == "Events");
  CHECK(shop->handlers[1].commit.readOnly());
  // Both fns see each other's effects.
  CHECK(shop->fns[0]->commit.writes ==
        std::vector<std::string>{"count", "total"});
  CHECK(shop->fns[1]->commit.writes ==
        std::vector<std::string>{"count", "total"});
}

TEST_CASE("commit shapes: emits sorted by name and unique; writes sorted") {
  auto run = check({{"rooms.herald", R"H(context rooms
agent Room {
  key id: String
  on post(text: String) { }
  on ping() { }
}
)H"},
                    {"shop.herald", R"H(context shop
consumes rooms
event B = { n: Int }
event A = { n: Int }
agent Shop {
  key id: String
  store z: Int = 0
  store a: Int = 0
  on sell(n: Int) given Events, Rooms: Ref[Room] {
    z := n
    Events.emit(B { n: n })
    Rooms(id).ping()
    a := n
    z := n + 1
    Events.emit(A { n: n })
    Events.emit(B { n: 2 })
    Rooms(id).post("sold")
  }
}
)H"}});
  CHECK(run->codes() == Codes{});
  const HandlerInfo& sell = run->decl<AgentInfo>("shop", "Shop")->handlers[0];
  REQUIRE(sell.commit.emits.size() == 2);
  CHECK(sell.commit.emits[0]->name == "A");
  CHECK(sell.commit.emits[1]->name == "B");
  CHECK(sell.commit.writes == std::vector<std::string>{"a", "z"});
  REQUIRE(sell.commit.sends.size() == 2);
  CHECK(sell.commit.sends[0].handler == "ping");
  CHECK(sell.commit.sends[1].handler == "post");
  CHECK(sell.commit.sends[1].agent->name == "Room");
}

TEST_CASE("messages: one-way, no result, only to unit handlers") {
  auto run = check(R"H(context t
agent Room {
  key id: String
  on post(text: String) { }
  on call size() -> Int { 0 }
}
service S given Rooms: Ref[Room] {
  on call go() -> Int {
    let a = Rooms("r").post("x")
    Rooms("r").size()
    Rooms("r").post(1)
    Rooms("r").post("y")
  }
}
)H");
  CHECK(run->codes() == Codes{"E0405", "E0409", "E0301", "E0405"});
}

TEST_CASE("emit rules: own events only, events only, inside handlers") {
  auto run = check(R"H(context a {
  event Mine = { n: Int }
  type Rec = { n: Int }
}
context b {
  consumes a
  event Ours = { n: Int }
  fn pure() { Events.emit(Ours { n: 1 }) }
  service S given Events {
    on call go() {
      Events.emit(Mine { n: 1 })
      Events.emit(Rec { n: 1 })
      Events.emit(Ours { n: 1 })
      Events.emit[Ours](Ours { n: 2 })
    }
  }
}
)H");
  CHECK(run->codes() == Codes{"E0402", "E0501", "E0502"});
  const auto* s = run->decl<ServiceInfo>("b", "S");
  REQUIRE(s->handlers[0].commit.emits.size() == 1);
  CHECK(s->handlers[0].commit.emits[0]->qualified == "b.Ours");
}

TEST_CASE("calls: argument count, labels, methods and capability ops") {
  auto run = check(R"H(context t
fn add(a: Int, b: Int) -> Int { a + b }
fn f(s: String, xs: List[Int], m: Map[String, Int]) -> Int {
  let a = add(a: 1, b: 2)
  let b = add(b: 1, a: 2)
  let c = add(1)
  let d = s.upper().len() + xs.append(1).len()
  let e: Option[Int] = m.get("k")
  let g = s.size()
  m.put("k", 1).len()
}
)H");
  CHECK(run->codes() == Codes{"E0303", "E0303", "E0302", "E0319"});
}

TEST_CASE("operators follow the language's operand rules") {
  auto run = check(R"H(context t
fn f(i: Int, x: Float, s: String, t: Instant, d: Duration) -> Bool {
  let a = t + d
  let b = t - t
  let c = s + s
  let e = i + x
  let g = s < s && d > 5.seconds
  let h = i == 1.5
  !(i > 0)
}
)H");
  CHECK(run->codes() == Codes{"E0314", "E0314"});
  const FnInfo* f = run->decl<FnInfo>("t", "f");
  auto stmts = f->fn->body->stmts;
  CHECK(displayName(run->program->bodies.lets.lookup(stmts[0])) == "Instant");
  CHECK(displayName(run->program->bodies.lets.lookup(stmts[1])) == "Duration");
}

TEST_CASE("malformed bodies do not crash or cascade") {
  auto run = check(R"H(context t
fn f() -> Int {
  let a = (1 +
  a + b
}
fn g() -> Int { h(
)H");
  for (const std::string& code : run->codes())
    CHECK(code.substr(0, 3) == "E01");
}

TEST_CASE("the payment example checks without diagnostics") {
  std::vector<std::pair<std::string, std::string>> files;
  for (const char* name :
       {"fx.herald", "notifications.herald", "order.herald", "rooms.herald"}) {
    std::ifstream in(std::string(HERALD_EXAMPLES_DIR) + "/payment/" + name);
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    files.emplace_back(name, text.str());
  }
  auto run = check(files);
  CHECK(run->codes() == Codes{});
  const HandlerInfo& markPaid =
      run->decl<AgentInfo>("commerce.order", "Order")->handlers[1];
  CHECK(markPaid.commit.writes ==
        std::vector<std::string>{"authorisation", "status"});
  REQUIRE(markPaid.commit.emits.size() == 1);
  CHECK(markPaid.commit.emits[0]->name == "PaymentConfirmed");
}

}  // namespace
}  // namespace herald::check
