// A database written by a newer build, opened by an older one (a rolled
// back deployment): events of a type this build does not know are kept in
// the log and delivered to nothing, and an agent message to a kind this
// build does not have becomes a dead message instead of stopping the start.
#include <doctest/doctest.h>

#include "herald/sqlite_operator.hpp"
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

TEST_CASE(
    "Sqlite rollback: an event of a type this build does not know stays in "
    "the log, is delivered to nothing, and status reports it") {
  constexpr const char* kNewer = "commerce.loyalty.PointsEarned";
  World w(BackendKind::sqlite);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  // Committed, not yet delivered: the entry as a newer build logged it, of a
  // type this build (the test world) does not have.
  const std::int64_t position =
      query_int(w.database_path(),
                "SELECT position FROM log WHERE event_type = "
                "'commerce.order.PaymentConfirmed'");
  execute(w.database_path(),
          fmt::format("UPDATE log SET event_type = '{}' WHERE position = {}",
                      kNewer, position));
  const std::string count_sql =
      fmt::format("SELECT count(*) FROM log WHERE event_type = '{}'", kNewer);
  // Two runs of the rolled-back build, each settling new entries after it,
  // and stopping (which writes the truncation of every settled entry).
  for (const char* order : {"o-2", "o-3"}) {
    CAPTURE(order);
    w.restart();
    w.order(order, "u-2").markPaid(InternalCaller{}, AuthId::from_raw(order));
    w.run_all();
    w.stop();
    CHECK(query_int(w.database_path(), count_sql) == 1);
    // The truncation reached it (no retention): only it is left of what
    // o-1 logged.
    CHECK(query_int(w.database_path(),
                    fmt::format("SELECT count(*) FROM log WHERE context = "
                                "'commerce.order' AND position <= {}",
                                position)) == 1);
  }
  CHECK(query_int(w.database_path(),
                  fmt::format("SELECT position FROM log WHERE event_type = "
                              "'{}'",
                              kNewer)) == position);
  w.restart();
  w.run_all();
  CHECK(w.inbox("u-1").empty());  // delivered to nothing
  CHECK(w.inbox("u-2").size() == 2);
  CHECK(w.rt().dead_letters(kDomestic).empty());
  CHECK(w.rt().dead_letters(kAudit).empty());
  w.stop();
  SqliteOperator db(w.database_path());
  const op::Status status = db.status();
  const op::LogStatus* order_log = nullptr;
  for (const op::LogStatus& log : status.logs)
    if (log.context == "commerce.order") order_log = &log;
  REQUIRE(order_log != nullptr);
  REQUIRE(order_log->unknown_types.size() == 1);
  CHECK(order_log->unknown_types[0].event_type == kNewer);
  CHECK(order_log->unknown_types[0].entries == 1);
  // Settled all the same: it lags nothing.
  for (const op::SubscriptionStatus& s : status.subscriptions) {
    CAPTURE(s.name);
    CHECK(s.lag == 0);
  }
}

}  // namespace herald::test
