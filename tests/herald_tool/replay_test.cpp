// `herald replay`: exactly the right cursors lowered, from a sequence or a
// time, with and without --force; truncated history refused with nothing
// changed.
#include <doctest/doctest.h>

#include "herald/sqlite_operator.hpp"
#include "sample_database.hpp"
#include "tools/herald/progress.hpp"

using namespace herald::test_support;
using Database = herald::SqliteOperator;
using herald::op::Refusal;
using herald::op::ReplayRequest;
using herald::op::ReplayResult;
using herald::tool::Progress;

namespace {

ReplayResult replay(const Sample& sample, const ReplayRequest& request) {
  Database db(sample.path);
  Progress quiet = Progress::quiet();
  return db.replay(request, quiet);
}

herald::Instant at(std::int64_t ns) {
  return herald::Instant(std::chrono::nanoseconds(ns));
}

}  // namespace

TEST_CASE("replay from a sequence lowers acknowledged and keeps committed") {
  Sample s;
  const ReplayResult r =
      replay(s, {kNotifications, std::int64_t{2}, std::nullopt, false});
  CHECK(r.context == "commerce.order");
  REQUIRE(r.replayed.size() == 2);
  CHECK(r.replayed[0].publisher == "order-1");
  CHECK(r.replayed[0].first_sequence == 2);
  CHECK(r.replayed[0].first_position == 3);
  CHECK(r.replayed[0].requeued == 3);
  CHECK(r.replayed[0].dedup_skips == 1);
  CHECK(r.replayed[1].publisher == "order-2");
  CHECK(r.replayed[1].first_position == 5);
  CHECK(r.replayed[1].requeued == 1);
  CHECK(r.replayed[1].dedup_skips == 1);
  CHECK(r.start_position_after == 0);
  CHECK(r.held.empty());

  CHECK(s.fixture.read_cursor(kNotifications, "order-1") == CursorRow{2, 1});
  CHECK(s.fixture.read_cursor(kNotifications, "order-2") == CursorRow{2, 1});
  // Other subscriptions untouched.
  CHECK(s.fixture.read_cursor(kAudit, "order-1") == CursorRow{4, 4});
  CHECK(s.fixture.read_cursor(kAudit, "order-2") == CursorRow{1, 2});
  CHECK(s.fixture.start_position(kAudit) == 2);
}

TEST_CASE("replay --force lowers committed too, so dedup skips nothing") {
  Sample s;
  const ReplayResult r =
      replay(s, {kNotifications, std::int64_t{2}, std::nullopt, true});
  REQUIRE(r.replayed.size() == 2);
  CHECK(r.replayed[0].dedup_skips == 0);
  CHECK(r.replayed[1].dedup_skips == 0);
  CHECK(s.fixture.read_cursor(kNotifications, "order-1") == CursorRow{1, 1});
  CHECK(s.fixture.read_cursor(kNotifications, "order-2") == CursorRow{1, 1});
}

TEST_CASE("replay only lowers: a cursor below the request stays as it is") {
  Sample s;
  const ReplayResult r = replay(
      s, {kNotifications, std::int64_t{4}, std::string("order-1"), true});
  REQUIRE(r.replayed.size() == 1);
  CHECK(r.replayed[0].before == herald::op::CursorMarks{2, 3});
  CHECK(r.replayed[0].after == herald::op::CursorMarks{2, 3});
  CHECK(r.replayed[0].requeued == 1);
  CHECK(s.fixture.read_cursor(kNotifications, "order-1") == CursorRow{2, 3});
  CHECK(s.fixture.read_cursor(kNotifications, "order-2") == CursorRow{2, 2});
}

TEST_CASE("replay lowers the start position below the first replayed entry") {
  Sample s;
  const ReplayResult r =
      replay(s, {kAudit, std::int64_t{1}, std::nullopt, false});
  CHECK(r.start_position_before == 2);
  CHECK(r.start_position_after == 0);
  CHECK(s.fixture.start_position(kAudit) == 0);
  CHECK(s.fixture.read_cursor(kAudit, "order-1") == CursorRow{4, 0});
  CHECK(s.fixture.read_cursor(kAudit, "order-2") == CursorRow{1, 0});
  REQUIRE(r.replayed.size() == 2);
  CHECK(r.replayed[0].requeued == 4);
  CHECK(r.replayed[0].dedup_skips == 4);
  CHECK(r.replayed[1].requeued == 2);
  CHECK(r.replayed[1].dedup_skips == 1);
}

