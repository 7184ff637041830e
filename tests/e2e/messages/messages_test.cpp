#include "e2e/messages.h"

#include "e2e.hpp"

namespace herald::e2e {

TEST_CASE(
    "messages: a Ref call is released at commit, and not when the sender "
    "aborts") {
  World w;
  w.rt.install(::e2e::messages::context());
  Transcript t("messages");
  using namespace ::e2e::messages;

  auto sender = Sender::at(w.rt, "s");
  auto box = Box::at(w.rt, "inbox");
  sender.send("first", false);
  t.say("after the host call, before the executor runs: {}", join(box.all()));
  w.executor.run_until_idle();
  t.say("after the executor ran: {}", join(box.all()));
  t.say("aborting send: {}", fault_of([&] { sender.send("second", true); }));
  w.executor.run_until_idle();
  t.say("after the aborted send: {}", join(box.all()));
  sender.send("third", false);
  w.executor.run_until_idle();
  t.say("after a third send: {}", join(box.all()));
  t.check();
}

}  // namespace herald::e2e
