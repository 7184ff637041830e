// The sqlite backend: every store of the seam in one SQLite database file in
// WAL mode (runtime/docs/sqlite-schema.md). One connection, used under one
// lock; every statement is prepared once and bound per use. A commit is one
// SQLite transaction; concurrent commits are grouped into one transaction
// (GroupCommit), and nothing of a batch is applied if any of it throws.
#include <limits>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "file_lock.hpp"
#include "group_commit.hpp"
#include "herald/agent.hpp"
#include "herald/backend.hpp"
#include "herald/errors.hpp"
#include "sqlite_schema.hpp"
#include "stored_entry.hpp"
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

namespace herald {
namespace {

// Resets a prepared statement when its use ends, so it holds no read
// transaction open and is ready for the next bind.
class Use {
 public:
  explicit Use(SQLite::Statement& s) : s_(s) {}
  ~Use() { s_.tryReset(); }
  Use(const Use&) = delete;
  Use& operator=(const Use&) = delete;
  SQLite::Statement* operator->() { return &s_; }

 private:
  SQLite::Statement& s_;
};

std::string text(std::string_view v) { return std::string(v); }

std::optional<std::string> optional_text(const SQLite::Column& c) {
  if (c.isNull()) return std::nullopt;
  return c.getString();
}

std::optional<EventId> optional_id(const SQLite::Column& c) {
  if (c.isNull()) return std::nullopt;
  return EventId::parse(c.getString());
}

EventId id_or_nil(const std::string& s) {
  return EventId::parse(s).value_or(EventId{});
}

void bind_optional_id(SQLite::Statement& s, int index,
                      const std::optional<EventId>& id) {
  if (id) {
    s.bind(index, id->str());
  } else {
    s.bind(index);
  }
}

struct Statements;

// One IMMEDIATE write transaction through the prepared BEGIN, COMMIT and
// ROLLBACK of `Statements` (SQLite::Transaction would compile its statement
// again on every use); rolled back if it ends without commit().
class WriteTransaction {
 public:
  // With synchronous = full, a write that only records how far a consumer
  // got (an acknowledgement, a log truncation) is `deferred`: it skips its
  // own fsync (the connection is at synchronous = normal for it). WAL frames
  // reach the disk in order, so the next durable commit makes it durable
  // too, and a power loss can undo only a suffix of such writes. An
  // acknowledgement undone that way means a redelivery, which meets the
  // delivery's dedup record (written by its own, durable commit) and runs
  // nothing; a truncation undone keeps entries longer.
  enum class Sync { durable, deferred };
  explicit WriteTransaction(Statements& sql, Sync sync = Sync::durable);
  ~WriteTransaction();
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  void commit();

 private:
  void restore_sync();

  Statements& sql_;
  bool open_ = true;
};

// The log row's columns after `position`, in StoredEvent order.
constexpr const char* kEventColumns =
    "event_id, event_type, publisher, sequence, emitted_at, schema_version, "
    "causation_id, correlation_id, depth, payload";

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

struct Statements {
  explicit Statements(SQLite::Database& db);

