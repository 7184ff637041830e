#include "sqlite_statements.hpp"

#include <nlohmann/json.hpp>

namespace herald::sqlite_detail {

StoredEvent stored_event(SQLite::Statement& s, int first,
                         std::int64_t position) {
  StoredEvent row;
  row.event_id = s.getColumn(first).getString();
  row.event_type = s.getColumn(first + 1).getString();
  row.publisher = s.getColumn(first + 2).getString();
  row.sequence = s.getColumn(first + 3).getInt64();
  row.emitted_at = s.getColumn(first + 4).getInt64();
  row.schema_version = s.getColumn(first + 5).getInt64();
  row.causation_id = optional_text(s.getColumn(first + 6));
  row.correlation_id = s.getColumn(first + 7).getString();
  row.depth = s.getColumn(first + 8).getInt64();
  row.payload = s.getColumn(first + 9).getString();
  row.position = position;
  return row;
}

Statements::Statements(SQLite::Database& db)
    : begin(db, "BEGIN IMMEDIATE"),
      commit(db, "COMMIT"),
      rollback(db, "ROLLBACK"),
      load_state(db,
                 "SELECT state_version, state FROM agent_state "
                 "WHERE kind = ?1 AND key = ?2"),
      write_state(db,
                  "INSERT INTO agent_state(kind, key, state_version, state, "
                  "updated_at) VALUES (?1, ?2, ?3, ?4, ?5) "
                  "ON CONFLICT(kind, key) DO UPDATE SET "
                  "state_version = excluded.state_version, "
                  "state = excluded.state, updated_at = excluded.updated_at"),
      idempotency_get(db,
                      "SELECT expires_at FROM idempotency "
                      "WHERE scope = ?1 AND key = ?2"),
      idempotency_put(db,
                      "INSERT INTO idempotency(scope, key, expires_at) "
                      "VALUES (?1, ?2, ?3) ON CONFLICT(scope, key) DO UPDATE "
                      "SET expires_at = excluded.expires_at"),
      supplied_get(db,
                   "SELECT expires_at FROM supplied_event_id "
                   "WHERE event_id = ?1"),
      supplied_put(db,
                   "INSERT INTO supplied_event_id(event_id, expires_at) "
                   "VALUES (?1, ?2) ON CONFLICT(event_id) DO UPDATE "
                   "SET expires_at = excluded.expires_at"),
      // A sequence and a head: the larger of the floor (kVersion2 in
      // sqlite_schema.cpp) and what the log holds.
      sequence_get(db,
                   "SELECT max(coalesce((SELECT sequence FROM "
                   "publisher_sequence WHERE context = ?1 AND publisher = "
                   "?2), 0), coalesce((SELECT max(sequence) FROM log WHERE "
                   "context = ?1 AND publisher = ?2), 0))"),
      log_insert(db, fmt::format("INSERT INTO log(context, position, {}) "
                                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                                 "?10, ?11, ?12)",
                                 kEventColumns)),
      log_read(db, fmt::format("SELECT position, {} FROM log WHERE context = "
                               "?1 AND position > ?2 ORDER BY position "
                               "LIMIT ?3",
                               kEventColumns)),
      log_head(db,
               "SELECT max(coalesce((SELECT head FROM log_head WHERE context "
               "= ?1), 0), coalesce((SELECT max(position) FROM log WHERE "
               "context = ?1), 0))"),
      log_size(db, "SELECT count(*) FROM log WHERE context = ?1"),
      // The first position a truncation to ?2 keeps: the oldest entry at or
      // below ?2 emitted after ?3 (front-first, as the memory backend's).
      // Positions from ?4 on: the rows below were deleted or are kept for
      // good (SqliteContextLog::write_truncation).
      log_kept(db,
               "SELECT position FROM log WHERE context = ?1 AND position >= "
               "?4 AND position <= ?2 AND emitted_at > ?3 ORDER BY position "
               "LIMIT 1"),
      // The event types of the rows a truncation to ?2 reaches, from ?3 on.
      log_types(db,
                "SELECT DISTINCT event_type FROM log WHERE context = ?1 AND "
                "position >= ?3 AND position < ?2"),
      // Before the entries in [?3, ?2) are deleted: the floors they held.
      head_floor(db,
                 "INSERT INTO log_head(context, head) SELECT context, "
                 "max(position) FROM log WHERE context = ?1 AND position >= "
                 "?3 AND position < ?2 GROUP BY context ON CONFLICT(context) "
                 "DO UPDATE SET head = max(head, excluded.head)"),
      sequence_floor(db,
                     "INSERT INTO publisher_sequence(context, publisher, "
                     "sequence) SELECT context, publisher, max(sequence) FROM "
                     "log WHERE context = ?1 AND position >= ?3 AND position "
                     "< ?2 GROUP BY publisher ON CONFLICT(context, publisher) "
                     "DO UPDATE SET sequence = max(sequence, "
                     "excluded.sequence)"),
      // Every row in [?3, ?2) but those of the event types in the JSON
      // array ?4 (types this build does not know: kept).
      log_delete(db,
                 "DELETE FROM log WHERE context = ?1 AND position >= ?3 AND "
                 "position < ?2 AND event_type NOT IN (SELECT value FROM "
                 "json_each(?4))"),
      meta_get(db, "SELECT value FROM herald_meta WHERE key = ?1"),
      meta_put(db,
               "INSERT INTO herald_meta(key, value) VALUES (?1, ?2) "
               "ON CONFLICT(key) DO UPDATE SET value = excluded.value"),
      meta_delete(db, "DELETE FROM herald_meta WHERE key = ?1"),
      subscription_insert(db,
                          "INSERT INTO subscription(name, context, "
                          "start_position, acked_position, created_at) "
                          "VALUES (?1, ?2, ?3, 0, ?4) "
                          "ON CONFLICT(name) DO NOTHING"),
      subscription_get(db,
                       "SELECT start_position, acked_position FROM "
                       "subscription WHERE name = ?1"),
      subscription_ack(db,
                       "UPDATE subscription SET acked_position = "
                       "max(acked_position, ?2) WHERE name = ?1"),
      cursor_get(db,
                 "SELECT committed, acknowledged FROM cursor "
                 "WHERE subscription = ?1 AND publisher = ?2"),
      cursor_commit(db,
                    "INSERT INTO cursor(subscription, publisher, committed, "
                    "acknowledged) VALUES (?1, ?2, ?3, 0) "
                    "ON CONFLICT(subscription, publisher) DO UPDATE "
                    "SET committed = max(committed, excluded.committed)"),
      cursor_ack(db,
                 "INSERT INTO cursor(subscription, publisher, committed, "
                 "acknowledged) VALUES (?1, ?2, 0, ?3) "
                 "ON CONFLICT(subscription, publisher) DO UPDATE "
                 "SET acknowledged = max(acknowledged, excluded.acknowledged)"),
      cursor_settle(db,
                    "INSERT INTO cursor(subscription, publisher, committed, "
                    "acknowledged) VALUES (?1, ?2, ?3, ?3) "
                    "ON CONFLICT(subscription, publisher) DO UPDATE "
                    "SET committed = max(committed, excluded.committed), "
                    "acknowledged = max(acknowledged, excluded.acknowledged)"),
      attempt_put(db,
                  "INSERT INTO pending_attempt(subscription, position, "
                  "attempts, last_error, first_attempt_at, retry_at) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
                  "ON CONFLICT(subscription, position) DO UPDATE "
                  "SET attempts = excluded.attempts, "
                  "last_error = excluded.last_error, "
                  "first_attempt_at = excluded.first_attempt_at, "
                  "retry_at = excluded.retry_at"),
      attempt_get(db,
                  "SELECT attempts, last_error, first_attempt_at, retry_at "
                  "FROM pending_attempt WHERE subscription = ?1 AND "
                  "position = ?2"),
      attempt_delete(db,
                     "DELETE FROM pending_attempt WHERE subscription = ?1 AND "
                     "position = ?2"),
      attempt_any(db,
                  "SELECT 1 FROM pending_attempt WHERE subscription = ?1 "
                  "LIMIT 1"),
      letter_delete(db,
                    "DELETE FROM dead_letter WHERE subscription = ?1 AND "
                    "event_id = ?2"),
      letter_insert(
          db,
          "INSERT INTO dead_letter(subscription, event_id, context, position, "
          "event_type, publisher, sequence, emitted_at, schema_version, "
          "causation_id, correlation_id, depth, payload, attempts, "
          "last_error, first_attempt_at, last_attempt_at, dead_lettered_at, "
          "redriving, halts) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
          "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)"),
      letters_all(db, fmt::format("SELECT {} FROM dead_letter WHERE "
                                  "subscription = ?1 ORDER BY id",
                                  kLetterColumns)),
      letter_find(db, fmt::format("SELECT {} FROM dead_letter WHERE "
                                  "subscription = ?1 AND event_id = ?2",
                                  kLetterColumns)),
      letter_mark(db,
                  "UPDATE dead_letter SET redriving = 1 WHERE subscription = "
                  "?1 AND event_id = ?2 AND redriving = 0"),
      letter_update(db,
                    "UPDATE dead_letter SET attempts = ?3, last_error = ?4, "
                    "first_attempt_at = ?5, last_attempt_at = ?6, "
                    "dead_lettered_at = ?7, redriving = ?8, halts = ?9 "
                    "WHERE subscription = ?1 AND event_id = ?2"),
      message_insert(db,
                     fmt::format("INSERT INTO agent_message({}, attempts, "
                                 "created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
                                 "?7, ?8, 0, ?9)",
                                 kMessageColumns)),
      message_delete(db, "DELETE FROM agent_message WHERE id = ?1"),
      messages_all(db, fmt::format("SELECT {} FROM agent_message ORDER BY seq",
                                   kMessageColumns)),
      message_get(db, "SELECT attempts FROM agent_message WHERE id = ?1"),
      message_attempt(db,
                      "UPDATE agent_message SET attempts = ?2 WHERE id = ?1"),
      dead_message_insert(
          db, fmt::format("INSERT OR REPLACE INTO dead_message({}, attempts, "
                          "last_error, dead_lettered_at) VALUES (?1, ?2, ?3, "
                          "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                          kMessageColumns)),
      dead_messages_all(db, fmt::format("SELECT {}, attempts, last_error, "
                                        "dead_lettered_at FROM dead_message "
                                        "ORDER BY seq",
                                        kMessageColumns)),
      purge_idempotency(db, "DELETE FROM idempotency WHERE expires_at <= ?1"),
      purge_supplied(db,
                     "DELETE FROM supplied_event_id WHERE expires_at <= ?1") {}

WriteTransaction::WriteTransaction(Statements& sql) : sql_(sql) {
  Use(sql_.begin)->exec();
}

WriteTransaction::~WriteTransaction() {
  if (!open_) return;
  try {
    Use(sql_.rollback)->exec();
  } catch (const SQLite::Exception&) {
    // The transaction is gone already (SQLite rolled it back itself).
  }
}

void WriteTransaction::commit() {
  Use(sql_.commit)->exec();
  open_ = false;
}

AgentMessage stored_message(SQLite::Statement& s) {
  AgentMessage m;
  m.id = id_or_nil(s.getColumn(0).getString());
  m.agent_kind = s.getColumn(1).getString();
  m.key = s.getColumn(2).getString();
  m.handler = s.getColumn(3).getString();
  std::string args = s.getColumn(4).getString();
  try {
    m.args = nlohmann::json::parse(args);
  } catch (const nlohmann::json::exception& e) {
    m.malformed = e.what();
    m.args = std::move(args);
  }
  m.cause.causation = optional_id(s.getColumn(5));
  m.cause.correlation = id_or_nil(s.getColumn(6).getString());
  m.cause.depth = s.getColumn(7).getInt64();
  return m;
}

namespace {
std::string stored_args(const AgentMessage& m) {
  if (!m.malformed.empty() && m.args.is_string())
    return m.args.get<std::string>();
  return m.args.dump();
}
}  // namespace

void bind_message(SQLite::Statement& s, const AgentMessage& m) {
  s.bind(1, m.id.str());
  s.bind(2, m.agent_kind);
  s.bind(3, m.key);
  s.bind(4, m.handler);
  s.bind(5, stored_args(m));
  bind_optional_id(s, 6, m.cause.causation);
  s.bind(7, m.cause.correlation.str());
  s.bind(8, m.cause.depth);
}

}  // namespace herald::sqlite_detail
