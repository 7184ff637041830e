// The parser on broken input: each syntax diagnostic with its location and
// message, recovery, and termination on arbitrary input.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

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
        std::vector<std::string>{
            "E0100 2:6 expected identifier, found '='"});
  CHECK(errorsOf("context a\nfn f() { g(a b) }\n") ==
        std::vector<std::string>{
            "E0100 2:14 expected ')', found identifier 'b'"});
  CHECK(errorsOf("context a\nfn f() { let x = }\n") ==
        std::vector<std::string>{
            "E0100 2:18 expected expression, found '}'"});
  CHECK(errorsOf("context a\nagent A { type }\n") ==
        std::vector<std::string>{
            "E0100 2:11 expected '}' or agent member, found 'type'"});
  CHECK(errorsOf("context a { actor B\n") ==
        std::vector<std::string>{
            "E0100 2:1 expected '}' or declaration, found end of file"});
  CHECK(errorsOf("context a\nfn f() { match x { => 1 } }\n") ==
        std::vector<std::string>{
            "E0100 2:20 expected '}' or pattern, found '=>'"});
  CHECK(errorsOf("context a\nservice S from Events(E { a: }) { }\n") ==
        std::vector<std::string>{
            "E0100 2:30 expected pattern, found '}'"});
  // Many alternatives: the first four, then an ellipsis.
  CHECK(errorsOf("context a\ntype X = }\n") ==
        std::vector<std::string>{
            "E0100 2:10 expected identifier, 'opaque', '{', '(', \u2026, "
            "found '}'"});
}

TEST_CASE("E0100 at end of file notes the unclosed bracket") {
  Parsed p = parseText("context a\nfn f() {\n  g(1\n");
  REQUIRE(p.diags->diagnostics().size() == 1);
  const Diagnostic& d = p.diags->diagnostics()[0];
  CHECK(d.message == "expected ')', found end of file");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "unclosed '(' opened here");
  CHECK(p.at(d.notes[0].range.begin).line == 3);
  // The function read so far is kept.
  REQUIRE(p.file().contexts.size() == 1);
}

TEST_CASE("E0101: declaration outside any context, once per run") {
  CHECK(errorsOf("type A = Int\ntype B = Int\ncontext c { }\nactor D\n") ==
        std::vector<std::string>{
            "E0101 1:1 declaration outside any context",
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

  std::string chain = "context a\nfn f() { 1";
  for (int i = 0; i < 5000; ++i) chain += " + 1";
  chain += " }\n";
  Parsed q = parseText(chain);
  CHECK(q.codes() == std::vector<std::string>{"E0110"});
  REQUIRE(q.result.file != nullptr);
}

TEST_CASE("recovery: independent errors are all reported, the AST stays") {
  Parsed p = parseText(
      "context a.b {\n"
      "  type A = \n"                       // 1: missing type
      "  agent Ag {\n"
      "    key id: Int\n"
      "    on f(x: ) { let y = 1 }\n"      // 2: missing param type
      "    on g() {\n"
      "      let z = = 3\n"                // 3: stray '='
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
  const std::vector<std::string> pieces = {
      "context", "a", ".", "b", "{", "}", "(", ")", "[", "]", "<", ">",
      ",", ":", ":=", "=", "=>", "->", "..", "|", "||", "&&", "!", "-", "+",
      "*", "/", "%", "==", "!=", "<=", ">=", "@", "_", "1", "2.5", "7.days",
      "\"s\"", "\"x \\(y) z\"", "type", "event", "agent", "service", "on",
      "call", "fn", "let", "if", "else", "match", "fail", "key", "store",
      "invariant", "from", "via", "given", "by", "opaque", "where", "true",
      "consumes", "as", "capability", "actor", "\n", "---\nd\n---\n", "--c\n"};
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
        case 0: text.erase(at, len); break;
        case 1: text.insert(at, text.substr(at, len)); break;
        default: std::swap(text[at], text[rng() % text.size()]); break;
      }
      if (text.empty()) text = "x";
    }
    Parsed p = parseText(text);
    REQUIRE(p.result.file != nullptr);
    INFO(text);
    CHECK(checkRanges(p.file()) == "");
  }
}