  SQLite::Statement begin;
  SQLite::Statement commit;
  SQLite::Statement rollback;
  // Pragmas are run, never prepared and kept: SQLite may apply a pragma
  // when it is prepared, not when it is stepped.
  SQLite::Database& db;
  // The connection is at synchronous = normal for a deferred write
  // (WriteTransaction::Sync) and not yet back at full.
  bool sync_deferred = false;
  SQLite::Statement load_state;
  SQLite::Statement write_state;
  SQLite::Statement idempotency_get;
  SQLite::Statement idempotency_put;
  SQLite::Statement supplied_get;
  SQLite::Statement supplied_put;
  SQLite::Statement next_sequence;
  SQLite::Statement next_head;
  SQLite::Statement log_insert;
  SQLite::Statement log_read;
  SQLite::Statement log_head;
  SQLite::Statement log_size;
  SQLite::Statement log_truncate;
  SQLite::Statement subscription_insert;
  SQLite::Statement subscription_get;
  SQLite::Statement subscription_ack;
  SQLite::Statement cursor_get;
  SQLite::Statement cursor_commit;
  SQLite::Statement cursor_ack;
  SQLite::Statement cursor_settle;
  SQLite::Statement attempt_put;
  SQLite::Statement attempt_get;
  SQLite::Statement attempt_delete;
  SQLite::Statement letter_delete;
  SQLite::Statement letter_insert;
  SQLite::Statement letters_all;
  SQLite::Statement letter_find;
  SQLite::Statement letter_mark;
  SQLite::Statement letter_update;
  SQLite::Statement message_insert;
  SQLite::Statement message_delete;
  SQLite::Statement messages_all;
  SQLite::Statement message_get;
  SQLite::Statement message_attempt;
  SQLite::Statement dead_message_insert;
  SQLite::Statement dead_messages_all;
  SQLite::Statement purge_idempotency;
  SQLite::Statement purge_supplied;
};

constexpr const char* kLetterColumns =
    "position, event_id, event_type, publisher, sequence, emitted_at, "
    "schema_version, causation_id, correlation_id, depth, payload, attempts, "
    "last_error, first_attempt_at, last_attempt_at, dead_lettered_at, "
    "redriving";

constexpr const char* kMessageColumns =
    "id, agent_kind, agent_key, handler, args, causation_id, correlation_id, "
    "depth";

Statements::Statements(SQLite::Database& db)
    : begin(db, "BEGIN IMMEDIATE"),
      commit(db, "COMMIT"),
      rollback(db, "ROLLBACK"),
      db(db),
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
      next_sequence(db,
                    "INSERT INTO publisher_sequence(context, publisher, "
                    "sequence) VALUES (?1, ?2, 1) "
                    "ON CONFLICT(context, publisher) DO UPDATE "
                    "SET sequence = sequence + 1 RETURNING sequence"),
      next_head(db,
                "INSERT INTO log_head(context, head) VALUES (?1, 1) "
                "ON CONFLICT(context) DO UPDATE SET head = head + 1 "
                "RETURNING head"),
      log_insert(db, fmt::format("INSERT INTO log(context, position, {}) "
                                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                                 "?10, ?11, ?12)",
                                 kEventColumns)),
      log_read(db, fmt::format("SELECT position, {} FROM log WHERE context = "
                               "?1 AND position > ?2 ORDER BY position "
                               "LIMIT ?3",
                               kEventColumns)),
      log_head(db, "SELECT head FROM log_head WHERE context = ?1"),
      log_size(db, "SELECT count(*) FROM log WHERE context = ?1"),
      // Drops the oldest entries at or below ?2 up to the first one emitted
      // after ?3 (the memory backend's front-first truncation).
      log_truncate(db,
                   "DELETE FROM log WHERE context = ?1 AND position <= ?2 AND "
                   "position < coalesce((SELECT min(position) FROM log WHERE "
                   "context = ?1 AND position <= ?2 AND emitted_at > ?3), "
                   "?2 + 1)"),
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
      letter_delete(db,
                    "DELETE FROM dead_letter WHERE subscription = ?1 AND "
                    "event_id = ?2"),
      letter_insert(
          db,
          "INSERT INTO dead_letter(subscription, event_id, context, position, "
          "event_type, publisher, sequence, emitted_at, schema_version, "
          "causation_id, correlation_id, depth, payload, attempts, "
          "last_error, first_attempt_at, last_attempt_at, dead_lettered_at, "
          "redriving) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
          "?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"),
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
                    "dead_lettered_at = ?7, redriving = ?8 "
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

WriteTransaction::WriteTransaction(Statements& sql, Sync sync) : sql_(sql) {
  switch (sync) {
    case Sync::durable:
      // A deferred write whose restore failed left the connection at
      // normal: a durable commit never runs there.
      if (sql_.sync_deferred) restore_sync();
      break;
    case Sync::deferred:
      sql_.db.exec("PRAGMA synchronous = NORMAL");
      sql_.sync_deferred = true;
      break;
  }
  Use(sql_.begin)->exec();
}

WriteTransaction::~WriteTransaction() {
  if (open_) {
    try {
      Use(sql_.rollback)->exec();
    } catch (const SQLite::Exception&) {
      // The transaction is gone already (SQLite rolled it back itself).
    }
  }
  if (sql_.sync_deferred) {
    try {
      restore_sync();
    } catch (const SQLite::Exception&) {
      // Still marked: the next durable transaction restores it first.
    }
  }
}

void WriteTransaction::commit() {
  Use(sql_.commit)->exec();
  open_ = false;
}

void WriteTransaction::restore_sync() {
  sql_.db.exec("PRAGMA synchronous = FULL");
  sql_.sync_deferred = false;
}

// An agent message row, in kMessageColumns order from column 0. Arguments
// that are not JSON keep their text and the parse error (D9).
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

std::string stored_args(const AgentMessage& m) {
  if (!m.malformed.empty() && m.args.is_string())
    return m.args.get<std::string>();
  return m.args.dump();
}

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

class SqliteBackend;

class SqliteContextLog final : public ContextLog {
 public:
  SqliteContextLog(SqliteBackend& backend, std::string context)
      : backend_(backend), context_(std::move(context)) {}
  const std::string& context() const { return context_; }

