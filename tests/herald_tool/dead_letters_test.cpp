// `herald dead-letters`: list and show what the sample's subscriptions
// dead-lettered; redrive marks exactly the letters asked for.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "herald/sqlite_operator.hpp"
#include "sample_database.hpp"
#include "tools/herald/progress.hpp"

using namespace herald::test_support;
using Database = herald::SqliteOperator;
using herald::op::Refusal;
using herald::tool::Progress;

namespace {

// The event ids the fixture gives the sample's log entries, by position.
std::string order_event(int position) {
  return fmt::format("0190a0b0-0000-7000-8000-{:012x}", position);
}

}  // namespace

TEST_CASE("list shows every letter in dead-lettering order") {
  Sample sample;
  Database db(sample.path);
  const auto letters = db.dead_letters(std::nullopt);
  REQUIRE(letters.size() == 2);
  CHECK(letters[0].id == 1);
  CHECK(letters[0].subscription == kNotifications);
  CHECK(letters[0].event_id == order_event(4));
  CHECK(letters[0].event_type == "commerce.order.PaymentConfirmed");
  CHECK(letters[0].publisher == "order-1");
  CHECK(letters[0].sequence == 3);
  CHECK(letters[0].position == 4);
  CHECK(letters[0].attempts == 5);
  CHECK(letters[0].last_error.starts_with("handler failed: fx.Converter"));
  CHECK(letters[0].dead_lettered_at ==
        herald::Instant(std::chrono::nanoseconds(kSampleT0 + 60 * kSecond)));
  CHECK_FALSE(letters[0].redriving);
  CHECK(letters[1].subscription == kAudit);
  CHECK(letters[1].event_id == order_event(5));
  CHECK(letters[1].payload == "{not json");

  const auto audit = db.dead_letters(std::string(kAudit));
  REQUIRE(audit.size() == 1);
  CHECK(audit[0].id == 2);
  CHECK(db.dead_letters(std::string(kLedger)).empty());
  CHECK_THROWS_WITH_AS(db.dead_letters(std::string("no.Such")),
                       (sample.path + ": no subscription 'no.Such'").c_str(),
                       Refusal);
}

TEST_CASE("show finds an event's letters, narrowed by subscription") {
  Sample sample;
  // The same event dead-lettered by a second subscription.
  sample.fixture.dead_letter(kAudit, 4, 3, "audit store down",
                             kSampleT0 + 70 * kSecond);
  Database db(sample.path);
  const auto both = db.find_dead_letters(order_event(4), std::nullopt);
  REQUIRE(both.size() == 2);
  CHECK(both[0].subscription == kNotifications);
  CHECK(both[1].subscription == kAudit);
  CHECK(both[1].last_error == "audit store down");
  CHECK(both[1].context == "commerce.order");
  CHECK(both[1].correlation_id == order_event(4));
  CHECK_FALSE(both[1].causation_id.has_value());
  CHECK(both[1].payload ==
        R"({"orderId":"a","amount":{"cents":100,"currency":"EUR"}})");

  const auto one = db.find_dead_letters(order_event(4), std::string(kAudit));
  REQUIRE(one.size() == 1);
  CHECK(one[0].attempts == 3);

  CHECK_THROWS_WITH_AS(db.find_dead_letters(order_event(6), std::nullopt),
                       ("no dead letter of event " + order_event(6)).c_str(),
                       Refusal);
  CHECK_THROWS_WITH_AS(
      db.find_dead_letters(order_event(5), std::string(kNotifications)),
      ("subscription '" + std::string(kNotifications) +
       "' has no dead letter of event " + order_event(5))
          .c_str(),
      Refusal);
}

TEST_CASE("redrive of one event marks exactly its letters") {
  Sample sample;
  sample.fixture.dead_letter(kAudit, 4, 3, "audit store down",
                             kSampleT0 + 70 * kSecond);
  {
    Database db(sample.path);
    const auto result = db.redrive(order_event(4), std::string(kAudit));
    CHECK(result.marked == 1);
    CHECK(result.already_marked == 0);
  }
  CHECK(sample.fixture.redriving() ==
        std::string(kAudit) + "/" + order_event(4));
  {
    Database db(sample.path);
    const auto result = db.redrive(order_event(4), std::nullopt);
    CHECK(result.marked == 1);
    CHECK(result.already_marked == 1);
  }
  CHECK(sample.fixture.redriving() == std::string(kNotifications) + "/" +
                                          order_event(4) + " " + kAudit + "/" +
                                          order_event(4));
}

TEST_CASE("redrive of an unknown event is refused and marks nothing") {
  Sample sample;
  Database db(sample.path);
  CHECK_THROWS_AS(db.redrive(order_event(1), std::nullopt), Refusal);
  CHECK(sample.fixture.redriving().empty());
}

TEST_CASE(
    "redrive --all marks every letter, or every letter of one subscription") {
  Sample sample;
  Progress quiet = Progress::quiet();
  SUBCASE("all") {
    Database db(sample.path);
    const auto result = db.redrive_all(std::nullopt, quiet);
    CHECK(result.marked == 2);
    CHECK(sample.fixture.redriving() == std::string(kNotifications) + "/" +
                                            order_event(4) + " " + kAudit +
                                            "/" + order_event(5));
  }
  SUBCASE("one subscription") {
    Database db(sample.path);
    const auto result = db.redrive_all(std::string(kNotifications), quiet);
    CHECK(result.marked == 1);
    CHECK(sample.fixture.redriving() ==
          std::string(kNotifications) + "/" + order_event(4));
  }
  SUBCASE("a subscription without letters") {
    Database db(sample.path);
    const auto result = db.redrive_all(std::string(kLedger), quiet);
    CHECK(result.marked == 0);
    CHECK(sample.fixture.redriving().empty());
  }
}
