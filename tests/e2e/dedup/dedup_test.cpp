#include "e2e/dedup.h"

#include "e2e.hpp"
#include "e2e/dedup/handled.h"

namespace herald::e2e {

TEST_CASE(
    "dedup: a redelivery after a crash before the acknowledgement runs no "
    "handler twice") {
  World w;
  w.rt.install(::e2e::dedup::context());
  w.rt.install(::e2e::dedup::handled::context());
  Transcript t("dedup");

  // The second delivery to OnTick commits (its Handled emission with it),
  // then the process crashes before acknowledging it.
  w.executor.injector().crash_after_commit("e2e.dedup.handled.OnTick", 2);
  auto clock = ::e2e::dedup::Clock::at(w.rt, "c");
  for (std::int64_t n = 1; n <= 3; ++n) clock.tick(n);
  w.executor.run_all();

  t.say("crashes: {}", w.executor.crashes());
  t.say("redriven after the restart: {}", w.rt.recovery().deliveries_redriven);
  t.say("OnTick: delivered {}, deduplicated {}",
        w.sub_metric("e2e.dedup.handled.OnTick", "delivered"),
        w.sub_metric("e2e.dedup.handled.OnTick", "deduplicated"));
  t.say("Handled emitted: {}",
        w.type_metric("e2e.dedup.handled.Handled", "released"));
  t.say("effects: {}",
        join(::e2e::dedup::handled::Effects::at(w.rt, "all").all()));
  t.check();
}

}  // namespace herald::e2e