  void read(std::int64_t after, std::size_t max,
            std::vector<LogEntryPtr>& out) override;
  std::int64_t head() override;
  std::size_t size() override;
  void truncate(std::int64_t position, Instant retain_until) override;

 private:
  SqliteBackend& backend_;
  std::string context_;
};

class SqliteSubscriptionStore final : public SubscriptionStore {
 public:
  SqliteSubscriptionStore(SqliteBackend& backend, std::string name)
      : backend_(backend), name_(std::move(name)) {}
  const std::string& name() const { return name_; }

  bool recorded(std::string_view publisher, std::int64_t sequence) override;
  std::int64_t acknowledged(std::string_view publisher) override;
  void acknowledge(std::string_view publisher, std::int64_t sequence,
                   std::int64_t position) override;
  std::int64_t start_position(std::string_view context,
                              std::int64_t start_if_new, Instant now) override;
  std::int64_t acked_position() override;
  void record_attempt(std::int64_t position, PendingAttempt attempt) override;
  std::optional<PendingAttempt> pending_attempt(std::int64_t position) override;
  void dead_letter(DeadLetter letter) override;
  std::vector<DeadLetter> dead_letters() override;
  std::optional<DeadLetter> find_dead_letter(const EventId& id) override;
  bool mark_redriving(const EventId& id) override;
  void update_dead_letter(DeadLetter letter) override;

 private:
  SqliteBackend& backend_;
  std::string name_;
};

class SqliteBackend final : public Backend {
 public:
  explicit SqliteBackend(SqliteBackendOptions options);

  std::string_view name() const override { return "sqlite"; }

  ContextLog& context_log(std::string_view context) override {
    std::lock_guard lock(objects_mutex_);
    auto& slot = logs_[std::string(context)];
    if (!slot)
      slot = std::make_unique<SqliteContextLog>(*this, std::string(context));
    return *slot;
  }

  // Transport: the in-process publication; the records are tables of the
  // same database.
  std::unique_ptr<Publication> attach(std::string_view /*context*/,
                                      ContextLog& log, Router& router,
                                      PublicationOptions options) override {
    return make_local_publication(log, router, options);
  }

  SubscriptionStore& subscription_store(
      std::string_view subscription) override {
    std::lock_guard lock(objects_mutex_);
    auto& slot = subscriptions_[std::string(subscription)];
    if (!slot) {
      slot = std::make_unique<SqliteSubscriptionStore>(
          *this, std::string(subscription));
    }
    return *slot;
  }

  std::shared_ptr<const void> load_agent_state(const AgentKindBase& kind,
                                               std::string_view key) override {
    std::int64_t version = 0;
    std::string state;
    {
      std::lock_guard lock(mutex_);
      Use q(sql_->load_state);
      q->bind(1, kind.qualified());
      q->bind(2, text(key));
      if (!q->executeStep()) return nullptr;
      version = q->getColumn(0).getInt64();
      state = q->getColumn(1).getString();
    }
    try {
      return kind.decode_state(nlohmann::json::parse(state), version);
    } catch (const std::exception& e) {
      throw Error(
          fmt::format("{}: stored state of agent {} {} (version {}) "
                      "does not decode: {}",
                      options_.path, kind.qualified(), key, version, e.what()));
    }
  }

  bool idempotency_seen(std::string_view scope, std::string_view key,
                        Instant now) override {
    std::lock_guard lock(mutex_);
    Use q(sql_->idempotency_get);
    q->bind(1, text(scope));
    q->bind(2, text(key));
    return q->executeStep() && q->getColumn(0).getInt64() > to_stored_time(now);
  }

  void commit(CommitRecord& record) override {
    commits_.submit(record, [this](std::vector<CommitRecord*>& batch) {
      apply_batch(batch);
    });
  }

