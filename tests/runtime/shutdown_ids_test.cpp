// Runtime-level eventIds and shutdown: ids minted by publish and by Events.emit
// come from new_event_id(), and Runtime::shutdown stops its executor at
// executor.shutdown_timeout. Built into herald_runtime_tests.
#include <algorithm>
#include <set>

#include <doctest/doctest.h>

#include "herald/errors.hpp"
#include "herald/id_source.hpp"
#include "test_world.hpp"

namespace herald::test {
namespace {

// Every eventId a World mints: the ids publish returns and those the
// envelopes of emitted events carry.
std::vector<EventId> minted_ids(World& w, std::vector<EventId>& emitted) {
  std::vector<EventId> ids;
  for (int i = 0; i < 20; ++i) {
    w.order(fmt::format("o-{}", i), "u")
        .markPaid(InternalCaller{}, AuthId::from_raw("a"));
    ids.push_back(w.rt().publish(
        "commerce.order", "relay",
        PaymentConfirmed{OrderId::from_raw(fmt::format("p-{}", i)),
                         UserId::from_raw("u"),
                         Money{5, "EUR"},
                         commerce::order::Region::Domestic,
                         {}}));
  }
  w.executor.run_all();
  ids.insert(ids.end(), emitted.begin(), emitted.end());
  return ids;
}

World recording_world(std::vector<EventId>& emitted,
                      std::map<std::string, std::string> settings = {}) {
  return World(7, std::move(settings), [&emitted](Runtime& rt) {
    Context c("test.ids");
    c.subscribe<PaymentConfirmed>(
        {.service = "test.ids.Record",
         .handler = [&emitted](Invocation&, const PaymentConfirmed&,
                               const EventEnvelope& env) {
           emitted.push_back(env.eventId);
         }});
    rt.install(std::move(c));
  });
}

}  // namespace

TEST_CASE(
    "EventIds: two runtimes over executors with the same seed mint disjoint "
    "version-7 ids") {
  std::vector<EventId> emitted_a;
  std::vector<EventId> emitted_b;
  World a = recording_world(emitted_a);
  World b = recording_world(emitted_b);
  std::vector<EventId> ids_a = minted_ids(a, emitted_a);
  std::vector<EventId> ids_b = minted_ids(b, emitted_b);
  REQUIRE(emitted_a.size() == 40);
  for (const EventId& id : ids_a) CHECK(((id.hi() >> 12) & 0xF) == 7);
  std::sort(ids_a.begin(), ids_a.end());
  std::sort(ids_b.begin(), ids_b.end());
  std::vector<EventId> both;
  std::set_intersection(ids_a.begin(), ids_a.end(), ids_b.begin(), ids_b.end(),
                        std::back_inserter(both));
  CHECK(both.empty());
  // The schedule is still the seed's: the same deliveries, in the same order
  // of orders, on both.
  CHECK(a.inbox("u") == b.inbox("u"));
}

TEST_CASE(
    "Shutdown: a retry due within executor.shutdown_timeout is delivered, one "
    "past it is dropped, and host calls afterwards fail naming the call") {
  std::vector<EventId> emitted;
  World w = recording_world(emitted, {{"executor.shutdown_timeout", "1s"},
                                      {"retry.base", "500ms"},
                                      {"retry.cap", "10s"},
                                      {"retry.jitter", "0"}});
  // An international payment calls the gateway: attempt 2 comes at +500ms,
  // attempt 3 at +1.5s.
  w.gateway.fail_next = 2;
  w.order("o-1", "intl-u").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  REQUIRE(w.executor.pending_timers() == 1);
  const Instant before = w.executor.now();
  w.rt().shutdown();
  CHECK(w.gateway.calls == 2);  // the retry at +500ms ran, and failed
  CHECK(w.executor.now() == before + std::chrono::milliseconds(500));
  CHECK(w.executor.stopped());
  CHECK(w.executor.pending_timers() == 0);
  CHECK_THROWS_WITH_AS(
      w.rt().publish("commerce.order", "relay",
                     PaymentConfirmed{OrderId::from_raw("o-2"),
                                      UserId::from_raw("u"),
                                      Money{5, "EUR"},
                                      commerce::order::Region::Domestic,
                                      {}}),
      doctest::Contains("Runtime::publish"), Error);
}

}  // namespace herald::test
