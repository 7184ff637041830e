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
    return SQLite::Database(
        o.path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE,
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
  } catch (const SQLite::Exception& e) {
    throw Error(fmt::format("database {}: {}", options_.path, e.what()));
  }
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
