// EventRecorder: every routed emission of a tapped type with its envelope,
// through Runtime::tap.
#include <doctest/doctest.h>

#include "kit_program.hpp"

namespace herald::kit_test {

TEST_CASE("recorder: an emission and the one it caused, with their envelopes") {
  testing::Harness h;
  FailingGateway gateway;
  install(h, gateway);
  h.record<PaymentConfirmed>();
  h.record<commerce::notifications::ReceiptIssued>();
  pay(h, "o-1", "u-1", 1250);
  h.run_to_idle();

  const auto events = h.events();
  REQUIRE(events.size() == 2);
  const testing::RecordedEvent& paid = events[0];
  CHECK(paid.event_type == "commerce.order.PaymentConfirmed");
  CHECK(paid.publisher_id == "commerce.order.Order/o-1");
  CHECK(paid.sequence == 1);
  CHECK(paid.depth == 0);
  CHECK(paid.schema_version == 1);
  CHECK(paid.position == 1);
  CHECK(paid.emitted_at == DeterministicExecutor::default_start());
  CHECK_FALSE(paid.causation_id.has_value());
  CHECK(paid.payload["amount"]["cents"] == 1250);
  const PaymentConfirmed* typed = paid.get<PaymentConfirmed>();
  REQUIRE(typed != nullptr);
  CHECK(typed->orderId.raw() == "o-1");
  CHECK(paid.get<commerce::notifications::ReceiptIssued>() == nullptr);
  CHECK(paid.envelope_json()["publisherId"] == "commerce.order.Order/o-1");
  CHECK(paid.envelope_json()["eventId"] == paid.event_id.str());

  // The receipt the domestic subscriber emitted while handling it.
  const testing::RecordedEvent& receipt = events[1];
  CHECK(receipt.event_type == "commerce.notifications.ReceiptIssued");
  CHECK(receipt.publisher_id == kDomestic);
  CHECK(receipt.depth == 1);
  REQUIRE(receipt.causation_id.has_value());
  CHECK(*receipt.causation_id == paid.event_id);
  CHECK(receipt.correlation_id == paid.correlation_id);
  CHECK(h.values<commerce::notifications::ReceiptIssued>().size() == 1);
}

TEST_CASE("recorder: only the tapped types, filtered or not by subscriptions") {
  testing::Harness h;
  FailingGateway gateway;
  install(h, gateway);
  h.record<commerce::notifications::ReceiptIssued>();
  // International payments issue no receipt; domestic ones do.
  pay(h, "o-1", "intl-a");
  pay(h, "o-2", "u-2");
  pay(h, "o-3", "u-3");
  h.run_to_idle();
  const auto receipts = h.values<commerce::notifications::ReceiptIssued>();
  REQUIRE(receipts.size() == 2);
  CHECK(h.recorder().events("commerce.order.PaymentConfirmed").empty());
}

TEST_CASE("recorder: an aborted handler's emissions are never recorded") {
  testing::Harness h;
  FailingGateway gateway;
  install(h, gateway);
  h.record<PaymentConfirmed>();
  Order o = Order::at(h.runtime(), OrderId::from_raw("o-1"));  // no customer
  CHECK_THROWS_AS(o.markPaid(InternalCaller{}, AuthId::from_raw("a")),
                  HandlerFault);
  h.run_to_idle();
  CHECK(h.recorder().size() == 0);
}

TEST_CASE("tap: refused after the first call and for a type nobody owns") {
  testing::Harness h;
  FailingGateway gateway;
  h.runtime().install(commerce::order::context());
  CHECK_THROWS_WITH_AS(h.record<commerce::notifications::ReceiptIssued>(),
                       doctest::Contains("no installed context owns it"),
                       RegistrationError);
  h.runtime().install(commerce::notifications::context(gateway));
  pay(h, "o-1", "u-1");
  CHECK_THROWS_WITH_AS(h.record<PaymentConfirmed>(),
                       doctest::Contains("before the first call"),
                       RegistrationError);
  CHECK_THROWS_AS(h.runtime().tap(event_type<PaymentConfirmed>(), EventTap{}),
                  RegistrationError);
}

TEST_CASE("tap: a tap that throws is logged and the deliveries go on") {
  testing::Harness h;
  FailingGateway gateway;
  install(h, gateway);
  h.runtime().tap(event_type<PaymentConfirmed>(), [](const LogEntry&) {
    throw std::runtime_error("tap broke");
  });
  h.record<commerce::notifications::ReceiptIssued>();
  pay(h, "o-1", "u-1");
  h.run_to_idle();
  CHECK(h.recorder().size() == 1);
  const auto faults = h.logs().lines("tap.fault");
  REQUIRE(faults.size() == 1);
  CHECK(faults[0].message == "tap broke");
  CHECK(faults[0].event_type == "commerce.order.PaymentConfirmed");
}

}  // namespace herald::kit_test
