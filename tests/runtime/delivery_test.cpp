// D6-D8 on the deterministic executor.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "test_world.hpp"

namespace herald::test {

TEST_CASE(
    "D6: a redelivered, recorded eventId is acknowledged without running the "
    "handler") {
  World w;
  // Crash right after the audit subscription's first commit, before its
  // acknowledgement: the restart re-drives the event from the log.
  w.executor.injector().crash_after_commit(kAudit, 1);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  CHECK(w.executor.crashes() == 1);
  REQUIRE(w.crashed);
  w.restart();
  w.executor.run_until_idle();
  CHECK(w.rt().recovery().deliveries_redriven >= 1);
  // The new runtime's counters: the redelivery was deduplicated, nothing
  // delivered again.
  CHECK(w.sub_metric(kAudit, "deduplicated") == 1);
  CHECK(w.sub_metric(kAudit, "delivered") == 0);
  CHECK(w.log.lines("handler.log").size() == 1);  // the audit handler ran once
  CHECK(w.inbox("audit").size() == 1);
  CHECK(w.sub_metric(kAudit, "lag") == 0);
}

TEST_CASE("D6: the same eventId published twice is stored once") {
  World w;
  const auto id = EventId::from_random(0x1234, 0x5678);
  PaymentConfirmed e{OrderId::from_raw("o-9"),
                     UserId::from_raw("u-9"),
                     Money{5, "EUR"},
                     commerce::order::Region::Domestic,
                     {}};
  CHECK(w.rt().publish("commerce.order", "relay", e, id) == id);
  w.executor.run_until_idle();
  CHECK(w.rt().publish("commerce.order", "relay", e, id) == id);
  w.executor.run_until_idle();
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 1);
  CHECK(w.type_metric(kPaymentConfirmed, "deduplicated") == 1);
  CHECK(w.inbox("u-9") == std::vector<std::string>{"domestic o-9:5"});
  CHECK(w.inbox("audit").size() == 1);
}

TEST_CASE(
    "D6: Idempotency keys commit with the handler and are visible to later "
    "invocations") {
  std::vector<bool> seen;
  World w(1, {}, [&](Runtime& rt) {
    Context probe("test.probe");
    probe.subscribe<PaymentConfirmed>(
        {.service = "test.probe.Once",
         .handler = [&](Invocation& tx, const PaymentConfirmed& e,
                        const EventEnvelope&) {
           seen.push_back(tx.idempotency().seen(e.orderId.raw()));
           tx.idempotency().remember(e.orderId.raw(), std::chrono::minutes(1));
         }});
    rt.install(std::move(probe));
  });
  w.executor.injector().throw_in_handler("test.probe.Once", 1);
  Order o = w.order("o-1", "u-1");
  o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_all();  // first attempt aborts: its remember is discarded
  o.markPaid(InternalCaller{}, AuthId::from_raw("b"));
  w.executor.run_until_idle();
  w.executor.advance(std::chrono::minutes(2));
  o.markPaid(InternalCaller{}, AuthId::from_raw("c"));
  w.executor.run_until_idle();
  CHECK(seen == std::vector<bool>{false, false, true, false});
}

TEST_CASE("D7: per-publisher FIFO holds across retries") {
  World w;
  w.executor.injector().fail_delivery(kDomestic,
                                      1);  // the first event's first attempt
  Order a = w.order("o-a", "u-1");
  Order b = w.order("o-b", "u-2");
  a.splitPayment(InternalCaller{}, 4);
  b.splitPayment(InternalCaller{}, 2);
  w.executor.run_until_idle();
  // Publisher o-a waits for its retry; publisher o-b does not.
  CHECK(w.inbox("u-1").empty());
  CHECK(w.inbox("u-2") ==
        std::vector<std::string>{"domestic o-b:1", "domestic o-b:2"});
  a.splitPayment(InternalCaller{}, 1);  // arrives while the lane is blocked
  w.executor.run_all();
  CHECK(w.inbox("u-1") ==
        std::vector<std::string>{"domestic o-a:1", "domestic o-a:2",
                                 "domestic o-a:3", "domestic o-a:4",
                                 "domestic o-a:1"});
  CHECK(w.sub_metric(kDomestic, "retried") == 1);
}

TEST_CASE("D7: per-publisher FIFO holds when an event is dead-lettered") {
  World w(1, {{"retry.max_attempts", "2"}});
  w.gateway.fail_next = 2;  // both attempts of the first international event
  Order o = w.order("o-1", "intl-u1");
  o.splitPayment(InternalCaller{}, 3);
  w.executor.run_all();
  CHECK(w.inbox("intl-u1") ==
        std::vector<std::string>{"international o-1:2", "international o-1:3"});
  const auto letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].event->envelope.sequence == 1);
}