  std::vector<AgentMessage> pending_messages() override {
    std::lock_guard lock(mutex_);
    std::vector<AgentMessage> all;
    Use q(sql_->messages_all);
    while (q->executeStep()) all.push_back(stored_message(sql_->messages_all));
    return all;
  }

  bool message_pending(const MessageId& id) override {
    std::lock_guard lock(mutex_);
    Use q(sql_->message_get);
    q->bind(1, id.str());
    return q->executeStep();
  }

  std::uint32_t message_attempts(const MessageId& id) override {
    std::lock_guard lock(mutex_);
    Use q(sql_->message_get);
    q->bind(1, id.str());
    if (!q->executeStep()) return 0;
    return static_cast<std::uint32_t>(q->getColumn(0).getInt64());
  }

  void record_message_attempt(const MessageId& id,
                              std::uint32_t attempts) override {
    std::lock_guard lock(mutex_);
    Use q(sql_->message_attempt);
    q->bind(1, id.str());
    q->bind(2, attempts);
    q->exec();
  }

  void dead_message(DeadMessage message) override {
    std::lock_guard lock(mutex_);
    WriteTransaction tx(*sql_);
    {
      Use del(sql_->message_delete);
      del->bind(1, message.message.id.str());
      del->exec();
    }
    {
      Use ins(sql_->dead_message_insert);
      bind_message(sql_->dead_message_insert, message.message);
      ins->bind(9, message.attempts);
      ins->bind(10, message.last_error);
      ins->bind(11, to_stored_time(message.dead_lettered_at));
      ins->exec();
    }
    tx.commit();
  }

  std::vector<DeadMessage> dead_messages() override {
    std::lock_guard lock(mutex_);
    std::vector<DeadMessage> all;
    Use q(sql_->dead_messages_all);
    while (q->executeStep()) {
      DeadMessage d;
      d.message = stored_message(sql_->dead_messages_all);
      d.attempts = static_cast<std::uint32_t>(q->getColumn(8).getInt64());
      d.last_error = q->getColumn(9).getString();
      d.dead_lettered_at = from_stored_time(q->getColumn(10).getInt64());
      all.push_back(std::move(d));
    }
    return all;
  }

  std::size_t purge_expired(Instant now) override {
    std::lock_guard lock(mutex_);
    WriteTransaction tx(*sql_);
    std::size_t n = 0;
    for (SQLite::Statement* s :
         {&sql_->purge_idempotency, &sql_->purge_supplied}) {
      Use q(*s);
      q->bind(1, to_stored_time(now));
      n += static_cast<std::size_t>(q->exec());
    }
    tx.commit();
    return n;
  }

  // For the context logs and subscription stores: the connection's
  // statements, used under mutex().
  std::mutex& mutex() { return mutex_; }
  bool full_sync() const {
    return options_.synchronous == SqliteSynchronous::full;
  }
  Statements& sql() { return *sql_; }
  const std::string& path() const { return options_.path; }

 private:
  void apply_batch(std::vector<CommitRecord*>& batch) {
    std::vector<std::size_t> duplicates(batch.size(), 0);
    {
      std::lock_guard lock(mutex_);
      WriteTransaction tx(*sql_);
      for (std::size_t i = 0; i < batch.size(); ++i)
        duplicates[i] = apply(*batch[i]);
      tx.commit();
    }
    // Committed: only now does anything outside the database change.
    for (std::size_t i = 0; i < batch.size(); ++i)
      batch[i]->duplicates = duplicates[i];
  }

  // Applies one record inside the open transaction; returns how many of
  // its emissions were duplicates of a supplied eventId (D6).
  std::size_t apply(CommitRecord& r) {
    if (options_.commit_hook) options_.commit_hook(CommitPoint::before_apply);
    const std::int64_t now = to_stored_time(r.now);
    if (r.state) {
      const AgentKindBase& kind = *r.state->kind;
      Use q(sql_->write_state);
      q->bind(1, text(r.state->agent_kind));
      q->bind(2, text(r.state->key));
      q->bind(3, kind.state_version());
      q->bind(4, kind.encode_state(r.state->state.get()).dump());
      q->bind(5, now);
      q->exec();
    }
    for (const CommitRecord::IdempotencyWrite& w : r.idempotency) {
      Use q(sql_->idempotency_put);
      q->bind(1, text(r.idempotency_scope));
      q->bind(2, w.key);
      q->bind(3, to_stored_time(w.expires_at));
      q->exec();
    }
    if (r.dedup) apply_dedup(*r.dedup);
    if (r.consumed_message) {
      Use q(sql_->message_delete);
      q->bind(1, r.consumed_message->str());
      q->exec();
    }
    for (const AgentMessage& m : r.messages) {
      Use q(sql_->message_insert);
      bind_message(sql_->message_insert, m);
      q->bind(9, now);
      q->exec();
    }
    std::size_t duplicates = 0;
    if (!r.events.empty()) {
      const std::string& context =
          static_cast<SqliteContextLog&>(*r.log).context();
      for (const OutboxEvent& e : r.events) {
        if (!append(context, e, r.now)) ++duplicates;
      }
    }
    if (options_.commit_hook) options_.commit_hook(CommitPoint::after_apply);
    return duplicates;
  }

