// Metrics snapshots (JSON, Prometheus) and structured fault lines.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "test_world.hpp"
#include <unistd.h>

namespace herald::test {

TEST_CASE(
    "Metrics: the JSON snapshot counts every stage per event type and per "
    "subscription") {
  World w(1, {{"retry.max_attempts", "2"}, {"retry.jitter", "0"}});
  w.gateway.fail_next =
      3;  // first international event: 2 attempts, dead letter; second: 1 retry
  w.order("o-1", "intl-u1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.order("o-2", "intl-u2").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.order("o-3", "u-3").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  CHECK_THROWS_AS(Order::at(w.rt(), OrderId::from_raw("o-4"))
                      .markPaid(InternalCaller{}, AuthId::from_raw("a")),
                  HandlerFault);
  w.executor.run_until_idle();
  CHECK(w.sub_metric(kInternational, "lag") == 2);
  w.executor.run_all();
  const auto m = w.rt().metrics_json();
  const auto& t = m["eventTypes"][kPaymentConfirmed];
  CHECK(t["emitted"] == 3);  // o-4 failed before emitting
  CHECK(t["released"] == 3);
  CHECK(t["filtered"] == 3);  // 2 for domestic, 1 for international
  CHECK(t["delivered"] == 3 + 1 + 1);
  CHECK(t["retried"] == 2);
  CHECK(t["deadLettered"] == 1);
  const auto& s = m["subscriptions"][kInternational];
  CHECK(s["eventType"] == kPaymentConfirmed);
  CHECK(s["delivered"] == 1);
  CHECK(s["retried"] == 2);
  CHECK(s["aborted"] == 3);
  CHECK(s["deadLettered"] == 1);
  CHECK(s["lag"] == 0);
  CHECK(s["latencySeconds"]["count"] == 1);
  // Virtual time: the second event waited for one retry of retry.base.
  CHECK(s["latencySeconds"]["sum"].get<double>() == doctest::Approx(0.1));
  CHECK(m["subscriptions"][kAudit]["latencySeconds"]["count"] == 3);
  CHECK(m["subscriptions"][kAudit]["latencySeconds"]["p99"].get<double>() ==
        doctest::Approx(1e-6));
  CHECK(m["eventTypes"]["commerce.notifications.ReceiptIssued"]["released"] ==
        1);
}

TEST_CASE(
    "Metrics: emitted counts every Events.emit call, whether it committed, "
    "aborted with its handler or was refused") {
  World w;
  Order o = w.order("o-1", "u-1");
  // 1,024 emissions are staged, the 1,025th is refused (D10) and the
  // handler aborts: all 1,025 calls are emitted, the staged ones aborted.
  CHECK_THROWS_AS(o.splitPayment(InternalCaller{}, 1025), HandlerFault);
  CHECK(w.type_metric(kPaymentConfirmed, "emitted") == 1025);
  CHECK(w.type_metric(kPaymentConfirmed, "aborted") == 1024);
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 0);
  // A commit counts its emissions as it returns, before any delivery.
  o.splitPayment(InternalCaller{}, 2);
  CHECK(w.type_metric(kPaymentConfirmed, "emitted") == 1027);
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 2);
  w.executor.run_all();
  CHECK(w.type_metric(kPaymentConfirmed, "emitted") == 1027);
  CHECK(w.type_metric(kPaymentConfirmed, "aborted") == 1024);
}

TEST_CASE(
    "Metrics: the Prometheus snapshot has the same numbers in text format") {
  World w;
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.order("o-2", "intl-u2").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  const std::string text = w.rt().metrics_prometheus();
  CHECK(text.find("# TYPE herald_events_released_total counter\n") !=
        std::string::npos);
  CHECK(text.find("herald_events_released_total{event_type=\"commerce.order."
                  "PaymentConfirmed\"} 2\n") != std::string::npos);
  CHECK(text.find("herald_subscription_filtered_total{subscription=\"commerce."
                  "notifications.OnDomesticPayment\","
                  "event_type=\"commerce.order.PaymentConfirmed\"} 1\n") !=
        std::string::npos);
  CHECK(text.find("herald_subscription_delivered_total{subscription=\"commerce."
                  "notifications.OnPaymentAudit\","
                  "event_type=\"commerce.order.PaymentConfirmed\"} 2\n") !=
        std::string::npos);
  CHECK(text.find("herald_subscription_lag{subscription=\"commerce."
                  "notifications.OnPaymentAudit\"} 0\n") != std::string::npos);
  CHECK(text.find("herald_delivery_latency_seconds_bucket{subscription="
                  "\"commerce.notifications.OnPaymentAudit\","
                  "le=\"+Inf\"} 2\n") != std::string::npos);
  CHECK(text.find("herald_delivery_latency_seconds_count{subscription="
                  "\"commerce.notifications.OnPaymentAudit\"} 2\n") !=
        std::string::npos);
}

TEST_CASE(
    "Logs: each fault, retry and dead letter is one structured line with "
    "eventId, subscription and attempt") {
  World w(1, {{"retry.max_attempts", "2"}});
  w.gateway.always_fail = true;
  w.order("o-1", "intl-u1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_all();
  const auto faults = w.log.lines("delivery.fault");
  const auto retries = w.log.lines("delivery.retry");
  const auto dead = w.log.lines("delivery.dead_letter");
  REQUIRE(faults.size() == 2);
  REQUIRE(retries.size() == 1);
  REQUIRE(dead.size() == 1);
  const std::string id = dead[0]["eventId"];
  for (const auto* group : {&faults, &retries, &dead}) {
    for (const auto& line : *group) {
      CHECK(line["eventId"] == id);
      CHECK(line["correlationId"] ==
            id);  // a root event is its own correlation
      CHECK(line["causationId"].is_null());
      CHECK(line["subscription"] == kInternational);
      CHECK(line["handler"] == kInternational);
      CHECK(line["message"] == "gateway unavailable for intl-u1");
      CHECK(line.contains("attempt"));
      CHECK(line.contains("ts"));
    }
  }
  CHECK(faults[1]["attempt"] == 2);
  CHECK(dead[0]["level"] == "error");
}

TEST_CASE(
    "Metrics: shutdown writes the snapshot to metrics.output in "
    "metrics.format") {
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("herald_metrics_" + std::to_string(::getpid()) + ".prom"))
          .string();
  {
    World w(1, {{"metrics.output", path}, {"metrics.format", "prometheus"}});
    w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.rt().shutdown();  // drains first
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  CHECK(text.str().find("herald_events_released_total{event_type=\"commerce."
                        "order.PaymentConfirmed\"} 1\n") != std::string::npos);
}

}  // namespace herald::test
