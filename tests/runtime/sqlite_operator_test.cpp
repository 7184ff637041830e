// The sqlite backend's operator API (herald/sqlite_operator.hpp) over the
// database a program wrote: it is refused while the program runs and the
// program while it holds the file; status reads what the runtime left; a
// re-drive mark and a replay are what the program's next start applies;
// replays that cannot be done are refused with nothing changed.
#include "herald/sqlite_operator.hpp"

#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "herald/version.hpp"
#include "operator_sql.hpp"
#include "test_world.hpp"
#include <unistd.h>

namespace herald::test {
namespace {

// Two payments, one domestic (delivered) and one international, whose
// Gateway call always fails, so OnInternationalPayment dead-letters it.
// History is kept (backend.log_retention) so that it can be replayed.
struct Paid {
  World w{BackendKind::sqlite,
          1,
          {{"retry.max_attempts", "3"},
           {"retry.base", "1s"},
           {"retry.jitter", "0"},
           {"backend.log_retention", "1d"}}};

  Paid() {
    w.gateway.always_fail = true;
    w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.order("o-2", "intl-2").markPaid(InternalCaller{}, AuthId::from_raw("b"));
    w.run_all();
  }

  const std::string& path() const { return w.database_path(); }
};

// Reports every step it is told of, to check what a long operation says.
class CountingProgress final : public op::ProgressSink {
 public:
  void start(std::string label, std::int64_t total) override {
    labels.push_back(std::move(label));
    totals += total;
  }
  void advance(std::int64_t steps) override { advanced += steps; }
  void finish() override { ++finished; }

