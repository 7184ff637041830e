// The parser on broken input: each syntax diagnostic with its location and
// message, recovery, and termination on arbitrary input.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "parser_test_util.h"

using namespace herald;
using namespace herald::test;
using llvm::cast;
using llvm::isa;

namespace {

std::vector<std::string> errorsOf(const std::string& text) {
  Parsed p = parseText(text);
  REQUIRE(p.result.file != nullptr);
  CHECK(checkRanges(p.file()) == "");
  return p.diagnostics();
}

// A file whose tokens cover every construct, to cut and shuffle.
const char* const kProgram =
    "---\ndoc\n---\n"
    "context commerce.order\n"
    "consumes chat.rooms as rooms\n"
    "type Money = { cents: Int, currency: String }\n"
    "type Region = | Domestic | Refunded(reason: String)\n"
    "type Q = Int where self > 0 && self <= 10\n"
    "@schema(2) event Paid = { amount: Money, region: Region = Domestic, }\n"
    "actor Customer(identity: UserId)\n"
    "capability Fx { fn convert(m: Money) -> Money }\n"
    "fn Money.zero() -> Money { Money { cents: 0, currency: \"EUR\" } }\n"
    "agent Order {\n"
    "  key id: OrderId\n"
    "  store total: Money = Money.zero()\n"
    "  invariant ok: total.cents >= 0\n"
    "  on call pay(m: Money) -> () by c: Customer given Events {\n"
    "    let x: Int = -m.cents * 2 + 1\n"
    "    total := m\n"
    "    match x { 1 | 2 => (), _ => fail(\"bad \\(x) \\(\"n\")\") }\n"
    "    if x < 1 { [1, 2] } else if !true { [] } else { 250.ms }\n"
    "    Events.emit[Paid](Paid { amount: m })\n"
    "  }\n"
    "}\n"
    "service S from Events(Paid < region: Refunded(reason: _, ..) | "
    "Domestic, amount: { cents: 1..5, .. }, .. >) via schema(1..) "
    "given Rooms: Ref[rooms.Room] {\n"
    "  on event(e: Paid) { Rooms(e.id).post(\"x\") }\n"
    "}\n";

}  // namespace

TEST_CASE("E0100: expected X, found Y, at the offending token") {
  CHECK(errorsOf("context a\ntype = Int\n") ==
        std::vector<std::string>{"E0100 2:6 expected identifier, found '='"});
  CHECK(errorsOf("context a\nfn f() { g(a b) }\n") ==
        std::vector<std::string>{
            "E0100 2:14 expected ')', ',', ':' or operator, found "
            "identifier 'b'"});
  CHECK(errorsOf("context a\nfn f() { let x = }\n") ==
        std::vector<std::string>{"E0100 2:18 expected expression, found '}'"});
  CHECK(errorsOf("context a\nagent A { type }\n") ==
        std::vector<std::string>{
            "E0100 2:11 expected '}' or agent member, found 'type'"});
  CHECK(errorsOf("context a { actor B\n") ==
        std::vector<std::string>{
            "E0100 2:1 expected '}', declaration or '(', found end of "
            "file"});
  CHECK(errorsOf("context a\nfn f() { match x { => 1 } }\n") ==
        std::vector<std::string>{
            "E0100 2:20 expected '}' or pattern, found '=>'"});
  CHECK(errorsOf("context a\nservice S from Events(E { a: }) { }\n") ==
        std::vector<std::string>{"E0100 2:30 expected pattern, found '}'"});
  // Many alternatives: the first four, then an ellipsis.
  CHECK(errorsOf("context a\ntype X = }\n") ==
        std::vector<std::string>{
            "E0100 2:10 expected identifier, 'opaque', '{', '(', \u2026, "
            "found '}'"});
}

