// A database written by a newer build, opened by an older one (a rolled
// back deployment): events of a type this build does not know are kept in
// the log and delivered to nothing, and an agent message to a kind this
// build does not have becomes a dead message instead of stopping the start.
#include <doctest/doctest.h>

#include "operator_sql.hpp"
#include "test_world.hpp"

namespace herald::test {

TEST_CASE(
    "Sqlite rollback: a pending message to an agent kind this build does not "
    "have is dead-lettered as unknown, and the valid ones behind it run") {
  World w(BackendKind::sqlite);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  // The fan-out and the subscriptions run, not the Inbox messages they sent.
  w.executor.injector().crash_at_step(4);
  w.executor.run_all();
  REQUIRE(w.crashed);
  REQUIRE(w.backend->pending_messages().size() == 2);
  // The audit message as a newer build would have sent it: to a kind this
  // build has never heard of. It is the first pending one; u-1's is behind
  // it.
  execute(w.database_path(),
          "UPDATE agent_message SET agent_kind = 'commerce.loyalty.Points' "
          "WHERE agent_key = 'audit'");
  REQUIRE(query_text(w.database_path(),
                     "SELECT agent_key FROM agent_message ORDER BY seq "
                     "LIMIT 1") == "audit");
  w.restart();
  CHECK(w.rt().recovery().messages_reposted == 1);
  w.run_all();
  // The valid message ran; the unknown one is a dead message with its
  // reason, never attempted.
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
  CHECK(w.inbox("audit").empty());
  CHECK(w.backend->pending_messages().empty());
  const auto dead = w.rt().dead_messages();
  REQUIRE(dead.size() == 1);
  CHECK(dead[0].message.agent_kind == "commerce.loyalty.Points");
  CHECK(dead[0].message.key == "audit");
  CHECK(dead[0].attempts == 0);
  CHECK(dead[0].last_error ==
        "unknown agent kind commerce.loyalty.Points: this build does not "
        "have it");
  const auto lines = w.log.lines("message.dead_letter");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]["agent"] == "commerce.loyalty.Points");
  // The next start finds nothing to post.
  w.restart();
  CHECK(w.rt().recovery().messages_reposted == 0);
  CHECK(w.rt().dead_messages().size() == 1);
}

}  // namespace herald::test
