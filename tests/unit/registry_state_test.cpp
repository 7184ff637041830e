// The schema registry's agent entries: the lock's text form for agents,
// store comparison, and the state versions and store versions the registry
// computes into the checked IR.
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <llvm/Support/Casting.h>

#include "checker/checker.h"
#include "frontend/parser.h"
#include "registry/evolve.h"
#include "registry/lock.h"
#include "registry/registry.h"
#include "registry/report.h"
#include "registry_run.h"

namespace herald::registry {
namespace {

using test::codes;
using test::Run;

Lock lockOf(const char* text) {
  ParsedLock parsed = parseLock(text);
  REQUIRE_FALSE(parsed.error);
  return parsed.lock;
}

TEST_CASE("Lock: agents read back as written, sorted, after the events") {
  Lock lock;
  lock.events.push_back({"a.E", 1, {{"x", "Int", std::nullopt}}, 0});
  lock.agents.push_back({"a.Cart",
                         3,
                         {{"items", "List[String]", true, 1},
                          {"key2", "Map[String, Int]", true, 3},
                          {"raw", "Int", false, 1}},
                         0});
  lock.agents.push_back({"a.Empty", 1, {}, 0});
  const std::string text = printLock(lock);
  CHECK(text.find("agent a.Cart 3\n"
                  "  items: List[String] = initialiser\n"
                  "  key2: Map[String, Int] = initialiser, since 3\n"
                  "  raw: Int\n") != std::string::npos);
  ParsedLock read = parseLock(text);
  REQUIRE_FALSE(read.error);
  REQUIRE(read.lock.agents.size() == 2);
  CHECK(read.lock.agents[0].qualified == "a.Cart");
  CHECK(read.lock.agents[0].version == 3);
  CHECK(read.lock.agents[0].stores == lock.agents[0].stores);
  CHECK(read.lock.agents[1].stores.empty());
  CHECK(read.lock.events.size() == 1);
  CHECK(printLock(read.lock) == text);

  // An agent and an event may share a name; stores sort by name.
  ParsedLock mixed = parseLock(
      "agent z.Z 2\n  b: Int = initialiser, since 2\n  a: Int = "
      "initialiser\nevent z.Z 1\n  a: Int\n");
  REQUIRE_FALSE(mixed.error);
  CHECK(mixed.lock.agents[0].stores[0].name == "a");
  CHECK(mixed.lock.agents[0].stores[1].since == 2);
  CHECK(mixed.lock.events[0].fields.size() == 1);
}

TEST_CASE("Lock: each malformed agent line is named") {
  struct Case {
    const char* text;
    std::uint32_t line;
    const char* message;
  };
  const Case cases[] = {
      {"agent a.B\n", 1, "agent 'a.B' needs a positive version"},
      {"agent a..B 1\n", 1, "is not a qualified agent name"},
      {"agent a.B 1\nagent a.B 2\n", 2, "agent 'a.B' is listed twice"},
      {"agent a.B 1\n  a Int\n", 2, "expected '<store>: <type>'"},
      {"agent a.B 1\n  a: Int = 0\n", 2, "needs 'initialiser'"},
      {"agent a.B 2\n  a: Int = initialiser, since 0\n", 2,
       "needs 'initialiser'"},
      {"agent a.B 2\n  a: Int = initialiser since 2\n", 2,
       "needs 'initialiser'"},
      {"agent a.B 2\n  a: Int = initialiser, since 3\n", 2,
       "is added at version 3, after the agent's 2"},
      {"agent a.B 1\n  a: Int\n  a: Int\n", 3, "store 'a' is listed twice"},
      {"agent a.B 1\n  a: \n", 2, "store 'a' has no type"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    ParsedLock read = parseLock(c.text);
    REQUIRE(read.error);
    CHECK(read.error->line == c.line);
    CHECK(read.error->message.find(c.message) != std::string::npos);
  }
}

TEST_CASE("Stores: unchanged, additive, and every refused change") {
  const LockAgent v1{
      "a.A",
      2,
      {{"a", "Int", true, 1}, {"b", "String", true, 2}, {"c", "Bool", true, 1}},
      0};
  CHECK(compareStores(v1, v1).kind == EvolutionKind::Unchanged);

  LockAgent added = v1;
  added.stores.push_back({"d", "Int", true, 1});
  StateEvolution additive = compareStores(v1, added);
  CHECK(additive.kind == EvolutionKind::Additive);
  REQUIRE(additive.added.size() == 1);
  CHECK(additive.added[0].name == "d");

  const LockAgent changed{"a.A",
                          1,
                          {{"a", "String", true, 1},
                           {"b", "String", false, 1},
                           {"e", "Int", false, 1},
                           {"f", "Int", true, 1}},
                          0};
  StateEvolution refused = compareStores(v1, changed);
  CHECK(refused.kind == EvolutionKind::NonAdditive);
  std::vector<std::string> described;
  for (const FieldChange& change : refused.changes)
    described.push_back(change.field + " " + change.description);
  CHECK(described ==
        std::vector<std::string>{
            "a retyped from 'Int' to 'String'",
            "b lost its initialiser, which state older than version 2 "
            "decodes it from",
            "c removed (was 'Bool')", "e added without an initialiser"});
}

constexpr const char* kV1 = R"(context shop

agent Cart {
  key id: String
  store items: Int = 0
}
)";

constexpr const char* kV2 = R"(context shop

agent Cart {
  key id: String
  store items: Int = 0
  store note: String = "none"
}
)";

TEST_CASE("Registry: a store added with an initialiser bumps the state") {
  Run v1(kV1, Lock{});
  CHECK(codes(v1.diags).empty());
  CHECK(v1.agent("Cart").stateVersion == 1);
  REQUIRE(v1.result.stateChanges.size() == 1);
  CHECK_FALSE(v1.result.stateChanges[0].from);
  CHECK(stateEvolutionReport(v1.result.stateChanges).empty());
  CHECK(printLock(v1.result.lock) ==
        printLock(lockOf("agent shop.Cart 1\n  items: Int = initialiser\n")));

  Run v2(kV2, v1.result.lock);
  CHECK(codes(v2.diags).empty());
  CHECK(v2.agent("Cart").stateVersion == 2);
  CHECK(v2.since("Cart", "items") == 1);
  CHECK(v2.since("Cart", "note") == 2);
  CHECK(v2.result.changed);
  CHECK(stateEvolutionReport(v2.result.stateChanges) ==
        "state: shop.Cart 1 -> 2\n  + note: String = initialiser\n");
  const std::string lock = printLock(v2.result.lock);
  CHECK(lock.find("agent shop.Cart 2\n  items: Int = initialiser\n  note: "
                  "String = initialiser, since 2\n") != std::string::npos);

  // Built again: nothing changes, and each store keeps its version.
  Run again(kV2, v2.result.lock);
  CHECK(codes(again.diags).empty());
  CHECK_FALSE(again.result.changed);
  CHECK(again.agent("Cart").stateVersion == 2);
  CHECK(again.since("Cart", "note") == 2);
  CHECK(printLock(again.result.lock) == lock);
}

TEST_CASE("Registry: removing or retyping a store is refused") {
  const Lock v2 = lockOf(
      "agent shop.Cart 2\n  items: Int = initialiser\n  note: String "
      "= initialiser, since 2\n");
  // Back to v1: `note` is removed.
  Run removed(kV1, v2);
  CHECK(codes(removed.diags) == std::vector<std::string>{"E0605"});
  CHECK(removed.agent("Cart").stateVersion == 2);
  CHECK(printLock(removed.result.lock) == printLock(v2));

  Run retyped(R"(context shop

agent Cart {
  key id: String
  store items: String = ""
  store note: String = "none"
}
)",
              v2);
  CHECK(codes(retyped.diags) == std::vector<std::string>{"E0605"});
  CHECK(printLock(retyped.result.lock) == printLock(v2));
}

TEST_CASE("Registry: --locked reports a state change the lock needs") {
  RegistryOptions options;
  options.locked = true;
  Run fresh(kV1, Lock{}, options);
  CHECK(codes(fresh.diags) == std::vector<std::string>{"E0604"});
  Run bumped(kV2, lockOf("agent shop.Cart 1\n  items: Int = initialiser\n"),
             options);
  CHECK(codes(bumped.diags) == std::vector<std::string>{"E0604"});
  Run upToDate(kV2, bumped.result.lock, options);
  CHECK(codes(upToDate.diags).empty());
  // An entry of an agent the program no longer declares is kept.
  Run other(kV1,
            lockOf("agent gone.Old 4\nagent shop.Cart 1\n  items: Int = "
                   "initialiser\n"),
            options);
  CHECK(codes(other.diags).empty());
  REQUIRE(other.result.lock.agents.size() == 2);
  CHECK(other.result.lock.agents[0].version == 4);
}

}  // namespace
}  // namespace herald::registry
