// D1-D4 on the deterministic executor.
#include <regex>

#include <doctest/doctest.h>

#include "test_world.hpp"

namespace herald::test {

TEST_CASE("D1: a handler that fails commits nothing and releases nothing") {
  World w;
  Order o =
      Order::at(w.rt(), OrderId::from_raw("o-1"));  // never placed: no customer
  CHECK_THROWS_WITH_AS(o.markPaid(InternalCaller{}, AuthId::from_raw("a")),
                       doctest::Contains("order o-1 has no customer"),
                       HandlerFault);
  w.executor.run_until_idle();
  CHECK(o.statusOf() == commerce::order::Status::Pending);
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 0);
  CHECK(w.inbox("audit").empty());
  const auto faults = w.log.lines("handler.fault");
  REQUIRE(faults.size() == 1);
  CHECK(faults[0]["handler"] == "commerce.order.Order.markPaid");
  CHECK(faults[0]["message"] == "order o-1 has no customer");
}

TEST_CASE(
    "D1: a violated invariant aborts the handler and keeps the old state") {
  World w;
  Order o = Order::at(w.rt(), OrderId::from_raw("o-1"));
  CHECK_THROWS_WITH_AS(
      o.forcePaid(),
      doctest::Contains("invariant 'paidNeedsCustomer' does not hold"),
      HandlerFault);
  CHECK(o.statusOf() == commerce::order::Status::Pending);
}

TEST_CASE(
    "D1: a delivery that throws after staging effects commits none of them") {
  World w;
  // The domestic handler stages an Inbox message and a ReceiptIssued emission,
  // then its first invocation throws.
  w.executor.injector().throw_in_handler(kDomestic, 1, "boom after staging");
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  CHECK(w.inbox("u-1").empty());
  CHECK(w.type_metric("commerce.notifications.ReceiptIssued", "released") == 0);
  CHECK(w.type_metric("commerce.notifications.ReceiptIssued", "aborted") == 1);
  const auto faults = w.log.lines("delivery.fault");
  REQUIRE(faults.size() == 1);
  CHECK(faults[0]["handler"] == kDomestic);
  CHECK(faults[0]["message"] == "boom after staging");
  CHECK(faults[0]["attempt"] == 1);
  CHECK(faults[0]["eventId"].get<std::string>().size() == 36);
  // The retry commits the effects, once.
  w.executor.run_all();
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
  CHECK(w.type_metric("commerce.notifications.ReceiptIssued", "released") == 1);
}

TEST_CASE("D1: a host-callable service is one transaction too") {
  World w;
  auto payments = commerce::order::Payments::in(w.rt());
  CHECK_THROWS_WITH_AS(
      payments.confirmExternal(OrderId::from_raw("x-1"),
                               UserId::from_raw("u-1"), 0),
      "commerce.order.Payments.confirmExternal: amount must be positive",
      HandlerFault);
  payments.confirmExternal(OrderId::from_raw("x-2"), UserId::from_raw("u-1"),
                           300);
  w.executor.run_until_idle();
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic x-2:300"});
  const auto audit = w.inbox("audit");
  REQUIRE(audit.size() == 1);
  CHECK(audit[0].find("seq=1 depth=0 pub=commerce.order.Payments") !=
        std::string::npos);
  CHECK_THROWS_AS(herald::ServiceRef(w.rt(), "commerce.order.Nope"),
                  RegistrationError);
}

TEST_CASE("D2: committed events are released at commit, in emission order") {
  World w;
  Order o = w.order("o-1", "u-1");
  o.splitPayment(InternalCaller{}, 3);
  // Logged by the commit, stamped with their sequences, and released to the
  // fan-out actor, which has not run yet.
  auto& log = w.rt().store().context_log("commerce.order");
  CHECK(log.head() == 3);
  std::vector<LogEntryPtr> logged;
  log.read(0, 10, logged);
  REQUIRE(logged.size() == 3);
  for (std::size_t i = 0; i < logged.size(); ++i) {
    CHECK(logged[i]->position == static_cast<std::int64_t>(i + 1));
    CHECK(logged[i]->envelope.sequence == static_cast<std::int64_t>(i + 1));
    CHECK(logged[i]->envelope.publisherId == "commerce.order.Order/o-1");
  }
  // Released means in the log: counted by the commit, before the fan-out.
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 3);
  w.executor.run_until_idle();
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 3);
  // Emission order is sequence order and delivery order.
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1",
                                                   "domestic o-1:2",
                                                   "domestic o-1:3"});
}

TEST_CASE("D2: an aborted handler emits nothing") {
  World w;
  w.executor.injector().throw_in_handler("commerce.order.Order.splitPayment",
                                         1);
  Order o = w.order("o-1", "u-1");
  CHECK_THROWS_AS(o.splitPayment(InternalCaller{}, 5), HandlerFault);
  CHECK(w.rt().store().context_log("commerce.order").head() == 0);
  w.executor.run_all();
  CHECK(w.type_metric(kPaymentConfirmed, "emitted") == 5);
  CHECK(w.type_metric(kPaymentConfirmed, "aborted") == 5);
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 0);
  CHECK(w.inbox("audit").empty());
}

