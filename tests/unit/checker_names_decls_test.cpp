// The checker's name passes: contexts merged across files, declarations
// and members (duplicates), type resolution, signatures.
#include <algorithm>
#include <cstdint>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "checker_names_util.h"

using herald::check::ActorInfo;
using herald::check::AgentInfo;
using herald::check::CapabilityInfo;
using herald::check::displayName;
using herald::check::EventInfo;
using herald::check::FnInfo;
using herald::check::ServiceInfo;
using herald::check::TypeDefKind;
using herald::check::TypeInfo;
using herald::check::TypeKind;
using herald::test::runNames;
using Lines = std::vector<std::string>;

TEST_CASE("a context split over files and blocks is one context") {
  auto run = runNames({{"b.herald", R"(context z { type Z = { a: Int } }
context shop.cart { type Cart = { items: List[Item] } }
context z { event Zed = { z: Z } }
)"},
                       {"a.herald", R"(context shop.cart
type Item = { sku: String }
fn total(c: Cart) -> Int { 0 }
)"}});
  REQUIRE_FALSE(run->parseErrors);
  CHECK(run->diagnostics() == Lines{});
  REQUIRE(run->program->contexts.size() == 2);
  const auto& cart = run->context("shop.cart");
  CHECK(cart.parts.size() == 2);
  REQUIRE(cart.decls.size() == 3);
  // Files in the order they were given (file ids), then source order.
  CHECK(cart.decls[0]->name == "Cart");
  CHECK(cart.decls[1]->name == "Item");
  CHECK(cart.decls[2]->name == "total");
  CHECK(cart.decls[2]->qualified == "shop.cart.total");
  const auto& z = run->context("z");
  CHECK(z.parts.size() == 2);
  const auto* zed = run->decl<EventInfo>("z", "Zed");
  REQUIRE(zed != nullptr);
  CHECK(zed->fields[0].type == run->decl<TypeInfo>("z", "Z")->type);
  const auto* total = run->decl<FnInfo>("shop.cart", "total");
  REQUIRE(total != nullptr);
  CHECK(total->sig.result->kind == TypeKind::Int);
  CHECK(displayName(total->sig.params[0].type) == "Cart");
  CHECK(total->pure());
}

TEST_CASE("duplicate declarations share one namespace across kinds") {
  auto run = runNames({{"a.herald", R"(context shop
type Money = { cents: Int }
event Paid = { amount: Money }
)"},
                       {"b.herald", R"(context shop
actor Money
agent Paid { key id: String }
)"}});
  CHECK(run->diagnostics() ==
        Lines{"E0204 b.herald:2:7 'Money' is declared twice in context 'shop'",
              "E0204 b.herald:3:7 'Paid' is declared twice in context 'shop'"});
  CHECK(run->notes("E0204") == Lines{"a.herald:2:6 first declared here",
                                     "a.herald:3:7 first declared here"});
  // The first declaration keeps the name; both are declarations.
  CHECK(run->decl<TypeInfo>("shop", "Money") != nullptr);
  CHECK(run->context("shop").decls.size() == 4);
}

TEST_CASE("duplicate members, fields, variants, parameters") {
  auto run = runNames(R"(context shop
type Money = { cents: Int, cents: Int }
type Region = | Domestic | Domestic | Abroad(x: Int, x: Int)
event Paid = { amount: Money, amount: Money }
actor Clerk(id: String, id: String)
capability Tax { fn rate() -> Int
  fn rate() -> Int }
agent Order {
  key id: String
  key other: String
  store id: Int
  store total: Int
  store total: Int
  invariant ok: total >= 0
  invariant ok: total < 10
  on place(a: Int, a: Int) { }
  on place() { }
  fn total() -> Int { 0 }
}
service Api given Clock, Clock {
  on call ping() given Logger, Logger { }
  on call ping() { }
  fn f() { }
  fn f() { }
}
)");
  REQUIRE_FALSE(run->parseErrors);
  CHECK(run->diagnostics() ==
        Lines{
            "E0209 test.herald:2:28 field 'cents' is declared twice",
            "E0209 test.herald:3:28 variant 'Domestic' is declared twice",
            "E0209 test.herald:3:54 field 'x' is declared twice",
            "E0209 test.herald:4:31 field 'amount' is declared twice",
            "E0209 test.herald:5:25 parameter 'id' is declared twice",
            "E0209 test.herald:7:6 operation 'rate' is declared twice",
            "E0209 test.herald:10:7 key of agent 'Order' is declared twice",
            "E0209 test.herald:11:9 store 'id' is declared twice",
            "E0209 test.herald:13:9 store 'total' is declared twice",
            "E0209 test.herald:15:13 invariant 'ok' is declared twice",
            "E0209 test.herald:16:20 parameter 'a' is declared twice",
            "E0209 test.herald:17:6 handler 'place' is declared twice",
            "E0209 test.herald:18:6 function 'total' is declared twice",
            "E0209 test.herald:20:26 dependency 'Clock' is declared twice",
            "E0209 test.herald:21:32 dependency 'Logger' is declared twice",
            "E0209 test.herald:22:11 handler 'ping' is declared twice",
            "E0209 test.herald:24:6 function 'f' is declared twice",
        });
  const auto* money = run->decl<TypeInfo>("shop", "Money");
  CHECK(money->fields.size() == 1);
  const auto* region = run->decl<TypeInfo>("shop", "Region");
  REQUIRE(region->variants.size() == 2);
  CHECK(region->variants[1].index == 1);
  CHECK(region->variants[1].fields.size() == 1);
  const auto* order = run->decl<AgentInfo>("shop", "Order");
  CHECK(order->key->name == "id");
  CHECK(order->stores.size() == 3);
  CHECK(order->handlers.size() == 2);
  const auto* api = run->decl<ServiceInfo>("shop", "Api");
  CHECK(api->given.size() == 1);
  CHECK(api->handlers[0].given.size() == 1);
}

TEST_CASE("types: built-ins, generics, declared, aliases, refined, opaque") {
  auto run = runNames(R"(context shop
type Qty = Int where self > 0
type Code = opaque Qty where self < 100
type When = Instant
type Ids = Map[String, List[Option[When]]]
type Later = Ids
type Box = { q: Qty, c: Code, w: When, ids: Later, e: EventEnvelope, u: () }
agent Room { key id: String }
capability Tax { fn rate(q: Qty) -> Float }
service S given Rooms: Ref[Room], T: Tax, Tax, Duty: Clock {
  on call f(d: Duration, b: Bool) -> Box { fail("x") }
}
)");
  REQUIRE_FALSE(run->parseErrors);
  CHECK(run->diagnostics() == Lines{});
  const auto* qty = run->decl<TypeInfo>("shop", "Qty");
  CHECK(qty->def == TypeDefKind::Refined);
  CHECK(qty->type->kind == TypeKind::Named);
  CHECK(qty->type->named == qty);
  CHECK(qty->base->kind == TypeKind::Int);
  CHECK(qty->refinement != nullptr);
  const auto* code = run->decl<TypeInfo>("shop", "Code");
  CHECK(code->def == TypeDefKind::Opaque);
  CHECK(code->base == qty->type);
  const auto* when = run->decl<TypeInfo>("shop", "When");
  CHECK(when->def == TypeDefKind::Alias);
  CHECK(when->type->kind == TypeKind::Instant);
  const auto* later = run->decl<TypeInfo>("shop", "Later");
  CHECK(displayName(later->type) == "Map[String, List[Option[Instant]]]");
  const auto* box = run->decl<TypeInfo>("shop", "Box");
  CHECK(box->fields[0].type == qty->type);
  CHECK(box->fields[2].type == when->type);
  CHECK(box->fields[3].type == later->type);
  CHECK(box->fields[4].type->kind == TypeKind::Envelope);
  CHECK(box->fields[5].type->kind == TypeKind::Unit);
  const auto* s = run->decl<ServiceInfo>("shop", "S");
  REQUIRE(s->given.size() == 4);
  CHECK(displayName(s->given[0].type) == "Ref[Room]");
  CHECK(s->given[1].named);
  CHECK(s->given[1].type->capability ==
        run->decl<CapabilityInfo>("shop", "Tax"));
  CHECK_FALSE(s->given[2].named);
  CHECK(s->given[2].name == "Tax");
  CHECK(s->given[3].name == "Duty");
  CHECK(s->given[3].type->capability->name == "Clock");
  CHECK(s->handlers[0].result == box->type);
}

TEST_CASE("type argument counts and things that are not types") {
  auto run = runNames(R"(context shop
actor Clerk
agent Room { key id: String }
type Money = { cents: Int }
type A = { a: Option, b: Map[String], c: Int[String], d: Money[Int] }
type B = { a: Clerk, b: Room, c: Ref[Money], d: Ref[Int], e: Ref[Room, Room] }
)");
  REQUIRE_FALSE(run->parseErrors);
  CHECK(
      run->diagnostics() ==
      Lines{
          std::string("E0313 test.herald:5:15 'Option' takes 1 type "
                      "argument(s) but 0 ") +
              "were given",
          std::string(
              "E0313 test.herald:5:26 'Map' takes 2 type argument(s) but 1 ") +
              "were given",
          std::string("E0313 test.herald:5:42 'Int' takes 0 type argument(s) "
                      "but 1 were ") +
              "given",
          std::string("E0313 test.herald:5:58 'Money' takes 0 type argument(s) "
                      "but 1 ") +
              "were given",
          "E0207 test.herald:6:15 'Clerk' is an actor, not a type",
          "E0207 test.herald:6:25 'Room' is an agent, not a type",
          "E0301 test.herald:6:38 expected 'an agent', found 'Money'",
          "E0301 test.herald:6:53 expected 'an agent', found 'Int'",
          std::string(
              "E0313 test.herald:6:62 'Ref' takes 1 type argument(s) but 2 ") +
              "were given",
      });
  CHECK(run->notes("E0207") ==
        Lines{"test.herald:2:7 'Clerk' is declared here",
              "help: write 'Ref[Room]' for the address of an agent"});
}

TEST_CASE("alias cycles are reported once, at their first declaration") {
  auto run = runNames({{"a.herald", R"(context shop
type User = { a: A }
type B = List[C]
type Self = Self
type A = B
type C = Option[A]
type D = A
type Q = R where self > 0
type R = opaque Q
)"}});
  REQUIRE_FALSE(run->parseErrors);
  CHECK(run->diagnostics() ==
        Lines{"E0312 a.herald:3:6 type 'B' is defined in terms of itself",
              "E0312 a.herald:4:6 type 'Self' is defined in terms of itself",
              "E0312 a.herald:8:6 type 'Q' is defined in terms of itself"});
  CHECK(run->notes("E0312") == Lines{"help: the cycle: B -> C -> A -> B",
                                     "help: the cycle: Q -> R -> Q"});
  for (const char* name : {"A", "B", "C", "D", "Self"}) {
    CAPTURE(name);
    CHECK(run->decl<TypeInfo>("shop", name)->type->kind == TypeKind::Error);
  }
  CHECK(run->decl<TypeInfo>("shop", "User")->fields[0].type->kind ==
        TypeKind::Error);
  CHECK(run->decl<TypeInfo>("shop", "Q")->base->kind == TypeKind::Error);
  CHECK(run->decl<TypeInfo>("shop", "R")->base->kind == TypeKind::Error);
}

TEST_CASE("by, given: unknown actors and bad dependencies") {
  const std::string kForms =
      "`given` lists capabilities (`Logger`, `fx.Converter`) and named "
      "dependencies `Name: Ref[Agent]` or `Name: Capability`";
  auto run = runNames(R"(context shop
actor Customer(id: String)
type Money = { cents: Int }
agent Room { key id: String }
agent Order {
  key id: String
  on a() by Custmer { }
  on b() by c: Customer { }
  on c() by Money { }
  on d() given Money, Room, Logr, x: Int, r: Ref[Room] { }
}
)");
  CHECK(run->diagnostics() ==
        Lines{
            "E0407 test.herald:7:13 no actor named 'Custmer'",
            "E0407 test.herald:9:13 no actor named 'Money'",
            "E0408 test.herald:10:16 'Money' is a type, not a capability; " +
                kForms,
            "E0408 test.herald:10:23 'Room' is an agent, not a capability; " +
                kForms,
            "E0201 test.herald:10:29 cannot find 'Logr' in this scope",
            "E0408 test.herald:10:38 dependency 'x' has type 'Int'; " + kForms,
        });
  CHECK(run->notes("E0201") == Lines{"help: did you mean 'Logger'?"});
  const auto* order = run->decl<AgentInfo>("shop", "Order");
  CHECK(order->handler("a")->by == nullptr);
  const auto* b = order->handler("b");
  CHECK(b->by == run->decl<ActorInfo>("shop", "Customer"));
  CHECK(b->byBinder == "c");
  const auto* d = order->handler("d");
  REQUIRE(d->given.size() == 5);
  CHECK(d->given[4].name == "r");
  CHECK(d->given[4].type->kind == TypeKind::Ref);
  for (const auto& dep : d->given) CHECK(dep.type != nullptr);
}

TEST_CASE("static functions attach to a type of their own context") {
  auto run = runNames({{"a.herald", R"(context shop
consumes other
type Money = { cents: Int }
agent Room { key id: String }
fn Money.zero() -> Money { Money { cents: 0 } }
fn Money.zero() -> Money { Money { cents: 0 } }
fn Mony.one() -> Int { 1 }
fn Room.make() -> Int { 1 }
fn Far.make() -> Int { 1 }
)"},
                       {"b.herald", "context other\ntype Far = { a: Int }\n"}});
  REQUIRE_FALSE(run->parseErrors);
  CHECK(run->diagnostics() ==
        Lines{
            "E0209 a.herald:6:10 function 'Money.zero' is declared twice",
            "E0202 a.herald:7:4 cannot find type 'Mony'",
            "E0207 a.herald:8:4 'Room' is an agent, not a type",
            "E0202 a.herald:9:4 cannot find type 'Far'",
        });
  CHECK(run->notes("E0202") ==
        Lines{"help: did you mean 'Money'?",
              "help: 'Far' is declared in context 'other'; a static function "
              "must be declared in its type's context"});
  const auto* money = run->decl<TypeInfo>("shop", "Money");
  REQUIRE(money->staticFns.size() == 1);
  CHECK(money->staticFns[0]->ownerType == money);
  CHECK(money->staticFns[0]->sig.result == money->type);
}

TEST_CASE("first-party capabilities and their operations") {
  auto run = runNames("context shop\n");
  const auto& caps = run->program->firstParty;
  REQUIRE(caps.size() == 5);
  CHECK(caps[0]->name == "Events");
  CHECK(caps[0]->context == nullptr);
  CHECK(caps[0]->type->capability == caps[0].get());
  CHECK(caps[1]->op("now")->sig.result->kind == TypeKind::Instant);
  CHECK(caps[1]->op("now")->sig.params.empty());
  CHECK(caps[2]->op("warn")->sig.params[0].name == "message");
  CHECK(caps[3]->op("remember")->sig.params[1].type->kind ==
        TypeKind::Duration);
  CHECK(caps[3]->op("seen")->sig.result->kind == TypeKind::Bool);
  CHECK(caps[4]->op("int")->sig.params.size() == 2);
  CHECK(caps[4]->op("uuid")->sig.result->kind == TypeKind::String);
}

TEST_CASE("consumes: unknown contexts and names, with suggestions") {
  auto run = runNames({{"a.herald", R"(context shop
consumes comerce.order
consumes commerce.order { Mony, OrderId }
consumes shop
consumes nowhere.at.all
)"},
                       {"b.herald",
                        "context commerce.order\ntype Money = "
                        "{ a: Int }\ntype OrderId = opaque "
                        "String\n"}});
  REQUIRE_FALSE(run->parseErrors);
  CHECK(run->diagnostics() ==
        Lines{"E0203 a.herald:2:10 no context named 'comerce.order'",
              std::string(
                  "E0206 a.herald:3:27 context 'commerce.order' declares no ") +
                  "'Mony'",
              "E0203 a.herald:5:10 no context named 'nowhere.at.all'"});
  CHECK(run->notes("E0203") == Lines{"help: did you mean 'commerce.order'?"});
  CHECK(run->notes("E0206") == Lines{"help: did you mean 'Money'?"});
  const auto& shop = run->context("shop");
  REQUIRE(shop.consumes.size() == 4);
  CHECK(shop.consumes[0].target == nullptr);
  CHECK(shop.consumes[1].restricted);
  CHECK(shop.consumes[1].only == Lines{"Mony", "OrderId"});
  CHECK(shop.consumes[2].target == &shop);
}

TEST_CASE("closest names are suggested only when close") {
  using herald::check::closestName;
  const Lines names{"Money", "OrderId", "PaymentConfirmed", "X"};
  CHECK(closestName("Mony", names) == "Money");
  CHECK(closestName("PaymentConfimred", names) == "PaymentConfirmed");
  CHECK(closestName("Order", names) == "OrderId");
  CHECK(closestName("Orange", names) == "");
  CHECK(closestName("Ab", names) == "");
  CHECK(closestName("Y", names) == "X");
  CHECK(closestName("Money", names) == "");
  CHECK(closestName("Zzzzz", names) == "");
}

TEST_CASE("a suggestion lookup computes a bounded number of distances") {
  using herald::check::closestName;
  using herald::check::kMaxComparedPerLookup;
  using herald::check::SpellingStats;
  Lines sameLength;
  for (int i = 0; i < 100000; ++i)
    sameLength.push_back(fmt::format("N{:06}", i));
  SpellingStats stats;
  // Only "N999999" is close, and it comes after the cap.
  CHECK(closestName("Z999999", sameLength, &stats) == "");
  CHECK(stats.compared == kMaxComparedPerLookup);
  // Candidates whose length alone rules them out cost no distance.
  Lines tooLong;
  for (int i = 0; i < 100000; ++i)
    tooLong.push_back(fmt::format("Long{:020}", i));
  stats = {};
  CHECK(closestName("Mony", tooLong, &stats) == "");
  CHECK(stats.compared == 0);
}

TEST_CASE(
    "a program with thousands of unknown names gets bounded suggestions") {
  using herald::check::kMaxComparedPerLookup;
  using herald::check::Speller;
  // 200 contexts of 10 types each; 4000 misspelt uses of them in fields,
  // each with a close candidate, and 100 misspelt `consumes` lines.
  std::string text;
  for (int c = 0; c < 200; ++c) {
    text += fmt::format("context c{} {{\n", c);
    for (int t = 0; t < 10; ++t)
      text += fmt::format("type Type{}x{} = Int\n", c, t);
    text += "}\n";
  }
  // Unknown contexts in `consumes` lines of a context of their own: there
  // they would silence its unknown bare names.
  text += "context other {\n";
  for (int c = 0; c < 100; ++c) text += fmt::format("consumes cc{}\n", c);
  text += "}\ncontext user {\n";
  for (int c = 0; c < 200; ++c) text += fmt::format("consumes c{}\n", c);
  for (int i = 0; i < 4000; ++i)
    text += fmt::format("type U{} = {{ f: Type{}x{}y }}\n", i, i % 200, i % 10);
  text += "}\n";
  auto run = runNames(std::move(text));
  REQUIRE_FALSE(run->parseErrors);
  const Lines codes = run->codes();
  // Every mistake is still reported; only the suggestions stop.
  CHECK(std::count(codes.begin(), codes.end(), "E0203") == 100);
  CHECK(std::count(codes.begin(), codes.end(), "E0202") == 4000);
  CHECK(run->spelling.lookups == Speller::kMaxLookups);
  CHECK(run->spelling.compared <=
        std::uint64_t{Speller::kMaxLookups} * kMaxComparedPerLookup);
}

TEST_CASE("one alias for two contexts is a duplicate; for one, harmless") {
  auto run = runNames({{"a.herald", R"(context shop
consumes billing as b
consumes billing as b
consumes banking as b
)"},
                       {"b.herald", "context billing\ntype X = { a: Int }\n"},
                       {"c.herald", "context banking\ntype Y = { a: Int }\n"}});
  REQUIRE_FALSE(run->parseErrors);
  CHECK(run->diagnostics() ==
        Lines{"E0209 a.herald:4:21 alias 'b' is declared twice"});
  CHECK(run->notes("E0209") == Lines{"a.herald:2:21 first declared here"});
}