// The parser reduces on default actions before it finds that a token does
// not fit; the expected tokens are those of the state where it was read.
TEST_CASE("E0100: the expected tokens are exactly those that fit") {
  // After a field's type: another field, the end, a default, or more of a
  // qualified or applied type; not ')' or ']'.
  CHECK(errorsOf("context a\ntype Money = { cents: Int currency: String }\n") ==
        std::vector<std::string>{
            "E0100 2:27 expected '}', ',', '[', '=', \u2026, found "
            "identifier 'currency'"});
  // In a record pattern, after `a: 1`: also an alternative or a range.
  CHECK(
      errorsOf("context a\nservice S from Events(E { a: 1 b: 2, .. }) {}\n") ==
      std::vector<std::string>{
          "E0100 2:32 expected '}', ',', '..' or '|', found identifier "
          "'b'"});
  // Before a handler's body: its optional parts too.
  CHECK(errorsOf("context a\nagent A {\n  on f(x: Int) = 1\n}\n") ==
        std::vector<std::string>{
            "E0100 3:16 expected 'by', 'given', '{' or '->', found '='"});
}

TEST_CASE("E0100: a misspelt declaration keyword, and the declarations after") {
  Parsed p = parseText(
      "context a\nconsume b\nevnet E = { x: Int }\ntype T = Int\n"
      "agnet A {\n  stor s: Int = 0\n  store t: Int = 0\n}\n"
      "sevice S {}\nactor C(id: String)\n");
  CHECK(p.diagnostics() ==
        std::vector<std::string>{
            "E0100 2:1 expected declaration, end of file, 'context', '{', "
            "\u2026, found identifier 'consume'",
            "E0100 3:1 expected declaration, end of file or 'context', found "
            "identifier 'evnet'",
            "E0100 5:1 expected declaration, end of file, 'context', 'where', "
            "\u2026, found identifier 'agnet'",
            "E0100 9:1 expected declaration, end of file or 'context', found "
            "identifier 'sevice'"});
  std::vector<std::string> meant;
  for (const Diagnostic& d : p.diags->diagnostics())
    for (const FixIt& f : d.fixits) meant.push_back(f.replacement);
  CHECK(meant ==
        std::vector<std::string>{"consumes", "event", "agent", "service"});
  // `type T` and `actor C` are parsed, not dropped with the errors.
  const auto& decls = p.context().decls;
  REQUIRE(decls.size() == 6);
  CHECK(isa<ast::TypeDecl>(decls[2]));
  CHECK(isa<ast::ActorDecl>(decls[5]));
}

TEST_CASE("E0100: names that only resemble keywords are not misspellings") {
  // `score := ...` and `state` alone are no declaration: no "did you mean".
  for (const char* text :
       {"context a\nagent A {\n  on call f() {\n    score := 1\n  }\n}\n",
        "context a\nstate\n", "context a\nenum E {}\n"}) {
    CAPTURE(text);
    Parsed p = parseText(text);
    for (const Diagnostic& d : p.diags->diagnostics()) CHECK(d.fixits.empty());
  }
}

TEST_CASE("E0100 at end of file notes the unclosed bracket") {
  Parsed p = parseText("context a\nfn f() {\n  g(1\n");
  REQUIRE(p.diags->diagnostics().size() == 1);
  const Diagnostic& d = p.diags->diagnostics()[0];
  CHECK(d.message == "expected ')', ',' or operator, found end of file");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "unclosed '(' opened here");
  CHECK(p.at(d.notes[0].range.begin).line == 3);
  // The function read so far is kept.
  REQUIRE(p.file().contexts.size() == 1);
}

TEST_CASE("E0101: declaration outside any context, once per run") {
  CHECK(errorsOf("type A = Int\ntype B = Int\ncontext c { }\nactor D\n") ==
        std::vector<std::string>{"E0101 1:1 declaration outside any context",
                                 "E0101 4:1 declaration outside any context"});
  Parsed p = parseText("actor A\n");
  CHECK(p.file().contexts.empty());
}

TEST_CASE("E0102 / E0103: header-form context mixed with others") {
  CHECK(errorsOf("context a { }\ncontext b\ntype T = Int\n") ==
        std::vector<std::string>{
            "E0102 2:9 context 'b' without braces must be the first thing "
            "in its file"});
  const auto after = errorsOf("context a\ntype T = Int\ncontext b { }\n");
  CHECK(after == std::vector<std::string>{
                     "E0103 3:9 context 'b' follows context 'a', which has "
                     "no braces and so extends to the end of the file"});
  Parsed p = parseText("context a\ntype T = Int\ncontext b\ntype U = Int\n");
  CHECK(p.codes() == std::vector<std::string>{"E0103"});
  REQUIRE(p.file().contexts.size() == 2);
  CHECK(p.context(1).decls.size() == 1);
}