TEST_CASE("replay inserts missing cursors and holds publishers not replayed") {
  TempDir dir;
  const std::string path = dir.file("late.db");
  HeraldDbFixture f(path);
  f.log("a", "p", "a.E", kSampleT0);                // position 1
  f.log("a", "q", "a.E", kSampleT0 + kSecond);      // position 2
  f.log("a", "p", "a.E", kSampleT0 + 2 * kSecond);  // position 3
  // Created after position 2: it has seen only p's second entry.
  f.subscription("b.S", "a", 2, 3);
  f.cursor("b.S", "p", 2, 2);
  Progress quiet = Progress::quiet();

  SUBCASE("one publisher: the other keeps its old entries undelivered") {
    {
      Database db(path);
      const ReplayResult r =
          db.replay({"b.S", std::int64_t{1}, std::string("p"), false}, quiet);
      CHECK(r.start_position_after == 0);
      REQUIRE(r.held.size() == 1);
      CHECK(r.held[0].publisher == "q");
      CHECK_FALSE(r.held[0].before.has_value());
      CHECK(r.held[0].after.acknowledged == 1);
    }
    CHECK(f.read_cursor("b.S", "p") == CursorRow{2, 0});
    CHECK(f.read_cursor("b.S", "q") == CursorRow{0, 1});
    CHECK(f.start_position("b.S") == 0);
  }
  SUBCASE("every publisher: a missing cursor is inserted below the first") {
    {
      Database db(path);
      const ReplayResult r =
          db.replay({"b.S", std::int64_t{1}, std::nullopt, false}, quiet);
      REQUIRE(r.replayed.size() == 2);
      CHECK_FALSE(r.replayed[1].before.has_value());
      CHECK(r.replayed[1].requeued == 1);
      CHECK(r.replayed[1].dedup_skips == 0);
      CHECK(r.held.empty());
    }
    CHECK(f.read_cursor("b.S", "q") == CursorRow{0, 0});
  }
  SUBCASE("a sequence past a publisher's last replays nothing of it") {
    {
      Database db(path);
      const ReplayResult r =
          db.replay({"b.S", std::int64_t{2}, std::nullopt, false}, quiet);
      REQUIRE(r.replayed.size() == 1);
      CHECK(r.replayed[0].publisher == "p");
      CHECK(r.start_position_after == 2);
    }
    CHECK(f.read_cursor("b.S", "p") == CursorRow{2, 1});
    CHECK_FALSE(f.read_cursor("b.S", "q").has_value());
  }
}

TEST_CASE(
    "replay from a time picks each publisher's first entry at or after it") {
  Sample s;
  const ReplayResult r = replay(
      s, {kNotifications, herald::parse_instant("2026-12-02T07:00:02.5Z"),
          std::nullopt, false});
  REQUIRE(r.replayed.size() == 2);
  CHECK(r.replayed[0].first_sequence == 3);
  CHECK(r.replayed[0].first_position == 4);
  CHECK(r.replayed[0].requeued == 2);
  CHECK(r.replayed[0].dedup_skips == 0);
  CHECK(r.replayed[1].first_sequence == 2);
  CHECK(r.replayed[1].requeued == 1);
  CHECK(r.replayed[1].dedup_skips == 1);
  CHECK(s.fixture.read_cursor(kNotifications, "order-1") == CursorRow{2, 2});
  CHECK(s.fixture.read_cursor(kNotifications, "order-2") == CursorRow{2, 1});

  SUBCASE("an instant on an entry includes it") {
    const ReplayResult exact = replay(
        s, {kNotifications, at(kSampleT0 + 5 * kSecond), std::nullopt, true});
    REQUIRE(exact.replayed.size() == 1);
    CHECK(exact.replayed[0].first_sequence == 4);
    CHECK(s.fixture.read_cursor(kNotifications, "order-1") == CursorRow{2, 2});
  }
  SUBCASE("a time after every entry changes nothing") {
    const ReplayResult none = replay(
        s, {kNotifications, at(kSampleT0 + 10 * kSecond), std::nullopt, true});
    CHECK(none.replayed.empty());
    CHECK(s.fixture.read_cursor(kNotifications, "order-1") == CursorRow{2, 2});
  }
}