  std::vector<std::string> labels;
  std::int64_t totals = 0;
  std::int64_t advanced = 0;
  int finished = 0;
};

std::string in_use(const std::string& path) {
  return fmt::format("database {} is in use by another process (pid {})", path,
                     ::getpid());
}

}  // namespace

TEST_CASE(
    "Operator: a running program's database is refused, and a program does "
    "not start on a database the operator holds") {
  Paid p;
  CHECK_THROWS_WITH_AS(SqliteOperator{p.path()}, in_use(p.path()).c_str(),
                       op::Refusal);
  p.w.stop();
  {
    SqliteOperator holder(p.path());
    SqliteBackendOptions options;
    options.path = p.path();
    CHECK_THROWS_WITH_AS(make_sqlite_backend(options), in_use(p.path()).c_str(),
                         Error);
  }
  // Released when the operator is done.
  p.w.restart();
  CHECK(p.w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
}

TEST_CASE("Operator: a missing database is refused and nothing is created") {
  TempDatabase db;
  CHECK_THROWS_WITH_AS(SqliteOperator{db.path},
                       (db.path + ": no such database").c_str(), op::Refusal);
  CHECK_FALSE(std::filesystem::exists(db.path));
  CHECK_FALSE(std::filesystem::exists(db.path + ".lock"));
}

TEST_CASE("Operator: status reads what the program left in its database") {
  Paid p;
  p.w.stop();
  SqliteOperator db(p.path());
  const op::Status status = db.status();
  CHECK(status.path == p.path());
  CHECK(status.schema_version == 3);
  CHECK(status.runtime_version == std::to_string(runtime_version));

  REQUIRE(status.subscriptions.size() == 3);
  CHECK(status.subscriptions[0].name == kDomestic);
  CHECK(status.subscriptions[1].name == kInternational);
  CHECK(status.subscriptions[2].name == kAudit);
  for (const op::SubscriptionStatus& s : status.subscriptions) {
    CAPTURE(s.name);
    CHECK(s.context == "commerce.order");
    CHECK(s.retrying == 0);
    CHECK(s.redriving == 0);
  }
  // The international payment is filtered out of OnDomesticPayment, which
  // acknowledged only the first position: settled all the same, so it is
  // consumed and nothing lags.
  CHECK(status.subscriptions[0].position == 2);
  CHECK(status.subscriptions[0].lag == 0);
  CHECK(status.subscriptions[1].position == 2);
  CHECK(status.subscriptions[1].lag == 0);
  CHECK(status.subscriptions[2].position == 2);
  CHECK(status.subscriptions[2].lag == 0);
  CHECK(status.subscriptions[0].dead_letters == 0);
  CHECK(status.subscriptions[1].dead_letters == 1);
  CHECK(status.subscriptions[2].dead_letters == 0);

  REQUIRE(status.agents.size() == 2);
  CHECK(status.agents[0].kind == "commerce.notifications.Inbox");
  CHECK(status.agents[0].instances == 2);  // u-1 and audit
  CHECK(status.agents[1].kind == "commerce.order.Order");
  CHECK(status.agents[1].instances == 2);

  REQUIRE(status.logs.size() == 2);
  CHECK(status.logs[0].context == "commerce.notifications");  // the receipt
  CHECK(status.logs[0].head == 1);
  CHECK(status.logs[1].context == "commerce.order");
  CHECK(status.logs[1].head == 2);
  CHECK(status.logs[1].retained == 2);
  CHECK(status.logs[1].oldest_position == 1);
  CHECK(status.pending_messages == 0);
  CHECK(status.dead_messages == 0);
}

TEST_CASE(
    "Operator: dead letters are listed as the runtime stored them, and a "
    "re-drive mark is applied by the program's next start") {
  Paid p;
  const auto stored = p.w.rt().dead_letters(kInternational);
  REQUIRE(stored.size() == 1);
  const std::string event_id = stored[0].event->envelope.eventId.str();
  p.w.stop();
  {
    SqliteOperator db(p.path());
    const auto letters = db.dead_letters(std::nullopt);
    REQUIRE(letters.size() == 1);
    CHECK(letters[0].subscription == kInternational);
    CHECK(letters[0].event_id == event_id);
    CHECK(letters[0].event_type == kPaymentConfirmed);
    CHECK(letters[0].context == "commerce.order");
    CHECK(letters[0].position == 2);
    CHECK(letters[0].publisher == "commerce.order.Order/o-2");
    CHECK(letters[0].sequence == 1);
    CHECK(letters[0].attempts == 3);
    CHECK(letters[0].last_error.find("gateway unavailable for intl-2") !=
          std::string::npos);
    CHECK(letters[0].payload.find("\"intl-2\"") != std::string::npos);
    CHECK_FALSE(letters[0].redriving);
    CHECK(db.dead_letters(std::string(kDomestic)).empty());
    CHECK_THROWS_WITH_AS(db.dead_letters(std::string("no.Such")),
                         (p.path() + ": no subscription 'no.Such'").c_str(),
                         op::Refusal);
    // A misspelt name gets the nearest one the database has.
    std::string misspelt(kDomestic);
    misspelt.pop_back();
    CHECK_THROWS_WITH_AS(db.dead_letters(misspelt),
                         fmt::format("{}: no subscription '{}'; did you mean "
                                     "'{}'?",
                                     p.path(), misspelt, kDomestic)
                             .c_str(),
                         op::Refusal);
    CHECK(db.find_dead_letters(event_id, std::nullopt).size() == 1);
    CHECK_THROWS_WITH_AS(
        db.find_dead_letters(event_id, std::string(kAudit)),
        fmt::format("subscription '{}' has no dead letter of event {}", kAudit,
                    event_id)
            .c_str(),
        op::Refusal);

    const op::RedriveResult first = db.redrive(event_id, std::nullopt);
    CHECK(first.marked == 1);
    CHECK(first.already_marked == 0);
    CountingProgress progress;
    const op::RedriveResult again = db.redrive_all(std::nullopt, progress);
    CHECK(again.marked == 0);
    CHECK(again.already_marked == 1);
    CHECK(progress.labels == std::vector<std::string>{"marking dead letters"});
    CHECK(progress.advanced == 1);
    CHECK(progress.finished == 1);
    CHECK(db.status().subscriptions[1].redriving == 1);
  }
  p.w.gateway.always_fail = false;
  p.w.restart();
  p.w.run_all();
  CHECK(p.w.rt().recovery().redrives_resumed == 1);
  CHECK(p.w.rt().dead_letters(kInternational).empty());
  CHECK(p.w.inbox("intl-2") ==
        std::vector<std::string>{"international o-2:1000"});
}

TEST_CASE(
    "Operator: a replay runs the handlers again at the next start with "
    "force, and dedup skips what was delivered without it") {
  for (const bool force : {false, true}) {
    CAPTURE(force);
    Paid p;
    p.w.stop();
    {
      SqliteOperator db(p.path());
      CountingProgress progress;
      const op::ReplayResult r = db.replay(
          {kDomestic, std::int64_t{1}, std::nullopt, force}, progress);
      CHECK(r.context == "commerce.order");
      REQUIRE(r.replayed.size() == 2);
      CHECK(r.replayed[0].publisher == "commerce.order.Order/o-1");
      CHECK(r.replayed[0].first_position == 1);
      CHECK(r.replayed[0].requeued == 1);
      CHECK(r.replayed[0].dedup_skips == (force ? 0 : 1));
      CHECK(r.replayed[0].after.acknowledged == 0);
      CHECK(r.replayed[0].after.committed == (force ? 0 : 1));
      CHECK(r.replayed[1].publisher == "commerce.order.Order/o-2");
      CHECK(r.start_position_after == 0);
      CHECK(progress.advanced == progress.totals);
      CHECK(progress.finished == 2);
    }
    p.w.restart();
    p.w.run_all();
    const std::vector<std::string> once{"domestic o-1:1000"};
    const std::vector<std::string> twice{"domestic o-1:1000",
                                         "domestic o-1:1000"};
    CHECK(p.w.inbox("u-1") == (force ? twice : once));
  }
}

TEST_CASE("Operator: replays that cannot be done are refused, unchanged") {
  SUBCASE("an unknown subscription or publisher") {
    Paid p;
    p.w.stop();
    SqliteOperator db(p.path());
    CountingProgress progress;
    CHECK_THROWS_WITH_AS(
        db.replay({"no.Such", std::int64_t{1}, std::nullopt, false}, progress),
        (p.path() + ": no subscription 'no.Such'").c_str(), op::Refusal);
    CHECK_THROWS_WITH_AS(
        db.replay({kDomestic, std::int64_t{1}, std::string("nobody"), false},
                  progress),
        (p.path() + ": context 'commerce.order' has no publisher 'nobody'")
            .c_str(),
        op::Refusal);
  }
  SUBCASE("history truncated from the log") {
    // backend.log_retention 0: the fan-out truncates what was settled when
    // it routes the next payment, and the program writes that when it stops.
    World w(BackendKind::sqlite);
    w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.run_all();
    w.order("o-2", "u-2").markPaid(InternalCaller{}, AuthId::from_raw("b"));
    w.run_all();
    w.stop();
    const std::string cursor = fmt::format(
        "SELECT group_concat(publisher || ':' || committed || '/' || "
        "acknowledged, ' ') FROM (SELECT * FROM cursor WHERE subscription = "
        "'{}' ORDER BY publisher)",
        kDomestic);
    const std::string before = query_text(w.database_path(), cursor);
    {
      SqliteOperator db(w.database_path());
      REQUIRE(db.status().logs.at(1).retained == 1);
      CountingProgress progress;
      CHECK_THROWS_WITH_AS(
          db.replay({kDomestic, std::int64_t{1}, std::nullopt, true}, progress),
          doctest::Contains("Keep more history with backend.log_retention"),
          op::Refusal);
      CHECK_THROWS_WITH_AS(
          db.replay({kDomestic, Instant{}, std::nullopt, false}, progress),
          doctest::Contains("it was truncated from the log"), op::Refusal);
    }
    CHECK(query_text(w.database_path(), cursor) == before);
  }
}

TEST_CASE(
    "Operator: a dead agent message is listed, shown and re-driven, and the "
    "program's next start runs it") {
  World w(BackendKind::sqlite);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  // The fan-out and the subscriptions run, not the Inbox messages they sent.
  w.executor.injector().crash_at_step(4);
  w.executor.run_all();
  REQUIRE(w.crashed);
  const std::string args =
      query_text(w.database_path(),
                 "SELECT args FROM agent_message WHERE agent_key = "
                 "'u-1'");
  execute(w.database_path(),
          "UPDATE agent_message SET args = '{not json' WHERE agent_key = "
          "'u-1'");
  w.restart();
  w.run_all();
  REQUIRE(w.rt().dead_messages().size() == 1);
  CHECK(w.inbox("u-1").empty());
  const std::string id = w.rt().dead_messages()[0].message.id.str();
  w.stop();
  {
    SqliteOperator db(w.database_path());
    const auto all = db.dead_messages(std::nullopt);
    REQUIRE(all.size() == 1);
    CHECK(all[0].id == id);
    CHECK(all[0].agent_kind == "commerce.notifications.Inbox");
    CHECK(all[0].agent_key == "u-1");
    CHECK(all[0].handler == "post");
    CHECK(all[0].args == "{not json");
    CHECK(all[0].attempts == 0);
    CHECK(all[0].last_error.starts_with("malformed: "));
    CHECK(all[0].seq > 0);
    CHECK(
        db.dead_messages(std::string("commerce.notifications.Inbox")).size() ==
        1);
    // A misspelt kind and a mistyped id are refused with the nearest.
    CHECK_THROWS_WITH_AS(
        db.dead_messages(std::string("commerce.notifications.Inbx")),
        fmt::format("{}: no agent kind 'commerce.notifications.Inbx'; did you "
                    "mean 'commerce.notifications.Inbox'?",
                    w.database_path())
            .c_str(),
        op::Refusal);
    std::string typo = id;
    typo[0] = typo[0] == 'f' ? '0' : 'f';
    CHECK_THROWS_WITH_AS(
        db.find_dead_message(typo),
        fmt::format("no dead message {}; did you mean {}?", typo, id).c_str(),
        op::Refusal);
    CHECK_THROWS_AS(db.redrive_message(typo), op::Refusal);
    CHECK(db.find_dead_message(id).agent_key == "u-1");
  }
  // The operator repairs the stored arguments, then re-drives the message.
  execute(w.database_path(), "UPDATE dead_message SET args = '" + args + "'");
  {
    SqliteOperator db(w.database_path());
    CHECK(db.redrive_message(id).requeued == 1);
    CHECK(db.dead_messages(std::nullopt).empty());
    CHECK(db.status().pending_messages == 1);
    CHECK(db.status().dead_messages == 0);
    // Once re-queued it is no longer a dead message.
    CHECK_THROWS_AS(db.redrive_message(id), op::Refusal);
  }
  CHECK(query_int(
            w.database_path(),
            "SELECT attempts FROM agent_message WHERE id = '" + id + "'") == 0);
  w.restart();
  CHECK(w.rt().recovery().messages_reposted == 1);
  w.run_all();
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
  CHECK(w.rt().dead_messages().empty());
  CHECK(w.backend->pending_messages().empty());
}

TEST_CASE("Operator: re-driving every dead message re-queues each once") {
  World w(BackendKind::sqlite);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.injector().crash_at_step(4);
  w.executor.run_all();
  REQUIRE(w.crashed);
  execute(w.database_path(), "UPDATE agent_message SET args = '{not json'");
  w.restart();
  w.run_all();
  REQUIRE(w.rt().dead_messages().size() == 2);
  w.stop();
  SqliteOperator db(w.database_path());
  CountingProgress progress;
  CHECK(db.redrive_messages(std::nullopt, progress).requeued == 2);
  CHECK(progress.totals == 2);
  CHECK(progress.advanced == 2);
  CHECK(progress.finished == 1);
  CHECK(db.status().pending_messages == 2);
  CHECK(db.redrive_messages(std::nullopt, progress).requeued == 0);
}

TEST_CASE(
    "Operator: right after a crash, status shows where recovery resumes, not "
    "the acknowledgements not yet written") {
  World w(BackendKind::sqlite);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.order("o-2", "u-2").markPaid(InternalCaller{}, AuthId::from_raw("b"));
  w.run_all();
  // The file as a process killed now leaves it: the database and its WAL,
  // without what the backend holds in memory until a later commit batch or
  // its close (the acknowledgements).
  TempDatabase crashed;
  for (const char* suffix : {"", "-wal"})
    std::filesystem::copy_file(w.database_path() + suffix,
                               crashed.path + suffix);
  w.stop();
  REQUIRE(query_int(crashed.path,
                    "SELECT max(acked_position) FROM subscription") == 0);
  SqliteOperator db(crashed.path);
  const op::Status status = db.status();
  REQUIRE(status.subscriptions.size() == 3);
  // Both payments were delivered to the audit trail and to OnDomestic...
  // (committed, with their dedup records): recovery resumes after them.
  CHECK(status.subscriptions[2].name == kAudit);
  CHECK(status.subscriptions[2].position == 2);
  CHECK(status.subscriptions[2].lag == 0);
  CHECK(status.subscriptions[0].name == kDomestic);
  CHECK(status.subscriptions[0].position == 2);
  CHECK(status.subscriptions[0].lag == 0);
}

}  // namespace herald::test
