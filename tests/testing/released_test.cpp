// `released` counts entries appended to a log (D2, release at commit): a
// host reading the metrics right after a commit sees them, before any
// fan-out ran, and an event type nobody subscribes to is counted too.
#include <doctest/doctest.h>

#include "kit_program.hpp"
#include "walk.h"

namespace herald::kit_test {

namespace {
std::uint64_t released(Runtime& rt, const std::string& type) {
  return rt.metrics_json()["eventTypes"][type]["released"].get<std::uint64_t>();
}
}  // namespace

TEST_CASE("released: counted at commit, before the fan-out runs") {
  testing::Harness h;
  FailingGateway gateway;
  install(h, gateway);
  pay(h, "o-1", "u-1");
  pay(h, "o-2", "u-2");
  // Nothing has run on the executor yet.
  CHECK(released(h.runtime(), "commerce.order.PaymentConfirmed") == 2);
  CHECK(released(h.runtime(), "commerce.notifications.ReceiptIssued") == 0);
  h.run_to_idle();
  CHECK(released(h.runtime(), "commerce.order.PaymentConfirmed") == 2);
  CHECK(released(h.runtime(), "commerce.notifications.ReceiptIssued") == 2);
}

TEST_CASE("released: a host publish counts once, a duplicate eventId not") {
  testing::Harness h;
  FailingGateway gateway;
  install(h, gateway);
  const PaymentConfirmed event{OrderId::from_raw("x"), UserId::from_raw("u"),
                               Money{1, "EUR"},
                               commerce::order::Region::Domestic,
                               DeterministicExecutor::default_start()};
  // A relay's id, supplied with both publishes (D6).
  const EventId id = *EventId::parse("0190a7c0-0000-7000-8000-000000000001");
  h.runtime().publish("commerce.order", "bridge", event, id);
  CHECK(released(h.runtime(), "commerce.order.PaymentConfirmed") == 1);
  h.runtime().publish("commerce.order", "bridge", event, id);
  CHECK(released(h.runtime(), "commerce.order.PaymentConfirmed") == 1);
  CHECK(h.runtime()
            .metrics_json()["eventTypes"]["commerce.order.PaymentConfirmed"]
                           ["deduplicated"] == 1);
}

TEST_CASE("released: an event type without subscribers is released too") {
  testing::Harness h;
  h.runtime().install(walk::context());
  walk::Walker::at(h.runtime(), "w").walk(2);
  h.run_to_idle();
  CHECK(released(h.runtime(), "walk.Walked") == 1);
}

}  // namespace herald::kit_test