  void apply_dedup(const CommitRecord::DedupRecord& d) {
    const std::string& sub =
        static_cast<SqliteSubscriptionStore*>(d.store)->name();
    {
      Use q(sql_->cursor_commit);
      q->bind(1, sub);
      q->bind(2, text(d.publisher));
      q->bind(3, d.sequence);
      q->exec();
    }
    {
      Use q(sql_->attempt_delete);
      q->bind(1, sub);
      q->bind(2, d.position);
      q->exec();
    }
    if (d.redrive) {
      Use q(sql_->letter_delete);
      q->bind(1, sub);
      q->bind(2, d.event_id.str());
      q->exec();
    }
  }

  // Stamps and logs one emission as MemoryContextLog::append does; false if
  // its supplied id is already known within the dedup window.
  bool append(const std::string& context, const OutboxEvent& e, Instant at) {
    const std::string id = e.event_id.str();
    const std::int64_t now = to_stored_time(at);
    if (e.supplied_id) {
      {
        Use q(sql_->supplied_get);
        q->bind(1, id);
        if (q->executeStep() && q->getColumn(0).getInt64() > now) return false;
      }
      Use q(sql_->supplied_put);
      q->bind(1, id);
      q->bind(2, to_stored_time(at + options_.dedup_window));
      q->exec();
    }
    std::int64_t sequence = 0;
    {
      Use q(sql_->next_sequence);
      q->bind(1, context);
      q->bind(2, text(e.publisher_id));
      q->executeStep();
      sequence = q->getColumn(0).getInt64();
    }
    std::int64_t position = 0;
    {
      Use q(sql_->next_head);
      q->bind(1, context);
      q->executeStep();
      position = q->getColumn(0).getInt64();
    }
    const EventType& type = *e.entry->type;
    Use q(sql_->log_insert);
    q->bind(1, context);
    q->bind(2, position);
    q->bind(3, id);
    q->bind(4, type.name());
    q->bind(5, text(e.publisher_id));
    q->bind(6, sequence);
    q->bind(7, now);
    q->bind(8, type.schema_version());
    bind_optional_id(sql_->log_insert, 9, e.causation);
    q->bind(10, (e.correlation.is_nil() ? e.event_id : e.correlation).str());
    q->bind(11, e.depth);
    q->bind(12, type.codec().encode(e.entry->payload).dump());
    q->exec();
    return true;
  }

  SqliteBackendOptions options_;
  FileLock lock_;  // taken before the database is opened
  SQLite::Database db_;
  std::mutex mutex_;  // the connection and its statements
  std::unique_ptr<Statements> sql_;
  GroupCommit<CommitRecord> commits_;
  std::mutex objects_mutex_;
  std::map<std::string, std::unique_ptr<SqliteContextLog>, std::less<>> logs_;
  std::map<std::string, std::unique_ptr<SqliteSubscriptionStore>, std::less<>>
      subscriptions_;
};

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

SqliteBackend::SqliteBackend(SqliteBackendOptions options)
    : options_(std::move(options)),
      lock_(options_.path + ".lock", options_.path),
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
  } catch (const SQLite::Exception& e) {
    throw Error(fmt::format("database {}: {}", options_.path, e.what()));
  }
}

// --- the context log -------------------------------------------------------

void SqliteContextLog::read(std::int64_t after, std::size_t max,
                            std::vector<LogEntryPtr>& out) {
  constexpr auto kMax =
      static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
  std::vector<StoredEvent> rows;
  {
    std::lock_guard lock(backend_.mutex());
    SQLite::Statement& s = backend_.sql().log_read;
    Use q(s);
    q->bind(1, context_);
    q->bind(2, after);
    q->bind(3, static_cast<std::int64_t>(std::min(max, kMax)));
    while (q->executeStep())
      rows.push_back(stored_event(s, 1, s.getColumn(0).getInt64()));
  }
  // Decoding runs outside the connection's lock.
  for (StoredEvent& row : rows)
    out.push_back(decode_stored_event(std::move(row)));
}

