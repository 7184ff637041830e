// The sqlite backend beyond the conformance suite: what a restart finds in
// the file, the lock file, schema versions, both synchronous modes, payloads
// and message arguments corrupted in the file (D9), and where a subscription
// new to the store starts (on both backends).
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "operator_sql.hpp"
#include "test_world.hpp"

namespace herald::test {
namespace {

using commerce::order::Status;

Status status_of(World& w, const std::string& id) {
  return Order::at(w.rt(), OrderId::from_raw(id)).statusOf();
}

struct OnMemory {
  static constexpr BackendKind kind = BackendKind::memory;
};
struct OnSqlite {
  static constexpr BackendKind kind = BackendKind::sqlite;
};

}  // namespace
}  // namespace herald::test

TYPE_TO_STRING_AS("memory", herald::test::OnMemory);
TYPE_TO_STRING_AS("sqlite", herald::test::OnSqlite);

namespace herald::test {

using commerce::order::Status;

TEST_CASE(
    "Sqlite: a restart recovers agent state, log positions, retry-pending "
    "deliveries with their attempts, and dead letters") {
  World w(BackendKind::sqlite, 1,
          {{"retry.max_attempts", "3"},
           {"retry.base", "1s"},
           {"retry.jitter", "0"}});
  w.gateway.always_fail = true;
  w.order("o-d", "intl-d").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.run_all();
  REQUIRE(w.rt().dead_letters(kInternational).size() == 1);
  CHECK(w.gateway.calls == 3);
  // A second international payment faults once; its retry is a second away.
  w.order("o-r", "intl-r").markPaid(InternalCaller{}, AuthId::from_raw("b"));
  w.executor.run_until_idle();
  CHECK(w.gateway.calls == 4);

  w.restart();
  CHECK(w.rt().store().context_log("commerce.order").head() == 2);
  CHECK(w.rt().recovery().retries_resumed == 1);
  CHECK(status_of(w, "o-d") == Status::Paid);
  CHECK(status_of(w, "o-r") == Status::Paid);
  auto letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].attempts == 3);
  CHECK(letters[0].event->position == 1);
  CHECK(letters[0].event->envelope.publisherId == "commerce.order.Order/o-d");
  CHECK(letters[0].last_error.find("gateway unavailable") != std::string::npos);
  // The stored attempt counts: two more runs, not three.
  w.run_all();
  CHECK(w.gateway.calls == 6);
  letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 2);
  CHECK(letters[1].attempts == 3);
  CHECK(w.inbox("audit").size() == 2);
}

TEST_CASE("Sqlite: committed agent messages are in the file after a crash") {
  World w(BackendKind::sqlite);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  // The fan-out and the subscriptions run, not the Inbox messages they sent.
  w.executor.injector().crash_at_step(4);
  w.executor.run_all();
  REQUIRE(w.crashed);
  CHECK(w.backend->pending_messages().size() == 2);
  w.restart();
  CHECK(w.rt().recovery().messages_reposted == 2);
  w.run_all();
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
  CHECK(w.inbox("audit").size() == 1);
  CHECK(w.backend->pending_messages().empty());
}

TEST_CASE(
    "Sqlite: a database another backend holds is refused with the holder's "
    "pid") {
  TempDatabase db;
  SqliteBackendOptions options;
  options.path = db.path;
  auto first = make_sqlite_backend(options);
  CHECK_THROWS_WITH_AS(
      make_sqlite_backend(options),
      fmt::format("database {} is in use by another process (pid {})", db.path,
                  ::getpid())
          .c_str(),
      Error);
  std::ifstream lock_file(db.path + ".lock");
  std::string holder;
  std::getline(lock_file, holder);
  CHECK(holder == std::to_string(::getpid()));
  first.reset();
  CHECK_NOTHROW(make_sqlite_backend(options));
}

TEST_CASE(
    "Sqlite: a database opened through a symbolic link takes the same lock as "
    "its real path") {
  TempDatabase db;
  const std::string link = db.path + "-link.db";
  std::filesystem::create_symlink(db.path, link);
  SqliteBackendOptions through_link;
  through_link.path = link;
  SqliteBackendOptions direct;
  direct.path = db.path;
  {
    auto first = make_sqlite_backend(through_link);
    CHECK_THROWS_WITH_AS(
        make_sqlite_backend(direct),
        fmt::format("database {} is in use by another process (pid {})",
                    db.path, ::getpid())
            .c_str(),
        Error);
  }
  {
    auto first = make_sqlite_backend(direct);
    CHECK_THROWS_WITH_AS(
        make_sqlite_backend(through_link),
        fmt::format("database {} is in use by another process (pid {})", link,
                    ::getpid())
            .c_str(),
        Error);
  }
  // One lock file, beside the real database; none beside the link.
  CHECK(std::filesystem::exists(db.path + ".lock"));
  CHECK_FALSE(std::filesystem::exists(link + ".lock"));
  std::filesystem::remove(link);
}

