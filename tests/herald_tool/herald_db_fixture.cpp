#include "herald_db_fixture.hpp"

#include <atomic>
#include <stdexcept>

#include <fmt/format.h>

#include "sqlite_schema.hpp"
#include <SQLiteCpp/Statement.h>
#include <unistd.h>

namespace herald::test_support {

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          fmt::format("herald-tool-test-{}-{}", ::getpid(), counter++);
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

HeraldDbFixture::HeraldDbFixture(const std::string& path)
    : db_(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE) {
  // The runtime's own tables, as a program's first start creates them.
  db_.exec("PRAGMA journal_mode = WAL");
  prepare_sqlite_schema(db_, path);
}

std::string HeraldDbFixture::next_id() {
  ++ids_;
  return fmt::format("0190a0b0-0000-7000-8000-{:012x}", ids_);
}

LoggedEntry HeraldDbFixture::log(const std::string& context,
                                 const std::string& publisher,
                                 const std::string& event_type,
                                 std::int64_t emitted_at,
                                 const std::string& payload) {
  SQLite::Statement head(db_,
                         "INSERT INTO log_head(context, head) VALUES (?, 1)"
                         " ON CONFLICT(context) DO UPDATE SET head = head + 1"
                         " RETURNING head");
  head.bind(1, context);
  head.executeStep();
  LoggedEntry entry;
  entry.position = head.getColumn(0).getInt64();
  head.reset();
  SQLite::Statement sequence(
      db_,
      "INSERT INTO publisher_sequence(context, publisher, sequence)"
      " VALUES (?, ?, 1) ON CONFLICT(context, publisher)"
      " DO UPDATE SET sequence = sequence + 1 RETURNING sequence");
  sequence.bind(1, context);
  sequence.bind(2, publisher);
  sequence.executeStep();
  entry.sequence = sequence.getColumn(0).getInt64();
  sequence.reset();
  entry.event_id = next_id();
  SQLite::Statement insert(
      db_,
      "INSERT INTO log(context, position, event_id, event_type, publisher,"
      " sequence, emitted_at, schema_version, causation_id, correlation_id,"
      " depth, payload) VALUES (?, ?, ?, ?, ?, ?, ?, 1, NULL, ?, 0, ?)");
  insert.bind(1, context);
  insert.bind(2, entry.position);
  insert.bind(3, entry.event_id);
  insert.bind(4, event_type);
  insert.bind(5, publisher);
  insert.bind(6, entry.sequence);
  insert.bind(7, emitted_at);
  insert.bind(8, entry.event_id);
  insert.bind(9, payload);
  insert.exec();
  return entry;
}

void HeraldDbFixture::truncate(const std::string& context,
                               std::int64_t position) {
  SQLite::Statement q(db_,
                      "DELETE FROM log WHERE context = ? AND position <= ?");
  q.bind(1, context);
  q.bind(2, position);
  q.exec();
}

void HeraldDbFixture::subscription(const std::string& name,
                                   const std::string& context,
                                   std::int64_t start_position,
                                   std::int64_t acked_position) {
  SQLite::Statement q(db_,
                      "INSERT INTO subscription(name, context, start_position,"
                      " acked_position, created_at) VALUES (?, ?, ?, ?, 0)");
  q.bind(1, name);
  q.bind(2, context);
  q.bind(3, start_position);
  q.bind(4, acked_position);
  q.exec();
}

void HeraldDbFixture::cursor(const std::string& subscription,
                             const std::string& publisher,
                             std::int64_t committed,
                             std::int64_t acknowledged) {
  SQLite::Statement q(db_,
                      "INSERT OR REPLACE INTO cursor(subscription, publisher,"
                      " committed, acknowledged) VALUES (?, ?, ?, ?)");
  q.bind(1, subscription);
  q.bind(2, publisher);
  q.bind(3, committed);
  q.bind(4, acknowledged);
  q.exec();
}

std::optional<CursorRow> HeraldDbFixture::read_cursor(
    const std::string& subscription, const std::string& publisher) {
  SQLite::Statement q(db_,
                      "SELECT committed, acknowledged FROM cursor"
                      " WHERE subscription = ? AND publisher = ?");
  q.bind(1, subscription);
  q.bind(2, publisher);
  if (!q.executeStep()) return std::nullopt;
  return CursorRow{q.getColumn(0).getInt64(), q.getColumn(1).getInt64()};
}

std::int64_t HeraldDbFixture::start_position(const std::string& subscription) {
  SQLite::Statement q(db_,
                      "SELECT start_position FROM subscription WHERE name = ?");
  q.bind(1, subscription);
  if (!q.executeStep())
    throw std::runtime_error("no subscription " + subscription);
  return q.getColumn(0).getInt64();
}

void HeraldDbFixture::pending_attempt(const std::string& subscription,
                                      std::int64_t position,
                                      std::int64_t attempts,
                                      const std::string& error) {
  SQLite::Statement q(db_,
                      "INSERT INTO pending_attempt(subscription, position,"
                      " attempts, last_error, first_attempt_at, retry_at)"
                      " VALUES (?, ?, ?, ?, 0, 0)");
  q.bind(1, subscription);
  q.bind(2, position);
  q.bind(3, attempts);
  q.bind(4, error);
  q.exec();
}

std::int64_t HeraldDbFixture::dead_letter(const std::string& subscription,
                                          std::int64_t position,
                                          std::int64_t attempts,
                                          const std::string& error,
                                          std::int64_t dead_lettered_at) {
  SQLite::Statement q(
      db_,
      "INSERT INTO dead_letter(subscription, event_id, context, position,"
      " event_type, publisher, sequence, emitted_at, schema_version,"
      " causation_id, correlation_id, depth, payload, attempts, last_error,"
      " first_attempt_at, last_attempt_at, dead_lettered_at)"
      " SELECT s.name, l.event_id, l.context, l.position, l.event_type,"
      " l.publisher, l.sequence, l.emitted_at, l.schema_version,"
      " l.causation_id, l.correlation_id, l.depth, l.payload, ?, ?,"
      " l.emitted_at, ?, ?"
      " FROM subscription s JOIN log l ON l.context = s.context"
      " WHERE s.name = ? AND l.position = ?");
  q.bind(1, attempts);
  q.bind(2, error);
  q.bind(3, dead_lettered_at);
  q.bind(4, dead_lettered_at);
  q.bind(5, subscription);
  q.bind(6, position);
  if (q.exec() != 1)
    throw std::runtime_error(
        fmt::format("no log entry {} for {}", position, subscription));
  return db_.getLastInsertRowid();
}

std::string HeraldDbFixture::redriving() {
  SQLite::Statement q(db_,
                      "SELECT subscription, event_id FROM dead_letter"
                      " WHERE redriving = 1 ORDER BY id");
  std::string out;
  while (q.executeStep()) {
    if (!out.empty()) out += ' ';
    out += q.getColumn(0).getString() + "/" + q.getColumn(1).getString();
  }
  return out;
}

void HeraldDbFixture::agent(const std::string& kind, const std::string& key) {
  SQLite::Statement q(db_,
                      "INSERT INTO agent_state(kind, key, state_version,"
                      " state, updated_at) VALUES (?, ?, 1, '{}', 0)");
  q.bind(1, kind);
  q.bind(2, key);
  q.exec();
}

void HeraldDbFixture::agent_message(const std::string& kind,
                                    const std::string& key) {
  SQLite::Statement q(db_,
                      "INSERT INTO agent_message(id, agent_kind, agent_key,"
                      " handler, args, correlation_id, depth, created_at)"
                      " VALUES (?, ?, ?, 'run', '{}', ?, 0, 0)");
  const std::string id = next_id();
  q.bind(1, id);
  q.bind(2, kind);
  q.bind(3, key);
  q.bind(4, id);
  q.exec();
}

void HeraldDbFixture::dead_message(const std::string& kind,
                                   const std::string& key) {
  SQLite::Statement q(db_,
                      "INSERT INTO dead_message(id, agent_kind, agent_key,"
                      " handler, args, correlation_id, depth, attempts,"
                      " last_error, dead_lettered_at)"
                      " VALUES (?, ?, ?, 'run', '{}', ?, 0, 5, 'failed', 0)");
  const std::string id = next_id();
  q.bind(1, id);
  q.bind(2, kind);
  q.bind(3, key);
  q.bind(4, id);
  q.exec();
}

void HeraldDbFixture::set_user_version(int version) {
  db_.exec(fmt::format("PRAGMA user_version = {}", version));
}

}  // namespace herald::test_support
