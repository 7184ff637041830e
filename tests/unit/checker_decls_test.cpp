// Constant evaluation, refinement evaluation and the declaration rules
// (bad-refinement, @schema annotations, field defaults, serialisable event
// fields).
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/eval.h"
#include "checker/sema.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "ir/const_value.h"
#include "ir/program.h"

namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& lines) {
    std::string out = "{";
    for (const std::string& line : lines) out += "\n  " + line;
    out += "\n}";
    return out.c_str();
  }
};
}  // namespace doctest

namespace {

using herald::DiagnosticEngine;
using herald::FileId;
using herald::ParseResult;
using herald::SourceManager;
using herald::check::ConstValue;
using herald::check::ContextInfo;
using herald::check::EventInfo;
using herald::check::FieldInfo;
using herald::check::Program;
using herald::check::RefinementResult;
using herald::check::Sema;
using herald::check::TypeInfo;
using Lines = std::vector<std::string>;

struct Run {
  std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
  std::unique_ptr<DiagnosticEngine> diags =
      std::make_unique<DiagnosticEngine>();
  std::vector<ParseResult> parses;
  std::vector<const herald::ast::File*> files;
  std::unique_ptr<Program> program = std::make_unique<Program>();
  bool parseErrors = false;

  [[nodiscard]] Sema sema() { return Sema{*program, *diags, *sources, files}; }

  [[nodiscard]] const ContextInfo& context(std::string_view name) const {
    const ContextInfo* c = program->context(name);
    REQUIRE(c != nullptr);
    return *c;
  }
  template <typename Info>
  [[nodiscard]] Info& decl(std::string_view context, std::string_view name) {
    auto* info =
        llvm::dyn_cast_or_null<Info>(this->context(context).lookup(name));
    REQUIRE(info != nullptr);
    return *info;
  }
  [[nodiscard]] FieldInfo& field(std::string_view context,
                                 std::string_view event,
                                 std::string_view name) {
    auto& e = decl<EventInfo>(context, event);
    for (FieldInfo& f : e.fields)
      if (f.name == name) return f;
    FAIL("no field ", std::string(name));
    return e.fields.front();
  }
  // The value of the default of `event.name` (in `context`): its lowered
  // body evaluated by constantOf (run with `bodies`).
  std::optional<ConstValue> eval(std::string_view context,
                                 std::string_view event,
                                 std::string_view name) {
    const FieldInfo& f = field(context, event, name);
    REQUIRE(f.defaultExpr != nullptr);
    if (!f.defaultBody.valid()) return std::nullopt;
    return herald::check::constantOf(*program,
                                     program->bodies[f.defaultBody].root);
  }
  // "E0522 3:14 message", sorted by location.
  [[nodiscard]] Lines diagnostics() const {
    Lines out;
    for (const herald::Diagnostic& d : diags->diagnostics()) {
      auto lc = sources->file(d.range.file).lineColumn(d.range.begin);
      out.push_back(fmt::format("{} {}:{} {}", herald::diagInfo(d.kind).code,
                                lc.line, lc.column, d.message));
    }
    return out;
  }
  // Every note of every diagnostic, "line:col message" or "help: message".
  [[nodiscard]] Lines notes() const {
    Lines out;
    for (const herald::Diagnostic& d : diags->diagnostics())
      for (const herald::DiagnosticNote& n : d.notes) {
        if (!n.hasRange) {
          out.push_back("help: " + n.message);
          continue;
        }
        auto lc = sources->file(n.range.file).lineColumn(n.range.begin);
        out.push_back(fmt::format("{}:{} {}", lc.line, lc.column, n.message));
      }
    return out;
  }
  [[nodiscard]] Lines fixits() const {
    Lines out;
    for (const herald::Diagnostic& d : diags->diagnostics())
      for (const herald::FixIt& f : d.fixits)
        out.push_back(fmt::format("'{}' -> '{}'", sources->textOf(f.range),
                                  f.replacement));
    return out;
  }
};

// Parses `files` and runs the passes up to signatures, then the
// declaration rules when `rules`, and the bodies pass (which lowers and
// settles event field defaults) when `bodies`.
std::unique_ptr<Run> run(
    const std::vector<std::pair<std::string, std::string>>& files,
    bool rules = true, bool bodies = false) {
  auto r = std::make_unique<Run>();
  for (const auto& [name, text] : files) {
    FileId id = r->sources->addFile(name, text);
    r->parses.push_back(herald::parse(r->sources->file(id), *r->diags));
    r->files.push_back(r->parses.back().file);
  }
  r->parseErrors = r->diags->hasErrors();
  Sema s = r->sema();
  herald::check::collectDeclarations(s);
  herald::check::resolveConsumes(s);
  herald::check::resolveSignatures(s);
  if (rules || bodies) herald::check::checkDeclarationRules(s);
  if (bodies) herald::check::checkBodies(s);
  r->diags->finalize();
  return r;
}

std::unique_ptr<Run> run(std::string text, bool rules = true,
                         bool bodies = false) {
  return run({{"test.herald", std::move(text)}}, rules, bodies);
}

// A newline, then one line per item, each ending in a newline (to compare
// with a raw string literal that starts on the next line).
std::string joined(const Lines& lines) {
  std::string out = "\n";
  for (const std::string& line : lines) out += line + '\n';
  return out;
}

std::string rendered(const std::optional<ConstValue>& value) {
  return value ? herald::check::render(*value) : "(not constant)";
}

const char* const kShop = R"(context shop
type Quantity = Int where self > 0 && self <= 10_000
type Email = opaque String where len(self) <= 3
type OrderId = opaque String
type Money = { cents: Int, currency: String }
type Region = | Domestic | International | Refunded(reason: String)
type Small = Int where self < 10
type Tag = opaque Small where self > 0
type Ratio = Float where self >= 0 && self < 1
type Name = String where self != "" && !(self == "root") && self < "zzz"
type Tags = List[String] where len(self) <= 2
type Wait = Duration where self <= 1.minutes
type Stamp = Instant
)";

}  // namespace