TEST_CASE(
    "Sqlite: a database whose schema is newer than this build is refused") {
  TempDatabase db;
  SqliteBackendOptions options;
  options.path = db.path;
  make_sqlite_backend(options).reset();
  CHECK(query_text(db.path, "PRAGMA user_version") == "3");
  CHECK(query_text(db.path,
                   "SELECT value FROM herald_meta WHERE key = "
                   "'runtime_version'") == std::to_string(runtime_version));
  execute(db.path, "PRAGMA user_version = 7");
  CHECK_THROWS_WITH_AS(
      make_sqlite_backend(options),
      fmt::format("{}: database schema version 7 is newer than this build's 3",
                  db.path)
          .c_str(),
      Error);
}

TEST_CASE(
    "Sqlite: synchronous full and normal both open, commit and survive a "
    "restart") {
  for (const char* mode : {"full", "normal"}) {
    CAPTURE(mode);
    TempDatabase db;
    const RuntimeConfig config =
        deterministic_config({{"backend.kind", "sqlite"},
                              {"backend.sqlite.path", db.path},
                              {"backend.sqlite.synchronous", mode}});
    SwitchableGateway gateway;
    for (int run = 0; run < 2; ++run) {
      DeterministicExecutor executor(1);
      MemoryLogSink log;
      Runtime rt(config, executor, nullptr, &log);
      CHECK(rt.store().name() == "sqlite");
      rt.install(commerce::order::context());
      rt.install(commerce::notifications::context(gateway));
      rt.recover();
      if (run == 0) {
        Order o = Order::at(rt, OrderId::from_raw("o-1"));
        o.place(UserId::from_raw("u-1"), Money{5, "EUR"});
        o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
        executor.run_all();
      }
      CHECK(Order::at(rt, OrderId::from_raw("o-1")).statusOf() == Status::Paid);
      CHECK(commerce::notifications::Inbox::at(rt, "u-1").messages() ==
            std::vector<std::string>{"domestic o-1:5"});
    }
    CHECK(query_text(db.path, "PRAGMA journal_mode") == "wal");
  }
}

TEST_CASE(
    "Sqlite D9: a payload corrupted in the file is dead-lettered as malformed "
    "without running a handler") {
  World w(BackendKind::sqlite);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  // Committed, not delivered; the file changes before the next start, which
  // reads the entry back from the table (this process's fan-out would take
  // it from memory, as committed).
  execute(w.database_path(),
          "UPDATE log SET payload = '{\"amount\":\"x\"}' WHERE position = 1");
  w.restart();
  w.run_all();
  CHECK(w.inbox("u-1").empty());
  CHECK(w.inbox("audit").empty());
  CHECK(w.gateway.calls == 0);
  for (const char* sub : {kDomestic, kAudit}) {
    CAPTURE(std::string(sub));
    const auto letters = w.rt().dead_letters(sub);
    REQUIRE(letters.size() == 1);
    CHECK(letters[0].last_error.starts_with("malformed: "));
    REQUIRE(letters[0].event->malformed != nullptr);
    CHECK(letters[0].event->malformed->raw == R"({"amount":"x"})");
    CHECK(w.sub_metric(sub, "deadLettered") == 1);
    CHECK(w.sub_metric(sub, "delivered") == 0);
  }
  CHECK(query_text(w.database_path(),
                   "SELECT payload FROM dead_letter WHERE subscription = "
                   "'commerce.notifications.OnDomesticPayment'") ==
        R"({"amount":"x"})");
  CHECK(w.rt()
            .dead_letter_json(w.rt().dead_letters(kAudit)[0])["payload"]
            .get<std::string>() == R"({"amount":"x"})");
  // A restart finds the letters, and nothing to deliver again.
  w.restart();
  CHECK(w.rt().recovery().deliveries_redriven == 0);
  CHECK(w.rt().dead_letters(kDomestic).size() == 1);
}

TEST_CASE(
    "Sqlite D9: rows whose event ids do not parse are dead-lettered each "
    "under an id of its own") {
  World w(BackendKind::sqlite);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.order("o-2", "u-2").markPaid(InternalCaller{}, AuthId::from_raw("b"));
  execute(w.database_path(),
          "UPDATE log SET event_id = 'not-a-uuid-' || position");
  w.restart();
  w.run_all();
  CHECK(w.inbox("u-1").empty());
  CHECK(w.inbox("u-2").empty());
  const auto letters = w.rt().dead_letters(kAudit);
  REQUIRE(letters.size() == 2);
  const EventId first = letters[0].event->envelope.eventId;
  const EventId second = letters[1].event->envelope.eventId;
  CHECK(first != second);
  CHECK_FALSE(first.is_nil());
  CHECK_FALSE(second.is_nil());
  for (const auto& letter : letters) {
    CHECK(letter.last_error.find("eventId 'not-a-uuid-") != std::string::npos);
  }
  CHECK(query_text(w.database_path(),
                   "SELECT count(*) FROM dead_letter WHERE subscription = "
                   "'commerce.notifications.OnPaymentAudit'") == "2");
  // Each can be re-driven by its id (and fails the same way again).
  CHECK(w.rt().redrive(kAudit, first));
}

