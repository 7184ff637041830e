// The parser on valid input: every construct, its AST shape and ranges,
// precedence, line breaks, doc comments.
#include <doctest/doctest.h>

#include "parser_test_util.h"

using namespace herald;
using namespace herald::test;
using llvm::cast;
using llvm::isa;

namespace {

// Parses a valid file: no diagnostics, every range well nested.
Parsed parseOk(std::string text) {
  Parsed p = parseText(std::move(text));
  INFO(fmt::format("{}", fmt::join(p.diagnostics(), "\n")));
  CHECK(p.diags->diagnostics().empty());
  CHECK(checkRanges(p.file()) == "");
  return p;
}

std::string exprShape(const std::string& source) {
  ExprResult r = parseExpr(source);
  INFO(source);
  INFO(fmt::format("{}", fmt::join(r.parsed.diagnostics(), "\n")));
  CHECK(r.parsed.diags->diagnostics().empty());
  CHECK(checkRanges(r.parsed.file()) == "");
  return r.expr != nullptr ? shape(r.expr) : "<not one expression>";
}

}  // namespace

TEST_CASE("contexts: header form covers the rest of the file") {
  Parsed p = parseOk("context commerce.order\n\ntype A = Int\nactor B\n");
  REQUIRE(p.file().contexts.size() == 1);
  const ast::ContextDecl& ctx = p.context();
  CHECK_FALSE(ctx.blockForm);
  CHECK(p.text(ctx.name.range) == "commerce.order");
  REQUIRE(ctx.name.parts.size() == 2);
  CHECK(ctx.name.parts[1].name == "order");
  CHECK(ctx.decls.size() == 2);
  CHECK(p.text(ctx.range) == "context commerce.order\n\ntype A = Int\nactor B");
}

TEST_CASE("contexts: several block-form contexts in one file") {
  Parsed p = parseOk(
      "context a.b { type X = Int }\n"
      "context c { }\n"
      "context d.e.f {\n  actor Q\n  actor R\n}\n");
  REQUIRE(p.file().contexts.size() == 3);
  CHECK(p.context(0).blockForm);
  CHECK(p.text(p.context(0).range) == "context a.b { type X = Int }");
  CHECK(p.context(1).decls.empty());
  CHECK(p.context(2).decls.size() == 2);
  CHECK(p.context(2).name.parts.size() == 3);
}

TEST_CASE("consumes: the three forms") {
  Parsed p = parseOk(
      "context x\n"
      "consumes commerce.order\n"
      "consumes commerce.order as order\n"
      "consumes commerce.order { PaymentConfirmed, OrderId, }\n");
  const auto* plain = cast<ast::ConsumesDecl>(p.decl(0));
  CHECK(p.text(plain->context.range) == "commerce.order");
  CHECK(plain->alias.empty());
  CHECK_FALSE(plain->hasOnly);
  const auto* aliased = cast<ast::ConsumesDecl>(p.decl(1));
  CHECK(aliased->alias.name == "order");
  const auto* only = cast<ast::ConsumesDecl>(p.decl(2));
  CHECK(only->hasOnly);
  REQUIRE(only->only.size() == 2);
  CHECK(only->only[1].name == "OrderId");
  CHECK(p.text(only->range) ==
        "consumes commerce.order { PaymentConfirmed, OrderId, }");
}

