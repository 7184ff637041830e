#pragma once
// The sqlite backend (library herald::runtime_sqlite, package component
// `sqlite`): agent state, the logs, cursors, dedup records, attempts,
// messages and dead letters in one SQLite database in WAL mode
// (runtime/docs/sqlite-schema.md). A program that links the library can
// also name it by configuration alone (backend.kind = sqlite).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "herald/backend.hpp"
#include "herald/log_entry.hpp"

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
  // Holds SQLite's locks on the database file from the first transaction
  // until the backend closes (PRAGMA locking_mode = EXCLUSIVE, set before
  // WAL mode: the WAL index is in the process's memory, no `-shm` file),
  // instead of taking and releasing them around every transaction: a
  // commit then costs no file-lock system calls. No other connection can
  // read or write the file while the backend is open (Herald's own
  // processes are kept out by the lock file either way). The nats
  // backend's local store is opened so.
  bool exclusive = false;
};

struct RuntimeConfig;
// The options the configuration names (backend.sqlite.*, dedup.window).
SqliteBackendOptions sqlite_backend_options(const RuntimeConfig& config);

// One SQLite database file in WAL mode (runtime/docs/sqlite-schema.md).
// Throws herald::Error if the file is in use by another process (its lock
// file is held), cannot be opened, or has a schema newer than this build's.
// The backend is also a SqliteTransportStore (below).
std::unique_ptr<Backend> make_sqlite_backend(SqliteBackendOptions options);

// An event of a log another process keeps, as a transport received it:
// its envelope and its payload's JSON text.
struct MirroredEvent {
  EventId event_id;
  std::string event_type;  // qualified name
  std::string publisher;
  std::int64_t sequence = 0;
  Instant emitted_at{};
  std::int64_t schema_version = 1;
  std::optional<EventId> causation;
  EventId correlation;
  std::int64_t depth = 0;
  std::string payload;
};

// An entry of a log this store keeps for a context it hosts, as an outbox
// relay publishes it: as stored, its payload the JSON text its commit wrote
// (not decoded and encoded again: a payload that does not decode is
// published as it is, and the receiving process dead-letters it, D9),
// whether the entry is still in memory (committed by this process) or only
// in the table; an entry in memory without that text, the entry itself,
// its payload typed.
struct OutboxEntry {
  LogEntryPtr entry;     // in memory without its text; else null
  MirroredEvent stored;  // as stored: envelope and payload text
  // A row read back whose event type this build knows and whose ids are
  // ids: false leaves it in this store only, as an entry in memory of no
  // known type or payload is.
  bool publishable = false;
  std::int64_t position = 0;
};

// What a transport over a sqlite local store (the nats backend) keeps in
// the same database: its marks (how far it relayed a log, how far it
// ingested a stream), each a named integer in herald_meta
// ('transport.<name>'), and the mirrors of other processes' logs.
class SqliteTransportStore {
 public:
  virtual ~SqliteTransportStore() = default;
  // 0 if the mark was never written.
  virtual std::int64_t transport_mark(std::string_view name) = 0;
  virtual void write_transport_mark(std::string_view name,
                                    std::int64_t value) = 0;
  // Appends `events` to `log` (this store's mirror of another process's
  // log: envelopes kept, positions assigned here in order) and writes the
  // mark `name` = `value`, in one transaction.
  virtual void append_mirrored(ContextLog& log,
                               const std::vector<MirroredEvent>& events,
                               std::string_view name, std::int64_t value) = 0;
  // The entries of `log` (this store's log of a context it hosts) after
  // position `after`, at most `max`, in log order, into out[0, n) (the
  // elements already in `out` are reused, their strings' buffers kept);
  // returns n.
  virtual std::size_t read_outbox(ContextLog& log, std::int64_t after,
                                  std::size_t max,
                                  std::vector<OutboxEntry>& out) = 0;
  // Adds `messages` (sent by other processes to agents this store holds,
  // in their order) to the pending agent messages and writes the mark
  // `name` = `value`, in one transaction. A message whose id is pending
  // here, or was received here before and is remembered (until
  // `remember_until`), is left out. Returns the messages added.
  virtual std::vector<AgentMessage> append_received(
      std::vector<AgentMessage> messages, Instant now, Instant remember_until,
      std::string_view name, std::int64_t value) = 0;
  // Removes the pending messages `ids` (carried to the process that hosts
  // their agents), in one transaction.
  virtual void remove_carried(const std::vector<MessageId>& ids) = 0;
};

// The SqliteTransportStore of a backend make_sqlite_backend returned.
SqliteTransportStore& sqlite_transport_store(Backend& sqlite);

}  // namespace herald
