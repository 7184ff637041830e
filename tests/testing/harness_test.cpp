// Harness: run to idle, move time, faults, dead letters and dead messages.
#include <chrono>

#include <doctest/doctest.h>

#include "kit_program.hpp"
#include "walk.h"
#include "walk/relay.h"

namespace herald::kit_test {

using namespace std::chrono_literals;

TEST_CASE("harness: a failed delivery waits for time to move, then succeeds") {
  testing::Harness h;
  FailingGateway gateway;
  gateway.fail_next = 1;
  install(h, gateway);
  pay(h, "o-1", "intl-a");
  h.run_to_idle();
  CHECK(gateway.sent.empty());
  const auto faults = h.faults();
  REQUIRE(faults.size() == 1);
  CHECK(faults[0].event == "delivery.fault");
  CHECK(faults[0].subscription == kInternational);
  CHECK(faults[0].attempt == 1);
  CHECK(faults[0].message == "gateway unavailable for intl-a");
  const auto retry = h.logs().lines("delivery.retry");
  REQUIRE(retry.size() == 1);
  REQUIRE(retry[0].delay.has_value());
  CHECK(retry[0].next_attempt == 2);
  // Not yet due: nothing runs while time stands still.
  h.advance(*retry[0].delay - 1ms);
  CHECK(gateway.sent.empty());
  h.advance(1ms);
  CHECK(gateway.sent.size() == 1);
  CHECK(h.now() == DeterministicExecutor::default_start() + *retry[0].delay);
  CHECK(h.dead_letters().empty());
}

TEST_CASE(
    "harness: the last attempt's fault is a dead letter of its subscription") {
  testing::Harness h({.config = config_with({{"retry.max_attempts", "2"}})});
  FailingGateway gateway;
  gateway.always_fail = true;
  install(h, gateway);
  h.record<PaymentConfirmed>();
  pay(h, "o-1", "intl-a");
  h.run_all();
  const auto letters = h.dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].attempts == 2);
  CHECK(letters[0].last_error == "gateway unavailable for intl-a");
  CHECK(letters[0].event->envelope.eventId == h.events().at(0).event_id);
  CHECK(h.dead_letters(kDomestic).empty());
  CHECK(h.logs().lines("delivery.dead_letter").size() == 1);

  const nlohmann::json trace = h.trace();
  REQUIRE(trace["deadLetters"].size() == 1);
  // Named by first appearance: the payment is the first id of the trace.
  CHECK(trace["events"][0]["envelope"]["eventId"] == "<id1>");
  CHECK(trace["deadLetters"][0]["eventId"] == "<id1>");
  CHECK(trace["deadLetters"][0]["attempts"] == 2);
  CHECK(trace["faults"].size() == 3);  // two faults, one dead letter
}

TEST_CASE("harness: a one-way message that keeps faulting is a dead message") {
  testing::Harness h({.config = config_with({{"retry.max_attempts", "2"}})});
  h.runtime().install(walk::context());
  h.runtime().install(walk::relay::context());
  h.record<walk::Walked>();
  for (std::uint64_t k = 1; k <= 2; ++k)
    h.executor().injector().throw_in_handler("walk.Walker.note", k,
                                             "notes full");
  walk::Walker::at(h.runtime(), "w").walk(2);
  h.run_all();
  // A host sees the fault of a one-way message only as log lines and,
  // after the last attempt, as a dead message.
  const auto dead = h.dead_messages();
  REQUIRE(dead.size() == 1);
  CHECK(dead[0].message.agent_kind == "walk.Walker");
  CHECK(dead[0].message.key == "notes");
  CHECK(dead[0].message.handler == "note");
  CHECK(dead[0].attempts == 2);
  CHECK(dead[0].last_error == "notes full");
  const auto faults = h.logs().lines("handler.fault");
  REQUIRE(faults.size() == 2);
  CHECK(faults[0].handler == "walk.Walker.note");
  CHECK(faults[0].message == "notes full");
  // It carries the delivery that sent the message.
  CHECK(faults[0].event_id == h.events().at(0).event_id);
  const auto dead_line = h.logs().lines("message.dead_letter");
  REQUIRE(dead_line.size() == 1);
  CHECK(dead_line[0].message_id == dead[0].message.id);
  CHECK(dead_line[0].agent == "walk.Walker");
  const nlohmann::json trace = h.trace();
  REQUIRE(trace["deadMessages"].size() == 1);
  CHECK(trace["deadMessages"][0]["handler"] == "note");
}

TEST_CASE(
    "harness: its default configuration ignores the caller's environment") {
  testing::Harness h;
  CHECK(h.runtime().config().retry_max_attempts == 5);
  CHECK(h.runtime().config().backend_kind == BackendKind::memory);
}

}  // namespace herald::kit_test