TEST_CASE("replay keeps entries below the old start undelivered") {
  TempDir dir;
  const std::string path = dir.file("start.db");
  HeraldDbFixture f(path);
  f.log("a", "q", "a.E", kSampleT0);                // position 1, q 1
  f.log("a", "q", "a.E", kSampleT0 + kSecond);      // position 2, q 2
  f.log("a", "p", "a.E", kSampleT0 + 2 * kSecond);  // position 3, p 1
  f.log("a", "p", "a.E", kSampleT0 + 3 * kSecond);  // position 4, p 2
  // Started at position 4; p's cursor does not cover its first entry.
  f.subscription("b.S", "a", 4, 4);
  f.cursor("b.S", "p", 0, 0);
  {
    Database db(path);
    Progress quiet = Progress::quiet();
    const ReplayResult r =
        db.replay({"b.S", std::int64_t{2}, std::nullopt, false}, quiet);
    CHECK(r.start_position_after == 1);
    REQUIRE(r.replayed.size() == 2);
    CHECK(r.replayed[0].publisher == "p");
    CHECK(r.replayed[0].after.acknowledged == 1);
    CHECK(r.replayed[0].requeued == 1);
  }
  // p 1 (position 3) and q 1 (position 2) were before the start: not
  // replayed.
  CHECK(f.read_cursor("b.S", "p") == CursorRow{0, 1});
  CHECK(f.read_cursor("b.S", "q") == CursorRow{0, 1});
  CHECK(f.start_position("b.S") == 1);
}

TEST_CASE("replay of truncated history is refused and changes nothing") {
  Sample s;
  SUBCASE("from a sequence") {
    CHECK_THROWS_WITH_AS(
        replay(s, {kLedger, std::int64_t{1}, std::nullopt, false}),
        "cannot replay publisher 'billing' from sequence 1: it was truncated "
        "from the log (the oldest retained entry of publisher 'billing' is "
        "sequence 2 at position 2; the oldest retained position of "
        "'commerce.billing' is 2); nothing was changed. Keep more history "
        "with backend.log_retention",
        Refusal);
    CHECK(s.fixture.read_cursor(kLedger, "billing") == CursorRow{2, 2});
    CHECK(s.fixture.start_position(kLedger) == 0);
    const ReplayResult ok =
        replay(s, {kLedger, std::int64_t{2}, std::nullopt, false});
    CHECK(ok.replayed.size() == 1);
    CHECK(s.fixture.read_cursor(kLedger, "billing") == CursorRow{2, 1});
  }
  SUBCASE("from a time the truncated entries may be at or after") {
    CHECK_THROWS_WITH_AS(
        replay(s, {kLedger, at(kSampleT0 + kSecond / 2), std::nullopt, false}),
        doctest::Contains("backend.log_retention"), Refusal);
    CHECK(s.fixture.read_cursor(kLedger, "billing") == CursorRow{2, 2});
    // After the oldest retained entry: the truncated ones are before it.
    const ReplayResult later =
        replay(s, {kLedger, at(kSampleT0 + 2 * kSecond), std::nullopt, false});
    CHECK(later.replayed.empty());
  }
  SUBCASE("one truncated publisher refuses the whole replay") {
    s.fixture.truncate("commerce.order", 2);
    CHECK_THROWS_WITH_AS(
        replay(s, {kNotifications, std::int64_t{1}, std::nullopt, true}),
        doctest::Contains("the oldest retained position of 'commerce.order' "
                          "is 3"),
        Refusal);
    CHECK(s.fixture.read_cursor(kNotifications, "order-1") == CursorRow{2, 3});
    CHECK(s.fixture.read_cursor(kNotifications, "order-2") == CursorRow{2, 2});
    CHECK(s.fixture.start_position(kNotifications) == 0);
  }
}

TEST_CASE("replay of an unknown subscription or publisher is refused") {
  Sample s;
  CHECK_THROWS_WITH_AS(
      replay(s, {"no.Such", std::int64_t{1}, std::nullopt, false}),
      (s.path + ": no subscription 'no.Such'").c_str(), Refusal);
  CHECK_THROWS_WITH_AS(
      replay(s, {kAudit, std::int64_t{1}, std::string("billing"), false}),
      (s.path + ": context 'commerce.order' has no publisher 'billing'")
          .c_str(),
      Refusal);
}
