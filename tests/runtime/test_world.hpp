#pragma once
// A deterministic runtime with the commerce fixture installed.
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/deterministic_executor.hpp"
#include "herald/runtime.hpp"

namespace herald::test {

using commerce::order::AuthId;
using commerce::order::InternalCaller;
using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::PaymentConfirmed;
using commerce::order::UserId;

// The host's Gateway: fails while told to.
class SwitchableGateway final : public commerce::notifications::Gateway {
 public:
  void notify(const UserId& user, const std::string& text) override {
    ++calls;
    if (always_fail || fail_next > 0) {
      if (fail_next > 0) --fail_next;
      throw std::runtime_error("gateway unavailable for " + user.raw());
    }
    sent.push_back(text);
  }
  bool always_fail = false;
  int fail_next = 0;
  int calls = 0;
  std::vector<std::string> sent;
};

inline RuntimeConfig deterministic_config(
    std::map<std::string, std::string> settings = {}) {
  settings.emplace("executor.kind", "deterministic");
  ConfigSources sources;
  sources.settings = std::move(settings);
  sources.environment = std::map<std::string, std::string>{};
  return load_config(sources);
}

struct World {
  explicit World(std::uint64_t seed = 1,
                 std::map<std::string, std::string> settings = {},
                 const std::function<void(Runtime&)>& extra = {})
      : executor(seed),
        rt(deterministic_config(std::move(settings)), executor, nullptr, &log) {
    rt.install(commerce::order::context());
    rt.install(commerce::notifications::context(gateway));
    if (extra) extra(rt);
  }

  // An order placed by `user` for `cents`.
  Order order(const std::string& id, const std::string& user,
              std::int64_t cents = 1000) {
    Order o = Order::at(rt, OrderId::from_raw(id));
    o.place(UserId::from_raw(user), Money{cents, "EUR"});
    return o;
  }

  std::vector<std::string> inbox(const std::string& owner) {
    return commerce::notifications::Inbox::at(rt, owner).messages();
  }

  std::uint64_t sub_metric(const std::string& subscription,
                           const std::string& counter) {
    return rt.metrics_json()["subscriptions"][subscription][counter]
        .get<std::uint64_t>();
  }
  std::uint64_t type_metric(const std::string& type,
                            const std::string& counter) {
    return rt.metrics_json()["eventTypes"][type][counter].get<std::uint64_t>();
  }

  DeterministicExecutor executor;
  MemoryLogSink log;
  SwitchableGateway gateway;
  Runtime rt;
};

inline constexpr const char* kDomestic =
    "commerce.notifications.OnDomesticPayment";
inline constexpr const char* kInternational =
    "commerce.notifications.OnInternationalPayment";
inline constexpr const char* kAudit = "commerce.notifications.OnPaymentAudit";
inline constexpr const char* kPaymentConfirmed =
    "commerce.order.PaymentConfirmed";

}  // namespace herald::test
