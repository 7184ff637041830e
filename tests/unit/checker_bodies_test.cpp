// The bodies pass: expected-type inference, the body IR codegen reads,
// match exhaustiveness, effects and roles, and commit shapes.
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <llvm/Support/Casting.h>

#include "checker/checker.h"
#include "frontend/ast.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "ir/inst_views.h"
#include "ir/program.h"
#include "ir/verify.h"

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
  // The body IR of a context-level fn, and the instructions of its block.
  const Body& fnBody(llvm::StringRef ctx, llvm::StringRef fn) const {
    const FnInfo* f = decl<FnInfo>(ctx, fn);
    REQUIRE(f->body.valid());
    return program->bodies[f->body];
  }
  const Inst& inst(InstId id) const {
    REQUIRE(id.index() < program->bodies.insts.size());
    return program->bodies[id];
  }
  std::vector<InstId> operands(InstListId list) const {
    llvm::ArrayRef<InstId> ids = program->bodies.list(list);
    return {ids.begin(), ids.end()};
  }
  std::vector<InstId> stmts(const Body& body) const {
    const Inst& root = inst(body.root);
    REQUIRE(root.kind == InstKind::Block);
    return operands(root.as<Block>().stmts);
  }
  std::vector<InstId> stmts(llvm::StringRef ctx, llvm::StringRef fn) const {
    return stmts(fnBody(ctx, fn));
  }
  // What a statement computes: the value bound by a `let`, the value
  // written by `:=`, or the statement itself.
  const Inst& value(InstId stmt) const {
    const Inst& i = inst(stmt);
    if (i.is<Let>()) return inst(i.as<Let>().value);
    if (i.is<StoreWrite>()) return inst(i.as<StoreWrite>().value);
    return i;
  }
  std::string type(const Inst& i) const {
    return displayName(program->types.byId(i.type));
  }
  // The type of the slot a `let` binds.
  std::string letType(InstId stmt) const {
    const Inst& i = inst(stmt);
    REQUIRE(i.kind == InstKind::Let);
    return displayName(
        program->types.byId(program->bodies[i.as<Let>().slot].type));
  }
};

std::vector<std::string> storeNames(const std::vector<const StoreInfo*>& s) {
  std::vector<std::string> out;
  for (const StoreInfo* store : s) out.push_back(store->field.name);
  return out;
}

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

// The instruction operands of `inst` as the typed view of its kind names
// them, in operand order.
std::vector<InstId> viewOperands(const BodyIr& ir, const Inst& inst) {
  std::vector<InstId> out;
  auto add = [&](auto field) {
    using F = decltype(field);
    if constexpr (std::is_same_v<F, InstId>) {
      if (field.valid()) out.push_back(field);
    } else if constexpr (std::is_same_v<F, InstListId>) {
      for (InstId id : ir.list(field)) out.push_back(id);
    }
  };
#define HERALD_TEST_OPERAND_NoArg
#define HERALD_TEST_OPERAND_Arg(kind, name) add(view.name);
  switch (inst.kind) {
#define HERALD_INST(Name, spelling, Sub, A, B)             \
  case InstKind::Name: {                                   \
    [[maybe_unused]] const Name view = inst.as<Name>();    \
    HERALD_TEST_OPERAND_##A HERALD_TEST_OPERAND_##B break; \
  }
#include "ir/inst_kinds.def"
  }
#undef HERALD_TEST_OPERAND_NoArg
#undef HERALD_TEST_OPERAND_Arg
  return out;
}

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
  auto stmts = run->stmts("t", "f");
  REQUIRE(stmts.size() == 4);
  const Inst& paid = run->value(stmts[0]);
  CHECK(paid.kind == InstKind::Variant);
  CHECK(
      run->program->bodies.variants[paid.as<Variant>().variant].second->name ==
      "Paid");
  CHECK(run->type(paid) == "Status");
  CHECK(run->letType(stmts[1]) == "Bool");
  const Inst& cancelled = run->value(stmts[2]);
  CHECK(cancelled.kind == InstKind::Variant);
  CHECK(run->program->bodies.variants[cancelled.as<Variant>().variant]
            .second->index == 2);
  CHECK(run->operands(cancelled.as<Variant>().args).size() == 1);
  CHECK(run->value(stmts[3]).kind == InstKind::Variant);
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
  auto stmts = run->stmts("t", "f");
  REQUIRE(stmts.size() == 5);
  auto let = [&](std::size_t i) { return run->letType(stmts[i]); };
  CHECK(let(0) == "Option[Int]");
  CHECK(run->value(stmts[0]).kind == InstKind::OptionNone);
  CHECK(let(1) == "List[Money]");
  CHECK(run->value(stmts[1]).kind == InstKind::ListLit);
  CHECK(let(2) == "Option[String]");
  CHECK(run->value(stmts[2]).kind == InstKind::OptionSome);
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
  auto stmts = run->stmts("t", "f");
  REQUIRE(stmts.size() == 4);
  // The check carries its target type.
  CHECK(run->value(stmts[0]).kind == InstKind::RefineCheck);
  CHECK(run->type(run->value(stmts[0])) == "Q");
  CHECK(run->value(stmts[1]).kind == InstKind::RefineCheck);
  const Inst& sum = run->value(stmts[3]);
  CHECK(sum.kind == InstKind::Binary);
  CHECK(run->type(sum) == "Int");
  CHECK(run->inst(sum.as<Binary>().lhs).kind == InstKind::Unrefine);
}

