// A regression test of the PaymentConfirmed example with herald::testing:
// the same five payments as main.cpp, on the deterministic executor, and
// what the run did (every PaymentConfirmed with its envelope, the faults,
// the dead letters and messages) compared with a golden file.
//
//   payment_test <golden file>          compares (the example_payment_trace
//   test) HERALD_UPDATE_GOLDEN=1 payment_test <golden file>
//                                       rewrites the golden file; review its
//                                       diff
#include <cstdio>
#include <exception>
#include <string>

#include "chat/rooms.h"
#include "commerce/notifications.h"
#include "commerce/order.h"
#include "flaky_converter.hpp"
#include "fx.h"
#include "purchases.hpp"
#include <herald/testing.hpp>

namespace {

namespace order = commerce::order;

using payment::kPurchases;
using payment::Purchase;

int check(bool ok, const char* what) {
  if (!ok) std::fprintf(stderr, "payment_test: %s\n", what);
  return ok ? 0 : 1;
}

int run(const char* golden) {
  herald::testing::Harness h({.seed = 42});
  payment::FlakyConverter converter;
  h.runtime().install(chat::rooms::context());
  h.runtime().install(order::context());
  h.runtime().install(fx::context());
  h.runtime().install(commerce::notifications::context(converter));
  h.record<order::PaymentConfirmed>();

  for (const Purchase& p : kPurchases) {
    auto o = order::Order::at(h.runtime(), order::OrderId::from_raw(p.order));
    o.place(order::UserId::from_raw(p.user), order::Money{p.cents, p.currency});
    o.markPaid(order::InternalCaller{},
               order::AuthId::from_raw(std::string("auth-") + p.order));
  }
  h.run_to_idle();
  // The converter's first call failed: one delivery waits for its retry.
  int failures =
      check(h.faults().size() == 1, "expected one fault before the retry");
  h.run_all();
  failures += check(h.dead_letters().empty(), "a payment was dead-lettered");
  failures += check(h.values<order::PaymentConfirmed>().size() == 5,
                    "expected five PaymentConfirmed events");

  const auto result = herald::testing::check_golden(golden, h.trace().dump(2));
  if (!result.message.empty())
    std::fprintf(stderr, "%s\n", result.message.c_str());
  return failures +
         check(result.matched, "the trace differs from its golden file");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: payment_test <golden trace file>\n");
    return 2;
  }
  try {
    return run(argv[1]) == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "payment_test: %s\n", e.what());
    return 1;
  }
}
