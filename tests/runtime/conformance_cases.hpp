#pragma once
// The conformance suite's scenarios: one scripted scenario set against
// every backend, each crash followed by a real restart (a new Runtime over
// the same store, then recover()), and the contract checked after every
// scenario. Each scenario is a template over the backend, a type with a
// `static constexpr BackendKind kind`; the includer defines
// HERALD_CONFORMANCE_BACKENDS, the list of those types, and names each with
// TYPE_TO_STRING_AS (a test's name ends in <memory>, <sqlite> or <nats>):
// tests/runtime/conformance_test.cpp (memory, sqlite) and
// tests/nats/conformance_test.cpp (a nats node hosting both contexts).
#include <map>
#include <set>
#include <sstream>

#include <doctest/doctest.h>

#include "herald/id_source.hpp"
#include "test_world.hpp"

namespace herald::test {

// A commit hook that crashes or fails chosen commits.
struct CommitFaults {
  std::uint64_t commits = 0;
  std::uint64_t target = 0;  // 1-based commit to hit; 0: none
  CommitPoint point = CommitPoint::before_apply;
  bool crash = true;  // else a commit failure (a thrown error)

  std::function<void(CommitPoint)> hook() {
    return [this](CommitPoint p) {
      if (p == CommitPoint::before_apply) ++commits;
      if (target == 0 || commits != target || p != point) return;
      target = 0;
      if (crash) throw SimulatedCrash{};
      throw std::runtime_error("disk full (injected)");
    };
  }
  void arm(std::uint64_t after_now, CommitPoint at, bool as_crash) {
    target = commits + after_now;
    point = at;
    crash = as_crash;
  }
};

// One audit line: "<order>:<cents> <eventId> seq=<n> depth=<d>
// pub=<publisher>".
struct AuditLine {
  std::string event_id;
  std::int64_t sequence = 0;
  std::string publisher;
};

inline AuditLine parse_audit(const std::string& line) {
  std::istringstream in(line);
  std::string desc, id, seq, depth, pub;
  in >> desc >> id >> seq >> depth >> pub;
  return AuditLine{id, std::stoll(seq.substr(4)), pub.substr(4)};
}

// D5-D7 at the audit subscription once a scenario ran to idle: every
// committed PaymentConfirmed reached it (or its dead letters) exactly once,
// and each publisher's sequences arrived in order without gaps.
inline void check_audit(World& w, std::size_t committed) {
  const auto lines = w.inbox("audit");
  std::set<std::string> ids;
  std::map<std::string, std::int64_t> last;
  for (const std::string& line : lines) {
    const AuditLine a = parse_audit(line);
    CHECK_MESSAGE(ids.insert(a.event_id).second, "delivered twice: ", line);
    CHECK_MESSAGE(a.sequence == last[a.publisher] + 1, "out of order: ", line);
    last[a.publisher] = a.sequence;
  }
  CHECK(lines.size() + w.rt().dead_letters(kAudit).size() == committed);
  CHECK(w.sub_metric(kAudit, "lag") == 0);
}

using commerce::order::Status;

inline Status status_of(World& w, const std::string& id) {
  return Order::at(w.rt(), OrderId::from_raw(id)).statusOf();
}

TEST_CASE_TEMPLATE("Conformance: a crash inside a host call's commit", B,
                   HERALD_CONFORMANCE_BACKENDS) {
  CommitFaults faults;
  World w(B::kind, 1, {}, {}, faults.hook());
  Order o1 = w.order("o-1", "u-1");
  Order o2 = w.order("o-2", "u-2");

  SUBCASE("before it applies anything: nothing committed, nothing released") {
    faults.arm(1, CommitPoint::before_apply, true);
    CHECK_THROWS(o1.markPaid(InternalCaller{}, AuthId::from_raw("a")));
    w.restart();
    w.run_all();
    CHECK(status_of(w, "o-1") == Status::Pending);
    CHECK(w.inbox("u-1").empty());
    check_audit(w, 0);
  }
  SUBCASE(
      "after it applied everything, before commit returned: on memory "
      "committed and delivered after the restart; on sqlite the transaction "
      "never committed") {
    faults.arm(1, CommitPoint::after_apply, true);
    CHECK_THROWS(o1.markPaid(InternalCaller{}, AuthId::from_raw("a")));
    w.restart();
    w.run_all();
    if (w.kind == BackendKind::memory) {
      CHECK(w.rt().recovery().deliveries_redriven == 2);  // domestic + audit
      CHECK(status_of(w, "o-1") == Status::Paid);
      CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
      check_audit(w, 1);
    } else {
      CHECK(w.rt().recovery().deliveries_redriven == 0);
      CHECK(status_of(w, "o-1") == Status::Pending);
      CHECK(w.inbox("u-1").empty());
      check_audit(w, 0);
    }
  }
  // The other order is untouched either way, and the restarted runtime
  // takes new work.
  Order::at(w.rt(), OrderId::from_raw("o-2"))
      .markPaid(InternalCaller{}, AuthId::from_raw("b"));
  w.run_all();
  CHECK(w.inbox("u-2") == std::vector<std::string>{"domestic o-2:1000"});
  (void)o2;
}

TEST_CASE_TEMPLATE(
    "Conformance: a crash between the log append and the delivery", B,
    HERALD_CONFORMANCE_BACKENDS) {
  World w(B::kind);
  for (int i = 1; i <= 3; ++i)
    w.order(fmt::format("o-{}", i), "u-1")
        .markPaid(InternalCaller{}, AuthId::from_raw("a"));
  // Committed and logged; the fan-out never ran.
  CHECK(w.rt().store().context_log("commerce.order").head() == 3);
  w.restart();
  CHECK(w.rt().recovery().deliveries_redriven == 6);
  w.run_all();
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000",
                                                   "domestic o-2:1000",
                                                   "domestic o-3:1000"});
  check_audit(w, 3);
}

