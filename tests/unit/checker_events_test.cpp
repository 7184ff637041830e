// Subscriptions: patterns lowered to predicates and their text, `via`
// ranges, handler shapes, and the event-flow graph with its cycles.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <llvm/Support/Casting.h>

#include "checker/checker.h"
#include "checker/flow_cycles.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "ir/predicate.h"
#include "ir/program.h"

namespace herald::check {
namespace {

struct Run {
  std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
  std::unique_ptr<DiagnosticEngine> diags =
      std::make_unique<DiagnosticEngine>();
  std::vector<ParseResult> parses;
  std::unique_ptr<Program> program;

  [[nodiscard]] std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const Diagnostic& d : diags->diagnostics())
      out.emplace_back(diagInfo(d.kind).code);
    return out;
  }
  [[nodiscard]] const ServiceInfo& service(llvm::StringRef ctx,
                                           llvm::StringRef name) const {
    const ContextInfo* c = program->context(ctx);
    REQUIRE(c != nullptr);
    const auto* s = llvm::dyn_cast_or_null<ServiceInfo>(c->lookup(name));
    REQUIRE(s != nullptr);
    return *s;
  }
  [[nodiscard]] const SubscriptionInfo& sub(llvm::StringRef name) const {
    const ServiceInfo& s = service("shop", name);
    REQUIRE(s.subscription.has_value());
    return *s.subscription;
  }
  // The text the first diagnostic with `code` is reported at.
  [[nodiscard]] std::string at(std::string_view code) const {
    for (const Diagnostic& d : diags->diagnostics())
      if (diagInfo(d.kind).code == code)
        return std::string(sources->textOf(d.range));
    return "<none>";
  }
};

Run checkFiles(std::vector<std::string> texts) {
  Run run;
  for (std::size_t i = 0; i < texts.size(); ++i)
    run.sources->addFile("f" + std::to_string(i) + ".herald",
                         std::move(texts[i]));
  std::vector<const ast::File*> files;
  for (FileId id = 0; id < run.sources->size(); ++id) {
    run.parses.push_back(parse(run.sources->file(id), *run.diags));
    files.push_back(run.parses.back().file);
  }
  run.program = checkProgram(files, *run.sources, *run.diags);
  return run;
}

const char* const kShop = R"(context shop

type Money = { cents: Int, currency: String }
type Region = | Domestic | International | Refunded(reason: String, code: Int)
type Quantity = Int where self > 0 && self <= 100
type Sku = opaque String

event Paid = {
  amount: Money,
  region: Region,
  items: Quantity,
  note: Option[String] = None,
  sku: Sku,
  rate: Float,
  ok: Bool,
}
)";

// kShop plus one subscriber with `from` as given.
Run subscribe(const std::string& from) {
  return checkFiles({std::string(kShop) + "\nservice S from " + from +
                     " {\n  on event(e: Paid) {}\n}\n"});
}

TEST_CASE("predicate render: every kind, precedence, paths") {
  Predicate eq;
  eq.kind = Predicate::Kind::Equals;
  eq.path = {{PathStep::Kind::Field, "amount"},
             {PathStep::Kind::Field, "cents"}};
  eq.value.kind = ConstValue::Kind::Int;
  eq.value.integer = 5;
  Predicate range;
  range.kind = Predicate::Kind::IntRange;
  range.path = {{PathStep::Kind::Field, "n"}};
  range.low = 100;
  Predicate below = range;
  below.low.reset();
  below.high = -1;
  Predicate variant;
  variant.kind = Predicate::Kind::VariantIs;
  variant.path = {{PathStep::Kind::Field, "region"}};
  variant.variant = "Domestic";
  Predicate some;
  some.kind = Predicate::Kind::IsSome;
  some.path = {{PathStep::Kind::Field, "note"}};
  Predicate none = some;
  none.kind = Predicate::Kind::IsNone;
  Predicate payload;
  payload.kind = Predicate::Kind::Equals;
  payload.path = {{PathStep::Kind::Field, "note"},
                  {PathStep::Kind::SomePayload, ""},
                  {PathStep::Kind::VariantField, "code"}};
  payload.value.kind = ConstValue::Kind::Int;
  payload.value.integer = 2;

  CHECK(render(Predicate{}) == "true");
  CHECK(render(eq) == "amount.cents == 5");
  CHECK(render(range) == "n in 100..");
  CHECK(render(below) == "n in ..-1");
  CHECK(render(variant) == "region is Domestic");
  CHECK(render(some) == "note is Some");
  CHECK(render(none) == "note is None");
  CHECK(render(payload) == "note?.code == 2");

  Predicate orP;
  orP.kind = Predicate::Kind::Or;
  orP.children = {some, none};
  Predicate andP;
  andP.kind = Predicate::Kind::And;
  andP.children = {variant, orP, eq};
  CHECK(render(andP) ==
        "region is Domestic && (note is Some || note is None) && "
        "amount.cents == 5");
  Predicate outer;
  outer.kind = Predicate::Kind::Or;
  outer.children = {andP, range};
  CHECK(render(outer) ==
        "region is Domestic && (note is Some || note is None) && "
        "amount.cents == 5 || n in 100..");
}

