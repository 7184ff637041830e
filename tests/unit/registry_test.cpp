// The schema registry: the lock's text form, shape comparison, and the
// versions the registry computes into the checked IR.
#include "registry/registry.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <llvm/Support/Casting.h>

#include "checker/checker.h"
#include "frontend/parser.h"
#include "registry/evolve.h"
#include "registry/lock.h"
#include "registry_run.h"

namespace herald::registry {
namespace {

using test::codes;
using test::Run;

LockEvent event(std::string name, std::int64_t version,
                std::vector<LockField> fields) {
  return {std::move(name), version, std::move(fields), 0};
}

TEST_CASE("Lock: the text form reads back as written, sorted") {
  Lock lock;
  lock.events.push_back(event(
      "a.B", 3,
      {{"at", "Instant", std::nullopt}, {"note", "String", "\"x = y\""}}));
  lock.events.push_back(event("a.C", 1, {}));
  const std::string text = printLock(lock);
  ParsedLock read = parseLock(text);
  REQUIRE_FALSE(read.error);
  REQUIRE(read.lock.events.size() == 2);
  CHECK(read.lock.events[0].qualified == "a.B");
  CHECK(read.lock.events[0].version == 3);
  CHECK(read.lock.events[0].fields == lock.events[0].fields);
  CHECK(read.lock.events[1].fields.empty());
  CHECK(printLock(read.lock) == text);

  // Out of order by hand: read sorted, so written back sorted.
  ParsedLock shuffled =
      parseLock("event z.Z 1\n  b: Int\n  a: Int\n\nevent a.A 2\r\n");
  REQUIRE_FALSE(shuffled.error);
  CHECK(shuffled.lock.events[0].qualified == "a.A");
  CHECK(shuffled.lock.events[1].fields[0].name == "a");
}

TEST_CASE("Lock: each malformed line is named") {
  struct Case {
    const char* text;
    std::uint32_t line;
    const char* message;
  };
  const Case cases[] = {
      {"  a: Int\n", 1, "a field line must follow an 'event' line"},
      {"# c\nevent a.B\n", 2, "needs a positive version"},
      {"event a.B 0\n", 1, "needs a positive version"},
      {"event a.B 01\n", 1, "needs a positive version"},
      {"event a..B 1\n", 1, "is not a qualified event name"},
      {"event a.B 1\nevent a.B 2\n", 2, "is listed twice"},
      {"event a.B 1\n  a Int\n", 2, "expected '<field>: <type>'"},
      {"event a.B 1\n  a: Int\n  a: Int\n", 3, "field 'a' is listed twice"},
      {"event a.B 1\n  a: Int = \n", 2, "has an empty default"},
      {"event a.B 1\n  a: \n", 2, "has no type"},
      {"event a.B 1\nfield\n", 2, "expected 'event <name> <version>'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    ParsedLock read = parseLock(c.text);
    REQUIRE(read.error);
    CHECK(read.error->line == c.line);
    CHECK(read.error->message.find(c.message) != std::string::npos);
  }
  // A field recorded twice in different events is fine.
  CHECK_FALSE(
      parseLock("event a.B 1\n  a: Int\nevent a.C 1\n  a: Int\n").error);
}

TEST_CASE("Shapes: unchanged, additive, and every non-additive change") {
  const LockEvent v1 = event("a.E", 1,
                             {{"a", "Int", std::nullopt},
                              {"b", "String", "\"b\""},
                              {"c", "Bool", std::nullopt}});
  CHECK(compareShapes(v1, v1).kind == EvolutionKind::Unchanged);

  LockEvent added = v1;
  added.fields.insert(added.fields.begin(), {"_first", "Int", "0"});
  added.fields.push_back({"d", "Int", "1"});
  Evolution additive = compareShapes(v1, added);
  CHECK(additive.kind == EvolutionKind::Additive);
  REQUIRE(additive.added.size() == 2);
  CHECK(additive.added[0].name == "_first");
  CHECK(additive.added[1].name == "d");

  const LockEvent changed = event("a.E", 1,
                                  {{"a", "String", std::nullopt},
                                   {"b", "String", std::nullopt},
                                   {"c", "Bool", "true"},
                                   {"e", "Int", std::nullopt},
                                   {"f", "Int", "2"}});
  Evolution broken = compareShapes(v1, changed);
  CHECK(broken.kind == EvolutionKind::NonAdditive);
  std::vector<std::string> described;
  for (const FieldChange& change : broken.changes)
    described.push_back(change.field + " " + change.description);
  CHECK(described == std::vector<std::string>{
                         "a retyped from 'Int' to 'String'",
                         "b lost its default '\"b\"'",
                         "c gained the default 'true' after it was recorded "
                         "without one",
                         "e added without a default"});
  // A removal is a change even when everything else only adds.
  LockEvent removed = added;
  removed.fields.erase(removed.fields.begin() + 1);  // a
  Evolution gone = compareShapes(v1, removed);
  CHECK(gone.kind == EvolutionKind::NonAdditive);
  REQUIRE(gone.changes.size() == 1);
  CHECK(gone.changes[0].description == "removed (was 'Int')");
}

constexpr const char* kProgram = R"(context shop

event Paid = { id: String, cents: Int = 0 }
@schema(4) event Pinned = { id: String }
event Fresh = { id: String }
)";

TEST_CASE("Registry: versions go into the IR, the lock keeps other entries") {
  ParsedLock lock = parseLock(
      "event gone.Old 7\n  x: Int\n"
      "event shop.Paid 2\n  id: String\n"
      "event shop.Pinned 4\n  id: String\n");
  REQUIRE_FALSE(lock.error);
  Run run(kProgram, lock.lock);
  CHECK(codes(run.diags).empty());
  CHECK(run.version("shop", "Paid") == 3);
  CHECK(run.version("shop", "Pinned") == 4);
  CHECK(run.version("shop", "Fresh") == 1);
  CHECK(run.result.changed);
  REQUIRE(run.result.changes.size() == 2);
  CHECK(run.result.changes[0].event == "shop.Fresh");
  CHECK_FALSE(run.result.changes[0].from);
  CHECK(run.result.changes[1].event == "shop.Paid");
  CHECK(run.result.changes[1].from == 2);
  CHECK(run.result.changes[1].to == 3);
  std::vector<std::string> names;
  for (const LockEvent& e : run.result.lock.events)
    names.push_back(e.qualified + " " + std::to_string(e.version));
  CHECK(names == std::vector<std::string>{"gone.Old 7", "shop.Fresh 1",
                                          "shop.Paid 3", "shop.Pinned 4"});
}

TEST_CASE("Registry: --locked reports every change the lock would need") {
  ParsedLock lock = parseLock("event shop.Paid 2\n  id: String\n");
  RegistryOptions options;
  options.locked = true;
  Run run(kProgram, lock.lock, options);
  CHECK(codes(run.diags) ==
        std::vector<std::string>{"E0604", "E0604", "E0604"});
  Run upToDate(kProgram, run.result.lock, options);
  CHECK(codes(upToDate.diags).empty());
  CHECK_FALSE(upToDate.result.changed);
}

TEST_CASE("Registry: a non-additive change keeps the lock entry") {
  ParsedLock lock = parseLock("event shop.Paid 5\n  total: Int\n");
  Run run(kProgram, lock.lock);
  CHECK(codes(run.diags) == std::vector<std::string>{"E0601"});
  CHECK(run.result.lock.events[1].qualified == "shop.Paid");
  CHECK(run.result.lock.events[1].version == 5);
  CHECK(run.result.lock.events[1].fields.size() == 1);
}

}  // namespace
}  // namespace herald::registry
