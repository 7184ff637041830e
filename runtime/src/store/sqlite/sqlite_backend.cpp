// The sqlite backend: every store of the seam in one SQLite database file in
// WAL mode (runtime/docs/sqlite-schema.md). One connection, used under one
// lock; every statement is prepared once and bound per use. A commit is one
// SQLite transaction; concurrent commits are grouped into one transaction
// (GroupCommit), and nothing of a batch is applied if any of it throws.
#include "sqlite_backend.hpp"

#include <fmt/format.h>

#include "herald/agent.hpp"
#include "herald/errors.hpp"
#include "sqlite_schema.hpp"

namespace herald::sqlite_detail {

namespace {

SQLite::Database open_database(const SqliteBackendOptions& o) {
  if (o.path.empty())
    throw Error("sqlite backend: no database path (backend.sqlite.path)");
  try {
    // No mutex of SQLite's around each call: the backend uses its one
    // connection under its own lock (SqliteBackend::mutex).
    return SQLite::Database(
        o.path,
        SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_NOMUTEX,
        static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                             o.busy_timeout)
                             .count()));
  } catch (const SQLite::Exception& e) {
    throw Error(fmt::format("database {}: cannot open: {}", o.path, e.what()));
  }
}

}  // namespace

SqliteBackend::SqliteBackend(SqliteBackendOptions options)
    : options_(std::move(options)),
      lock_(options_.path),
      db_(open_database(options_)) {
  try {
    // Before the first access, so that the WAL index is never shared
    // memory (runtime/docs/sqlite-schema.md, "The lock file").
    if (options_.exclusive) db_.exec("PRAGMA locking_mode = EXCLUSIVE");
    const std::string mode = db_.execAndGet("PRAGMA journal_mode = WAL");
    if (mode != "wal") {
      throw Error(
          fmt::format("database {}: WAL mode refused (journal mode "
                      "stays {})",
                      options_.path, mode));
    }
    switch (options_.synchronous) {
      case SqliteSynchronous::full:
        db_.exec("PRAGMA synchronous = FULL");
        break;
      case SqliteSynchronous::normal:
        db_.exec("PRAGMA synchronous = NORMAL");
        break;
    }
    prepare_sqlite_schema(db_, options_.path);
    sql_ = std::make_unique<Statements>(db_);
    counters_ = std::make_unique<SqliteCounters>(*sql_);
    latest_time_write_ = std::make_unique<SQLite::Statement>(
        db_,
        "INSERT INTO herald_meta(key, value) VALUES ('latest_time', ?1) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    SQLite::Statement latest(
        db_, "SELECT value FROM herald_meta WHERE key = 'latest_time'");
    if (latest.executeStep())
      latest_written_ = std::stoll(latest.getColumn(0).getString());
  } catch (const SQLite::Exception& e) {
    throw Error(fmt::format("database {}: {}", options_.path, e.what()));
  }
}

Instant SqliteBackend::latest_time() {
  std::lock_guard lock(mutex_);
  // A database written before herald_meta kept 'latest_time' still has
  // its log's and dead records' times.
  SQLite::Statement q(db_,
                      "SELECT max(coalesce((SELECT max(emitted_at) FROM log), "
                      "0), coalesce((SELECT max(dead_lettered_at) FROM "
                      "dead_letter), 0), coalesce((SELECT "
                      "max(dead_lettered_at) FROM dead_message), 0))");
  std::int64_t latest = latest_written_;
  if (q.executeStep()) latest = std::max(latest, q.getColumn(0).getInt64());
  return from_stored_time(latest);
}

void SqliteBackend::commit_dedups(
    std::span<const CommitRecord::DedupRecord> dedups, Instant now) {
  // Nothing to encode: the records join no other caller's batch and are
  // applied at once, in one transaction of their own.
  std::vector<CommitRecord> records(dedups.size());
  std::vector<PreparedCommit> prepared;
  prepared.reserve(dedups.size());
  std::vector<PreparedCommit*> batch;
  batch.reserve(dedups.size());
  for (std::size_t i = 0; i < dedups.size(); ++i) {
    records[i].dedup = dedups[i];
    records[i].now = now;
    prepared.push_back(PreparedCommit{&records[i], {}, {}});
    batch.push_back(&prepared.back());
  }
  apply_batch(batch, true);
}

SqliteBackend::~SqliteBackend() {
  std::lock_guard lock(mutex_);
  try {
    for (auto& [context, log] : logs_) log->hold_remaining_truncation();
    if (holding_.empty() && truncating_.empty()) return;
    write_held_now();
  } catch (const std::exception&) {
    // Not written: the next start re-queues those deliveries, and their
    // dedup records absorb them (D6); the next truncation covers this one.
  }
}

}  // namespace herald::sqlite_detail

namespace herald {

std::unique_ptr<Backend> make_sqlite_backend(SqliteBackendOptions options) {
  return std::make_unique<sqlite_detail::SqliteBackend>(std::move(options));
}

}  // namespace herald