// Each step of a path as `kind name: Type`, a variant field's with its
// variant: `VariantField Refunded.reason: String`.
std::vector<std::string> steps(const std::vector<PathStep>& path) {
  std::vector<std::string> out;
  for (const PathStep& step : path) {
    std::string kind;
    switch (step.kind) {
      case PathStep::Kind::Field:
        kind = "Field ";
        break;
      case PathStep::Kind::SomePayload:
        kind = "SomePayload";
        break;
      case PathStep::Kind::VariantField:
        kind = "VariantField " +
               (step.variant != nullptr ? step.variant->name + "." : "?.");
        break;
    }
    out.push_back(kind + step.name + ": " +
                  (step.type != nullptr ? displayName(step.type) : "?") + " #" +
                  std::to_string(step.field));
  }
  return out;
}

TEST_CASE("lowering: field tests conjoined, `_` dropped, nested paths") {
  Run run = subscribe(
      "Events(Paid { region: Domestic, amount: { cents: 100..500, "
      "currency: \"EUR\", .. }, rate: _, ok: true, .. })");
  REQUIRE(run.codes().empty());
  const SubscriptionInfo& s = run.sub("S");
  REQUIRE(s.event != nullptr);
  CHECK(s.event->name == "Paid");
  CHECK(render(s.predicate) ==
        "region is Domestic && amount.cents in 100..500 && "
        "amount.currency == \"EUR\" && ok == true");
  REQUIRE(s.predicate.kind == Predicate::Kind::And);
  REQUIRE(s.predicate.children.size() == 4);
  const Predicate& cents = s.predicate.children[1];
  CHECK(cents.kind == Predicate::Kind::IntRange);
  CHECK(steps(cents.path) == std::vector<std::string>{"Field amount: Money #0",
                                                      "Field cents: Int #0"});
  CHECK(cents.low == 100);
  CHECK(cents.high == 500);
  const Predicate& currency = s.predicate.children[2];
  CHECK(currency.value.kind == ConstValue::Kind::String);
  CHECK(currency.value.text == "EUR");
  CHECK(s.patternText ==
        "{ region: Domestic, amount: { cents: 100..500, currency: \"EUR\", "
        ".. }, rate: _, ok: true, .. }");
}

TEST_CASE("lowering: variants with payloads, options, alternatives") {
  Run run = subscribe(
      "Events(Paid { region: Refunded(reason: \"late\", ..) | "
      "Region.International, note: Some(\"gift\") | None, .. })");
  REQUIRE(run.codes().empty());
  const Predicate& p = run.sub("S").predicate;
  CHECK(render(p) ==
        "(region is Refunded && region.reason == \"late\" || "
        "region is International) && "
        "(note is Some && note? == \"gift\" || note is None)");
  REQUIRE(p.kind == Predicate::Kind::And);
  const Predicate& region = p.children[0];
  REQUIRE(region.kind == Predicate::Kind::Or);
  const Predicate& refunded = region.children[0];
  REQUIRE(refunded.kind == Predicate::Kind::And);
  REQUIRE(refunded.children[0].kind == Predicate::Kind::VariantIs);
  REQUIRE(refunded.children[0].variantInfo != nullptr);
  CHECK(refunded.children[0].variantInfo->name == "Refunded");
  CHECK(steps(refunded.children[1].path) ==
        std::vector<std::string>{"Field region: Region #1",
                                 "VariantField Refunded.reason: String #0"});
  const Predicate& note = p.children[1];
  REQUIRE(note.kind == Predicate::Kind::Or);
  CHECK(steps(note.children[0].children[1].path) ==
        std::vector<std::string>{"Field note: Option[String] #3",
                                 "SomePayload: String #0"});
}

