#include "e2e.hpp"
#include "e2e/ping.h"
#include "e2e/pong.h"

namespace herald::e2e {

TEST_CASE(
    "cycle: a cascade that never ends on its own is stopped by the depth "
    "limit") {
  World w(Settings{{"retry.max_attempts", "1"}});
  w.rt.install(::e2e::pong::context());
  w.rt.install(::e2e::ping::context());
  Transcript t("cycle");

  ::e2e::ping::Starter::at(w.rt, "s").start();
  w.executor.run_all();
  t.say("Ping released {}, Pong released {}",
        w.type_metric("e2e.ping.Ping", "released"),
        w.type_metric("e2e.pong.Pong", "released"));
  for (const auto& line : w.log.lines("delivery.fault")) {
    t.say("fault: {}: {}", line["handler"].get<std::string>(),
          line["message"].get<std::string>());
  }
  for (const char* sub : {"e2e.ping.OnPong", "e2e.pong.OnPing"}) {
    for (const DeadLetter& letter : w.rt.dead_letters(sub)) {
      t.say("dead letter at {}: depth {}, {}", sub,
            letter.event->envelope.depth, letter.last_error);
    }
  }
  t.check();
}

}  // namespace herald::e2e
