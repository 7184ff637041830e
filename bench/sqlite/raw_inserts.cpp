#include "raw_inserts.hpp"

#include <chrono>
#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include <herald/errors.hpp>
#include <sqlite3.h>

namespace sqlbench {
namespace {

using namespace std::chrono;

struct CloseDb {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct Finalize {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, CloseDb>;
using Stmt = std::unique_ptr<sqlite3_stmt, Finalize>;

[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  throw herald::Error(fmt::format("{}: {}", what, sqlite3_errmsg(db)));
}

Db open(const std::string& path, int flags) {
  sqlite3* handle = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &handle, flags, nullptr);
  Db db(handle);
  if (rc != SQLITE_OK) fail(handle, "cannot open " + path);
  return db;
}

void exec(sqlite3* db, const char* sql) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
    fail(db, sql);
}

Stmt prepare(sqlite3* db, const char* sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, nullptr) !=
      SQLITE_OK)
    fail(db, sql);
  return Stmt(s);
}

// Runs a bound statement to its end and resets it for the next bind.
void run(sqlite3* db, sqlite3_stmt* s) {
  if (sqlite3_step(s) != SQLITE_DONE) fail(db, sqlite3_sql(s));
  sqlite3_reset(s);
}

void bind(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()),
                    SQLITE_TRANSIENT);
}
void bind(sqlite3_stmt* s, int i, std::int64_t v) {
  sqlite3_bind_int64(s, i, v);
}

std::string column_text(sqlite3_stmt* s, int i) {
  const auto* text = sqlite3_column_text(s, i);
  return text == nullptr ? std::string()
                         : std::string(reinterpret_cast<const char*>(text));
}

// Steps a query that must return a row.
void row(sqlite3* db, sqlite3_stmt* s) {
  if (sqlite3_step(s) != SQLITE_ROW)
    fail(db, fmt::format("no row from {}", sqlite3_sql(s)));
}

std::int64_t wall_ns() {
  return duration_cast<nanoseconds>(system_clock::now().time_since_epoch())
      .count();
}

// The template's id with its last 12 hex digits replaced by `n`: a distinct
// id of the same length.
std::string varied_id(const std::string& id, std::int64_t n) {
  return id.substr(0, id.size() - 12) +
         fmt::format("{:012x}", static_cast<std::uint64_t>(n));
}

// The same columns and keys as the backend's tables (sqlite-schema.md);
// `dedup` holds one row per delivery instead of the backend's cursor row
// per (subscription, publisher).
constexpr const char* kSchema = R"sql(
CREATE TABLE log(
  context TEXT NOT NULL, position INTEGER NOT NULL, event_id TEXT NOT NULL,
  event_type TEXT NOT NULL, publisher TEXT NOT NULL,
  sequence INTEGER NOT NULL, emitted_at INTEGER NOT NULL,
  schema_version INTEGER NOT NULL, causation_id TEXT,
  correlation_id TEXT NOT NULL, depth INTEGER NOT NULL,
  payload TEXT NOT NULL,
  PRIMARY KEY (context, position)) WITHOUT ROWID;
CREATE TABLE agent_state(
  kind TEXT NOT NULL, key TEXT NOT NULL, state_version INTEGER NOT NULL,
  state TEXT NOT NULL, updated_at INTEGER NOT NULL,
  PRIMARY KEY (kind, key)) WITHOUT ROWID;
CREATE TABLE dedup(
  subscription TEXT NOT NULL, publisher TEXT NOT NULL,
  sequence INTEGER NOT NULL, position INTEGER NOT NULL,
  PRIMARY KEY (subscription, publisher, sequence)) WITHOUT ROWID;
)sql";

std::int64_t count(sqlite3* db, const char* sql) {
  Stmt s = prepare(db, sql);
  row(db, s.get());
  return sqlite3_column_int64(s.get(), 0);
}

}  // namespace

RowTemplates read_row_templates(const std::string& path) {
  Db db = open(path, SQLITE_OPEN_READONLY);
  RowTemplates t;
  {
    Stmt s = prepare(db.get(),
                     "SELECT context, event_id, event_type, publisher, "
                     "schema_version, causation_id, depth, payload FROM log "
                     "ORDER BY position DESC LIMIT 1");
    row(db.get(), s.get());
    t.context = column_text(s.get(), 0);
    t.event_id = column_text(s.get(), 1);
    t.event_type = column_text(s.get(), 2);
    t.publisher = column_text(s.get(), 3);
    t.schema_version = sqlite3_column_int64(s.get(), 4);
    if (sqlite3_column_type(s.get(), 5) != SQLITE_NULL)
      t.causation_id = column_text(s.get(), 5);
    t.depth = sqlite3_column_int64(s.get(), 6);
    t.payload = column_text(s.get(), 7);
  }
  {
    Stmt s = prepare(db.get(),
                     "SELECT kind, key, state_version, state FROM agent_state");
    row(db.get(), s.get());
    t.agent_kind = column_text(s.get(), 0);
    t.agent_key = column_text(s.get(), 1);
    t.state_version = sqlite3_column_int64(s.get(), 2);
    t.state = column_text(s.get(), 3);
  }
  {
    Stmt s = prepare(db.get(),
                     "SELECT subscription, publisher FROM cursor "
                     "ORDER BY subscription");
    while (sqlite3_step(s.get()) == SQLITE_ROW) {
      t.subscriptions.push_back(column_text(s.get(), 0));
      t.cursor_publisher = column_text(s.get(), 1);
    }
  }
  if (t.event_id.size() < 12 || t.subscriptions.empty())
    throw herald::Error(path + ": no event or no delivery to copy rows from");
  return t;
}

