#pragma once
// Builds sqlite backend databases for tests: the exact schema of the
// runtime/tool contract (tools/herald/README.md), and rows written as the
// runtime writes them (log entries with their head and publisher sequence,
// subscriptions, cursors, retries, dead letters copied from the log, agents,
// agent messages). Times are nanoseconds since the epoch.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include <SQLiteCpp/Database.h>

namespace herald::test_support {

// A fresh directory under the system's temporary directory, removed with
// everything in it when destroyed.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const {
    return (path_ / name).string();
  }

 private:
  std::filesystem::path path_;
};

struct LoggedEntry {
  std::int64_t position = 0;
  std::int64_t sequence = 0;
  std::string event_id;
};

struct CursorRow {
  std::int64_t committed = 0;
  std::int64_t acknowledged = 0;
  friend bool operator==(const CursorRow&, const CursorRow&) = default;
};

class HeraldDbFixture {
 public:
  // Creates the database at `path` (WAL mode, the runtime's current schema).
  explicit HeraldDbFixture(const std::string& path);

  SQLite::Database& sql() { return db_; }

  // Appends an entry to `context`'s log as a commit does: the next position
  // and the publisher's next sequence, log_head and publisher_sequence
  // updated. The event id is a fresh canonical UUID.
  LoggedEntry log(const std::string& context, const std::string& publisher,
                  const std::string& event_type, std::int64_t emitted_at,
                  const std::string& payload = "{}");
  // Deletes `context`'s log rows at or below `position` (log_head stays).
  void truncate(const std::string& context, std::int64_t position);

  void subscription(const std::string& name, const std::string& context,
                    std::int64_t start_position = 0,
                    std::int64_t acked_position = 0);
  void cursor(const std::string& subscription, const std::string& publisher,
              std::int64_t committed, std::int64_t acknowledged);
  std::optional<CursorRow> read_cursor(const std::string& subscription,
                                       const std::string& publisher);
  std::int64_t start_position(const std::string& subscription);

  void pending_attempt(const std::string& subscription, std::int64_t position,
                       std::int64_t attempts, const std::string& error);
  // Dead-letters the log entry at `position` of the subscription's context
  // (envelope and payload copied from the log); returns the letter's id.
  std::int64_t dead_letter(const std::string& subscription,
                           std::int64_t position, std::int64_t attempts,
                           const std::string& error,
                           std::int64_t dead_lettered_at);
  // The letters with redriving = 1, as "subscription/event_id" in id order.
  std::string redriving();

  void agent(const std::string& kind, const std::string& key);
  void agent_message(const std::string& kind, const std::string& key);
  void dead_message(const std::string& kind, const std::string& key);

  void set_user_version(int version);

 private:
  std::string next_id();

  SQLite::Database db_;
  std::int64_t ids_ = 0;
};

}  // namespace herald::test_support