TEST_CASE("constants: literals of each built-in type") {
  auto r = run(std::string(kShop) + R"(
event E = {
  i: Int = 1_000, neg: Int = -7, min: Int = -9223372036854775808,
  f: Float = 0.5, nf: Float = -2.0, b: Bool = false, s: String = "a\"b",
  u: () = (), d: Duration = 30.seconds, ms: Duration = 250.ms,
  p: Int = (((4))),
}
)",
               false, true);
  REQUIRE_FALSE(r->parseErrors);
  CHECK(rendered(r->eval("shop", "E", "i")) == "1000");
  CHECK(rendered(r->eval("shop", "E", "neg")) == "-7");
  CHECK(rendered(r->eval("shop", "E", "min")) == "-9223372036854775808");
  CHECK(rendered(r->eval("shop", "E", "f")) == "0.5");
  CHECK(rendered(r->eval("shop", "E", "nf")) == "-2.0");
  CHECK(rendered(r->eval("shop", "E", "b")) == "false");
  CHECK(rendered(r->eval("shop", "E", "s")) == "\"a\\\"b\"");
  CHECK(r->eval("shop", "E", "s")->text == "a\"b");
  CHECK(rendered(r->eval("shop", "E", "u")) == "()");
  CHECK(rendered(r->eval("shop", "E", "d")) == "30000ms");
  CHECK(r->eval("shop", "E", "d")->integer == 30000);
  CHECK(rendered(r->eval("shop", "E", "ms")) == "250ms");
  CHECK(rendered(r->eval("shop", "E", "p")) == "4");
  CHECK(r->eval("shop", "E", "i")->type == r->program->types.intType());
}

