#include "e2e.hpp"
#include "e2e/shop.h"
#include "e2e/shop/watch.h"

namespace herald::e2e {

TEST_CASE(
    "patterns: each subscription receives exactly the events its pattern "
    "admits") {
  World w;
  w.rt.install(::e2e::shop::context());
  w.rt.install(::e2e::shop::watch::context());
  Transcript t("patterns");
  using namespace ::e2e::shop;

  auto till = Till::at(w.rt, "t");
  const auto card = Payment{Payment::Card{.last4 = "4242"}};
  const auto cash = Payment{Payment::Cash{}};
  auto voucher = [](std::string code, std::int64_t percent) {
    return Payment{
        Payment::Voucher{.code = std::move(code), .percent = percent}};
  };
  till.sell("a", 500, "EUR", Channel::Web, card, 1, std::nullopt, false);
  till.sell("b", 1500, "EUR", Channel::Store, cash, 3, std::string("VIP"),
            false);
  till.sell("c", 2000, "USD", Channel::Phone, voucher("SPRING", 10), 7,
            std::nullopt, true);
  till.sell("d", 1000, "EUR", Channel::Store, voucher("SPRING", 5), 0,
            std::string("STAFF"), true);
  till.sell("e", 999, "EUR", Channel::Phone, voucher("AUTUMN", 50), 5,
            std::string("other"), false);
  till.sell("f", 100000, "EUR", Channel::Web, card, 7, std::nullopt, true);
  w.executor.run_all();

  for (const char* sub : {"Alternatives", "Angles", "AnyCard", "Equality",
                          "Everything", "Nested", "NoCoupon", "OpenRange",
                          "PayloadVariant", "Range", "Variant", "WithCoupon"}) {
    const std::string name = std::string("e2e.shop.watch.") + sub;
    t.say("{}: {} (filtered {})", sub,
          join(::e2e::shop::watch::Hits::at(w.rt, sub).all()),
          w.sub_metric(name, "filtered"));
  }
  t.check();
}

}  // namespace herald::e2e