TEST_CASE(
    "Sqlite D9: an entry of an event type this build does not know is not "
    "routed, and logged once") {
  World w(BackendKind::sqlite);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.order("o-2", "u-2").markPaid(InternalCaller{}, AuthId::from_raw("b"));
  execute(w.database_path(),
          "UPDATE log SET event_type = 'commerce.order.Refunded'");
  w.restart();
  w.run_all();
  CHECK(w.inbox("u-1").empty());
  CHECK(w.rt().dead_letters(kDomestic).empty());
  const auto lines = w.log.lines("log.unknown_event_type");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]["eventType"] == "commerce.order.Refunded");
  CHECK(lines[0]["level"] == "warn");
}

namespace {

// The Inbox message u-1's delivery sent, its stored arguments replaced by
// `args` in the file after a crash, then the restart's run: the message ends
// as a dead message and u-1's inbox stays empty.
std::vector<DeadMessage> dead_after_corrupting_message(
    const std::string& args) {
  World w(BackendKind::sqlite, 1, {{"retry.max_attempts", "5"}});
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.injector().crash_at_step(4);
  w.executor.run_all();
  REQUIRE(w.crashed);
  execute(w.database_path(), "UPDATE agent_message SET args = '" + args +
                                 "' WHERE agent_key = 'u-1'");
  w.restart();
  w.run_all();
  CHECK(w.inbox("u-1").empty());
  CHECK(w.inbox("audit").size() == 1);
  // Never retried: nothing about it can change by trying again.
  CHECK(w.log.lines("message.retry").empty());
  CHECK(w.backend->pending_messages().empty());
  const auto dead = w.rt().dead_messages();
  if (!dead.empty()) {
    CHECK(query_text(w.database_path(), "SELECT args FROM dead_message") ==
          args);
  }
  return dead;
}

}  // namespace

TEST_CASE(
    "Sqlite D9: agent message arguments corrupted in the file make a dead "
    "message") {
  const auto dead = dead_after_corrupting_message("{not json");
  REQUIRE(dead.size() == 1);
  CHECK(dead[0].message.key == "u-1");
  CHECK(dead[0].last_error.starts_with("malformed: "));
  CHECK(dead[0].attempts == 0);  // not parsed, so never run
}

TEST_CASE(
    "Sqlite D9: agent message arguments of the wrong shape make a dead "
    "message at once, without running the handler") {
  // Valid JSON, but not the handler's argument struct.
  const auto dead = dead_after_corrupting_message(R"({"text":42})");
  REQUIRE(dead.size() == 1);
  CHECK(dead[0].message.key == "u-1");
  CHECK(dead[0].last_error.starts_with("malformed: "));
  CHECK(dead[0].attempts == 1);  // the decoding attempt
}

// A subscription installed by a later process: it starts at the log's head
// (subscriptions.start = now) or from the oldest retained entry (oldest).
TEST_CASE_TEMPLATE(
    "Subscriptions: one added on a restart starts where subscriptions.start "
    "says",
    B, OnMemory, OnSqlite) {
  for (const char* start : {"now", "oldest"}) {
    CAPTURE(start);
    bool add_late = false;
    std::vector<std::string> late;
    auto extra = [&](Runtime& rt) {
      if (!add_late) return;
      Context ctx("test.late");
      ctx.subscribe<PaymentConfirmed>(
          {.service = "test.late.Late",
           .handler = [&late](Invocation&, const PaymentConfirmed& e,
                              const EventEnvelope&) {
             late.push_back(e.orderId.raw());
           }});
      rt.install(std::move(ctx));
    };
    World w(B::kind, 1,
            {{"subscriptions.start", start}, {"backend.log_retention", "1h"}},
            extra);
    w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.order("o-2", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("b"));
    w.run_all();
    add_late = true;
    w.restart();
    w.order("o-3", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("c"));
    w.run_all();
    if (std::string(start) == "now") {
      CHECK(late == std::vector<std::string>{"o-3"});
    } else {
      CHECK(late == std::vector<std::string>{"o-1", "o-2", "o-3"});
    }
    // The subscriptions known before keep their start: nothing twice.
    CHECK(w.inbox("u-1").size() == 3);
    CHECK(w.rt()
              .transport()
              .subscription_store("test.late.Late")
              .acked_position() == 3);
    // A further restart keeps the recorded start.
    late.clear();
    w.restart();
    w.run_all();
    CHECK(late.empty());
  }
}

}  // namespace herald::test
