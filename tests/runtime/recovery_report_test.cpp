// Runtime::recovery() is true from start-up on: asked for before any other
// host call, it reports what recovery found, not zeros.
#include <doctest/doctest.h>

#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/deterministic_executor.hpp"
#include "herald/runtime.hpp"
#include "temp_database.hpp"
#include "test_world.hpp"

namespace herald::test {
namespace {

using commerce::order::AuthId;
using commerce::order::InternalCaller;
using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::UserId;

class SilentGateway final : public commerce::notifications::Gateway {
 public:
  void notify(const UserId&, const std::string&) override {}
};

}  // namespace

TEST_CASE(
    "Runtime::recovery() right after start-up reports the recovery it runs") {
  TempDatabase db;
  SilentGateway gateway;
  {
    DeterministicExecutor executor(1);
    Runtime rt(sqlite_config(db.path), executor);
    rt.install(commerce::order::context());
    rt.install(commerce::notifications::context(gateway));
    Order o = Order::at(rt, OrderId::from_raw("o-1"));
    o.place(UserId::from_raw("u-1"), Money{5, "EUR"});
    o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
    // Stopped before the executor ran: PaymentConfirmed is committed and
    // delivered to none of its two subscriptions.
  }
  DeterministicExecutor executor(1);
  Runtime rt(sqlite_config(db.path), executor);
  rt.install(commerce::order::context());
  rt.install(commerce::notifications::context(gateway));
  const RecoveryReport& report = rt.recovery();
  CHECK(report.ran);
  CHECK(report.deliveries_redriven == 2);
  CHECK(report.retries_resumed == 0);
  executor.run_until_idle();
  CHECK(commerce::notifications::Inbox::at(rt, "audit").messages().size() == 1);
}

}  // namespace herald::test
