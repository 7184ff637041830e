#pragma once
// The runtime tests' program (tests/runtime/commerce) on a Harness, with a
// Gateway the test makes fail.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/testing.hpp"

namespace herald::kit_test {

using commerce::order::AuthId;
using commerce::order::InternalCaller;
using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::PaymentConfirmed;
using commerce::order::UserId;

inline constexpr const char* kInternational =
    "commerce.notifications.OnInternationalPayment";
inline constexpr const char* kDomestic =
    "commerce.notifications.OnDomesticPayment";

class FailingGateway final : public commerce::notifications::Gateway {
 public:
  void notify(const UserId& user, const std::string& text) override {
    if (always_fail || fail_next > 0) {
      if (fail_next > 0) --fail_next;
      throw std::runtime_error("gateway unavailable for " + user.raw());
    }
    sent.push_back(text);
  }
  bool always_fail = false;
  int fail_next = 0;
  std::vector<std::string> sent;
};

inline RuntimeConfig config_with(std::map<std::string, std::string> settings) {
  return load_config({.settings = std::move(settings),
                      .environment = std::map<std::string, std::string>{}});
}

// Installs both contexts; the caller taps, then calls.
inline void install(testing::Harness& h, FailingGateway& gateway) {
  h.runtime().install(commerce::order::context());
  h.runtime().install(commerce::notifications::context(gateway));
}

inline void pay(testing::Harness& h, const std::string& order,
                const std::string& user, std::int64_t cents = 1000) {
  Order o = Order::at(h.runtime(), OrderId::from_raw(order));
  o.place(UserId::from_raw(user), Money{cents, "EUR"});
  o.markPaid(InternalCaller{}, AuthId::from_raw("auth-" + order));
}

}  // namespace herald::kit_test