TEST_CASE_TEMPLATE(
    "Conformance: a crash after a delivery commits, before its "
    "acknowledgement",
    B, HERALD_CONFORMANCE_BACKENDS) {
  World w(B::kind);
  w.executor.injector().crash_after_commit(kAudit, 2);
  for (int i = 1; i <= 3; ++i)
    w.order(fmt::format("o-{}", i), "u-1")
        .markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.run_all();
  CHECK(w.restarts == 1);
  // The redelivery met the dedup record and ran nothing.
  CHECK(w.sub_metric(kAudit, "deduplicated") == 1);
  check_audit(w, 3);
  CHECK(w.inbox("u-1").size() == 3);
}

TEST_CASE_TEMPLATE("Conformance: a crash during recovery, then another restart",
                   B, HERALD_CONFORMANCE_BACKENDS) {
  World w(B::kind);
  for (int i = 1; i <= 4; ++i)
    w.order(fmt::format("o-{}", i), "u-1").splitPayment(InternalCaller{}, 2);
  w.restart();
  // The first restart's re-driven work is cut short by a second crash.
  w.executor.injector().crash_at_step(w.executor.steps() + 3);
  w.run_all();
  CHECK(w.restarts == 2);
  check_audit(w, 8);
  CHECK(w.inbox("u-1").size() == 8);
}

TEST_CASE_TEMPLATE(
    "Conformance: a throwing subscriber retries, then dead-letters, without "
    "touching its siblings",
    B, HERALD_CONFORMANCE_BACKENDS) {
  World w(B::kind, 1, {{"retry.max_attempts", "3"}});
  w.gateway.always_fail = true;
  w.order("o-1", "intl-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.order("o-2", "u-2").markPaid(InternalCaller{}, AuthId::from_raw("b"));
  w.run_all();
  const auto letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].attempts == 3);
  CHECK(letters[0].last_error.find("gateway unavailable") != std::string::npos);
  CHECK(w.inbox("u-2") == std::vector<std::string>{"domestic o-2:1000"});
  check_audit(w, 2);
}

TEST_CASE_TEMPLATE(
    "Conformance: attempt counts survive restarts, so a poison event reaches "
    "the dead letters",
    B, HERALD_CONFORMANCE_BACKENDS) {
  World w(B::kind, 1,
          {{"retry.max_attempts", "3"},
           {"retry.base", "1s"},
           {"retry.jitter", "0"}});
  w.gateway.always_fail = true;
  w.order("o-1", "intl-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  // Each fault is followed by a restart before its retry is due.
  for (int attempt = 1;
       attempt <= 4 && w.rt().dead_letters(kInternational).empty(); ++attempt) {
    w.executor.run_until_idle();
    w.restart();
    w.executor.advance(std::chrono::seconds(10));
  }
  w.run_all();
  const auto letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].attempts == 3);
  CHECK(w.gateway.calls == 3);
}

TEST_CASE_TEMPLATE(
    "Conformance: a handler that stops the process is dead-lettered, not "
    "retried forever",
    B, HERALD_CONFORMANCE_BACKENDS) {
  World w(B::kind, 1, {{"retry.max_attempts", "3"}});
  // The international subscriber's gateway call takes the process down
  // every time; World::run_all restarts it after each crash.
  w.gateway.crash_process = true;
  w.order("o-1", "intl-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.order("o-2", "u-2").markPaid(InternalCaller{}, AuthId::from_raw("b"));
  w.run_all();
  const auto letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].attempts == 3);
  // The first run, and one per stored attempt.
  CHECK(w.gateway.calls == 4);
  CHECK(w.restarts == 4);
  CHECK(w.inbox("u-2") == std::vector<std::string>{"domestic o-2:1000"});
  check_audit(w, 2);
}

