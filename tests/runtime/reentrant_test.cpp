// A host call made from inside a handler is refused with ReentrantCallError
// (deterministic executor; threaded_test.cpp has the threaded case).
#include <doctest/doctest.h>

#include "chat_fixture.hpp"
#include "test_world.hpp"

namespace herald::test {
namespace {

using test_chat::Lobby;
using test_chat::Room;

std::string refusal(const std::string& called, const std::string& running) {
  return called + " is a host call, made from inside handler " + running +
         "; a handler reaches an agent with a one-way message and never "
         "waits for a host call, which could wait for an agent that waits "
         "for it";
}

}  // namespace

TEST_CASE(
    "Re-entrant host calls from a service handler are refused, naming both "
    "handlers") {
  World w(1, {}, [](Runtime& rt) { rt.install(test_chat::context()); });
  Lobby lobby = Lobby::in(w.rt());
  CHECK(lobby.probe("call") ==
        refusal("test.chat.Room.say", "test.chat.Lobby.probe"));
  CHECK(lobby.probe("state") ==
        refusal("the state of test.chat.Room lobby", "test.chat.Lobby.probe"));
  CHECK(lobby.probe("service") ==
        refusal("test.chat.Lobby.send", "test.chat.Lobby.probe"));
  CHECK(lobby.probe("publish") ==
        refusal("Runtime::publish of test.chat.Said", "test.chat.Lobby.probe"));
  w.executor.run_until_idle();
  CHECK(Room::at(w.rt(), "lobby").state().lines.empty());
  CHECK(w.type_metric("test.chat.Said", "released") == 0);
}

TEST_CASE(
    "Re-entrant host calls from an agent's message handler are refused, also "
    "on the agent itself") {
  World w(1, {}, [](Runtime& rt) { rt.install(test_chat::context()); });
  for (const char* call : {"call", "state", "service", "publish"}) {
    Lobby::in(w.rt()).send("r-1", "reenter", {{"call", call}});
  }
  w.executor.run_until_idle();
  CHECK(
      Room::at(w.rt(), "r-1").state().lines ==
      std::vector<std::string>{
          refusal("test.chat.Room.say", "test.chat.Room.reenter"),
          refusal("the state of test.chat.Room r-1", "test.chat.Room.reenter"),
          refusal("test.chat.Lobby.send", "test.chat.Room.reenter"),
          refusal("Runtime::publish of test.chat.Said",
                  "test.chat.Room.reenter")});
}

TEST_CASE(
    "A refused host call that the handler does not catch faults it, and host "
    "calls work again afterwards") {
  World w;
  Order o = w.order("o-1", "u-1");
  CHECK_THROWS_WITH_AS(
      ServiceRef(w.rt(), "commerce.order.Payments")
          .call("peek", [&](Invocation&) { return o.state().status; }),
      doctest::Contains("the state of commerce.order.Order o-1 is a host call, "
                        "made from inside handler "
                        "commerce.order.Payments.peek"),
      HandlerFault);
  const auto faults = w.log.lines("handler.fault");
  REQUIRE(faults.size() == 1);
  CHECK(faults[0]["handler"] == "commerce.order.Payments.peek");
  // Nothing is left marked as running on this thread.
  o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
  CHECK(o.statusOf() == commerce::order::Status::Paid);
}

}  // namespace herald::test