TEST_CASE("D7: FIFO holds for every seed of the scheduler") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    World w(seed);
    w.executor.injector().fail_delivery(kAudit, 2);
    w.executor.injector().fail_delivery(kAudit, 5);
    Order o = w.order("o-1", "u-1");
    for (int i = 0; i < 3; ++i) o.splitPayment(InternalCaller{}, 2);
    w.executor.run_all();
    const auto audit = w.inbox("audit");
    REQUIRE(audit.size() == 6);
    for (std::size_t i = 0; i < audit.size(); ++i) {
      CHECK_MESSAGE(
          audit[i].find(fmt::format("seq={} ", i + 1)) != std::string::npos,
          "seed ", seed);
    }
  }
}

TEST_CASE("D8: retries use capped exponential backoff with jitter") {
  World w(7, {{"retry.base", "100ms"},
              {"retry.cap", "300ms"},
              {"retry.max_attempts", "5"},
              {"retry.jitter", "0.5"}});
  w.gateway.always_fail = true;
  w.order("o-1", "intl-u1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_all();
  const auto retries = w.log.lines("delivery.retry");
  REQUIRE(retries.size() == 4);
  const std::int64_t nominal_ms[] = {100, 200, 300, 300};
  bool jittered = false;
  for (std::size_t i = 0; i < retries.size(); ++i) {
    CHECK(retries[i]["attempt"] == i + 1);
    CHECK(retries[i]["subscription"] == kInternational);
    const Duration d = parse_duration(retries[i]["delay"].get<std::string>());
    const Duration nominal = std::chrono::milliseconds(nominal_ms[i]);
    CHECK(d <= nominal);
    CHECK(d >= nominal / 2);
    if (d != nominal) jittered = true;
  }
  CHECK(jittered);
}

TEST_CASE(
    "D8: after the last attempt the event is dead-lettered with attempts, "
    "error and times") {
  World w(1, {{"retry.base", "1s"},
              {"retry.cap", "4s"},
              {"retry.max_attempts", "3"},
              {"retry.jitter", "0"}});
  w.gateway.always_fail = true;
  const Instant start = w.executor.now();
  w.order("o-1", "intl-u1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_all();
  const auto letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].attempts == 3);
  CHECK(letters[0].last_error == "gateway unavailable for intl-u1");
  CHECK(letters[0].first_attempt_at == start);
  CHECK(letters[0].last_attempt_at ==
        start + std::chrono::seconds(3));  // 1s + 2s
  CHECK(letters[0].dead_lettered_at == letters[0].last_attempt_at);
  CHECK(w.sub_metric(kInternational, "deadLettered") == 1);
  CHECK(w.sub_metric(kInternational, "lag") == 0);
  const auto json = w.rt().dead_letter_json(letters[0]);
  CHECK(json["payload"]["orderId"] == "o-1");
  CHECK(json["envelope"]["sequence"] == 1);
  const auto lines = w.log.lines("delivery.dead_letter");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]["attempt"] == 3);
  CHECK(lines[0]["eventId"] == letters[0].event->envelope.eventId.str());
}

TEST_CASE("D8: a dead letter can be re-driven, once") {
  World w(1, {{"retry.max_attempts", "1"}});
  w.gateway.always_fail = true;
  w.order("o-1", "intl-u1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_all();
  auto letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  const EventId id = letters[0].event->envelope.eventId;
  w.gateway.always_fail = false;
  CHECK(w.rt().redrive(kInternational, id));
  CHECK_FALSE(w.rt().redrive(kInternational, id));
  w.executor.run_all();
  CHECK(w.rt().dead_letters(kInternational).empty());
  CHECK(w.inbox("intl-u1") ==
        std::vector<std::string>{"international o-1:1000"});
  CHECK(w.sub_metric(kInternational, "delivered") == 1);
}

TEST_CASE(
    "D8: a dead letter keeps its event after the log and every delivery let "
    "go of it") {
  World w(1, {{"retry.max_attempts", "1"}});
  w.gateway.always_fail = true;
  w.order("o-1", "intl-u1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.run_all();
  REQUIRE(w.rt().dead_letters(kInternational).size() == 1);
  // Later events settle, the log drops o-1's entry with theirs, and their
  // entries are allocated where settled ones were.
  w.gateway.always_fail = false;
  for (int i = 2; i <= 20; ++i)
    w.order(fmt::format("o-{}", i), "intl-u1")
        .markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.run_all();
  // The fan-out truncates what was settled before its last run.
  w.order("o-last", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.run_all();
  REQUIRE(w.rt().store().context_log("commerce.order").size() <= 1);
  auto letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  REQUIRE(letters[0].event->type == &event_type<PaymentConfirmed>());
  const auto& paid =
      *static_cast<const PaymentConfirmed*>(letters[0].event->payload);
  CHECK(paid.orderId == OrderId::from_raw("o-1"));
  CHECK(w.rt().redrive(kInternational, letters[0].event->envelope.eventId));
  w.run_all();
  const auto inbox = w.inbox("intl-u1");
  REQUIRE(inbox.size() == 20);
  CHECK(inbox.back() == "international o-1:1000");
}

}  // namespace herald::test