TEST_CASE("constants: what is not a constant of the expected type") {
  auto r = run(std::string(kShop) + R"h(
event E = {
  intForFloat: Float = 1, floatForInt: Int = 1.5, interp: String = "a\(1)",
  sum: Float = 1.0 + 2.0, negName: Int = -x, bareForOption: Option[Int] = 3,
  viaFn: Region = regionOf(1),
  notVariant: Region = Abroad, payloadBare: Region = Refunded,
  nullaryCalled: Region = Domestic(), wrongLabel: Region = Refunded(why: "x"),
  wrongArity: Region = Refunded("a", "b"), someWrong: Option[Int] = Some("x"),
  noneForInt: Int = None, missing: Money = Money { cents: 1 },
  unknownField: Money = Money { cents: 1, currency: "EUR", tax: 0 },
  twice: Money = Money { cents: 1, cents: 2, currency: "EUR" },
  wrongRecord: Region = Money { cents: 1, currency: "EUR" },
  listWrong: List[Int] = [1, "a"], instant: Stamp = 3,
  ifExpr: Int = if true { 1 } else { 2 },
  huge: Duration = 999999999999999999.days,
}
fn regionOf(i: Int) -> Region { Domestic }
)h",
               false, true);
  REQUIRE_FALSE(r->parseErrors);
  for (const char* name :
       {"intForFloat", "floatForInt",   "interp",       "sum",
        "negName",     "bareForOption", "viaFn",        "notVariant",
        "payloadBare", "wrongLabel",    "wrongArity",   "someWrong",
        "noneForInt",  "missing",       "unknownField", "twice",
        "wrongRecord", "listWrong",     "instant",      "ifExpr",
        "huge"}) {
    CAPTURE(name);
    CHECK(r->field("shop", "E", name).defaultValue == nullptr);
  }
  // One report per default: bad-field-default, or the overflow of `huge`.
  Lines reports = r->diagnostics();
  CHECK(reports.size() == 21);
  CHECK(std::count_if(reports.begin(), reports.end(), [](const auto& line) {
          return line.substr(0, 5) == "E0522";
        }) == 20);
  // A nullary variant may be called, as in bodies.
  CHECK(rendered(r->eval("shop", "E", "nullaryCalled")) == "Region.Domestic");
}

TEST_CASE("constants: variants, options, records, lists") {
  auto r = run(std::string(kShop) + R"(
event E = {
  q: Region = Region.Domestic, bare: Region = International,
  full: Region = shop.Region.Domestic,
  pay: Region = Refunded(reason: "late"), payQ: Region = Region.Refunded("x"),
  none: Option[Int] = None, some: Option[Option[Int]] = Some(Some(3)),
  money: Money = Money { currency: "EUR", cents: 0 },
  list: List[Region] = [Domestic, Refunded(reason: "r")], empty: List[String] = [],
}
)",
               false, true);
  REQUIRE_FALSE(r->parseErrors);
  CHECK(rendered(r->eval("shop", "E", "q")) == "Region.Domestic");
  CHECK(rendered(r->eval("shop", "E", "bare")) == "Region.International");
  CHECK(rendered(r->eval("shop", "E", "full")) == "Region.Domestic");
  CHECK(rendered(r->eval("shop", "E", "pay")) ==
        "Region.Refunded(reason: \"late\")");
  CHECK(rendered(r->eval("shop", "E", "payQ")) ==
        "Region.Refunded(reason: \"x\")");
  CHECK(rendered(r->eval("shop", "E", "none")) == "None");
  CHECK(rendered(r->eval("shop", "E", "some")) == "Some(Some(3))");
  // Fields in declaration order, whatever the literal's order.
  CHECK(rendered(r->eval("shop", "E", "money")) ==
        "Money { cents: 0, currency: \"EUR\" }");
  CHECK(rendered(r->eval("shop", "E", "list")) ==
        "[Region.Domestic, Region.Refunded(reason: \"r\")]");
  CHECK(rendered(r->eval("shop", "E", "empty")) == "[]");
  auto q = r->eval("shop", "E", "q");
  auto full = r->eval("shop", "E", "full");
  auto bare = r->eval("shop", "E", "bare");
  REQUIRE(q);
  CHECK(q->kind == ConstValue::Kind::Variant);
  CHECK(*q == *full);
  CHECK_FALSE(*q == *bare);
}

