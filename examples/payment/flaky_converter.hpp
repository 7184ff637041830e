#pragma once
// The host's currency converter (fx.Converter), shared by the program
// (main.cpp) and its test (payment_test.cpp).
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "commerce/order.h"
#include "fx.h"

namespace payment {

// The host's currency converter: fixed rates to euros. The first call fails
// as a remote rate service might, so the subscriber that calls it has to be
// retried.
class FlakyConverter final : public fx::Converter {
 public:
  commerce::order::Money convert(const commerce::order::Money& amount,
                                 const std::string& to) override {
    if (calls_++ == 0)
      throw std::runtime_error("exchange-rate service unavailable");
    if (to != "EUR") throw std::invalid_argument("only EUR is supported");
    return commerce::order::Money{
        amount.cents * percentToEur(amount.currency) / 100, to};
  }

 private:
  static std::int64_t percentToEur(const std::string& currency) {
    static const std::map<std::string, std::int64_t> rates{
        {"EUR", 100}, {"USD", 92}, {"GBP", 117}, {"CHF", 104}};
    return rates.at(currency);
  }

  int calls_ = 0;
};

}  // namespace payment