TEST_CASE("lowering: positional payload, Some(..), a wildcard alternative") {
  Run run = subscribe(
      "Events(Paid { region: Refunded(\"x\", 3), note: Some(..), "
      "rate: 1.5 | _, .. })");
  REQUIRE(run.codes().empty());
  CHECK(render(run.sub("S").predicate) ==
        "region is Refunded && region.reason == \"x\" && region.code == 3 "
        "&& note is Some");
}

TEST_CASE("lowering: refined and opaque values carry their type") {
  Run run = subscribe("Events(Paid { items: 3, sku: \"a-1\", .. })");
  REQUIRE(run.codes().empty());
  const Predicate& p = run.sub("S").predicate;
  REQUIRE(p.kind == Predicate::Kind::And);
  const ConstValue& items = p.children[0].value;
  CHECK(items.kind == ConstValue::Kind::Opaque);
  REQUIRE(items.type != nullptr);
  CHECK(displayName(items.type) == "Quantity");
  REQUIRE(items.children.size() == 1);
  CHECK(items.children[0].integer == 3);
  const ConstValue& sku = p.children[1].value;
  CHECK(sku.kind == ConstValue::Kind::Opaque);
  CHECK(displayName(sku.type) == "Sku");
  CHECK(sku.children[0].text == "a-1");
}

TEST_CASE("no pattern: True; canonical text of the angle spelling") {
  Run plain = subscribe("Events(Paid)");
  REQUIRE(plain.codes().empty());
  CHECK(plain.sub("S").predicate.kind == Predicate::Kind::True);
  CHECK(plain.sub("S").patternText.empty());
  Run angle = subscribe("Events(Paid < ok: false, .. >)");
  REQUIRE(angle.codes().empty());
  CHECK(angle.sub("S").patternText == "{ ok: false, .. }");
}

TEST_CASE("via: version ranges") {
  auto via = [](const std::string& clause) {
    Run run = subscribe("Events(Paid) via " + clause);
    REQUIRE(run.codes().empty());
    return run.sub("S").via;
  };
  std::optional<VersionRange> exact = via("schema(2)");
  REQUIRE(exact.has_value());
  CHECK(exact->low == 2);
  CHECK(exact->high == 2);
  std::optional<VersionRange> atLeast = via("schema(2..)");
  REQUIRE(atLeast.has_value());
  CHECK(atLeast->low == 2);
  CHECK_FALSE(atLeast->high.has_value());
  std::optional<VersionRange> atMost = via("schema(..3)");
  REQUIRE(atMost.has_value());
  CHECK_FALSE(atMost->low.has_value());
  CHECK(atMost->high == 3);
  std::optional<VersionRange> any = via("schema(_)");
  REQUIRE(any.has_value());
  CHECK_FALSE(any->low.has_value());
  CHECK_FALSE(any->high.has_value());
  Run none = subscribe("Events(Paid)");
  CHECK_FALSE(none.sub("S").via.has_value());
}

TEST_CASE("via errors: each at the offending version") {
  Run zero = subscribe("Events(Paid) via schema(1..0)");
  CHECK(zero.codes() == std::vector<std::string>{"E0520"});
  CHECK(zero.at("E0520") == "0");
  CHECK_FALSE(zero.sub("S").via.has_value());
  Run empty = subscribe("Events(Paid) via schema( 4 .. 2 )");
  CHECK(empty.codes() == std::vector<std::string>{"E0520"});
  CHECK(empty.at("E0520") == "4 .. 2");
  Run name = subscribe("Events(Paid) via version(2)");
  CHECK(name.codes() == std::vector<std::string>{"E0520"});
  CHECK(name.at("E0520") == "version");
}

