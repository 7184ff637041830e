#pragma once
// Internal to the sqlite backend: the backend and its two kinds of stores
// (runtime/docs/sqlite-schema.md). One connection, used under one lock.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "file_lock.hpp"
#include "group_commit.hpp"
#include "herald/agent.hpp"
#include "herald/backend.hpp"
#include "herald/errors.hpp"
#include "sqlite_statements.hpp"

namespace herald::sqlite_detail {

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

class SqliteBackend final : public LocalBackend {
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

  // Transport records: tables of the same database (published in process:
  // LocalBackend).
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

}  // namespace herald::sqlite_detail
