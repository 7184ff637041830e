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
  bool crashed = false;
  w.executor.on_crash([&] { crashed = true; });
  w.executor.injector().crash_after_commit("e2e.dedup.handled.OnTick", 2);
  auto clock = ::e2e::dedup::Clock::at(w.rt, "c");
  for (std::int64_t n = 1; n <= 3; ++n) clock.tick(n);
  w.executor.run_all();
  t.say("crashes: {}", w.executor.crashes());
  t.say("before the crash, OnTick: delivered {}, deduplicated {}",
        w.sub_metric("e2e.dedup.handled.OnTick", "delivered"),
        w.sub_metric("e2e.dedup.handled.OnTick", "deduplicated"));
  REQUIRE(crashed);

  // The restart: a new runtime over the same store.
  Runtime rt(w.settings_config, w.executor, w.backend, &w.log);
  rt.install(::e2e::dedup::context());
  rt.install(::e2e::dedup::handled::context());
  rt.recover();
  w.executor.run_all();
  auto metric = [&](const char* sub, const char* counter) {
    return rt.metrics_json()["subscriptions"][sub][counter]
        .get<std::uint64_t>();
  };
  t.say("redriven after the restart: {}", rt.recovery().deliveries_redriven);
  t.say("after the restart, OnTick: delivered {}, deduplicated {}",
        metric("e2e.dedup.handled.OnTick", "delivered"),
        metric("e2e.dedup.handled.OnTick", "deduplicated"));
  t.say("Handled logged: {}",
        w.backend->context_log("e2e.dedup.handled").head());
  t.say("effects: {}",
        join(::e2e::dedup::handled::Effects::at(rt, "all").all()));
  t.check();
}

}  // namespace herald::e2e
