#include "e2e.hpp"
#include "e2e/other.h"
#include "e2e/owner.h"

namespace herald::e2e {

TEST_CASE(
    "ownership: the host cannot release an event for a context that does not "
    "own it") {
  World w;
  w.rt.install(::e2e::owner::context());
  w.rt.install(::e2e::other::context());
  Transcript t("ownership");

  t.say("publish Granted as e2e.other: {}", fault_of([&] {
          w.rt.publish("e2e.other", "forger",
                       ::e2e::owner::Granted{.who = "mallory"});
        }));
  w.rt.publish("e2e.owner", "relay", ::e2e::owner::Granted{.who = "alice"});
  ::e2e::owner::Grants::at(w.rt, "g").grant("bob");
  w.executor.run_all();
  t.say("seen: {}", join(::e2e::owner::Seen::at(w.rt, "all").all()));
  t.check();
}

}  // namespace herald::e2e