std::int64_t SqliteContextLog::head() {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().log_head);
  q->bind(1, context_);
  return q->executeStep() ? q->getColumn(0).getInt64() : 0;
}

std::size_t SqliteContextLog::size() {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().log_size);
  q->bind(1, context_);
  q->executeStep();
  return static_cast<std::size_t>(q->getColumn(0).getInt64());
}

void SqliteContextLog::truncate(std::int64_t position, Instant retain_until) {
  std::lock_guard lock(backend_.mutex());
  WriteTransaction tx(backend_.sql(), backend_.full_sync()
                                          ? WriteTransaction::Sync::deferred
                                          : WriteTransaction::Sync::durable);
  {
    Use q(backend_.sql().log_truncate);
    q->bind(1, context_);
    q->bind(2, position);
    q->bind(3, to_stored_time(retain_until));
    q->exec();
  }
  tx.commit();
}

// --- the subscription store ------------------------------------------------

namespace {

DeadLetter stored_letter(SQLite::Statement& s, const std::string& name) {
  DeadLetter letter;
  letter.subscription = name;
  letter.event =
      decode_stored_event(stored_event(s, 1, s.getColumn(0).getInt64()));
  letter.attempts = static_cast<std::uint32_t>(s.getColumn(11).getInt64());
  letter.last_error = s.getColumn(12).getString();
  letter.first_attempt_at = from_stored_time(s.getColumn(13).getInt64());
  letter.last_attempt_at = from_stored_time(s.getColumn(14).getInt64());
  letter.dead_lettered_at = from_stored_time(s.getColumn(15).getInt64());
  letter.redriving = s.getColumn(16).getInt64() != 0;
  return letter;
}

}  // namespace

bool SqliteSubscriptionStore::recorded(std::string_view publisher,
                                       std::int64_t sequence) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().cursor_get);
  q->bind(1, name_);
  q->bind(2, text(publisher));
  return q->executeStep() && sequence <= q->getColumn(0).getInt64();
}

std::int64_t SqliteSubscriptionStore::acknowledged(std::string_view publisher) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().cursor_get);
  q->bind(1, name_);
  q->bind(2, text(publisher));
  return q->executeStep() ? q->getColumn(1).getInt64() : 0;
}

void SqliteSubscriptionStore::acknowledge(std::string_view publisher,
                                          std::int64_t sequence,
                                          std::int64_t position) {
  std::lock_guard lock(backend_.mutex());
  WriteTransaction tx(backend_.sql(), backend_.full_sync()
                                          ? WriteTransaction::Sync::deferred
                                          : WriteTransaction::Sync::durable);
  {
    Use q(backend_.sql().cursor_ack);
    q->bind(1, name_);
    q->bind(2, text(publisher));
    q->bind(3, sequence);
    q->exec();
  }
  {
    Use q(backend_.sql().subscription_ack);
    q->bind(1, name_);
    q->bind(2, position);
    q->exec();
  }
  tx.commit();
}

std::int64_t SqliteSubscriptionStore::start_position(std::string_view context,
                                                     std::int64_t start_if_new,
                                                     Instant now) {
  std::lock_guard lock(backend_.mutex());
  {
    Use q(backend_.sql().subscription_insert);
    q->bind(1, name_);
    q->bind(2, text(context));
    q->bind(3, start_if_new);
    q->bind(4, to_stored_time(now));
    q->exec();
  }
  Use q(backend_.sql().subscription_get);
  q->bind(1, name_);
  q->executeStep();
  return q->getColumn(0).getInt64();
}

std::int64_t SqliteSubscriptionStore::acked_position() {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().subscription_get);
  q->bind(1, name_);
  return q->executeStep() ? q->getColumn(1).getInt64() : 0;
}

void SqliteSubscriptionStore::record_attempt(std::int64_t position,
                                             PendingAttempt attempt) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().attempt_put);
  q->bind(1, name_);
  q->bind(2, position);
  q->bind(3, attempt.attempts);
  q->bind(4, attempt.last_error);
  q->bind(5, to_stored_time(attempt.first_attempt_at));
  q->bind(6, to_stored_time(attempt.retry_at));
  q->exec();
}