TEST_CASE("pattern rules report at the offending part") {
  struct Case {
    const char* from;
    const char* code;
    const char* at;
  };
  const Case cases[] = {
      {"Events(Paid { amout: 1, .. })", "E0510", "amout"},
      {"Events(Paid { amount: { cent: 1, .. }, .. })", "E0510", "cent"},
      {"Events(Paid { ok: true, ok: false, .. })", "E0511", "ok"},
      {"Events(Paid { rate: \"x\", .. })", "E0512", "\"x\""},
      {"Events(Paid { rate: 1, .. })", "E0512", "1"},
      {"Events(Paid { ok: 1..2, .. })", "E0512", "1..2"},
      {"Events(Paid { items: Some(1), .. })", "E0512", "Some(1)"},
      {"Events(Paid { region: Domestic(..), .. })", "E0512", "Domestic(..)"},
      {"Events(Paid { region: Money.Domestic, .. })", "E0512", "Money"},
      {"Events(Paid { region: Refunded(\"a\", 1, 2), .. })", "E0512", "2"},
      {"Events(Paid { region: Domestc, .. })", "E0513", "Domestc"},
      {"Events(Paid { region: Refunded, .. })", "E0514", "Refunded"},
      {"Events(Paid { ok: true })", "E0515", ")"},
      {"Events(Paid { region: Refunded(code: 1), .. })", "E0515", ")"},
      {"Events(Paid { .. })", "E0516", "{ .. }"},
      {"Events(Paid { items: 9..2, .. })", "E0517", "9..2"},
      {"Events(Paid { items: 101, .. })", "E0517", "101"},
      {"Events(Paid { items: -5..0, .. })", "E0517", "-5..0"},
      {"Events(Paid { rate: r, .. })", "E0320", "r"},
      {"Events(Paid { region: other, .. })", "E0320", "other"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.from);
    Run run = subscribe(c.from);
    CHECK(run.codes() == std::vector<std::string>{c.code});
    // A missing `..` is reported at the closing `}` or `)`.
    std::string at = run.at(c.code);
    if (std::string(c.code) == "E0515") {
      CHECK((at == "}" || at == ")"));
    } else {
      CHECK(at == c.at);
    }
  }
}

TEST_CASE("the missing-rest fix-it inserts `, ..` after the last field") {
  Run run = subscribe("Events(Paid { ok: true })");
  REQUIRE(run.diags->diagnostics().size() == 1);
  const Diagnostic& d = run.diags->diagnostics().front();
  REQUIRE(d.fixits.size() == 1);
  CHECK(d.fixits[0].replacement == ", ..");
  CHECK(d.fixits[0].range.begin == d.fixits[0].range.end);
  CHECK(run.sources->textOf(SourceRange{0, d.fixits[0].range.begin - 4,
                                        d.fixits[0].range.begin}) == "true");
}

TEST_CASE("handler shape: accepted forms and each wrong one") {
  auto shape = [](const std::string& handlers) {
    return checkFiles({std::string(kShop) +
                       "\nservice S from Events(Paid) {\n" + handlers +
                       "\n}\n"});
  };
  CHECK(shape("on event(e: Paid) {}").codes().empty());
  CHECK(shape("on event(e: Paid, env: EventEnvelope) {}").codes().empty());
  CHECK(shape("on event(e: Paid) -> () {}").codes().empty());
  Run wrongFirst = shape("on event(e: Money) {}");
  CHECK(wrongFirst.codes() == std::vector<std::string>{"E0504"});
  CHECK(wrongFirst.at("E0504") == "Money");
  Run wrongSecond = shape("on event(e: Paid, env: String) {}");
  CHECK(wrongSecond.at("E0504") == "String");
  Run extra = shape("on event(e: Paid, env: EventEnvelope, n: Int, m: Int) {}");
  CHECK(extra.at("E0504") == "n: Int, m: Int");
  Run result = shape("on event(e: Paid) -> Int { 1 }");
  CHECK(result.at("E0504") == "Int");
  Run none =
      checkFiles({std::string(kShop) + "\nservice S from Events(Paid) {\n}\n"});
  CHECK(none.at("E0504") == "S");
  Run twice = shape("on event(e: Paid) {}\non event(e: Paid) {}");
  CHECK(twice.codes() == std::vector<std::string>{"E0504"});
  Run call = shape("on event(e: Paid) {}\non call n() -> Int { 1 }");
  CHECK(call.at("E0504") == "n");
}

