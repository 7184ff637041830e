// `herald status` over the sample database: every number it reports.
#include <doctest/doctest.h>

#include "herald/sqlite_operator.hpp"
#include "sample_database.hpp"
#include "tools/herald/json_output.hpp"
#include "tools/herald/text_output.hpp"

using namespace herald::test_support;
using Database = herald::SqliteOperator;

TEST_CASE("status counts subscriptions, agents, logs and messages") {
  TempDir dir;
  const std::string path = dir.file("sample.db");
  {
    HeraldDbFixture fixture(path);
    fill_sample(fixture);
  }
  Database db(path);
  const herald::op::Status status = db.status();

  CHECK(status.path == path);
  CHECK(status.schema_version == 3);
  CHECK(status.runtime_version == "1");
  REQUIRE(status.subscriptions.size() == 3);
  const auto& ledger = status.subscriptions[0];
  CHECK(ledger.name == kLedger);
  CHECK(ledger.context == "commerce.billing");
  CHECK(ledger.position == 2);
  CHECK(ledger.lag == 0);
  CHECK(ledger.retrying == 0);
  CHECK(ledger.dead_letters == 0);
  const auto& audit = status.subscriptions[1];
  CHECK(audit.name == kAudit);
  CHECK(audit.position == 6);
  CHECK(audit.lag == 0);
  CHECK(audit.retrying == 0);
  CHECK(audit.dead_letters == 1);
  const auto& notifications = status.subscriptions[2];
  CHECK(notifications.name == kNotifications);
  CHECK(notifications.context == "commerce.order");
  CHECK(notifications.position == 5);
  CHECK(notifications.lag == 1);
  CHECK(notifications.retrying == 1);
  CHECK(notifications.dead_letters == 1);
  CHECK(notifications.redriving == 0);

  REQUIRE(status.agents.size() == 2);
  CHECK(status.agents[0].kind == "commerce.billing.Account");
  CHECK(status.agents[0].instances == 1);
  CHECK(status.agents[1].kind == "commerce.order.Order");
  CHECK(status.agents[1].instances == 3);

  REQUIRE(status.logs.size() == 2);
  CHECK(status.logs[0].context == "commerce.billing");
  CHECK(status.logs[0].head == 2);
  CHECK(status.logs[0].retained == 1);
  CHECK(status.logs[0].oldest_position == 2);
  CHECK(status.logs[0].oldest_emitted_at ==
        herald::Instant(std::chrono::nanoseconds(kSampleT0 + kSecond)));
  CHECK(status.logs[1].context == "commerce.order");
  CHECK(status.logs[1].head == 6);
  CHECK(status.logs[1].retained == 6);
  CHECK(status.logs[1].oldest_position == 1);

  CHECK(status.pending_messages == 1);
  REQUIRE(status.pending_by_kind.size() == 1);
  CHECK(status.pending_by_kind[0].agent_kind == "commerce.order.Order");
  CHECK(status.pending_by_kind[0].messages == 1);
  CHECK(status.dead_messages == 1);
}

TEST_CASE("status of a context whose whole log was truncated") {
  TempDir dir;
  const std::string path = dir.file("empty.db");
  {
    HeraldDbFixture fixture(path);
    fixture.log("a", "p", "a.E", kSampleT0);
    fixture.truncate("a", 1);
    fixture.subscription("b.S", "a", 0, 0);
  }
  Database db(path);
  const herald::op::Status status = db.status();
  REQUIRE(status.logs.size() == 1);
  CHECK(status.logs[0].head == 1);
  CHECK(status.logs[0].retained == 0);
  CHECK_FALSE(status.logs[0].oldest_position.has_value());
  CHECK_FALSE(status.logs[0].oldest_emitted_at.has_value());
  REQUIRE(status.subscriptions.size() == 1);
  CHECK(status.subscriptions[0].lag == 1);
  CHECK(status.agents.empty());
}

TEST_CASE(
    "status lists the entries a log keeps of event types the program did not "
    "know") {
  TempDir dir;
  const std::string path = dir.file("rolled-back.db");
  {
    HeraldDbFixture fixture(path);
    fixture.log("a", "p", "a.Known", kSampleT0);
    fixture.log("a", "p", "a.Newer", kSampleT0 + kSecond);
    fixture.log("a", "q", "a.Newer", kSampleT0 + 2 * kSecond);
    fixture.log("a", "p", "a.Known", kSampleT0 + 3 * kSecond);
    // As the program's truncation records it.
    fixture.sql().exec(
        "INSERT INTO herald_meta(key, value) VALUES "
        "('unknown_event_types:a', '[\"a.Newer\",\"a.Gone\"]')");
  }
  Database db(path);
  const herald::op::Status status = db.status();
  REQUIRE(status.logs.size() == 1);
  // a.Gone has no row left: not listed.
  REQUIRE(status.logs[0].unknown_types.size() == 1);
  CHECK(status.logs[0].unknown_types[0].event_type == "a.Newer");
  CHECK(status.logs[0].unknown_types[0].entries == 2);
  CHECK(herald::tool::status_text(status).find(
            "Log a keeps 2 entries of event type a.Newer, which the program "
            "does not know") != std::string::npos);
  const auto json = herald::tool::status_json(status);
  CHECK(json["logs"][0]["unknown_event_types"][0]["event_type"] == "a.Newer");
  CHECK(json["logs"][0]["unknown_event_types"][0]["entries"] == 2);
}