TEST_CASE("type declarations: record, sum, opaque, refinement, alias") {
  Parsed p = parseOk(
      "context x\n"
      "type Money = { cents: Int, currency: String, }\n"
      "type Region = | Domestic | International | Refunded(reason: String)\n"
      "type Two = A | B\n"
      "type One = | Only\n"
      "type OrderId = opaque String\n"
      "type Email = opaque String where len(self) <= 254\n"
      "type Quantity = Int where self > 0 && self <= 10_000\n"
      "type Timestamp = Instant\n"
      "type Lookup = Map[String, List[Int]]\n"
      "type Nothing = ()\n");
  const auto* money = cast<ast::TypeDecl>(p.decl(0));
  CHECK(money->def == ast::TypeDefKind::Record);
  REQUIRE(money->fields.size() == 2);
  CHECK(p.text(money->fields[1].range) == "currency: String");

  const auto* region = cast<ast::TypeDecl>(p.decl(1));
  CHECK(region->def == ast::TypeDefKind::Sum);
  REQUIRE(region->variants.size() == 3);
  CHECK_FALSE(region->variants[0].hasParens);
  CHECK(region->variants[2].hasParens);
  CHECK(p.text(region->variants[2].range) == "Refunded(reason: String)");
  REQUIRE(region->variants[2].fields.size() == 1);

  const auto* two = cast<ast::TypeDecl>(p.decl(2));
  CHECK(two->def == ast::TypeDefKind::Sum);
  CHECK(two->variants.size() == 2);
  const auto* one = cast<ast::TypeDecl>(p.decl(3));
  CHECK(one->def == ast::TypeDefKind::Sum);
  CHECK(one->variants.size() == 1);

  const auto* opaque = cast<ast::TypeDecl>(p.decl(4));
  CHECK(opaque->def == ast::TypeDefKind::Opaque);
  CHECK(opaque->refinement == nullptr);
  const auto* email = cast<ast::TypeDecl>(p.decl(5));
  CHECK(email->def == ast::TypeDefKind::Opaque);
  CHECK(shape(email->refinement) == "(len(self) <= 254)");
  const auto* qty = cast<ast::TypeDecl>(p.decl(6));
  CHECK(qty->def == ast::TypeDefKind::Alias);
  CHECK(shape(qty->refinement) == "((self > 0) && (self <= 10000))");
  const auto* alias = cast<ast::TypeDecl>(p.decl(7));
  CHECK(alias->def == ast::TypeDefKind::Alias);
  CHECK(alias->refinement == nullptr);
  const auto* lookup = cast<ast::TypeDecl>(p.decl(8));
  REQUIRE(lookup->base->args.size() == 2);
  CHECK(p.text(lookup->base->args[1]->range) == "List[Int]");
  const auto* unit = cast<ast::TypeDecl>(p.decl(9));
  CHECK(unit->base->kind == ast::TypeExprKind::Unit);
}

TEST_CASE("events: equals optional, annotations before or after, defaults") {
  Parsed p = parseOk(
      "context x\n"
      "event PaymentConfirmed = {\n"
      "  orderId: OrderId,\n"
      "  region: Region = Region.Domestic,\n"
      "  note: Option[String] = None,\n"
      "}\n"
      "@schema(3) event Shipped = { orderId: OrderId }\n"
      "event Returned @schema(2) { orderId: OrderId }\n"
      "@deprecated @schema(1) event Old { }\n");
  const auto* paid = cast<ast::EventDecl>(p.decl(0));
  CHECK(paid->hasEquals);
  CHECK(paid->annotations.empty());
  REQUIRE(paid->fields.size() == 3);
  CHECK(paid->fields[0].defaultValue == nullptr);
  CHECK(shape(paid->fields[1].defaultValue) == "Region.Domestic");
  CHECK(shape(paid->fields[2].defaultValue) == "None");

  const auto* shipped = cast<ast::EventDecl>(p.decl(1));
  REQUIRE(shipped->annotations.size() == 1);
  CHECK(shipped->annotations[0].name.name == "schema");
  CHECK(shipped->annotations[0].hasParens);
  CHECK(shape(shipped->annotations[0].args[0]) == "3");
  CHECK(p.text(shipped->range) ==
        "@schema(3) event Shipped = { orderId: OrderId }");

  const auto* returned = cast<ast::EventDecl>(p.decl(2));
  CHECK_FALSE(returned->hasEquals);
  REQUIRE(returned->annotations.size() == 1);
  CHECK(p.text(returned->annotations[0].range) == "@schema(2)");

  const auto* old = cast<ast::EventDecl>(p.decl(3));
  REQUIRE(old->annotations.size() == 2);
  CHECK_FALSE(old->annotations[0].hasParens);
  CHECK(old->fields.empty());
}

