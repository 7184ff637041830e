// The sqlite local store's group commit of one subscription's deliveries
// (LocalStore::commit_dedups), as a node commits the deliveries of the
// events it ingests: every record's dedup kept per publisher, and the
// pending attempt of a delivery that had failed before removed, whether or
// not the others of its group had any.
#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "herald/backend.hpp"
#include "herald/local_store.hpp"
#include "herald/sqlite_backend.hpp"
#include "herald/transport.hpp"
#include "temp_database.hpp"

namespace herald::test {

TEST_CASE(
    "Dedup group: a group commit records every delivery's dedup per "
    "publisher and removes the pending attempts of its deliveries only") {
  TempDatabase db;
  SqliteBackendOptions options;
  options.path = db.path;
  const std::unique_ptr<Backend> backend = make_sqlite_backend(options);
  SubscriptionStore& sub = backend->subscription_store("notify.sub");
  SubscriptionStore& other = backend->subscription_store("audit.sub");
  const Instant now(std::chrono::seconds(1'800'000'000));
  const PendingAttempt failed{1, "boom", now, now};
  // Position 3 failed once; a later position (9) of no delivery below,
  // and the other subscription's position 3, stay pending.
  sub.record_attempt(3, failed);
  sub.record_attempt(9, failed);
  other.record_attempt(3, failed);

  const std::array<std::string, 2> publishers = {"node-a", "node-b"};
  std::vector<CommitRecord::DedupRecord> group;
  for (std::int64_t i = 1; i <= 6; ++i) {
    group.push_back(CommitRecord::DedupRecord{
        &sub, publishers[static_cast<std::size_t>(i % 2)], i, i,
        EventId(7, static_cast<std::uint64_t>(i)), false});
  }
  backend->commit_dedups(group, now);

  // node-b had sequences 1, 3, 5; node-a 2, 4, 6.
  CHECK(sub.recorded("node-b", 5));
  CHECK_FALSE(sub.recorded("node-b", 6));
  CHECK(sub.recorded("node-a", 6));
  CHECK_FALSE(sub.recorded("node-a", 7));
  CHECK_FALSE(other.recorded("node-a", 1));
  CHECK_FALSE(sub.pending_attempt(3).has_value());
  CHECK(sub.pending_attempt(9).has_value());
  CHECK(other.pending_attempt(3).has_value());

  // A group of a subscription with no pending attempt at all.
  const std::vector<CommitRecord::DedupRecord> second = {
      {&other, "node-a", 1, 10, EventId(7, 10), false},
      {&other, "node-a", 2, 11, EventId(7, 11), false}};
  backend->commit_dedups(second, now);
  CHECK(other.recorded("node-a", 2));
  CHECK(other.pending_attempt(3).has_value());
  CHECK(sub.pending_attempt(9).has_value());
}

}  // namespace herald::test