TEST_CASE("unknown-subscription names the consumes line to add") {
  Run run =
      checkFiles({"context a\n\nevent Ping = { n: Int }\n",
                  "context b\n\nconsumes c\n\nservice S from Events(Ping) "
                  "{\n  on event(e: Int) {}\n}\n",
                  "context c\n"});
  CHECK(run.codes() == std::vector<std::string>{"E0503"});
  const Diagnostic& d = run.diags->diagnostics().front();
  REQUIRE(d.fixits.size() == 1);
  CHECK(d.fixits[0].replacement == "\nconsumes a");
  CHECK(run.sources->textOf(SourceRange{1, d.fixits[0].range.begin - 10,
                                        d.fixits[0].range.begin}) ==
        "consumes c");
  const ServiceInfo& s = run.service("b", "S");
  REQUIRE(s.subscription.has_value());
  CHECK(s.subscription->event == nullptr);
}

const char* const kCycle = R"(context shop

event Pinged = { n: Int }
event Done = { n: Int }

agent Counter {
  key id: String
  store count: Int = 0

  on bump(n: Int) given Events {
    count := count + n
    Events.emit(Pinged { n: count })
  }
  on finish() given Events {
    Events.emit(Done { n: count })
  }
}

service Echo from Events(Pinged { n: ..9, .. }) given Counters: Ref[Counter] {
  on event(e: Pinged) {
    Counters("main").bump(e.n)
    Counters("main").bump(1)
  }
}

service Sink from Events(Done) via schema(2..) {
  on event(e: Done) {}
}
)";

TEST_CASE("flow graph: nodes sorted by id, edges of each kind") {
  Run run = checkFiles({kCycle});
  CHECK(run.codes() == std::vector<std::string>{"W0530"});
  const FlowGraph& g = run.program->flow;
  std::vector<std::string> ids;
  for (const FlowGraph::Node& n : g.nodes) ids.push_back(n.id);
  CHECK(ids == std::vector<std::string>{
                   "shop.Counter.bump", "shop.Counter.finish", "shop.Done",
                   "shop.Echo", "shop.Pinged", "shop.Sink"});
  CHECK(g.nodes[3].kind == FlowGraph::NodeKind::Subscription);
  CHECK(g.nodes[3].handler != nullptr);
  CHECK(g.nodes[0].agent != nullptr);
  std::vector<std::string> edges;
  for (const FlowGraph::Edge& e : g.edges) {
    const char* kind = e.kind == FlowGraph::EdgeKind::Emits      ? "emits"
                       : e.kind == FlowGraph::EdgeKind::Delivers ? "delivers"
                                                                 : "sends";
    edges.push_back(g.nodes[e.from].id + " " + kind + " " + g.nodes[e.to].id +
                    (e.label.empty() ? "" : " [" + e.label + "]"));
  }
  // Two sends of the same message are one edge.
  CHECK(edges == std::vector<std::string>{
                     "shop.Counter.bump emits shop.Pinged",
                     "shop.Counter.finish emits shop.Done",
                     "shop.Done delivers shop.Sink [via schema(2..)]",
                     "shop.Echo sends shop.Counter.bump",
                     "shop.Pinged delivers shop.Echo [{ n: ..9, .. }]",
                 });
}

TEST_CASE("event-cycle: reported once, at the from clause, with the path") {
  Run run = checkFiles({kCycle});
  REQUIRE(run.diags->diagnostics().size() == 1);
  const Diagnostic& d = run.diags->diagnostics().front();
  CHECK(d.message == "events can flow in a cycle through 'Pinged'");
  CHECK(run.sources->textOf(d.range) == "from Events(Pinged { n: ..9, .. })");
  REQUIRE_FALSE(d.notes.empty());
  CHECK(d.notes[0].message ==
        "the cycle: shop.Echo -> shop.Counter.bump -> shop.Pinged -> "
        "shop.Echo");
  // The fix-it marks the service: an insertion right before `service`.
  REQUIRE(d.fixits.size() == 1);
  const FixIt& mark = d.fixits.front();
  CHECK(mark.replacement == "@cycle ");
  CHECK(mark.range.begin == mark.range.end);
  const SourceRange word{mark.range.file, mark.range.begin,
                         mark.range.begin + 12};
  CHECK(run.sources->textOf(word) == "service Echo");
}

TEST_CASE("event-cycle: '@cycle' on the service silences it") {
  std::string marked = kCycle;
  marked.insert(marked.find("service Echo"), "@cycle ");
  Run run = checkFiles({marked});
  CHECK(run.diags->diagnostics().empty());
  CHECK(run.service("shop", "Echo").cycleIntended);
  CHECK_FALSE(run.service("shop", "Sink").cycleIntended);
}