TEST_CASE("actors, capabilities and functions") {
  Parsed p = parseOk(
      "context x\n"
      "actor InternalCaller\n"
      "actor Customer(identity: UserId)\n"
      "capability Converter {\n"
      "  fn convert(amount: Money, to: String) -> Money\n"
      "  fn ping()\n"
      "}\n"
      "fn regionOf(u: UserId) -> Region { Domestic }\n"
      "fn RoomId.forUser(u: UserId) -> RoomId { RoomId(u.raw) }\n"
      "fn nothing() { }\n");
  const auto* internal = cast<ast::ActorDecl>(p.decl(0));
  CHECK_FALSE(internal->hasParens);
  const auto* customer = cast<ast::ActorDecl>(p.decl(1));
  CHECK(customer->hasParens);
  REQUIRE(customer->params.size() == 1);
  CHECK(p.text(customer->params[0].range) == "identity: UserId");

  const auto* cap = cast<ast::CapabilityDecl>(p.decl(2));
  REQUIRE(cap->ops.size() == 2);
  CHECK(cap->ops[0]->body == nullptr);
  CHECK(p.text(cap->ops[0]->range) ==
        "fn convert(amount: Money, to: String) -> Money");
  CHECK(cap->ops[1]->returnType == nullptr);

  const auto* regionOf = cast<ast::FnDecl>(p.decl(3));
  CHECK(regionOf->ownerType.empty());
  CHECK(regionOf->body != nullptr);
  const auto* forUser = cast<ast::FnDecl>(p.decl(4));
  CHECK(forUser->ownerType.name == "RoomId");
  CHECK(forUser->name.name == "forUser");
  CHECK(p.text(forUser->range) ==
        "fn RoomId.forUser(u: UserId) -> RoomId { RoomId(u.raw) }");
}

TEST_CASE("functions: a given list after the result type, as on handlers") {
  Parsed p = parseOk(
      "context x\n"
      "fn settle(id: OrderId) -> () given Pay: PaymentProvider, "
      "Ledgers: Ref[Ledger], Clock { () }\n"
      "fn plain() given Events {}\n"
      "fn none() {}\n");
  const auto* settle = cast<ast::FnDecl>(p.decl(0));
  REQUIRE(settle->given.size() == 3);
  CHECK(settle->given[0].name.name == "Pay");
  CHECK(p.text(settle->given[1].range) == "Ledgers: Ref[Ledger]");
  CHECK(settle->given[2].name.empty());
  CHECK(p.text(settle->given[2].type->range) == "Clock");
  const auto* plain = cast<ast::FnDecl>(p.decl(1));
  CHECK(plain->returnType == nullptr);
  REQUIRE(plain->given.size() == 1);
  CHECK(p.text(plain->range) == "fn plain() given Events {}");
  CHECK(cast<ast::FnDecl>(p.decl(2))->given.empty());
}

TEST_CASE("capability operations take no given list") {
  Parsed p = parseText(
      "context x\n"
      "capability C {\n"
      "  fn op() given Clock\n"
      "}\n");
  CHECK_FALSE(p.codes().empty());
  CHECK(p.codes()[0] == "E0100");
}

TEST_CASE("agents: keys, stores, invariants, handlers, local functions") {
  Parsed p = parseOk(
      "context x\n"
      "agent Order {\n"
      "  key id: OrderId\n"
      "  store customer: Option[UserId] = None\n"
      "  store count: Int\n"
      "  invariant positive: count >= 0\n"
      "  on place(buyer: UserId, amount: Money,) { customer := Some(buyer) }\n"
      "  on call statusOf() -> Status { status }\n"
      "  on markPaid(a: AuthId) by InternalCaller given Events, Clock { }\n"
      "  on cancel() by c: Customer given Rooms: Ref[chat.rooms.Room], "
      "Fx.Converter { }\n"
      "  fn helper() -> Int { 1 }\n"
      "}\n");
  const auto* agent = cast<ast::AgentDecl>(p.decl(0));
  REQUIRE(agent->members.size() == 9);
  CHECK(isa<ast::KeyDecl>(agent->members[0]));
  const auto* customer = cast<ast::StoreDecl>(agent->members[1]);
  CHECK(shape(customer->init) == "None");
  CHECK(cast<ast::StoreDecl>(agent->members[2])->init == nullptr);
  const auto* inv = cast<ast::InvariantDecl>(agent->members[3]);
  CHECK(inv->name.name == "positive");
  CHECK(shape(inv->condition) == "(count >= 0)");

  const auto* place = cast<ast::HandlerDecl>(agent->members[4]);
  CHECK_FALSE(place->isCall);
  CHECK(place->params.size() == 2);
  CHECK(place->by == nullptr);
  const auto* status = cast<ast::HandlerDecl>(agent->members[5]);
  CHECK(status->isCall);
  CHECK(p.text(status->returnType->range) == "Status");
  const auto* paid = cast<ast::HandlerDecl>(agent->members[6]);
  REQUIRE(paid->by != nullptr);
  CHECK(paid->by->binder.empty());
  CHECK(p.text(paid->by->range) == "by InternalCaller");
  REQUIRE(paid->given.size() == 2);
  CHECK(paid->given[0].name.empty());
  CHECK(p.text(paid->given[1].type->range) == "Clock");
  const auto* cancel = cast<ast::HandlerDecl>(agent->members[7]);
  CHECK(cancel->by->binder.name == "c");
  CHECK(p.text(cancel->by->actor.range) == "Customer");
  REQUIRE(cancel->given.size() == 2);
  CHECK(cancel->given[0].name.name == "Rooms");
  CHECK(p.text(cancel->given[0].type->range) == "Ref[chat.rooms.Room]");
  CHECK(p.text(cancel->given[1].range) == "Fx.Converter");
  CHECK(isa<ast::FnDecl>(agent->members[8]));
}

