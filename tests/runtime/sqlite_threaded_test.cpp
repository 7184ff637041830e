// The sqlite backend under the threaded executor: commits of several agents
// and host threads run concurrently and are grouped into shared
// transactions; none is lost, and a new process finds all of them.
#include <thread>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/backend.hpp"
#include "herald/config.hpp"
#include "herald/runtime.hpp"
#include "herald/threaded_executor.hpp"
#include "temp_database.hpp"

namespace herald::test {
namespace {

using commerce::order::AuthId;
using commerce::order::InternalCaller;
using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::UserId;

class CountingGateway final : public commerce::notifications::Gateway {
 public:
  void notify(const UserId&, const std::string&) override { ++calls; }
  std::atomic<int> calls{0};
};

RuntimeConfig sqlite_threaded_config(const std::string& path) {
  ConfigSources s;
  s.environment = std::map<std::string, std::string>{};
  s.settings = {{"executor.kind", "threaded"},
                {"backend.kind", "sqlite"},
                {"backend.sqlite.path", path},
                {"backend.sqlite.synchronous", "normal"},
                // What shutdown drains is checked, not its timeout.
                {"executor.shutdown_timeout", "120s"},
                {"log.level", "off"}};
  return load_config(s);
}

}  // namespace

TEST_CASE(
    "Sqlite group commit: concurrent commits of many agents under the "
    "threaded executor lose nothing") {
  TempDatabase db;
  constexpr int kThreads = 4;
  constexpr int kOrders = 24;  // even: half of them international
  constexpr int kPaid = kThreads * kOrders;
  CountingGateway gateway;
  {
    ThreadedExecutor executor(3);
    Runtime rt(sqlite_threaded_config(db.path), executor);
    rt.install(commerce::order::context());
    rt.install(commerce::notifications::context(gateway));
    std::vector<std::thread> hosts;
    hosts.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      hosts.emplace_back([&rt, t] {
        for (int i = 0; i < kOrders; ++i) {
          // Every other payment is international: the gateway runs too.
          const std::string user =
              fmt::format("{}u-{}-{}", i % 2 == 0 ? "" : "intl-", t, i);
          Order o =
              Order::at(rt, OrderId::from_raw(fmt::format("o-{}-{}", t, i)));
          o.place(UserId::from_raw(user), Money{1, "EUR"});
          o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
        }
      });
    }
    for (auto& h : hosts) h.join();
    rt.shutdown();
    const auto m = rt.metrics_json();
    CHECK(m["eventTypes"]["commerce.order.PaymentConfirmed"]["released"] ==
          kPaid);
    CHECK(m["subscriptions"]["commerce.notifications.OnPaymentAudit"]
           ["delivered"] == kPaid);
    CHECK(m["subscriptions"]["commerce.notifications.OnPaymentAudit"]["lag"] ==
          0);
  }
  CHECK(gateway.calls.load() == kPaid / 2);
  // A new process over the same file finds every commit.
  ThreadedExecutor executor(2);
  Runtime rt(sqlite_threaded_config(db.path), executor);
  rt.install(commerce::order::context());
  rt.install(commerce::notifications::context(gateway));
  rt.recover();
  CHECK(rt.recovery().deliveries_redriven == 0);
  CHECK(rt.store().context_log("commerce.order").head() == kPaid);
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kOrders; ++i) {
      CHECK(Order::at(rt, OrderId::from_raw(fmt::format("o-{}-{}", t, i)))
                .statusOf() == commerce::order::Status::Paid);
    }
  }
  CHECK(commerce::notifications::Inbox::at(rt, "audit").messages().size() ==
        static_cast<std::size_t>(kPaid));
  rt.shutdown();
}

}  // namespace herald::test