std::optional<PendingAttempt> SqliteSubscriptionStore::pending_attempt(
    std::int64_t position) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().attempt_get);
  q->bind(1, name_);
  q->bind(2, position);
  if (!q->executeStep()) return std::nullopt;
  return PendingAttempt{static_cast<std::uint32_t>(q->getColumn(0).getInt64()),
                        q->getColumn(1).getString(),
                        from_stored_time(q->getColumn(2).getInt64()),
                        from_stored_time(q->getColumn(3).getInt64())};
}

void SqliteSubscriptionStore::dead_letter(DeadLetter letter) {
  const LogEntry& entry = *letter.event;
  const EventEnvelope& env = entry.envelope;
  const std::string id = env.eventId.str();
  const std::string payload = stored_payload(entry);
  std::lock_guard lock(backend_.mutex());
  Statements& sql = backend_.sql();
  WriteTransaction tx(backend_.sql());
  {
    Use q(sql.cursor_settle);
    q->bind(1, name_);
    q->bind(2, text(env.publisherId));
    q->bind(3, env.sequence);
    q->exec();
  }
  {
    Use q(sql.subscription_ack);
    q->bind(1, name_);
    q->bind(2, entry.position);
    q->exec();
  }
  {
    Use q(sql.attempt_delete);
    q->bind(1, name_);
    q->bind(2, entry.position);
    q->exec();
  }
  {
    Use q(sql.letter_delete);
    q->bind(1, name_);
    q->bind(2, id);
    q->exec();
  }
  {
    Use q(sql.letter_insert);
    q->bind(1, name_);
    q->bind(2, id);
    q->bind(3, entry.type != nullptr ? entry.type->owner() : std::string());
    q->bind(4, entry.position);
    q->bind(5, text(env.eventType));
    q->bind(6, text(env.publisherId));
    q->bind(7, env.sequence);
    q->bind(8, to_stored_time(env.emittedAt));
    q->bind(9, env.schemaVersion);
    bind_optional_id(sql.letter_insert, 10, env.causationId);
    q->bind(11, env.correlationId.str());
    q->bind(12, env.depth);
    q->bind(13, payload);
    q->bind(14, letter.attempts);
    q->bind(15, letter.last_error);
    q->bind(16, to_stored_time(letter.first_attempt_at));
    q->bind(17, to_stored_time(letter.last_attempt_at));
    q->bind(18, to_stored_time(letter.dead_lettered_at));
    q->bind(19, letter.redriving ? 1 : 0);
    q->exec();
  }
  tx.commit();
}

std::vector<DeadLetter> SqliteSubscriptionStore::dead_letters() {
  std::lock_guard lock(backend_.mutex());
  SQLite::Statement& s = backend_.sql().letters_all;
  Use q(s);
  q->bind(1, name_);
  std::vector<DeadLetter> all;
  while (q->executeStep()) all.push_back(stored_letter(s, name_));
  return all;
}

std::optional<DeadLetter> SqliteSubscriptionStore::find_dead_letter(
    const EventId& id) {
  std::lock_guard lock(backend_.mutex());
  SQLite::Statement& s = backend_.sql().letter_find;
  Use q(s);
  q->bind(1, name_);
  q->bind(2, id.str());
  if (!q->executeStep()) return std::nullopt;
  return stored_letter(s, name_);
}

bool SqliteSubscriptionStore::mark_redriving(const EventId& id) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().letter_mark);
  q->bind(1, name_);
  q->bind(2, id.str());
  return q->exec() > 0;
}

void SqliteSubscriptionStore::update_dead_letter(DeadLetter letter) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().letter_update);
  q->bind(1, name_);
  q->bind(2, letter.event->envelope.eventId.str());
  q->bind(3, letter.attempts);
  q->bind(4, letter.last_error);
  q->bind(5, to_stored_time(letter.first_attempt_at));
  q->bind(6, to_stored_time(letter.last_attempt_at));
  q->bind(7, to_stored_time(letter.dead_lettered_at));
  q->bind(8, letter.redriving ? 1 : 0);
  q->exec();
}

}  // namespace

std::unique_ptr<Backend> make_sqlite_backend(SqliteBackendOptions options) {
  return std::make_unique<SqliteBackend>(std::move(options));
}

}  // namespace herald