TEST_CASE("D3: the fan-out actor stamps the envelope") {
  std::vector<EventEnvelope> receipts;
  std::vector<std::string> publishers;
  World cascade(1, {}, [&](Runtime& rt) {
    Context probe("test.probe");
    probe.subscribe<commerce::notifications::ReceiptIssued>({
        .service = "test.probe.OnReceipt",
        .handler =
            [&](Invocation&, const commerce::notifications::ReceiptIssued&,
                const EventEnvelope& env) {
              receipts.push_back(env);
              publishers.emplace_back(env.publisherId);
            },
    });
    rt.install(std::move(probe));
  });
  const Instant start = cascade.executor.now();
  Order o = cascade.order("o-1", "u-1");
  o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
  cascade.executor.advance(std::chrono::seconds(5));
  o.markPaid(InternalCaller{}, AuthId::from_raw("b"));
  cascade.executor.run_until_idle();

  const auto audit = cascade.inbox("audit");
  REQUIRE(audit.size() == 2);
  const std::regex uuid(
      "[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  std::smatch m;
  REQUIRE(std::regex_search(audit[0], m, uuid));
  const std::string first_id = m.str();
  REQUIRE(std::regex_search(audit[1], m, uuid));
  CHECK(m.str() != first_id);
  CHECK(audit[0].find("seq=1 depth=0 pub=commerce.order.Order/o-1") !=
        std::string::npos);
  CHECK(audit[1].find("seq=2 depth=0 pub=commerce.order.Order/o-1") !=
        std::string::npos);

  // The receipt was emitted while handling the payment: one cascade step.
  REQUIRE(receipts.size() == 2);
  CHECK(receipts[0].depth == 1);
  REQUIRE(receipts[0].causationId.has_value());
  CHECK(receipts[0].causationId->str() == first_id);
  CHECK(receipts[0].correlationId.str() == first_id);
  CHECK(receipts[0].sequence == 1);
  CHECK(receipts[1].sequence == 2);
  CHECK(receipts[0].schemaVersion == 1);
  CHECK(receipts[0].eventType == "commerce.notifications.ReceiptIssued");
  CHECK(publishers[0] == kDomestic);
  CHECK(receipts[0].emittedAt == start);
  CHECK(receipts[1].emittedAt == start + std::chrono::seconds(5));
}

TEST_CASE("D3: a non-matching event is filtered before delivery and counted") {
  World w;
  w.order("o-1", "intl-u1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.order("o-2", "u-2").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  CHECK(w.gateway.calls == 1);
  CHECK(w.inbox("intl-u1") ==
        std::vector<std::string>{"international o-1:1000"});
  CHECK(w.inbox("u-2") == std::vector<std::string>{"domestic o-2:1000"});
  CHECK(w.sub_metric(kDomestic, "filtered") == 1);
  CHECK(w.sub_metric(kDomestic, "delivered") == 1);
  CHECK(w.sub_metric(kInternational, "filtered") == 1);
  CHECK(w.sub_metric(kInternational, "delivered") == 1);
  CHECK(w.sub_metric(kAudit, "filtered") == 0);
  CHECK(w.type_metric(kPaymentConfirmed, "filtered") == 2);
}

TEST_CASE("D3: via schema(...) filters on the envelope's schema version") {
  int v2_only = 0;
  int any = 0;
  World w(1, {}, [&](Runtime& rt) {
    Context probe("test.probe");
    probe.subscribe<PaymentConfirmed>(
        {.service = "test.probe.V2Only",
         .via = via_schema(2, std::nullopt),
         .handler = [&](Invocation&, const PaymentConfirmed&,
                        const EventEnvelope&) { ++v2_only; }});
    probe.subscribe<PaymentConfirmed>(
        {.service = "test.probe.UpToV1",
         .via = via_schema(1, 1),
         .handler = [&](Invocation&, const PaymentConfirmed&,
                        const EventEnvelope&) { ++any; }});
    rt.install(std::move(probe));
  });
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  CHECK(v2_only == 0);
  CHECK(any == 1);
  CHECK(w.sub_metric("test.probe.V2Only", "filtered") == 1);
}

TEST_CASE(
    "D4: a failing subscriber blocks neither the publisher nor the other "
    "subscribers") {
  World w;
  w.gateway.always_fail = true;
  for (int i = 1; i <= 5; ++i) {
    w.order(fmt::format("o-{}", i), "intl-u1")
        .markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.order(fmt::format("d-{}", i), "u-2")
        .markPaid(InternalCaller{}, AuthId::from_raw("a"));
  }
  // Time stands still: the international subscription is waiting on retries.
  w.executor.run_until_idle();
  CHECK(w.inbox("u-2").size() == 5);
  CHECK(w.inbox("audit").size() == 10);
  CHECK(w.inbox("intl-u1").empty());
  CHECK(w.sub_metric(kInternational, "lag") == 5);
  CHECK(w.sub_metric(kDomestic, "lag") == 0);
  // The publisher still commits and releases.
  w.order("o-6", "u-3").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  CHECK(w.inbox("u-3").size() == 1);
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 11);
}

}  // namespace herald::test