TEST_CASE("E0104: nested context") {
  CHECK(errorsOf("context a {\n  context b { }\n}\n") ==
        std::vector<std::string>{
            "E0104 2:3 a context cannot be declared inside another "
            "declaration"});
}

TEST_CASE("E0105: chained comparison, reported once per chain") {
  ExprResult r = parseExpr("a < b < c < d");
  CHECK(r.parsed.diagnostics() ==
        std::vector<std::string>{
            "E0105 3:1 comparison operators cannot be chained"});
  REQUIRE(r.expr != nullptr);
  CHECK(shape(r.expr) == "(((a < b) < c) < d)");
  CHECK(errorsOf("context a\nfn f() { (a < b) == c }\n").empty());
  CHECK(errorsOf("context a\nfn f() { a == b != c }\n").size() == 1);
}

TEST_CASE("E0106: ':=' outside a statement start") {
  CHECK(errorsOf("context a\nfn f() { let x := 1 }\n") ==
        std::vector<std::string>{
            "E0106 2:16 ':=' can only write a store at the start of a "
            "statement: 'name := value'"});
  CHECK(errorsOf("context a\nfn f() { a.b := 1 }\n").size() == 1);
}

TEST_CASE("E0107: record literal as an if condition or match scrutinee") {
  Parsed p = parseText("context a\nfn f() { if T { a: 1 } { 2 } }\n");
  CHECK(p.diagnostics() ==
        std::vector<std::string>{
            "E0107 2:13 a record literal used as the 'if' condition needs "
            "parentheses"});
  REQUIRE(p.diags->diagnostics().size() == 1);
  const Diagnostic& d = p.diags->diagnostics()[0];
  REQUIRE(d.fixits.size() == 2);
  CHECK(d.fixits[0].replacement == "(");
  CHECK(d.fixits[1].replacement == ")");
  CHECK(p.text(d.range) == "T { a: 1 }");
  // Read as intended, so nothing else is reported.
  const auto* fn = cast<ast::FnDecl>(p.decl(0));
  const auto* ifExpr = cast<ast::IfExpr>(fn->body->stmts[0]->value);
  CHECK(shape(ifExpr->cond) == "T{a: 1}");
  CHECK(shape(ifExpr->thenBlock) == "{ 2; }");

  CHECK(errorsOf("context a\nfn f() { match T { a: 1 } { _ => 0 } }\n") ==
        std::vector<std::string>{
            "E0107 2:16 a record literal used as the 'match' scrutinee "
            "needs parentheses"});
}

TEST_CASE("E0108: record literal without a type name") {
  CHECK(errorsOf("context a\nfn f() { g() { a: 1 } }\n") ==
        std::vector<std::string>{
            "E0108 2:10 a record literal needs a type name before '{'"});
}

TEST_CASE("E0109: two statements on one line") {
  CHECK(errorsOf("context a\nfn f() { let x = g y }\n") ==
        std::vector<std::string>{
            "E0109 2:20 consecutive statements must be on separate lines"});
  CHECK(errorsOf("context a\nfn f() {\n  a\n  b }\n").empty());
}

TEST_CASE("E0110: nesting deeper than the limit stops the parse") {
  std::string deep = "context a\nfn f() { " + std::string(300, '(') + "1" +
                     std::string(300, ')') + " }\n";
  Parsed p = parseText(deep);
  CHECK(p.codes() == std::vector<std::string>{"E0110"});
}

TEST_CASE("E0112: an or-pattern past its width limit stops the parse") {
  std::string patterns = "context a\nfn f(x: Int) -> Int { match x { 0";
  for (int i = 1; i <= 5000; ++i) patterns += " | " + std::to_string(i);
  patterns += " => 1, _ => 0 } }\n";
  Parsed q = parseText(patterns);
  CHECK(q.codes() == std::vector<std::string>{"E0112"});
  CHECK(q.diagnostics().front().find(
            "or-pattern has more than 2048 alternatives") != std::string::npos);
  REQUIRE(q.result.file != nullptr);
}