TEST_CASE("services: subscription, via, given, on event") {
  Parsed p = parseOk(
      "context x\n"
      "service OnDomestic\n"
      "    from Events(commerce.order.PaymentConfirmed { region: "
      "Region.Domestic, .. })\n"
      "    given Rooms: Ref[chat.rooms.Room] {\n"
      "  on event(e: commerce.order.PaymentConfirmed) { }\n"
      "}\n"
      "service Audit from Events(PaymentConfirmed) via schema(2..) given "
      "Logger { }\n"
      "service Angle from Events(E < region: Domestic, .. >) { }\n"
      "service Api { on call get() -> Int { 1 } fn local() { } }\n");
  const auto* domestic = cast<ast::ServiceDecl>(p.decl(0));
  REQUIRE(domestic->from != nullptr);
  CHECK(domestic->from->source.name == "Events");
  CHECK(p.text(domestic->from->eventType->range) ==
        "commerce.order.PaymentConfirmed");
  REQUIRE(domestic->from->pattern != nullptr);
  CHECK(shape(domestic->from->pattern) == "{region: Region.Domestic, ..}");
  CHECK(domestic->from->via == nullptr);
  REQUIRE(domestic->given.size() == 1);
  REQUIRE(domestic->members.size() == 1);
  CHECK(cast<ast::HandlerDecl>(domestic->members[0])->name.name == "event");

  const auto* audit = cast<ast::ServiceDecl>(p.decl(1));
  CHECK(audit->from->pattern == nullptr);
  REQUIRE(audit->from->via != nullptr);
  CHECK(audit->from->via->spec == ast::VersionSpecKind::AtLeast);
  CHECK(audit->from->via->low == 2);
  CHECK(p.text(audit->from->range) ==
        "from Events(PaymentConfirmed) via schema(2..)");

  const auto* angle = cast<ast::ServiceDecl>(p.decl(2));
  CHECK(angle->from->pattern->angle);
  CHECK(shape(angle->from->pattern) == "<region: Domestic, ..>");

  const auto* api = cast<ast::ServiceDecl>(p.decl(3));
  CHECK(api->from == nullptr);
  CHECK(api->members.size() == 2);
}

TEST_CASE("via schema: every version form, and other names kept") {
  struct Case {
    const char* via;
    ast::VersionSpecKind kind;
    std::int64_t low;
    std::int64_t high;
  };
  const Case cases[] = {
      {"schema(2)", ast::VersionSpecKind::Exact, 2, 2},
      {"schema(2..)", ast::VersionSpecKind::AtLeast, 2, 0},
      {"schema(..3)", ast::VersionSpecKind::AtMost, 0, 3},
      {"schema(1..2)", ast::VersionSpecKind::Between, 1, 2},
      {"schema(_)", ast::VersionSpecKind::Any, 0, 0},
      {"schema(-1)", ast::VersionSpecKind::Exact, -1, -1},
      {"version(0)", ast::VersionSpecKind::Exact, 0, 0},
  };
  for (const Case& c : cases) {
    INFO(c.via);
    Parsed p = parseOk(std::string("context x\nservice S from Events(E) via ") +
                       c.via + " { }\n");
    const auto* via = cast<ast::ServiceDecl>(p.decl(0))->from->via;
    REQUIRE(via != nullptr);
    CHECK(via->spec == c.kind);
    CHECK(via->low == c.low);
    CHECK(via->high == c.high);
    CHECK(p.text(via->range) == std::string("via ") + c.via);
  }
  Parsed p =
      parseOk("context x\nservice S from Events(E) via version(3) { }\n");
  CHECK(cast<ast::ServiceDecl>(p.decl(0))->from->via->name.name == "version");
}