TEST_CASE("locals: each let and binding is its own slot; shadowing resolved") {
  auto run = check(std::string(kTypes) + R"H(
fn f(n: Int) -> Int {
  let x = n
  let x = x + 1
  x
}
)H");
  CHECK(run->codes() == Codes{});
  const Body& body = run->fnBody("t", "f");
  CHECK(body.endSlot - body.firstSlot == 2);
  auto stmts = run->stmts(body);
  REQUIRE(stmts.size() == 3);
  SlotId first = run->inst(stmts[0]).as<Let>().slot;
  SlotId second = run->inst(stmts[1]).as<Let>().slot;
  CHECK(first != second);
  // `x + 1` reads the first x, the result the second.
  const Inst& plus = run->value(stmts[1]);
  const Inst& read = run->inst(plus.as<Binary>().lhs);
  CHECK(read.kind == InstKind::LocalRef);
  CHECK(read.as<LocalRef>().slot == first);
  CHECK(run->inst(stmts[2]).kind == InstKind::LocalRef);
  CHECK(run->inst(stmts[2]).as<LocalRef>().slot == second);
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
  REQUIRE(agent->handlers[0].body.valid());
  auto stmts = run->stmts(run->program->bodies[agent->handlers[0].body]);
  REQUIRE(stmts.size() == 4);
  const Inst& sum = run->value(stmts[0]);
  CHECK(run->inst(sum.as<Binary>().lhs).kind == InstKind::ParamRef);
  CHECK(run->inst(sum.as<Binary>().rhs).kind == InstKind::StoreRef);
  // `n := y` names its store.
  CHECK(run->inst(stmts[1]).kind == InstKind::StoreWrite);
  CHECK(run->inst(stmts[1]).as<StoreWrite>().store == 0);
  CHECK(run->value(stmts[1]).kind == InstKind::LocalRef);
  const Inst& field = run->value(stmts[2]);
  CHECK(field.kind == InstKind::FieldGet);
  CHECK(field.as<FieldGet>().field == 0);
  CHECK(run->inst(field.as<FieldGet>().base).kind == InstKind::ActorRef);
  CHECK(run->value(stmts[3]).kind == InstKind::KeyRef);
  CHECK(storeNames(agent->handlers[0].commit.writes) ==
        std::vector<std::string>{"n"});
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
  auto stmts = run->stmts("t", "f");
  CHECK(run->letType(stmts[0]) == "Int");
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
  auto stmts = ok->stmts("t", "f");
  const Inst& m = ok->value(stmts[1]);
  REQUIRE(m.kind == InstKind::Match);
  auto arms = ok->operands(m.as<Match>().arms);
  REQUIRE(arms.size() == 2);
  auto pattern = [&](InstId arm) {
    return ok->inst(arm).as<MatchArm>().pattern;
  };
  const Inst& some = ok->inst(pattern(arms[0]));
  REQUIRE(some.kind == InstKind::PatSome);
  const Inst& bind = ok->inst(some.as<PatSome>().inner);
  REQUIRE(bind.kind == InstKind::PatBind);
  CHECK(displayName(ok->program->types.byId(
            ok->program->bodies[bind.as<PatBind>().slot].type)) == "Int");
  CHECK(ok->inst(pattern(arms[1])).kind == InstKind::PatNone);
  // The arms of `match s` carry their variants.
  const Inst& first = ok->value(stmts[0]);
  const Inst& orPattern =
      ok->inst(pattern(ok->operands(first.as<Match>().arms)[0]));
  REQUIRE(orPattern.kind == InstKind::PatOr);
  CHECK(ok->inst(orPattern.as<PatOr>().lhs).kind == InstKind::PatVariant);

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
  CHECK(storeNames(sell.commit.writes) ==
        std::vector<std::string>{"count", "total"});
  REQUIRE(sell.commit.emits.size() == 1);
  CHECK(sell.commit.emits[0]->qualified == "shop.Sold");
  REQUIRE(sell.commit.sends.size() == 2);
  CHECK(sell.commit.sends[0].handler->name == "post");
  CHECK(sell.commit.sends[0].range.begin < sell.commit.sends[1].range.begin);
  REQUIRE(sell.capabilitiesUsed.size() == 1);
  CHECK(sell.capabilitiesUsed[0]->name == "Events");
  CHECK(shop->handlers[1].commit.readOnly());
  // Both fns see each other's effects.
  CHECK(storeNames(shop->fns[0]->commit.writes) ==
        std::vector<std::string>{"count", "total"});
  CHECK(storeNames(shop->fns[1]->commit.writes) ==
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
  CHECK(storeNames(sell.commit.writes) == std::vector<std::string>{"a", "z"});
  REQUIRE(sell.commit.sends.size() == 2);
  CHECK(sell.commit.sends[0].handler->name == "ping");
  CHECK(sell.commit.sends[1].handler->name == "post");
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
  auto stmts = run->stmts("t", "f");
  CHECK(run->letType(stmts[0]) == "Instant");
  CHECK(run->letType(stmts[1]) == "Duration");
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
  // Every instruction reads through the typed view of its kind: the
  // operands the view names are the ones its kind's argument kinds say.
  const BodyIr& ir = run->program->bodies;
  std::set<InstKind> kinds;
  for (std::uint32_t i = 0; i < ir.insts.size(); ++i) {
    const Inst& inst = ir[InstId(i)];
    kinds.insert(inst.kind);
    std::vector<InstId> walked;
    forEachOperand(ir, inst, [&](InstId id) { walked.push_back(id); });
    CHECK(viewOperands(ir, inst) == walked);
  }
  CHECK(kinds.size() > 30);
  const HandlerInfo& markPaid =
      run->decl<AgentInfo>("commerce.order", "Order")->handlers[1];
  CHECK(storeNames(markPaid.commit.writes) ==
        std::vector<std::string>{"authorisation", "status"});
  REQUIRE(markPaid.commit.emits.size() == 1);
  CHECK(markPaid.commit.emits[0]->name == "PaymentConfirmed");
  CHECK(verifyIr(*run->program).empty());
}

TEST_CASE("the IR verifier accepts a clean program and finds a planted error") {
  auto run = check(std::string(kTypes) + R"H(
fn f(s: Status) -> Bool {
  let b = s != Pending
  b
}
)H");
  CHECK(run->codes() == Codes{});
  CHECK(verifyIr(*run->program).empty());
  // An Error type in a body, as a checker bug would leave it.
  BodyIr& ir = run->program->bodies;
  REQUIRE(!ir.insts.empty());
  TypeId saved = ir.insts[0].type;
  ir.insts[0].type = run->program->types.error()->id;
  std::vector<std::string> problems = verifyIr(*run->program);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("the error type") != std::string::npos);
  ir.insts[0].type = saved;
  // An operand that is not an earlier instruction of its body.
  const Body& body = run->fnBody("t", "f");
  Inst& root = ir.insts[body.root.index()];
  REQUIRE(root.kind == InstKind::Block);
  InstId& first = ir.operands[ir.lists[root.as<Block>().stmts.index()].begin];
  InstId was = first;
  first = body.root;
  CHECK(verifyIr(*run->program).size() == 1);
  first = was;
  // An Error type in a declaration.
  auto* fn = const_cast<FnInfo*>(run->decl<FnInfo>("t", "f"));
  fn->sig.result = run->program->types.error();
  CHECK(verifyIr(*run->program).size() == 1);
}

TEST_CASE("the IR verifier finds an arm that is not an arm instruction") {
  auto run = check(std::string(kTypes) + R"H(
fn f(s: Status) -> Int {
  match s { Pending => 0, _ => 1 }
}
)H");
  CHECK(run->codes() == Codes{});
  CHECK(verifyIr(*run->program).empty());
  BodyIr& ir = run->program->bodies;
  const Inst& m = run->inst(run->stmts("t", "f")[0]);
  REQUIRE(m.kind == InstKind::Match);
  // The second arm replaced by the match's scrutinee, an earlier
  // instruction of another kind.
  InstId& arm = ir.operands[ir.lists[m.as<Match>().arms.index()].begin + 1];
  InstId was = arm;
  arm = m.as<Match>().scrutinee;
  std::vector<std::string> problems = verifyIr(*run->program);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("not an arm instruction") != std::string::npos);
  arm = was;
  CHECK(verifyIr(*run->program).empty());
}

}  // namespace
}  // namespace herald::check