TEST_CASE("constants: opaque and refined values carry their type") {
  auto r = run(std::string(kShop) + R"(
event E = {
  id: OrderId = OrderId("o-1"), q: Quantity = 3, qc: Quantity = Quantity(3),
  asInt: Int = Quantity(3), tag: Tag = Tag(5), email: Email = Email("abc"),
  badQ: Quantity = 0, intForOpaque: OrderId = "o-1",
  wrongCtor: Quantity = Small(3), badAsInt: Int = Quantity(0),
}
)",
               false, true);
  REQUIRE_FALSE(r->parseErrors);
  auto id = r->eval("shop", "E", "id");
  REQUIRE(id);
  CHECK(id->kind == ConstValue::Kind::Opaque);
  CHECK(rendered(id) == "OrderId(\"o-1\")");
  auto q = r->eval("shop", "E", "q");
  auto qc = r->eval("shop", "E", "qc");
  REQUIRE(q);
  REQUIRE(qc);
  CHECK(q->type == r->decl<TypeInfo>("shop", "Quantity").type);
  CHECK(rendered(q) == "Quantity(3)");
  CHECK(*q == *qc);
  auto asInt = r->eval("shop", "E", "asInt");
  REQUIRE(asInt);
  CHECK(asInt->kind == ConstValue::Kind::Int);
  CHECK_FALSE(*asInt == *q);
  // An opaque over a refined base holds the refined value.
  CHECK(rendered(r->eval("shop", "E", "tag")) == "Tag(Small(5))");
  CHECK(rendered(r->eval("shop", "E", "email")) == "Email(\"abc\")");
  // Evaluation leaves refinements to checkRefinement; a default that
  // breaks one gets no value.
  CHECK(rendered(r->eval("shop", "E", "badQ")) == "Quantity(0)");
  CHECK(r->field("shop", "E", "badQ").defaultValue == nullptr);
  // `Quantity(0)` used as an Int was reported where it is built.
  CHECK(r->field("shop", "E", "badAsInt").defaultValue == nullptr);
  CHECK_FALSE(r->eval("shop", "E", "intForOpaque").has_value());
  // A value of another refinement of the same base is checked against this
  // one, as in bodies.
  CHECK(rendered(r->eval("shop", "E", "wrongCtor")) == "Quantity(3)");
  REQUIRE(r->field("shop", "E", "wrongCtor").defaultValue != nullptr);
}

