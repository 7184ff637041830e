#include "e2e/limits.h"

#include "e2e.hpp"

namespace herald::e2e {

TEST_CASE(
    "limits: each D10 limit faults with its own error and commits nothing") {
  Transcript t("limits");
  {
    World w(Settings{{"limits.payload_bytes", "64"},
                     {"limits.emits_per_invocation", "2"},
                     {"limits.cascade_depth", "3"}});
    w.rt.install(::e2e::limits::context());
    auto writer = ::e2e::limits::Writer::at(w.rt, "w");

    writer.write("short");
    t.say("payload within the limit: ok");
    t.say("payload over the limit: {}",
          fault_of([&] { writer.write(std::string(100, 'x')); }));
    t.say("emits over the limit: {}", fault_of([&] { writer.three(); }));
    t.say("committed writes: {}", writer.count());

    writer.hop();
    w.executor.run_all();
    t.say("hops released: {}", w.type_metric("e2e.limits.Hop", "released"));
    for (const auto& line : w.log.lines("delivery.fault")) {
      t.say("delivery fault: {} attempt {}: {}",
            line["handler"].get<std::string>(), line["attempt"].get<int>(),
            line["message"].get<std::string>());
      break;  // every retry says the same
    }
    t.say("dead letters of Next: {}",
          w.rt.dead_letters("e2e.limits.Next").size());
  }
  {
    World w(Settings{{"limits.subscriptions_per_event_type", "1"}});
    t.say("subscriptions over the limit: {}",
          fault_of([&] { w.rt.install(::e2e::limits::context()); }));
  }
  t.check();
}

}  // namespace herald::e2e
