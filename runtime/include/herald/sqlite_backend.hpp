#pragma once
// The sqlite backend (library herald::runtime_sqlite, package component
// `sqlite`): agent state, the logs, cursors, dedup records, attempts,
// messages and dead letters in one SQLite database in WAL mode
// (runtime/docs/sqlite-schema.md). A program that links the library can
// also name it by configuration alone (backend.kind = sqlite).
#include <functional>
#include <memory>
#include <string>

#include "herald/backend.hpp"

namespace herald {

// How the sqlite backend makes a commit durable (PRAGMA synchronous in WAL
// mode): full survives power loss; normal survives a process crash, and a
// power loss may undo the last commits (never corrupt the database).
enum class SqliteSynchronous { full, normal };

struct SqliteBackendOptions {
  std::string path;  // the database file; `<path>.lock` is its lock file
  SqliteSynchronous synchronous = SqliteSynchronous::full;
  Duration dedup_window = std::chrono::hours(24);
  // Called at each CommitPoint of every commit, inside the SQLite
  // transaction: a throw at either point rolls it back (at after_apply that
  // is a process that stopped before COMMIT returned).
  std::function<void(CommitPoint)> commit_hook;
  // How long a statement waits for SQLite's own locks (another connection
  // checkpointing, a reader of the tool) before it fails as busy.
  Duration busy_timeout = std::chrono::seconds(5);
};

struct RuntimeConfig;
// The options the configuration names (backend.sqlite.*, dedup.window).
SqliteBackendOptions sqlite_backend_options(const RuntimeConfig& config);

// One SQLite database file in WAL mode (runtime/docs/sqlite-schema.md).
// Throws herald::Error if the file is in use by another process (its lock
// file is held), cannot be opened, or has a schema newer than this build's.
std::unique_ptr<Backend> make_sqlite_backend(SqliteBackendOptions options);

}  // namespace herald