TEST_CASE("constants: an opaque type is built only in its own context") {
  auto r = run({{"a.herald", R"(context shop
type OrderId = opaque String
)"},
                {"b.herald", R"(context ship
consumes shop
event Shipped = { id: OrderId = OrderId("o-1"), q: shop.OrderId = shop.OrderId("x") }
)"}},
               false, true);
  REQUIRE_FALSE(r->parseErrors);
  CHECK_FALSE(r->eval("ship", "Shipped", "id").has_value());
  CHECK_FALSE(r->eval("ship", "Shipped", "q").has_value());
}

TEST_CASE("refinements: evaluated with self bound to the value") {
  auto r = run(std::string(kShop) + R"(
event E = {
  q1: Quantity = 1, q0: Quantity = 0, qMax: Quantity = 10_000,
  qOver: Quantity = 10_001, e3: Email = Email("héé"), e4: Email = Email("abcd"),
  t5: Tag = Tag(5), t0: Tag = Tag(0), t20: Tag = Tag(20),
  r0: Ratio = 0.0, r1: Ratio = 1.0, rHalf: Ratio = 0.5,
  nOk: Name = "bob", nEmpty: Name = "", nRoot: Name = "root", nZ: Name = "zzzz",
  tags2: Tags = ["a", "b"], tags3: Tags = ["a", "b", "c"],
  w: Wait = 30.seconds, wLong: Wait = 2.minutes,
}
)",
               false, true);
  REQUIRE_FALSE(r->parseErrors);
  auto check = [&](const char* type, const char* field) {
    auto value = r->eval("shop", "E", field);
    REQUIRE(value);
    return herald::check::checkRefinement(r->decl<TypeInfo>("shop", type),
                                          *value);
  };
  CHECK(check("Quantity", "q1") == RefinementResult::Holds);
  CHECK(check("Quantity", "q0") == RefinementResult::Violated);
  CHECK(check("Quantity", "qMax") == RefinementResult::Holds);
  CHECK(check("Quantity", "qOver") == RefinementResult::Violated);
  // len counts Unicode scalar values: "héé" is 3 of them in 5 bytes.
  CHECK(check("Email", "e3") == RefinementResult::Holds);
  CHECK(check("Email", "e4") == RefinementResult::Violated);
  CHECK(check("Tag", "t5") == RefinementResult::Holds);
  CHECK(check("Tag", "t0") == RefinementResult::Violated);   // Tag's own
  CHECK(check("Tag", "t20") == RefinementResult::Violated);  // Small's
  CHECK(check("Ratio", "r0") == RefinementResult::Holds);
  CHECK(check("Ratio", "r1") == RefinementResult::Violated);
  CHECK(check("Ratio", "rHalf") == RefinementResult::Holds);
  CHECK(check("Name", "nOk") == RefinementResult::Holds);
  CHECK(check("Name", "nEmpty") == RefinementResult::Violated);
  CHECK(check("Name", "nRoot") == RefinementResult::Violated);
  CHECK(check("Name", "nZ") == RefinementResult::Violated);
  CHECK(check("Tags", "tags2") == RefinementResult::Holds);
  CHECK(check("Tags", "tags3") == RefinementResult::Violated);
  CHECK(check("Wait", "w") == RefinementResult::Holds);
  CHECK(check("Wait", "wLong") == RefinementResult::Violated);
  // A raw base value is accepted too.
  ConstValue raw;
  raw.kind = ConstValue::Kind::Int;
  raw.integer = 42;
  CHECK(herald::check::checkRefinement(r->decl<TypeInfo>("shop", "Quantity"),
                                       raw) == RefinementResult::Holds);
  CHECK(herald::check::checkRefinement(r->decl<TypeInfo>("shop", "OrderId"),
                                       raw) == RefinementResult::Holds);
  CHECK(herald::check::refinementText(*r->sources,
                                      r->decl<TypeInfo>("shop", "Tag")) ==
        "(self < 10) && (self > 0)");
  CHECK(herald::check::refinementText(*r->sources,
                                      r->decl<TypeInfo>("shop", "Quantity")) ==
        "self > 0 && self <= 10_000");
  CHECK(herald::check::refinementText(*r->sources,
                                      r->decl<TypeInfo>("shop", "OrderId"))
            .empty());
}

TEST_CASE("refinements: unknown when the predicate cannot be evaluated") {
  auto r = run(R"(context c
type Odd = Int where self > x
type Part = Int where self > 0 || self > y
type Known = Int where self > 0 && self > y
event E = { a: Odd = 1, b: Part = 1, c: Part = -1, d: Known = -1, e: Known = 1 }
)",
               false, true);
  auto check = [&](const char* type, const char* field) {
    auto value = r->eval("c", "E", field);
    REQUIRE(value);
    return herald::check::checkRefinement(r->decl<TypeInfo>("c", type), *value);
  };
  // A predicate that was reported (here `x` and `y` name nothing) is not
  // lowered, and decides nothing, even where a side of || or && could.
  CHECK(check("Odd", "a") == RefinementResult::Unknown);
  CHECK(check("Part", "b") == RefinementResult::Unknown);
  CHECK(check("Part", "c") == RefinementResult::Unknown);
  CHECK(check("Known", "d") == RefinementResult::Unknown);
  CHECK(check("Known", "e") == RefinementResult::Unknown);
}