TEST_CASE("subscription patterns: the full value-pattern grammar") {
  auto pattern = [](const std::string& text) {
    Parsed p =
        parseOk("context x\nservice S from Events(E " + text + ") { }\n");
    const auto* sub = cast<ast::ServiceDecl>(p.decl(0))->from;
    REQUIRE(sub->pattern != nullptr);
    CHECK(p.text(sub->pattern->range) == text);
    return shape(sub->pattern);
  };
  CHECK(pattern("{ a: 1, b: -7, c: \"x\", d: true, e: 2.5, .. }") ==
        "{a: 1, b: -(7), c: \"x\", d: true, e: 2.5, ..}");
  CHECK(pattern("{ r: Domestic, s: Region.Refunded(reason: \"x\", ..), .. }") ==
        "{r: Domestic, s: Region.Refunded(reason: \"x\", ..), ..}");
  CHECK(pattern("{ a: _, b: 1..5, c: 3.., d: ..-2, .. }") ==
        "{a: _, b: 1..5, c: 3.., d: ..-(2), ..}");
  CHECK(pattern("{ a: A | B | C, .. }") == "{a: ((A | B) | C), ..}");
  CHECK(pattern("{ amount: { cents: 0..100, .. }, .. }") ==
        "{amount: {cents: 0..100, ..}, ..}");
  CHECK(pattern("{ note: None, other: Some(\"x\"), .. }") ==
        "{note: None, other: Some(\"x\"), ..}");
  CHECK(pattern("{ v: Variant(), w: Variant(..), .. }") ==
        "{v: Variant(), w: Variant(..), ..}");
  // Accepted for the checker to judge: no rest marker, nothing but it.
  CHECK(pattern("{ a: 1 }") == "{a: 1}");
  CHECK(pattern("{ a: 1, }") == "{a: 1}");
  CHECK(pattern("{ .. }") == "{..}");
  CHECK(pattern("{ }") == "{}");
  CHECK(pattern("< a: 1 | 2, .. >") == "<a: (1 | 2), ..>");
}

TEST_CASE("record pattern: rest range and flags") {
  Parsed p = parseOk("context x\nservice S from Events(E { a: 1, .. }) { }\n");
  const ast::RecordPattern* pat =
      cast<ast::ServiceDecl>(p.decl(0))->from->pattern;
  CHECK(pat->hasRest);
  CHECK(p.text(pat->restRange) == "..");
  CHECK_FALSE(pat->angle);
  CHECK(p.text(pat->fields[0].range) == "a: 1");
}

TEST_CASE("statements: let, typed let, store write, expression") {
  Body b = parseBody(
      "let a = 1\n"
      "let b: List[Int] = []\n"
      "total := total + 1\n"
      "Events.emit(x)");
  REQUIRE(b.stmts.size() == 4);
  CHECK(b.stmts[0]->kind == ast::StmtKind::Let);
  CHECK(b.stmts[0]->type == nullptr);
  CHECK(b.parsed.text(b.stmts[0]->range) == "let a = 1");
  CHECK(b.stmts[1]->type != nullptr);
  CHECK(b.parsed.text(b.stmts[1]->type->range) == "List[Int]");
  CHECK(b.stmts[2]->kind == ast::StmtKind::Assign);
  CHECK(b.stmts[2]->name.name == "total");
  CHECK(shape(b.stmts[2]->value) == "(total + 1)");
  CHECK(b.stmts[3]->kind == ast::StmtKind::Expr);
  CHECK(checkRanges(b.parsed.file()) == "");
}

