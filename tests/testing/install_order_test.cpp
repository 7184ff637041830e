// Install order, as a host meets it: event subscriptions do not need their
// publisher installed first; one-way messages to another context's agent
// do, unless both are installed in one batch.
#include <doctest/doctest.h>

#include "kit_program.hpp"
#include "walk.h"
#include "walk/relay.h"

namespace herald::kit_test {

TEST_CASE("install order: a subscriber may be installed before its publisher") {
  testing::Harness h;
  FailingGateway gateway;
  h.runtime().install(commerce::notifications::context(gateway));
  h.runtime().install(commerce::order::context());
  h.record<commerce::notifications::ReceiptIssued>();
  pay(h, "o-1", "u-1");
  h.run_to_idle();
  CHECK(h.recorder().size() == 1);
}

TEST_CASE(
    "install order: a sender to another context's agent comes after it, or in "
    "one batch") {
  {
    testing::Harness h;
    CHECK_THROWS_WITH_AS(h.runtime().install(walk::relay::context()),
                         doctest::Contains("install walk first"),
                         RegistrationError);
  }
  {
    testing::Harness h;
    h.runtime().install(walk::context());
    h.runtime().install(walk::relay::context());
    walk::Walker::at(h.runtime(), "w").walk(3);
    h.run_to_idle();
    CHECK(walk::Walker::at(h.runtime(), "notes").totalOf() == 3);
  }
  {
    testing::Harness h;
    std::vector<Context> batch;
    batch.push_back(walk::relay::context());
    batch.push_back(walk::context());
    h.runtime().install(std::move(batch));
    walk::Walker::at(h.runtime(), "w").walk(4);
    h.run_to_idle();
    CHECK(walk::Walker::at(h.runtime(), "notes").totalOf() == 4);
  }
}

}  // namespace herald::kit_test