TEST_CASE("E0110: chains are not nesting") {
  std::string sum = "context a\nfn f() -> Int { 1";
  for (int i = 0; i < 20000; ++i) sum += " + 1";
  sum += " }\n";
  CHECK(parseText(sum).codes().empty());

  // Past the 2048 links that once stopped the parse.
  std::string fields = "context a\nfn f() { a";
  for (int i = 0; i < 3000; ++i) fields += ".b";
  CHECK(parseText(fields + " }\n").codes().empty());

  std::string calls = "context a\nfn f() { g";
  for (int i = 0; i < 3000; ++i) calls += i % 2 == 0 ? "()" : ".h[T]().i";
  CHECK(parseText(calls + " }\n").codes().empty());

  std::string branches = "context a\nfn f(x: Int) -> Int { if x == 0 { 0 }";
  for (int i = 1; i < 3000; ++i)
    branches +=
        " else if x == " + std::to_string(i) + " { " + std::to_string(i) + " }";
  branches += " else { 1 } }\n";
  CHECK(parseText(branches).codes().empty());

  std::string prefix = "context a\nfn f() -> Int { ";
  for (int i = 0; i < 3000; ++i) prefix += i % 2 == 0 ? "!" : "- ";
  CHECK(parseText(prefix + "x }\n").codes().empty());

  // A short run in a pattern is reported at the operator that is wrong.
  CHECK(errorsOf("context a\nfn f(x: Int) -> Int { match x { - -5 => 1, _ "
                 "=> 0 } }\n") ==
        std::vector<std::string>{"E0100 2:35 expected integer literal or "
                                 "float literal, found '-'"});
  // Around the length where a run becomes one token.
  for (int n : {15, 16, 17}) {
    CAPTURE(n);
    CHECK(parseText("context a\nfn f() -> Bool { " + std::string(n, '!') +
                    "x }\n")
              .codes()
              .empty());
  }

  // Brackets still count, however the chain around them is spelt.
  std::string bracketed = "context a\nfn f() { a";
  for (int i = 0; i < 300; ++i) bracketed += ".b(c";
  bracketed += std::string(300, ')') + " }\n";
  CHECK(parseText(bracketed).codes() == std::vector<std::string>{"E0110"});
}

TEST_CASE(
    "E0111: a file past the expression limit is reported, its AST dropped") {
  const std::string text = "context a\nfn f() -> Int { 1 + 2 + 3 }\n";
  Parsed within;
  within.id = within.sources->addFile("test.herald", text);
  within.result =
      parse(within.sources->file(within.id), *within.diags, ParseLimits{6});
  CHECK(within.codes().empty());
  CHECK(within.file().exprCount == 6);  // 1, 2, 1 + 2, 3, 1 + 2 + 3, block
  CHECK(within.file().contexts.size() == 1);

  Parsed over;
  over.id = over.sources->addFile("test.herald", text);
  over.result = parse(over.sources->file(over.id), *over.diags, ParseLimits{5});
  CHECK(over.diagnostics() ==
        std::vector<std::string>{
            "E0111 1:1 file holds more than 5 expressions; split it into "
            "several files"});
  CHECK(over.file().contexts.empty());
}

TEST_CASE("expression ids are dense per parse, in creation order") {
  Parsed p = parseText("context a\nfn f() -> Int { 1 + 2 }\n");
  REQUIRE(p.codes().empty());
  CHECK(p.file().exprCount == 4);  // 1, 2, `1 + 2`, the body block
}

TEST_CASE("recovery: independent errors are all reported, the AST stays") {
  Parsed p = parseText(
      "context a.b {\n"
      "  type A = \n"  // 1: missing type
      "  agent Ag {\n"
      "    key id: Int\n"
      "    on f(x: ) { let y = 1 }\n"  // 2: missing param type
      "    on g() {\n"
      "      let z = = 3\n"  // 3: stray '='
      "      z\n"
      "    }\n"
      "    store s: Int = 1\n"
      "  }\n"
      "  event E = { a: Int, b: , c: String }\n"  // 4: missing field type
      "  actor Last\n"
      "}\n");
  CHECK(p.codes() ==
        std::vector<std::string>{"E0100", "E0100", "E0100", "E0100"});
  const auto lines = p.diagnostics();
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].starts_with("E0100 3:3 "));
  CHECK(lines[1].starts_with("E0100 5:13 "));
  CHECK(lines[2].starts_with("E0100 7:15 "));
  CHECK(lines[3].starts_with("E0100 12:26 "));
  CHECK(checkRanges(p.file()) == "");

  const ast::ContextDecl& ctx = p.context();
  REQUIRE(ctx.decls.size() == 4);
  CHECK(isa<ast::ErrorDecl>(ctx.decls[0]));
  const auto* agent = cast<ast::AgentDecl>(ctx.decls[1]);
  REQUIRE(agent->members.size() == 4);
  const auto* f = cast<ast::HandlerDecl>(agent->members[1]);
  CHECK(f->params[0].type->kind == ast::TypeExprKind::Error);
  const auto* g = cast<ast::HandlerDecl>(agent->members[2]);
  CHECK(g->body->stmts[0]->kind == ast::StmtKind::Error);
  CHECK(isa<ast::StoreDecl>(agent->members[3]));
  const auto* event = cast<ast::EventDecl>(ctx.decls[2]);
  REQUIRE(event->fields.size() == 3);
  CHECK(event->fields[1].type->kind == ast::TypeExprKind::Error);
  CHECK(isa<ast::ActorDecl>(ctx.decls[3]));
}