TEST_CASE("expressions: precedence and associativity") {
  CHECK(exprShape("a || b && c") == "(a || (b && c))");
  CHECK(exprShape("a && b || c") == "((a && b) || c)");
  CHECK(exprShape("a == b && c != d") == "((a == b) && (c != d))");
  CHECK(exprShape("a < b + c") == "(a < (b + c))");
  CHECK(exprShape("a + b * c") == "(a + (b * c))");
  CHECK(exprShape("a * b + c") == "((a * b) + c)");
  CHECK(exprShape("a - b - c") == "((a - b) - c)");
  CHECK(exprShape("a / b % c") == "((a / b) % c)");
  CHECK(exprShape("-a * b") == "(-(a) * b)");
  CHECK(exprShape("!a.b") == "!(a.b)");
  CHECK(exprShape("!a || b") == "(!(a) || b)");
  CHECK(exprShape("- -a") == "-(-(a))");
  CHECK(exprShape("-x.f(1)") == "-(x.f(1))");
  CHECK(exprShape("a >= b || c <= d") == "((a >= b) || (c <= d))");
  CHECK(exprShape("(a + b) * c") == "(((a + b)) * c)");
  CHECK(exprShape("a.b.c(d)[T].e") == "a.b.c(d)[T].e");
}

TEST_CASE("expressions: calls, fields, type application, literals") {
  CHECK(exprShape("f(a, label: b,)") == "f(a, label: b)");
  CHECK(exprShape("f()") == "f()");
  CHECK(exprShape("Events.emit[E](v)") == "Events.emit[E](v)");
  CHECK(exprShape("Rooms(RoomId.forUser(e.userId)).systemMessage(\"hi\")") ==
        "Rooms(RoomId.forUser(e.userId)).systemMessage(\"hi\")");
  CHECK(exprShape("Money { cents: 0, currency: \"EUR\", }") ==
        "Money{cents: 0, currency: \"EUR\"}");
  CHECK(exprShape("commerce.order.Money { cents: 1 }") ==
        "commerce.order.Money{cents: 1}");
  CHECK(exprShape("Empty {}") == "Empty{}");
  CHECK(exprShape("[]") == "[]");
  CHECK(exprShape("[1, 2, 3,]") == "[1, 2, 3]");
  CHECK(exprShape("[:]") == "[:]");
  CHECK(exprShape("[ : ]") == "[:]");
  CHECK(exprShape("[\"a\": 1]") == "[\"a\": 1]");
  CHECK(exprShape("[\"a\": 1, \"b\": x + 1,]") == "[\"a\": 1, \"b\": (x + 1)]");
  CHECK(exprShape("[k: [1: [:]]]") == "[k: [1: [:]]]");
  CHECK(exprShape("()") == "()");
  CHECK(exprShape("250.ms") == "250.ms");
  CHECK(exprShape("7.days") == "7.days");
  CHECK(exprShape("3.25") == "3.25");
  CHECK(exprShape("1_000") == "1000");
  CHECK(exprShape("true") == "true");
  CHECK(exprShape("fail(\"no\")") == "fail(\"no\")");
  CHECK(exprShape("{ let a = 1\n a }") == "{ let a = 1; a; }");
}

TEST_CASE("expressions: interpolated strings") {
  ExprResult r = parseExpr("\"paid \\(amount.cents) of \\(f(\"x\")) \\(y)\"");
  REQUIRE(r.expr != nullptr);
  const auto* s = cast<ast::StringLitExpr>(r.expr);
  REQUIRE(s->parts.size() == 6);
  CHECK(s->parts[0].text == "paid ");
  CHECK(shape(s->parts[1].expr) == "amount.cents");
  CHECK(s->parts[2].text == " of ");
  CHECK(shape(s->parts[3].expr) == "f(\"x\")");
  CHECK(s->parts[4].text == " ");
  CHECK(shape(s->parts[5].expr) == "y");
  CHECK(checkRanges(r.parsed.file()) == "");
  CHECK(exprShape("\"a\\tb\"") == "\"a\tb\"");
  CHECK(exprShape("\"\"") == "\"\"");
}

TEST_CASE("expressions: if, else if, else; match arms") {
  CHECK(exprShape("if a { 1 } else if b { 2 } else { 3 }") ==
        "if a { 1; } else if b { 2; } else { 3; }");
  CHECK(exprShape("if ready { go() }") == "if ready { go(); }");
  CHECK(exprShape("if (T { a: 1 }).ok { }") == "if (T{a: 1}).ok { }");
  CHECK(exprShape("if f(T { a: 1 }) { }") == "if f(T{a: 1}) { }");
  CHECK(exprShape("match customer { Some(u) => u, None => fail(\"x\") }") ==
        "match customer { Some(u) => u, None => fail(\"x\") }");
  CHECK(exprShape("match x {\n  1 => a\n  -1 => b\n  2..5 | 9 => c,\n"
                  "  Region.Refunded(reason: r, ..) => d\n  _ => e,\n}") ==
        "match x { 1 => a, -(1) => b, (2..5 | 9) => c, "
        "Region.Refunded(reason: r, ..) => d, _ => e }");
  CHECK(exprShape("match x { }") == "match x { }");
  CHECK(exprShape("match (T { a: 1 }) { _ => 0 }") ==
        "match (T{a: 1}) { _ => 0 }");
}