TEST_CASE("refinements: a known side of || or && decides alone") {
  auto r = run(R"(context c
type Part = Int where self > 0 || 10 / 0 > 1
type Known = Int where self > 0 && self * 9223372036854775807 > 1
event E = { b: Part = 1, c: Part = -1, d: Known = -1, e: Known = 2 }
)",
               false, true);
  auto check = [&](const char* type, const char* field) {
    auto value = r->eval("c", "E", field);
    REQUIRE(value);
    return herald::check::checkRefinement(r->decl<TypeInfo>("c", type), *value);
  };
  // `10 / 0` and the overflowing product have no value.
  CHECK(check("Part", "b") == RefinementResult::Holds);
  CHECK(check("Part", "c") == RefinementResult::Unknown);
  CHECK(check("Known", "d") == RefinementResult::Violated);
  CHECK(check("Known", "e") == RefinementResult::Unknown);
}

TEST_CASE("bad-refinement: only self, comparisons, logic, len and literals") {
  auto r = run(R"h(context c
type A = Int where self > 0 && !(self == 3) || self <= -5
type B = String where len(self) >= 1 && self != "x"
type C = Float where self > 0 && self < 1.5
type D = Int where len(self) > 0
type E = String where self > 3
type F = Float where self + 1.0 > 2.0
type G = Int where limit > self
type H = Int where self
type I = String where self.len() < 3
type J = Int where max(self, 1) > 0
type K = Int where self > 1.5
type L = Bool where self == true
type M = Int where !self
type N = String where len(self) > 0 && "a\(self)" == "b"
)h");
  REQUIRE_FALSE(r->parseErrors);
  CHECK(joined(r->diagnostics()) == R"(
E0318 5:20 'len(self)' needs a String or List base, but 'D' refines 'Int'
E0318 6:23 '>' cannot compare 'String' with 'Int'
E0318 7:22 arithmetic ('+') cannot be applied to 'Float' and 'Float' in a refinement
E0318 8:20 'limit' cannot be used in a refinement: only 'self' can be named
E0318 9:20 the refinement of 'H' must be a Bool condition on 'self', but this is 'Int'
E0318 10:23 a method call cannot be used in a refinement; write 'len(self)'
E0318 11:20 a call cannot be used in a refinement; the only function there is 'len(self)'
E0318 12:20 '>' cannot compare 'Int' with 'Float'
E0318 14:21 '!' needs a Bool, but this is 'Int'
E0318 15:44 an interpolated string cannot be used in a refinement
)");
  CHECK(r->fixits() == Lines{"'self.len()' -> 'len(self)'"});
}

TEST_CASE("bad-schema-annotation and the pinned version") {
  auto r = run(R"(context c
@schema(3) event A = { a: Int }
event B @schema(0) = { a: Int }
@schema(1) @schema(2) event C = { a: Int }
@version(2) event D = { a: Int }
@schema("2") event F = { a: Int }
@schema(1, 2) event G = { a: Int }
@schema(-1) event H = { a: Int }
@schema event I = { a: Int }
)");
  REQUIRE_FALSE(r->parseErrors);
  CHECK(joined(r->diagnostics()) == R"(
E0521 3:17 '@schema' takes one positive integer, the event's schema version
E0521 4:12 '@schema' is given twice on event 'C'
E0521 5:2 unknown annotation '@version' on event 'D'
E0521 6:9 '@schema' takes one positive integer, the event's schema version
E0521 7:1 '@schema' takes one positive integer, the event's schema version
E0521 8:9 '@schema' takes one positive integer, the event's schema version
E0521 9:1 '@schema' takes one positive integer, the event's schema version
)");
  CHECK(r->decl<EventInfo>("c", "A").pinnedSchema == 3);
  CHECK_FALSE(r->decl<EventInfo>("c", "B").pinnedSchema.has_value());
  CHECK(r->decl<EventInfo>("c", "C").pinnedSchema == 1);
  CHECK_FALSE(r->decl<EventInfo>("c", "D").pinnedSchema.has_value());
  CHECK(joined(r->fixits()) == R"(
'@schema(2)' -> ''
'version' -> 'schema'
)");
}

