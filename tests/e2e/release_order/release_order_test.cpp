#include "e2e.hpp"
#include "e2e/release.h"
#include "e2e/release/watch.h"

namespace herald::e2e {

TEST_CASE(
    "release order: emission order within a handler and across handlers of one "
    "agent") {
  World w;
  w.rt.install(::e2e::release::context());
  w.rt.install(::e2e::release::watch::context());
  Transcript t("release_order");

  auto producer = ::e2e::release::Producer::at(w.rt, "p");
  producer.single(1);
  producer.burst(4);
  producer.single(2);
  producer.burst(3);
  w.executor.run_all();

  for (const std::string& line :
       ::e2e::release::watch::Seen::at(w.rt, "all").all())
    t.say("{}", line);
  t.check();
}

}  // namespace herald::e2e