TEST_CASE("line breaks: ( [ - { on a new line start a new statement") {
  Body calls = parseBody("f\n(x)\ng (y)");
  REQUIRE(calls.stmts.size() == 3);
  CHECK(shape(calls.stmts[0]->value) == "f");
  CHECK(shape(calls.stmts[1]->value) == "(x)");
  CHECK(shape(calls.stmts[2]->value) == "g(y)");

  Body minus = parseBody("a\n-1\nb - 1\nc -\n 1");
  REQUIRE(minus.stmts.size() == 4);
  CHECK(shape(minus.stmts[1]->value) == "-(1)");
  CHECK(shape(minus.stmts[2]->value) == "(b - 1)");
  CHECK(shape(minus.stmts[3]->value) == "(c - 1)");

  Body lists = parseBody("emit\n[1]\nemit[E]");
  REQUIRE(lists.stmts.size() == 3);
  CHECK(shape(lists.stmts[1]->value) == "[1]");
  CHECK(shape(lists.stmts[2]->value) == "emit[E]");

  Body braces = parseBody("T { a: 1 }\nx\n{ y }");
  REQUIRE(braces.stmts.size() == 3);
  CHECK(shape(braces.stmts[0]->value) == "T{a: 1}");
  CHECK(shape(braces.stmts[2]->value) == "{ y; }");

  Body chained = parseBody("a\n  .b\n  .c(1)");
  REQUIRE(chained.stmts.size() == 1);
  CHECK(shape(chained.stmts[0]->value) == "a.b.c(1)");
  CHECK(calls.parsed.diags->diagnostics().empty());
  CHECK(minus.parsed.diags->diagnostics().empty());
  CHECK(braces.parsed.diags->diagnostics().empty());
}

TEST_CASE("doc comments attach to the declaration they precede") {
  Parsed p = parseOk(
      "---\nThe order context.\n---\n"
      "context commerce.order\n"
      "---\nMoney in cents.\n---\n"
      "type Money = { cents: Int }\n"
      "type Plain = Int\n"
      "agent A {\n"
      "  ---\n  The key.\n  ---\n"
      "  key id: Int\n"
      "}\n"
      "---\nPinned.\n---\n"
      "@schema(2) event E { }\n");
  CHECK(p.context().doc == "The order context.");
  CHECK(p.decl(0)->doc == "Money in cents.");
  CHECK(p.decl(1)->doc.empty());
  CHECK(cast<ast::AgentDecl>(p.decl(2))->members[0]->doc.contains("The key."));
  CHECK(p.decl(3)->doc == "Pinned.");
}

TEST_CASE("ranges: every node of a full program is well nested") {
  Parsed p = parseOk(
      "context commerce.order\n"
      "consumes chat.rooms { Room }\n"
      "type Region = | Domestic | Refunded(reason: String = \"x\")\n"
      "event Paid = { amount: Money, region: Region = Region.Domestic }\n"
      "agent Order {\n"
      "  key id: OrderId\n"
      "  store items: List[Item] = []\n"
      "  on pay(a: Int) by c: Customer given Events {\n"
      "    let m = match c.identity { Some(u) => u, _ => fail(\"\\(a)\") }\n"
      "    items := items.append(Item { n: -a * 2, s: \"s \\(m.x) t\" })\n"
      "    if a > 0 { Events.emit[Paid](Paid { amount: m }) } else { () }\n"
      "  }\n"
      "}\n"
      "service S from Events(Paid { region: Refunded(reason: _, ..) | "
      "Domestic, .. })"
      " via schema(1..2) given Rooms: Ref[Room] {\n"
      "  on event(e: Paid, env: EventEnvelope) { "
      "Rooms(e.id).post(\"\\(env.eventId)\") }\n"
      "}\n");
  CHECK(p.context().decls.size() == 5);
}