TEST_CASE("bad-field-default: reports why, stores the value otherwise") {
  auto r = run(std::string(kShop) + R"(
event E = {
  ok: Region = Domestic, q: Quantity = 0, e: Email = Email("abcd"),
  t: Tag = Tag(20), f: Float = 1, o: Option[Int] = 3, n: Region = Domestc,
  m: Money = Money { cents: 1 }, fine: Option[Quantity] = Some(4),
  inner: Option[Quantity] = Some(0),
}
)",
               true, true);
  REQUIRE_FALSE(r->parseErrors);
  CHECK(joined(r->diagnostics()) == R"(
E0522 16:40 default of field 'q' is not a constant of type 'Quantity'
E0522 16:54 default of field 'e' is not a constant of type 'Email'
E0522 17:12 default of field 't' is not a constant of type 'Tag'
E0522 17:32 default of field 'f' is not a constant of type 'Float'
E0522 17:52 default of field 'o' is not a constant of type 'Option[Int]'
E0522 17:67 default of field 'n' is not a constant of type 'Region'
E0522 18:14 default of field 'm' is not a constant of type 'Money'
E0522 19:29 default of field 'inner' is not a constant of type 'Option[Quantity]'
)");
  CHECK(joined(r->notes()) == R"(
2:27 0 does not satisfy the refinement of 'Quantity': self > 0 && self <= 10_000
help: use a value for which the refinement holds, or remove the default
3:34 Email("abcd") does not satisfy the refinement of 'Email': len(self) <= 3
help: use a value for which the refinement holds, or remove the default
7:24 20 does not satisfy the refinement of 'Small': self < 10
help: use a value for which the refinement holds, or remove the default
help: expected 'Float', found 'Int'
help: write a Float with a decimal point, e.g. '1.0'
help: expected 'Option[Int]', found 'Int'
help: an Option holds a value as 'Some(...)'; write 'Some(3)'
help: type 'Region' has no variant 'Domestc'
help: did you mean 'Domestic'?
18:14 'Money' literal is missing field 'currency'
help: every field of a record must be given
2:27 0 does not satisfy the refinement of 'Quantity': self > 0 && self <= 10_000
help: use a value for which the refinement holds, or remove the default
)");
  const FieldInfo& ok = r->field("shop", "E", "ok");
  REQUIRE(ok.defaultValue != nullptr);
  CHECK(herald::check::render(*ok.defaultValue) == "Region.Domestic");
  REQUIRE(r->field("shop", "E", "fine").defaultValue != nullptr);
  CHECK(r->field("shop", "E", "q").defaultValue == nullptr);
}

TEST_CASE("bad-field-default: quiet about earlier errors") {
  auto r = run(R"(context c
event E = { a: Missing = 3, b: Int = Nope.X, c: Int = }
)",
               true, true);
  // `a` has no type and `c` no expression: both were reported already.
  Lines defaults;
  for (const std::string& line : r->diagnostics())
    if (line.substr(0, 5) == "E0522") defaults.push_back(line);
  CHECK(defaults ==
        Lines{"E0522 2:38 default of field 'b' is not a constant of type "
              "'Int'"});
  CHECK(r->notes() == Lines{"2:38 cannot find 'Nope' in this scope"});
}

TEST_CASE("default-outside-event: record and variant fields") {
  auto r = run(R"(context c
type Money = { cents: Int = 0, currency: String }
type Pay = | Cash | Card(fee: Int = 1)
event E = { m: Money, fee: Int = 2 }
)");
  REQUIRE_FALSE(r->parseErrors);
  CHECK(joined(r->diagnostics()) == R"(
E0523 2:29 only event fields may have defaults; 'cents' is a field of record type 'Money'
E0523 3:37 only event fields may have defaults; 'fee' is a field of variant 'Card' of sum type 'Pay'
)");
  CHECK(joined(r->fixits()) == R"(
' = 0' -> ''
' = 1' -> ''
)");
}