TEST_CASE_TEMPLATE(
    "Conformance: a re-drive stays in the dead letters until it commits, "
    "across a crash",
    B, HERALD_CONFORMANCE_BACKENDS) {
  World w(B::kind, 1, {{"retry.max_attempts", "1"}});
  w.gateway.always_fail = true;
  w.order("o-1", "intl-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.run_all();
  auto letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  const EventId id = letters[0].event->envelope.eventId;
  w.gateway.always_fail = false;
  CHECK(w.rt().redrive(kInternational, id));
  CHECK_FALSE(w.rt().redrive(kInternational, id));  // already being re-driven
  // The process stops before the re-driven delivery ran.
  w.restart();
  letters = w.rt().dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].redriving);
  CHECK(w.rt().recovery().redrives_resumed == 1);
  w.run_all();
  CHECK(w.rt().dead_letters(kInternational).empty());
  CHECK(w.gateway.sent.size() == 1);
  CHECK(w.inbox("intl-1") ==
        std::vector<std::string>{"international o-1:1000"});
  // A second restart finds nothing to re-drive.
  w.restart();
  w.run_all();
  CHECK(w.gateway.sent.size() == 1);
}

TEST_CASE_TEMPLATE(
    "Conformance: a failed commit is a retryable fault, and caches change only "
    "after it",
    B, HERALD_CONFORMANCE_BACKENDS) {
  CommitFaults faults;
  World w(B::kind, 1, {}, {}, faults.hook());
  Order o = w.order("o-1", "u-1");
  SUBCASE("in a host call") {
    faults.arm(1, CommitPoint::before_apply, false);
    CHECK_THROWS_WITH_AS(
        o.markPaid(InternalCaller{}, AuthId::from_raw("a")),
        doctest::Contains("commit failed: disk full (injected)"), HandlerFault);
    CHECK(status_of(w, "o-1") == Status::Pending);  // the cached state too
    o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.run_all();
    CHECK(status_of(w, "o-1") == Status::Paid);
    check_audit(w, 1);
  }
  SUBCASE("in a delivery") {
    o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
    // The next commit is the first delivery's (domestic or audit, D11 order).
    faults.arm(1, CommitPoint::before_apply, false);
    w.run_all();
    CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
    check_audit(w, 1);
    CHECK(w.sub_metric(kDomestic, "retried") +
              w.sub_metric(kAudit, "retried") ==
          1);
  }
}

TEST_CASE_TEMPLATE(
    "Conformance: cursors and dedup are keyed by publisher id, the same after "
    "a restart",
    B, HERALD_CONFORMANCE_BACKENDS) {
  World w(B::kind);
  PaymentConfirmed e{OrderId::from_raw("o-9"),
                     UserId::from_raw("u-9"),
                     Money{5, "EUR"},
                     commerce::order::Region::Domestic,
                     {}};
  w.rt().publish("commerce.order", "relay-b", e);
  w.rt().publish("commerce.order", "relay-a", e);
  w.run_all();
  w.restart();
  // The new process meets the publishers in the other order.
  w.rt().publish("commerce.order", "relay-a", e);
  w.rt().publish("commerce.order", "relay-b", e);
  w.run_all();
  CHECK(w.inbox("u-9").size() == 4);
  check_audit(w, 4);
}

TEST_CASE_TEMPLATE(
    "Conformance: a supplied eventId re-published later, or after a restart, "
    "is stored once",
    B, HERALD_CONFORMANCE_BACKENDS) {
  World w(B::kind, 1, {{"dedup.window", "48h"}});
  PaymentConfirmed e{OrderId::from_raw("o-9"),
                     UserId::from_raw("u-9"),
                     Money{5, "EUR"},
                     commerce::order::Region::Domestic,
                     {}};
  const EventId id = new_event_id();
  w.rt().publish("commerce.order", "relay", e, id);
  w.run_all();
  w.executor.advance(std::chrono::hours(30));
  w.rt().publish("commerce.order", "relay", e, id);
  w.restart();
  w.rt().publish("commerce.order", "relay", e, id);
  w.run_all();
  CHECK(w.rt().store().context_log("commerce.order").head() == 1);
  CHECK(w.inbox("u-9").size() == 1);
  // Past the window it is a new event.
  w.executor.advance(std::chrono::hours(20));
  w.rt().publish("commerce.order", "relay", e, id);
  w.run_all();
  CHECK(w.inbox("u-9").size() == 2);
}

TEST_CASE_TEMPLATE(
    "Conformance: committed agent messages survive a crash and run once", B,
    HERALD_CONFORMANCE_BACKENDS) {
  World w(B::kind);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  // Run the fan-out and the subscriptions, not the Inbox messages they sent.
  w.executor.injector().crash_at_step(4);
  w.run_all();
  CHECK(w.restarts == 1);
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
  CHECK(w.inbox("audit").size() == 1);
  w.restart();
  w.run_all();
  CHECK(w.inbox("u-1").size() == 1);
}

}  // namespace herald::test
