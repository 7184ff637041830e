// The five purchases the example's programs place and pay (main.cpp,
// node.cpp, payment_test.cpp): `intl-` users pay internationally
// (regionOf in order.herald).
#pragma once

#include <cstdint>

namespace payment {

struct Purchase {
  const char* order;
  const char* user;
  std::int64_t cents;
  const char* currency;
};

inline constexpr Purchase kPurchases[] = {
    {"o-1", "alice", 1250, "EUR"},     {"o-2", "intl-bob", 4000, "USD"},
    {"o-3", "chloe", 899, "EUR"},      {"o-4", "intl-dana", 15000, "GBP"},
    {"o-5", "intl-emil", 2500, "CHF"},
};

}  // namespace payment
