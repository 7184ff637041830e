#include "e2e.hpp"
#include "e2e/refine.h"

namespace herald::e2e {

TEST_CASE(
    "refinement: violations, Int overflow and division by zero fault at run "
    "time") {
  World w;
  w.rt.install(::e2e::refine::context());
  Transcript t("refinement");
  using namespace ::e2e::refine;

  auto cart = Cart::at(w.rt, "c");
  cart.add(Sku::from_raw("A-1"), Quantity::from(3));
  t.say("host builds Quantity 0: {}",
        fault_of([] { (void)Quantity::from(0); }));
  t.say("host builds Sku \"\": {}", fault_of([] { (void)Sku::from_raw(""); }));
  t.say("host builds Sku of 9 characters: {}",
        fault_of([] { (void)Sku::from_raw("ABCDEFGHI"); }));
  cart.addDouble("B-2", 5);
  t.say("addDouble 6: {}", fault_of([&] { cart.addDouble("B-3", 6); }));
  t.say("scale 1: {}", fault_of([&] { cart.scale(1); }));
  t.say("scale 2: {}", fault_of([&] { cart.scale(2); }));
  t.say("split 4: {}", fault_of([&] { cart.split(4); }));
  t.say("split 0: {}", fault_of([&] { cart.split(0); }));
  t.say("lines: {}", join(cart.all()));
  t.check();
}

}  // namespace herald::e2e
