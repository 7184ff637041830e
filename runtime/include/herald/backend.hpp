#pragma once
// The storage seam: a local store (herald/local_store.hpp) and a transport
// (herald/transport.hpp). The memory and sqlite backends implement both in
// one object: their transport records live beside the store (in the same
// SQLite database for sqlite) and they publish in process. A broker
// transport sits beside a local store instead (Runtime's constructor takes
// the two apart).
#include <functional>
#include <memory>
#include <string>

#include "herald/local_store.hpp"
#include "herald/transport.hpp"

namespace herald {

class Backend : public LocalStore, public Transport {};

// A backend whose transport publishes in process: every context's log is
// attached with make_local_publication (the memory and sqlite backends).
class LocalBackend : public Backend {
 public:
  std::unique_ptr<Publication> attach(std::string_view context, ContextLog& log,
                                      Router& router,
                                      PublicationOptions options) override;
};

struct MemoryBackendOptions {
  bool concurrent = true;  // false: one thread only, no locking
  // How long a supplied eventId stays known after it was logged: a
  // re-publish within it is stored once (D6).
  Duration dedup_window = std::chrono::hours(24);
  // Called at each CommitPoint of every commit (tests: throw to crash or
  // fail the commit there).
  std::function<void(CommitPoint)> commit_hook;
};

// Nothing durable beyond the process: a restart is a new Runtime over the
// same backend object, which plays the durable store (tests, the
// conformance suite).
std::unique_ptr<Backend> make_memory_backend(MemoryBackendOptions options);

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

// One SQLite database file in WAL mode (runtime/docs/sqlite-schema.md).
// Throws herald::Error if the file is in use by another process (its lock
// file is held), cannot be opened, or has a schema newer than this build's.
std::unique_ptr<Backend> make_sqlite_backend(SqliteBackendOptions options);

}  // namespace herald
