// LogLine: the runtime's log lines with their fields typed.
#include <doctest/doctest.h>

#include "kit_program.hpp"

namespace herald::kit_test {

TEST_CASE("log capture: typed fields of a handler's own log line") {
  testing::Harness h;
  FailingGateway gateway;
  install(h, gateway);
  pay(h, "o-1", "u-1");
  h.run_to_idle();
  const auto lines = h.logs().lines("handler.log");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].level == LogLevel::info);
  CHECK(lines[0].handler == "commerce.notifications.OnPaymentAudit");
  CHECK(lines[0].message.rfind("audit ", 0) == 0);
  CHECK_FALSE(lines[0].node.empty());
  CHECK(lines[0].fields["event"] == "handler.log");
  CHECK(h.logs().sink().lines("handler.log").size() == 1);
}

TEST_CASE("log line: parse checks what it types") {
  const auto line = testing::LogLine::parse(
      {{"event", "delivery.retry"},
       {"level", "warn"},
       {"message", "m"},
       {"subscription", "s"},
       {"eventId", "0190a7c0-0000-7000-8000-000000000001"},
       {"nextAttempt", 2},
       {"delay", "250ms"}});
  CHECK(line.level == LogLevel::warn);
  CHECK(line.subscription == "s");
  CHECK(line.event_id->str() == "0190a7c0-0000-7000-8000-000000000001");
  CHECK(line.next_attempt == 2);
  CHECK(line.delay == std::chrono::milliseconds(250));
  CHECK_FALSE(line.handler.has_value());
  CHECK_THROWS_WITH_AS(testing::LogLine::parse({{"level", "info"}}),
                       doctest::Contains("no field 'event'"), Error);
  CHECK_THROWS_WITH_AS(
      testing::LogLine::parse(
          {{"event", "e"}, {"level", "info"}, {"eventId", "nope"}}),
      doctest::Contains("'eventId' is not an id"), Error);
  CHECK_THROWS_WITH_AS(
      testing::LogLine::parse({{"event", "e"}, {"level", "loud"}}),
      doctest::Contains("level"), Error);
  CHECK_THROWS_WITH_AS(
      testing::LogLine::parse(
          {{"event", "e"}, {"level", "info"}, {"attempt", "1"}}),
      doctest::Contains("'attempt' is not an integer"), Error);
  CHECK(testing::is_fault_event("delivery.fault"));
  CHECK_FALSE(testing::is_fault_event("delivery.retry"));
}

}  // namespace herald::kit_test