TEST_CASE("recovery: errors in arguments, record literals, match arms") {
  Parsed p = parseText(
      "context a\n"
      "fn f() {\n"
      "  g(1, , 3)\n"
      "  let r = T { a: 1, b: }\n"
      "  match x { 1 => a, => b, 3 => c }\n"
      "  done()\n"
      "}\n");
  CHECK(p.codes().size() == 3);
  const auto* fn = cast<ast::FnDecl>(p.decl(0));
  REQUIRE(fn->body->stmts.size() == 4);
  CHECK(shape(fn->body->stmts[0]->value) == "g(1, <error>, 3)");
  CHECK(shape(fn->body->stmts[1]->value) == "T{a: 1, : <error>}");
  CHECK(shape(fn->body->stmts[2]->value) ==
        "match x { 1 => a, <error> => <error>, 3 => c }");
  CHECK(shape(fn->body->stmts[3]->value) == "done()");
}

// A declaration keyword first on its line ends a broken declaration and
// starts the next one, wherever the error was.
TEST_CASE("recovery: an error in a parameter list keeps the rest of the file") {
  Parsed p = parseText(
      "context x {\n"
      "  fn f( -> Int { 1 }\n"
      "  type A = Int\n"
      "}\n"
      "context y {\n"
      "  type B = = Int\n"
      "}\n");
  CHECK(p.diagnostics() ==
        std::vector<std::string>{
            "E0100 2:9 expected ')' or identifier, found '->'",
            "E0100 6:12 expected identifier, 'opaque', '{', '(', \u2026, "
            "found '='"});
  REQUIRE(p.file().contexts.size() == 2);
  REQUIRE(p.context(0).decls.size() == 2);
  CHECK(isa<ast::ErrorDecl>(p.decl(0)));
  CHECK(p.text(p.decl(0)->range) == "fn f( -> Int { 1 }");
  CHECK(cast<ast::TypeDecl>(p.decl(1))->name.name == "A");
  CHECK(p.text(p.context(1).name.range) == "y");
  CHECK(checkRanges(p.file()) == "");

  Parsed h = parseText(
      "context x\n"
      "fn f(a: Int, -> Int { 1 }\n"
      "type A = Int\n");
  CHECK(h.diagnostics() ==
        std::vector<std::string>{
            "E0100 2:14 expected ')' or identifier, found '->'"});
  REQUIRE(h.context().decls.size() == 2);
  CHECK(cast<ast::TypeDecl>(h.decl(1))->name.name == "A");
}

