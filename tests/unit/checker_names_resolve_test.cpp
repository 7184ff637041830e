// The resolver of names in bodies and constants: each kind of name, the
// order of the body's scope before declarations, members of types and
// capabilities, and an agent fn's own `given` items.
#include <doctest/doctest.h>

#include "checker/resolve.h"
#include "checker_names_util.h"

using herald::check::AgentInfo;
using herald::check::BodyScope;
using herald::check::DepRef;
using herald::check::FnInfo;
using herald::check::NameKind;
using herald::check::Resolution;
using herald::check::resolveName;
using herald::test::NamesRun;
using herald::test::runNames;

namespace {

const char* const kShop = R"(context shop
type Region = | Domestic | Abroad(country: String)
type Zone = Region
type Money = { cents: Int }
type Alias = Money
type Qty = Int where self > 0
type Id = opaque String
capability Pay {
  fn charge(amount: Int) -> Bool
}
event Paid = { cents: Int }
fn price(cents: Int) -> Int { cents }
fn Money.zero() -> Money { Money { cents: 0 } }
agent Ledger {
  key account: String
  store total: Int = 0
  fn add(n: Int) -> Int given Payer: Pay, Ledgers: Ref[Ledger], Clock {
    n
  }
}
)";

Resolution resolve(NamesRun& run, const char* dotted,
                   const BodyScope& scope = BodyScope{},
                   const herald::check::Type* expected = nullptr) {
  return resolveName(*run.program, run.context("shop"), scope,
                     run.parts(dotted), expected);
}

}  // namespace

TEST_CASE("resolver: declarations by kind") {
  auto run = runNames(kShop);
  CHECK(resolve(*run, "Region").kind == NameKind::Type);
  CHECK(resolve(*run, "Money").kind == NameKind::RecordType);
  Resolution alias = resolve(*run, "Alias");
  CHECK(alias.kind == NameKind::RecordType);
  CHECK(alias.typeInfo->name == "Money");  // an alias seen through
  CHECK(resolve(*run, "Qty").kind == NameKind::Constructor);
  CHECK(resolve(*run, "Id").kind == NameKind::Constructor);
  CHECK(resolve(*run, "Paid").kind == NameKind::Event);
  CHECK(resolve(*run, "Pay").kind == NameKind::Capability);
  CHECK(resolve(*run, "Logger").kind == NameKind::Capability);  // first-party
  CHECK(resolve(*run, "price").kind == NameKind::Fn);
  CHECK(resolve(*run, "Ledger").kind == NameKind::Agent);
  CHECK(resolve(*run, "Some").kind == NameKind::Some);
  CHECK(resolve(*run, "None").kind == NameKind::None);
  Resolution missing = resolve(*run, "Nowhere");
  CHECK(missing.kind == NameKind::NotFound);
  CHECK(missing.partsUsed == 0);
}

TEST_CASE("resolver: members of types and capabilities") {
  auto run = runNames(kShop);
  Resolution v = resolve(*run, "Region.Abroad");
  REQUIRE(v.kind == NameKind::Variant);
  CHECK(v.variant->name == "Abroad");
  CHECK(v.partsUsed == 2);
  // An alias of a sum names its variants too.
  Resolution z = resolve(*run, "Zone.Domestic");
  REQUIRE(z.kind == NameKind::Variant);
  CHECK(z.typeInfo->name == "Region");
  Resolution q = resolve(*run, "shop.Region.Domestic");
  CHECK(q.kind == NameKind::Variant);
  CHECK(q.partsUsed == 3);
  Resolution s = resolve(*run, "Money.zero");
  REQUIRE(s.kind == NameKind::StaticFn);
  CHECK(s.fn->name == "zero");
  CHECK(resolve(*run, "Region.Nope").kind == NameKind::UnknownMember);
  Resolution op = resolve(*run, "Pay.charge");
  REQUIRE(op.kind == NameKind::CapabilityOp);
  CHECK(op.op != nullptr);
  CHECK_FALSE(op.viaDependency);
  Resolution bad = resolve(*run, "Pay.refund");
  CHECK(bad.kind == NameKind::CapabilityOp);
  CHECK(bad.op == nullptr);
  // A path longer than what it names: the rest are field accesses.
  CHECK(resolve(*run, "Region.Domestic.x").partsUsed == 2);
}

TEST_CASE("resolver: bare variants need the expected sum") {
  auto run = runNames(kShop);
  const auto* region = run->decl<herald::check::TypeInfo>("shop", "Region");
  REQUIRE(region != nullptr);
  CHECK(resolve(*run, "Domestic").kind == NameKind::NotFound);
  Resolution bare = resolve(*run, "Domestic", BodyScope{}, region->type);
  REQUIRE(bare.kind == NameKind::Variant);
  CHECK(bare.partsUsed == 1);
}

TEST_CASE("resolver: the body's scope comes first, an agent fn's given") {
  auto run = runNames(kShop);
  const auto* ledger = run->decl<AgentInfo>("shop", "Ledger");
  REQUIRE(ledger != nullptr);
  const FnInfo* add = ledger->fn("add");
  REQUIRE(add != nullptr);
  REQUIRE(add->given.size() == 3);
  BodyScope scope;
  scope.agent = ledger;
  scope.params = add->sig.params;
  scope.fn = add;
  CHECK(resolve(*run, "account", scope).kind == NameKind::Key);
  CHECK(resolve(*run, "total", scope).kind == NameKind::Store);
  CHECK(resolve(*run, "n", scope).kind == NameKind::Param);
  CHECK(resolve(*run, "add", scope).kind == NameKind::AgentFn);
  Resolution payer = resolve(*run, "Payer", scope);
  REQUIRE(payer.kind == NameKind::Dependency);
  CHECK(DepRef::decode(payer.index).list == DepRef::List::Fn);
  CHECK(DepRef::decode(payer.index).index == 0);
  Resolution ledgers = resolve(*run, "Ledgers", scope);
  REQUIRE(ledgers.kind == NameKind::AgentRefDependency);
  CHECK(DepRef::decode(ledgers.index).index == 1);
  Resolution charge = resolve(*run, "Payer.charge", scope);
  REQUIRE(charge.kind == NameKind::CapabilityOp);
  CHECK(charge.viaDependency);
  // Outside the fn its items are not in scope.
  CHECK(resolve(*run, "Payer").kind == NameKind::NotFound);
}

TEST_CASE("DepRef: three lists round-trip") {
  for (DepRef::List list :
       {DepRef::List::Service, DepRef::List::Handler, DepRef::List::Fn})
    for (std::uint32_t i : {0u, 1u, 7u, 100000u}) {
      DepRef d = DepRef::decode(DepRef{list, i}.encode());
      CHECK(d.list == list);
      CHECK(d.index == i);
    }
}