FlowGraph::Node node(FlowGraph::NodeKind kind, std::string id) {
  FlowGraph::Node n{kind, std::move(id)};
  return n;
}

TEST_CASE("eventCycles: shortest cycle per component, only with events") {
  using K = FlowGraph::NodeKind;
  using E = FlowGraph::EdgeKind;
  FlowGraph g;
  // 0 a.h -> 1 E -> 2 S1 -> 0 ; 2 S1 -> 3 b.h -> 4 E2 -> 5 S2 -> 3
  // 6 x.h <-> 7 y.h: a message cycle without events, not reported.
  g.nodes = {node(K::Handler, "a.h"),       node(K::Event, "b.E"),
             node(K::Subscription, "c.S1"), node(K::Handler, "d.h"),
             node(K::Event, "e.E2"),        node(K::Subscription, "f.S2"),
             node(K::Handler, "x.h"),       node(K::Handler, "y.h")};
  g.edges = {
      {E::Emits, 0, 1, ""}, {E::Delivers, 1, 2, ""}, {E::Sends, 2, 0, ""},
      {E::Sends, 2, 3, ""}, {E::Emits, 3, 4, ""},    {E::Delivers, 4, 5, ""},
      {E::Sends, 5, 3, ""}, {E::Sends, 6, 7, ""},    {E::Sends, 7, 6, ""}};
  auto cycles = eventCycles(g);
  REQUIRE(cycles.size() == 2);
  CHECK(cycles[0] == std::vector<std::uint32_t>{2, 0, 1});
  CHECK(cycles[1] == std::vector<std::uint32_t>{5, 3, 4});
  // Joining the two loops makes one component, reported once from S1.
  g.edges.push_back({E::Sends, 5, 0, ""});
  cycles = eventCycles(g);
  REQUIRE(cycles.size() == 1);
  CHECK(cycles[0] == std::vector<std::uint32_t>{2, 0, 1});
}

TEST_CASE("eventCycles: a cycle through a @cycle service is not one") {
  using K = FlowGraph::NodeKind;
  using E = FlowGraph::EdgeKind;
  ServiceInfo marked;
  marked.cycleIntended = true;
  ServiceInfo plain;
  FlowGraph g;
  // 0 a.h -> 1 E -> 2 S1 -> 0 ; 2 S1 -> 3 b.h -> 4 E2 -> 5 S2 -> 3 ; 5 -> 0
  g.nodes = {node(K::Handler, "a.h"),       node(K::Event, "b.E"),
             node(K::Subscription, "c.S1"), node(K::Handler, "d.h"),
             node(K::Event, "e.E2"),        node(K::Subscription, "f.S2")};
  g.nodes[2].service = &marked;
  g.nodes[5].service = &plain;
  g.edges = {{E::Emits, 0, 1, ""}, {E::Delivers, 1, 2, ""},
             {E::Sends, 2, 0, ""}, {E::Sends, 2, 3, ""},
             {E::Emits, 3, 4, ""}, {E::Delivers, 4, 5, ""},
             {E::Sends, 5, 3, ""}, {E::Sends, 5, 0, ""}};
  // S1's loops are intended; the one through S2 alone is not, although
  // the two share a component.
  auto cycles = eventCycles(g);
  REQUIRE(cycles.size() == 1);
  CHECK(cycles[0] == std::vector<std::uint32_t>{5, 3, 4});
  plain.cycleIntended = true;
  CHECK(eventCycles(g).empty());
}

TEST_CASE("eventCycles: a very long chain needs no deep recursion") {
  using K = FlowGraph::NodeKind;
  using E = FlowGraph::EdgeKind;
  constexpr std::uint32_t kLength = 200'000;
  FlowGraph g;
  g.nodes.push_back(node(K::Subscription, "s"));
  for (std::uint32_t i = 1; i < kLength; ++i)
    g.nodes.push_back(node(i % 2 == 0 ? K::Handler : K::Event, "n"));
  for (std::uint32_t i = 0; i + 1 < kLength; ++i)
    g.edges.push_back({E::Sends, i, i + 1, ""});
  CHECK(eventCycles(g).empty());
  g.edges.push_back({E::Delivers, kLength - 1, 0, ""});
  auto cycles = eventCycles(g);
  REQUIRE(cycles.size() == 1);
  CHECK(cycles[0].size() == kLength);
}

}  // namespace
}  // namespace herald::check