TEST_CASE("event-field-not-serialisable: directly, nested and recursive") {
  auto r = run(R"(context c
agent Room { key id: String }
actor Customer(identity: String)
capability Mailer { fn send(to: String) }
type Handle = opaque Ref[Room]
type Slot = | Empty | Held(room: Handle)
type Box = { slots: List[Slot] }
type Tree = | Leaf | Node(children: List[Tree], label: String)
type Loop = { next: Option[Loop], room: Option[Ref[Room]] }
event A = { room: Ref[Room] }
event B = { rooms: Map[String, List[Ref[Room]]] }
event C = { box: Option[Box] }
event D = { m: Mailer }
event F = { tree: Tree, fine: Option[Tree] }
event G = { loop: Loop }
event H = { box: Box }
)");
  REQUIRE_FALSE(r->parseErrors);
  CHECK(joined(r->diagnostics()) == R"(
E0524 10:19 field 'room' of event 'A' has type 'Ref[Room]', which cannot be serialised
E0524 11:20 field 'rooms' of event 'B' has type 'Map[String, List[Ref[Room]]]', which cannot be serialised
E0524 12:18 field 'box' of event 'C' has type 'Option[Box]', which cannot be serialised
E0524 13:16 field 'm' of event 'D' has type 'Mailer', which cannot be serialised
E0524 15:19 field 'loop' of event 'G' has type 'Loop', which cannot be serialised
E0524 16:18 field 'box' of event 'H' has type 'Box', which cannot be serialised
)");
}

TEST_CASE("event-field-not-serialisable: the path to the culprit") {
  auto r = run(R"(context c
agent Room { key id: String }
type Handle = opaque Ref[Room]
type Slot = | Empty | Held(room: Handle)
type Box = { slots: List[Slot] }
event C = { box: Box }
)");
  CHECK(joined(r->notes()) == R"(
5:14 'Box' has field 'slots' of type 'List[Slot]'
4:28 variant 'Held' of 'Slot' has field 'room' of type 'Handle'
3:6 'Handle' is an opaque type over 'Ref[Room]'
help: a 'Ref' only addresses an agent inside this program: carry the agent's key 'id: String' instead of 'Ref[Room]'
)");
}

namespace {

// Parses `text` and runs the passes up to the subscriptions.
std::unique_ptr<Run> runSubscriptions(std::string text) {
  auto r = std::make_unique<Run>();
  FileId id = r->sources->addFile("test.herald", std::move(text));
  r->parses.push_back(herald::parse(r->sources->file(id), *r->diags));
  r->files.push_back(r->parses.back().file);
  r->parseErrors = r->diags->hasErrors();
  Sema s = r->sema();
  herald::check::collectDeclarations(s);
  herald::check::resolveConsumes(s);
  herald::check::resolveSignatures(s);
  herald::check::checkSubscriptions(s);
  r->diags->finalize();
  return r;
}

// `count` services subscribing to shop.Paid, and one to shop.Other.
std::string subscribers(int count) {
  std::string text =
      "context shop\nevent Paid = { cents: Int }\nevent Other = { n: Int }\n"
      "service Lone from Events(Other) {\n  on event(e: Other) {}\n}\n";
  for (int i = 0; i < count; ++i)
    text += fmt::format(
        "service S{:03} from Events(Paid {{ cents: {}, .. }}) {{\n"
        "  on event(e: Paid) {{}}\n}}\n",
        i, i);
  return text;
}

}  // namespace

TEST_CASE("too-many-subscriptions: at most 512 subscriptions per event type") {
  auto within = runSubscriptions(subscribers(512));
  REQUIRE_FALSE(within->parseErrors);
  CHECK(within->diagnostics().empty());

  auto over = runSubscriptions(subscribers(515));
  REQUIRE_FALSE(over->parseErrors);
  // One report for the event, at the first subscription past the limit in
  // qualified-name order (S512), naming the count.
  CHECK(over->diagnostics() ==
        Lines{"E0525 1543:26 event 'shop.Paid' has 515 subscriptions; at "
              "most 512 are allowed per event type"});
  CHECK(joined(over->notes()) == R"(
2:7 event 'Paid' is declared here
help: service 'shop.S512' is the first past the limit; merge subscribers that do the same work, or subscribe to narrower events
)");
}