TEST_CASE("recovery: a broken declaration does not swallow the next one") {
  Parsed p = parseText(
      "context ev\n"
      "event = { a: Int }\n"
      "event NoBody\n"
      "event Bad = { a: Int = }\n");
  CHECK(p.diagnostics() ==
        std::vector<std::string>{
            "E0100 2:7 expected identifier, found '='",
            "E0100 4:1 expected '{', '=' or '@', found 'event'",
            "E0100 4:24 expected expression, found '}'"});
  const ast::ContextDecl& ctx = p.context();
  REQUIRE(ctx.decls.size() == 3);
  // Each error node covers its own declaration only.
  CHECK(p.text(ctx.decls[0]->range) == "event = { a: Int }");
  CHECK(p.text(ctx.decls[1]->range) == "event NoBody");
  const auto* bad = cast<ast::EventDecl>(ctx.decls[2]);
  CHECK(bad->name.name == "Bad");
  REQUIRE(bad->fields.size() == 1);
  CHECK(bad->fields[0].type->kind == ast::TypeExprKind::Error);
  CHECK(checkRanges(p.file()) == "");

  Parsed a = parseText(
      "context c\n"
      "agent A {\n"
      "  on place(x: Int)\n"
      "  on call () {}\n"
      "}\n");
  CHECK(a.diagnostics() ==
        std::vector<std::string>{
            "E0100 4:3 expected 'by', 'given', '{' or '->', found 'on'",
            "E0100 4:11 expected identifier or 'event', found '('"});
  const auto* agent = cast<ast::AgentDecl>(a.decl(0));
  REQUIRE(agent->members.size() == 2);
  const auto* place = cast<ast::HandlerDecl>(agent->members[0]);
  CHECK(place->name.name == "place");
  CHECK(a.text(place->range) == "on place(x: Int)");
  REQUIRE(place->body->stmts.size() == 1);
  CHECK(place->body->stmts[0]->kind == ast::StmtKind::Error);
  const auto* second = cast<ast::HandlerDecl>(agent->members[1]);
  CHECK(second->isCall);
  CHECK(second->name.empty());
  CHECK(a.at(second->name.range.begin).column == 11);
  CHECK(checkRanges(a.file()) == "");
}

TEST_CASE("recovery: every declaration keyword on a new line resynchronises") {
  // One broken declaration before each kind of declaration and member.
  const std::vector<std::string> starts = {
      "type T = Int",     "event E { a: Int }", "fn g() { 1 }",
      "agent G { }",      "service S { }",      "actor Q",
      "capability C { }", "consumes other",     "@schema(2) event F { }"};
  for (const std::string& start : starts) {
    std::string text = "context c\nfn f(a: Int -> \n";
    text += start;
    text += '\n';
    Parsed p = parseText(text);
    INFO(start);
    CHECK(p.diags->diagnostics().size() == 1);
    REQUIRE(p.context().decls.size() == 2);
    CHECK(isa<ast::ErrorDecl>(p.decl(0)));
    CHECK_FALSE(isa<ast::ErrorDecl>(p.decl(1)));
    CHECK(checkRanges(p.file()) == "");
  }
  // Brackets left open by the broken declaration: what cannot be a member
  // still starts the next declaration.
  Parsed open = parseText("context c\nfn f(a: { ( \ntype T = Int\n");
  REQUIRE(open.context().decls.size() == 2);
  CHECK(isa<ast::TypeDecl>(open.decl(1)));
  CHECK(open.diags->diagnostics().size() == 1);
  const std::vector<std::string> members = {"key k: Int", "store s: Int",
                                            "invariant i: true", "on h() { }",
                                            "fn g() { }"};
  for (const std::string& member : members) {
    std::string text = "context c\nagent A {\n  store s: = \n  ";
    text += member;
    text += "\n}\ntype After = Int\n";
    Parsed p = parseText(text);
    INFO(member);
    CHECK(p.diags->diagnostics().size() == 1);
    REQUIRE(p.context().decls.size() == 2);
    const auto* agent = cast<ast::AgentDecl>(p.decl(0));
    REQUIRE(agent->members.size() == 2);
    CHECK(isa<ast::ErrorDecl>(agent->members[0]));
    CHECK_FALSE(isa<ast::ErrorDecl>(agent->members[1]));
    CHECK(checkRanges(p.file()) == "");
  }
}

TEST_CASE("recovery: a context without a name keeps its declarations") {
  Parsed p = parseText("context\n\ntype A = Int\n");
  CHECK(p.diagnostics() == std::vector<std::string>{
                               "E0100 3:1 expected identifier, found 'type'"});
  REQUIRE(p.file().contexts.size() == 1);
  CHECK(p.context().name.parts.empty());
  REQUIRE(p.context().decls.size() == 1);
  CHECK(cast<ast::TypeDecl>(p.decl(0))->name.name == "A");
  CHECK(checkRanges(p.file()) == "");

  Parsed b = parseText("context {\n  actor A\n}\ncontext d { }\n");
  CHECK(b.codes() == std::vector<std::string>{"E0100"});
  REQUIRE(b.file().contexts.size() == 2);
  CHECK(b.context(0).decls.size() == 1);
}

