#include "sqlite_schema.hpp"

#include <array>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "herald/version.hpp"
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

namespace herald {
namespace {

// Version 0 -> 1: the first layout.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE herald_meta(
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE agent_state(
  kind          TEXT NOT NULL,
  key           TEXT NOT NULL,
  state_version INTEGER NOT NULL,
  state         TEXT NOT NULL,
  updated_at    INTEGER NOT NULL,
  PRIMARY KEY (kind, key)
) WITHOUT ROWID;

CREATE TABLE log(
  context        TEXT NOT NULL,
  position       INTEGER NOT NULL,
  event_id       TEXT NOT NULL,
  event_type     TEXT NOT NULL,
  publisher      TEXT NOT NULL,
  sequence       INTEGER NOT NULL,
  emitted_at     INTEGER NOT NULL,
  schema_version INTEGER NOT NULL,
  causation_id   TEXT,
  correlation_id TEXT NOT NULL,
  depth          INTEGER NOT NULL,
  payload        TEXT NOT NULL,
  PRIMARY KEY (context, position)
) WITHOUT ROWID;
CREATE INDEX log_by_publisher ON log(context, publisher, sequence);
CREATE INDEX log_by_time ON log(context, emitted_at);

CREATE TABLE log_head(
  context TEXT PRIMARY KEY,
  head    INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE publisher_sequence(
  context   TEXT NOT NULL,
  publisher TEXT NOT NULL,
  sequence  INTEGER NOT NULL,
  PRIMARY KEY (context, publisher)
) WITHOUT ROWID;

CREATE TABLE supplied_event_id(
  event_id   TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE subscription(
  name           TEXT PRIMARY KEY,
  context        TEXT NOT NULL,
  start_position INTEGER NOT NULL,
  acked_position INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE cursor(
  subscription TEXT NOT NULL,
  publisher    TEXT NOT NULL,
  committed    INTEGER NOT NULL,
  acknowledged INTEGER NOT NULL,
  PRIMARY KEY (subscription, publisher)
) WITHOUT ROWID;

CREATE TABLE pending_attempt(
  subscription     TEXT NOT NULL,
  position         INTEGER NOT NULL,
  attempts         INTEGER NOT NULL,
  last_error       TEXT NOT NULL,
  first_attempt_at INTEGER NOT NULL,
  retry_at         INTEGER NOT NULL,
  PRIMARY KEY (subscription, position)
) WITHOUT ROWID;

CREATE TABLE dead_letter(
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  subscription     TEXT NOT NULL,
  event_id         TEXT NOT NULL,
  context          TEXT NOT NULL,
  position         INTEGER NOT NULL,
  event_type       TEXT NOT NULL,
  publisher        TEXT NOT NULL,
  sequence         INTEGER NOT NULL,
  emitted_at       INTEGER NOT NULL,
  schema_version   INTEGER NOT NULL,
  causation_id     TEXT,
  correlation_id   TEXT NOT NULL,
  depth            INTEGER NOT NULL,
  payload          TEXT NOT NULL,
  attempts         INTEGER NOT NULL,
  last_error       TEXT NOT NULL,
  first_attempt_at INTEGER NOT NULL,
  last_attempt_at  INTEGER NOT NULL,
  dead_lettered_at INTEGER NOT NULL,
  redriving        INTEGER NOT NULL DEFAULT 0,
  UNIQUE (subscription, event_id)
);

CREATE TABLE idempotency(
  scope      TEXT NOT NULL,
  key        TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;

CREATE TABLE agent_message(
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  id             TEXT NOT NULL UNIQUE,
  agent_kind     TEXT NOT NULL,
  agent_key      TEXT NOT NULL,
  handler        TEXT NOT NULL,
  args           TEXT NOT NULL,
  causation_id   TEXT,
  correlation_id TEXT NOT NULL,
  depth          INTEGER NOT NULL,
  attempts       INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL
);

CREATE TABLE dead_message(
  seq              INTEGER PRIMARY KEY AUTOINCREMENT,
  id               TEXT NOT NULL UNIQUE,
  agent_kind       TEXT NOT NULL,
  agent_key        TEXT NOT NULL,
  handler          TEXT NOT NULL,
  args             TEXT NOT NULL,
  causation_id     TEXT,
  correlation_id   TEXT NOT NULL,
  depth            INTEGER NOT NULL,
  attempts         INTEGER NOT NULL,
  last_error       TEXT NOT NULL,
  dead_lettered_at INTEGER NOT NULL
);
)sql";

// Version 1 -> 2: `log_head` and `publisher_sequence` become floors, written
// when a truncation deletes the entries that held a context's head or a
// publisher's highest sequence (a head is the larger of `log_head.head` and
// the log's highest position; a sequence likewise with the publisher's
// highest logged one), so a commit writes neither; the log is no longer
// indexed by time. A version 1 database's values are exact, so they are
// valid floors as they stand.
constexpr const char* kVersion2 = R"sql(
DROP INDEX log_by_time;
)sql";

// Version 2 -> 3: a dead letter records the policy it was written under
// (`halts`: 1 when its subscription halts its publisher's lane at a dead
// letter); letters of older versions were all written under skip.
constexpr const char* kVersion3 = R"sql(
ALTER TABLE dead_letter ADD COLUMN halts INTEGER NOT NULL DEFAULT 0;
)sql";

// Step i takes user_version i to i + 1. A new layout appends a step; a step
// once released never changes.
constexpr std::array<const char*, 3> kSteps = {kVersion1, kVersion2, kVersion3};

constexpr const char* kTables[] = {
    "herald_meta",        "agent_state",       "log",          "log_head",
    "publisher_sequence", "supplied_event_id", "subscription", "cursor",
    "pending_attempt",    "dead_letter",       "idempotency",  "agent_message",
    "dead_message"};

}  // namespace

std::span<const char* const> sqlite_schema_tables() { return kTables; }

int sqlite_schema_version() { return static_cast<int>(kSteps.size()); }

void prepare_sqlite_schema(SQLite::Database& db, const std::string& path) {
  SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
  const int found = db.execAndGet("PRAGMA user_version").getInt();
  const int known = sqlite_schema_version();
  if (found > known) {
    throw Error(
        fmt::format("{}: database schema version {} is newer than this "
                    "build's {}",
                    path, found, known));
  }
  for (int v = found; v < known; ++v)
    db.exec(kSteps[static_cast<std::size_t>(v)]);
  if (found != known) {
    // PRAGMA takes no bound parameters; `known` is this build's constant.
    db.exec(fmt::format("PRAGMA user_version = {}", known));
  }
  SQLite::Statement meta(db,
                         "INSERT INTO herald_meta(key, value) VALUES "
                         "('runtime_version', ?1) ON CONFLICT(key) DO UPDATE "
                         "SET value = excluded.value");
  meta.bind(1, std::to_string(runtime_version));
  meta.exec();
  tx.commit();
}

}  // namespace herald