std::string sqlite_version() { return sqlite3_libversion(); }

RawThroughput raw_throughput(const Load& load, const RowTemplates& t,
                             const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm"})
    std::remove((path + suffix).c_str());
  RawThroughput result;
  {
    Db owner = open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    sqlite3* db = owner.get();
    exec(db, "PRAGMA journal_mode = WAL");
    switch (load.synchronous) {
      case herald::SqliteSynchronous::full:
        exec(db, "PRAGMA synchronous = FULL");
        break;
      case herald::SqliteSynchronous::normal:
        exec(db, "PRAGMA synchronous = NORMAL");
        break;
    }
    exec(db, kSchema);
    Stmt begin = prepare(db, "BEGIN IMMEDIATE");
    Stmt commit = prepare(db, "COMMIT");
    Stmt state = prepare(db,
                         "INSERT OR REPLACE INTO agent_state(kind, key, "
                         "state_version, state, updated_at) VALUES (?1, ?2, "
                         "?3, ?4, ?5)");
    Stmt log = prepare(db,
                       "INSERT INTO log(context, position, event_id, "
                       "event_type, publisher, sequence, emitted_at, "
                       "schema_version, causation_id, correlation_id, depth, "
                       "payload) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                       "?10, ?11, ?12)");
    Stmt dedup = prepare(db,
                         "INSERT INTO dedup(subscription, publisher, "
                         "sequence, position) VALUES (?1, ?2, ?3, ?4)");
    const std::size_t subs = load.subscriptions;
    std::int64_t position = 0;
    const auto t0 = steady_clock::now();
    const auto end = t0 + duration<double>(load.seconds);
    while (steady_clock::now() < end) {
      const std::int64_t first = position + 1;
      run(db, begin.get());
      bind(state.get(), 1, t.agent_kind);
      bind(state.get(), 2, t.agent_key);
      bind(state.get(), 3, t.state_version);
      bind(state.get(), 4, t.state);
      bind(state.get(), 5, wall_ns());
      run(db, state.get());
      for (std::int64_t i = 0; i < load.events_per_commit; ++i) {
        ++position;
        const std::string id = varied_id(t.event_id, position);
        bind(log.get(), 1, t.context);
        bind(log.get(), 2, position);
        bind(log.get(), 3, id);
        bind(log.get(), 4, t.event_type);
        bind(log.get(), 5, t.publisher);
        bind(log.get(), 6, position);
        bind(log.get(), 7, wall_ns());
        bind(log.get(), 8, t.schema_version);
        if (t.causation_id) {
          bind(log.get(), 9, *t.causation_id);
        } else {
          sqlite3_bind_null(log.get(), 9);
        }
        bind(log.get(), 10, id);
        bind(log.get(), 11, t.depth);
        bind(log.get(), 12, t.payload);
        run(db, log.get());
      }
      run(db, commit.get());
      ++result.transactions;
      for (std::int64_t p = first; p <= position; ++p) {
        for (std::size_t s = 0; s < subs; ++s) {
          run(db, begin.get());
          bind(dedup.get(), 1, t.subscriptions[s % t.subscriptions.size()]);
          bind(dedup.get(), 2, t.cursor_publisher);
          bind(dedup.get(), 3, p);
          bind(dedup.get(), 4, p);
          run(db, dedup.get());
          run(db, commit.get());
          ++result.transactions;
        }
      }
    }
    const double secs = duration<double>(steady_clock::now() - t0).count();
    result.events = position;
    result.events_per_s = static_cast<double>(position) / secs;
    if (count(db, "SELECT count(*) FROM log") != position ||
        count(db, "SELECT count(*) FROM dedup") !=
            position * static_cast<std::int64_t>(subs))
      throw herald::Error(path + ": the raw inserts did not all commit");
  }
  for (const char* suffix : {"", "-wal", "-shm"})
    std::remove((path + suffix).c_str());
  return result;
}

}  // namespace sqlbench