// Recovery nodes are placed where the error is, never at the file's start.
TEST_CASE("recovery: nodes built by recovery have ranges at the error") {
  Parsed p = parseText(
      "context a\n"
      "type R = { a: Int, 5, c: Int }\n"
      "fn f(x: Int, 7) { T { a: 1, 2 } }\n");
  CHECK(p.codes().size() == 3);
  CHECK(checkRanges(p.file()) == "");
  const auto* r = cast<ast::TypeDecl>(p.decl(0));
  REQUIRE(r->fields.size() == 3);
  CHECK(r->fields[1].name.empty());
  CHECK(p.at(r->fields[1].name.range.begin).line == 2);
  CHECK(p.at(r->fields[1].name.range.begin).column == 20);
  const auto* f = cast<ast::FnDecl>(p.decl(1));
  REQUIRE(f->params.size() == 2);
  CHECK(p.at(f->params[1].name.range.begin).column == 14);
}

TEST_CASE("robustness: every prefix of a program terminates with an AST") {
  const std::string program = kProgram;
  {
    Parsed whole = parseText(program);
    INFO(fmt::format("{}", fmt::join(whole.diagnostics(), "\n")));
    CHECK(whole.diags->diagnostics().empty());
  }
  for (std::size_t n = 0; n <= program.size(); ++n) {
    Parsed p = parseText(program.substr(0, n));
    REQUIRE(p.result.file != nullptr);
    INFO(n);
    CHECK(checkRanges(p.file()) == "");
  }
}

TEST_CASE("robustness: random token soups and mutations terminate") {
  const std::vector<std::string> pieces = {"context",
                                           "a",
                                           ".",
                                           "b",
                                           "{",
                                           "}",
                                           "(",
                                           ")",
                                           "[",
                                           "]",
                                           "<",
                                           ">",
                                           ",",
                                           ":",
                                           ":=",
                                           "=",
                                           "=>",
                                           "->",
                                           "..",
                                           "|",
                                           "||",
                                           "&&",
                                           "!",
                                           "-",
                                           "+",
                                           "*",
                                           "/",
                                           "%",
                                           "==",
                                           "!=",
                                           "<=",
                                           ">=",
                                           "@",
                                           "_",
                                           "1",
                                           "2.5",
                                           "7.days",
                                           "\"s\"",
                                           "\"x \\(y) z\"",
                                           "type",
                                           "event",
                                           "agent",
                                           "service",
                                           "on",
                                           "call",
                                           "fn",
                                           "let",
                                           "if",
                                           "else",
                                           "match",
                                           "fail",
                                           "key",
                                           "store",
                                           "invariant",
                                           "from",
                                           "via",
                                           "given",
                                           "by",
                                           "opaque",
                                           "where",
                                           "true",
                                           "consumes",
                                           "as",
                                           "capability",
                                           "actor",
                                           "\n",
                                           "---\nd\n---\n",
                                           "--c\n"};
  std::mt19937 rng(20261130);
  for (int round = 0; round < 400; ++round) {
    std::string text;
    const int n = static_cast<int>(rng() % 120);
    for (int i = 0; i < n; ++i) {
      text += pieces[rng() % pieces.size()];
      text += (rng() % 4 == 0) ? "\n" : " ";
    }
    Parsed p = parseText(text);
    REQUIRE(p.result.file != nullptr);
    INFO(text);
    CHECK(checkRanges(p.file()) == "");
  }
  // Byte-level damage to a valid program: deletions, duplications, swaps.
  const std::string program = kProgram;
  for (int round = 0; round < 300; ++round) {
    std::string text = program;
    for (int edits = 1 + static_cast<int>(rng() % 4); edits > 0; --edits) {
      const std::size_t at = rng() % text.size();
      const std::size_t len = 1 + rng() % 12;
      switch (rng() % 3) {
        case 0:
          text.erase(at, len);
          break;
        case 1: {
          const std::string piece = text.substr(at, len);
          text.insert(at, piece);
          break;
        }
        default:
          std::swap(text[at], text[rng() % text.size()]);
          break;
      }
      if (text.empty()) text = "x";
    }
    Parsed p = parseText(text);
    REQUIRE(p.result.file != nullptr);
    INFO(text);
    CHECK(checkRanges(p.file()) == "");
  }
}
