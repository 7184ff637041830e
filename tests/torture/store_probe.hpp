// What the torture harness does to and reads from a database directly, as
// an operator's sqlite3 shell would: PRAGMA integrity_check, the stored
// emittedAt of every log entry, the dead letters, corrupted rows written
// under the runtime, and a second connection holding the write lock.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace torture {

std::string integrity(const std::string& db);

// Where stored emittedAt goes backwards: kind "time" for an entry written
// after a restart that is older than one written before it (`heads`: each
// log's highest position at the last scan, updated), "time-order" for an
// entry older than the one before it from the same process.
struct TimeFault {
  std::string kind, what;
};
std::vector<TimeFault> time_going_back(
    const std::string& db, std::map<std::string, std::int64_t>& heads);

struct LetterKey {
  std::string subscription;
  std::int64_t position = 0;
  std::string context;
  bool operator<(const LetterKey& o) const {
    return std::tie(subscription, position, context) <
           std::tie(o.subscription, o.position, o.context);
  }
};

std::set<LetterKey> dead_letter_keys(const std::string& db);

// Each context log's head: the highest position it ever held (its rows
// may be truncated since).
std::map<std::string, std::int64_t> log_heads(const std::string& db);

struct CorruptRow {
  std::string context;
  std::int64_t position = 0;
  std::string publisher;
  bool bad_id = false;
};

// Appends `count` log entries of Tick whose payload is not JSON (every
// other one also with an event id that does not parse) to the source log;
// none while one of `subscribers` is not yet in the store: a subscription
// new to the store starts at the log's head (`subscriptions.start = now`),
// so a row written before it existed is not its to deliver.
std::vector<CorruptRow> corrupt_rows(
    const std::string& db, const std::vector<std::string>& subscribers,
    int count, int& next_publisher, std::mt19937_64& rng);

// A second connection that takes the write lock (BEGIN IMMEDIATE) at once
// and holds it for `hold` on a thread of its own.
class LockHolder {
 public:
  LockHolder(std::string db, std::chrono::milliseconds hold);
  ~LockHolder();
  LockHolder(const LockHolder&) = delete;
  LockHolder& operator=(const LockHolder&) = delete;
  // Waits until the lock is given back; whether it was taken at all.
  bool finish();

 private:
  std::atomic<bool> took_{false};
  std::thread thread_;
};

}  // namespace torture
