#pragma once
// Internal to the sqlite backend: the backend and its two kinds of stores
// (runtime/docs/sqlite-schema.md). One connection, used under one lock.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "file_lock.hpp"
#include "group_commit.hpp"
#include "herald/agent.hpp"
#include "herald/errors.hpp"
#include "herald/ring_queue.hpp"
#include "herald/sqlite_backend.hpp"
#include "herald/wire.hpp"
#include "sqlite_counters.hpp"
#include "sqlite_statements.hpp"

namespace herald::sqlite_detail {

class SqliteBackend;

// An event this process committed, as its log's tail keeps it: the
// publisher's entry (which owns the payload) under the envelope the commit
// stamped.
struct CommittedLogEntry final : LogEntry {
  LogEntryPtr emitted;
  std::string publisher;  // what envelope.publisherId points to
  std::string text;       // the payload's JSON text, as the commit stored it
};

class SqliteContextLog final : public ContextLog {
 public:
  SqliteContextLog(SqliteBackend& backend, std::string context)
      : backend_(backend), context_(std::move(context)) {}
  const std::string& context() const { return context_; }

  // Entries after `after` come from the tail when it reaches back that far
  // (the fan-out, which reads what was just committed), else from the
  // table, decoded (D9).
  void read(std::int64_t after, std::size_t max,
            std::vector<LogEntryPtr>& out) override;
  // As read, for an outbox relay (SqliteTransportStore::read_outbox): every
  // entry as stored, payloads not decoded or encoded again: the rows behind
  // the tail, and the tail's entries this process committed with the text
  // their commit wrote.
  std::size_t read_outbox(std::int64_t after, std::size_t max,
                          std::vector<OutboxEntry>& out);
  std::int64_t head() override;
  std::size_t size() override;
  // Held, and handed to the backend's next commit batch in runs
  // (kTruncateEvery, SqliteBackend::hold).
  void truncate(std::int64_t position, Instant retain_until) override;

  // Under the backend's mutex, once the transaction that logged `entry`
  // committed: an entry this process committed (its payload's text kept),
  // or one appended to a mirror. Never throws: a tail that cannot grow is
  // emptied, and reads go to the table.
  void committed(std::shared_ptr<CommittedLogEntry> entry) noexcept;
  void committed(LogEntryPtr entry) noexcept;

  // Under the backend's mutex: runs the held truncation inside the open
  // transaction; once it committed, drops the same entries from the tail.
  void write_truncation(Statements& sql);
  void truncation_written() noexcept;
  // Under the backend's mutex, when it closes: hands over a truncation
  // asked for and not yet written, however short, and the entries settled
  // since the fan-out last asked (settle_from_tail).
  void hold_remaining_truncation();

  // The time an entry appended now is stamped with: `at`, or the time of
  // the entry before it if that is later. Commits of one log are applied
  // in position order but their handlers read the clock when they started,
  // so on the threaded executor a later position can carry an earlier
  // time; a log's emittedAt never decreases with its positions (replay
  // --from-time reads it as ordered). Under the backend's mutex.
  Instant stamp(Instant at) {
    last_stamp_ = std::max(last_stamp_, at);
    return last_stamp_;
  }

 private:
  Instant last_stamp_{};
  // The newest entries this process committed, at consecutive positions
  // ending at the log's head, at most kTail of them (or none); under the
  // backend's mutex.
  static constexpr std::size_t kTail = 1024;
  // An entry of the tail; `local` is the same entry when this process
  // committed it (null for a mirror's), for read_outbox.
  struct TailEntry {
    LogEntryPtr entry;
    const CommittedLogEntry* local = nullptr;
  };
  void push_tail(TailEntry entry) noexcept;
  RingQueue<TailEntry> tail_;
  SqliteBackend& backend_;
  std::string context_;
  // Under the backend's mutex: the latest truncation asked for (front-first
  // and monotonic, so the latest stands for every earlier one), the last
  // one written, and whether the backend holds this log for its next
  // transaction. A truncation is handed to the backend once it reaches
  // kTruncateEvery positions past the last one written (or when the
  // backend closes), so that a log's rows and index entries are deleted in
  // runs rather than one per delivery: a log keeps at most that many
  // settled entries more than its retention asks.
  static constexpr std::int64_t kTruncateEvery = 64;
  std::int64_t truncate_to_ = 0;
  Instant retain_until_{};
  std::int64_t written_to_ = 0;
  bool held_ = false;
  // Under the backend's mutex: how far every subscription settled the log
  // (the truncation asked for, extended at close over the tail's entries
  // that settled since: the fan-out asks only when it runs), and how far
  // that was written (SqliteBackend::write_settled). It never deletes.
  void settle_from_tail() noexcept;
  std::int64_t settled_to_ = 0;
  std::int64_t settled_written_ = 0;
  // Under the backend's mutex: the rows below scanned_to_ were deleted or
  // are kept for good (of unknown_types_, the event types this build does
  // not know), so a truncation reads and deletes from there on; 0 until
  // this process's first truncation, which reads the whole log.
  // scanning_to_ is the open transaction's, applied once it committed.
  std::int64_t scanned_to_ = 0;
  std::int64_t scanning_to_ = 0;
  std::set<std::string> unknown_types_;
};

class SqliteSubscriptionStore final : public SubscriptionStore {
 public:
  SqliteSubscriptionStore(SqliteBackend& backend, std::string name)
      : backend_(backend), name_(std::move(name)) {}
  const std::string& name() const { return name_; }

  bool recorded(std::string_view publisher, std::int64_t sequence) override;
  std::int64_t acknowledged(std::string_view publisher) override;
  // Held in memory and written by a later commit batch or when the backend
  // closes, not in a transaction of its own: see SqliteBackend::hold.
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

  // Under the backend's mutex: writes the held acknowledgements inside the
  // open transaction; once it committed, forgets them.
  void write_acknowledgements(Statements& sql);
  void acknowledgements_written() noexcept;
  // Under the backend's mutex, inside the open transaction: every entry of
  // `context`'s log at or below `position` is settled for this
  // subscription (delivered, dead-lettered, filtered out or not routed), so
  // its acked_position is raised to it. Only a subscription this process
  // opened in `context` (start_position) is settled: the fan-out that
  // settled the entries routed to it.
  void write_settled(Statements& sql, const std::string& context,
                     std::int64_t position);

 private:
  SqliteBackend& backend_;
  std::string name_;
  // Acknowledged and not yet written: per publisher the highest sequence,
  // and the highest position (under the backend's mutex).
  std::map<std::string, std::int64_t, std::less<>> held_;
  std::int64_t held_position_ = 0;
  // The context it consumes, once start_position named it (under the
  // backend's mutex).
  std::string context_;
};

class SqliteBackend final : public LocalBackend, public SqliteTransportStore {
 public:
  explicit SqliteBackend(SqliteBackendOptions options);
  // Writes what is still held (hold()).
  ~SqliteBackend() override;
  SqliteBackend(const SqliteBackend&) = delete;
  SqliteBackend& operator=(const SqliteBackend&) = delete;

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
    // Before decoding: newer state is refused as such, never as malformed.
    kind.check_state_version(options_.path, key, version);
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
    // Encoded before the record joins a batch: a value that does not encode
    // (a String that is not valid UTF-8) fails this commit alone, never the
    // others sharing its transaction (D4).
    PreparedCommit prepared = prepare(record);
    commits_.submit(prepared, [this](std::vector<PreparedCommit*>& batch) {
      apply_batch(batch);
    });
  }

  // A subscription's group commit: the dedup records of one run's
  // deliveries in one transaction, all or nothing (the commit hook is
  // called for each record, as for a commit of its own).
  [[nodiscard]] bool commits_dedups_together() const override { return true; }
  void commit_dedups(std::span<const CommitRecord::DedupRecord> dedups,
                     Instant now) override;

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

  Instant latest_time() override;

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

  // SqliteTransportStore (sqlite_transport_store.cpp).
  std::int64_t transport_mark(std::string_view name) override;
  void write_transport_mark(std::string_view name, std::int64_t value) override;
  void append_mirrored(ContextLog& log,
                       const std::vector<MirroredEvent>& events,
                       std::string_view name, std::int64_t value) override;
  std::vector<AgentMessage> append_received(std::vector<AgentMessage> messages,
                                            Instant now, Instant remember_until,
                                            std::string_view name,
                                            std::int64_t value) override;
  void remove_carried(const std::vector<MessageId>& ids) override;
  std::size_t read_outbox(ContextLog& log, std::int64_t after, std::size_t max,
                          std::vector<OutboxEntry>& out) override;

  // For the context logs and subscription stores: the connection's
  // statements, used under mutex().
  std::mutex& mutex() { return mutex_; }
  Statements& sql() { return *sql_; }
  const std::string& path() const { return options_.path; }

  // Under mutex(): a record of how far a consumer got, held for a later
  // commit batch's transaction instead of a transaction of its own, so that
  // a delivery costs one transaction, not three: a subscription's
  // acknowledgements (SqliteSubscriptionStore::acknowledge), written by the
  // first batch that finds kAckEvery held, and a context's log truncation,
  // handed over by SqliteContextLog::truncate in runs of kTruncateEvery
  // positions and written by the next batch. Past kHeld acknowledgements
  // held (redeliveries that dedup acknowledges without a commit), and when
  // the backend closes, they are written in a transaction of their own. A
  // crash loses what was held: an acknowledgement lost re-queues its
  // delivery, which meets the dedup record its commit wrote and runs nothing
  // (D6); a truncation lost is asked for again.
  void hold(SqliteSubscriptionStore& store, bool first) {
    if (first) holding_.push_back(&store);
    if (++held_ >= kHeld) write_held_now();
  }
  void hold(SqliteContextLog& log) { truncating_.push_back(&log); }

  // Under mutex(), inside the open transaction: `context`'s entries at or
  // below `position` are settled for every subscription this process
  // routes them to (SqliteSubscriptionStore::write_settled).
  void write_settled(const std::string& context, std::int64_t position) {
    std::lock_guard objects(objects_mutex_);
    for (auto& [name, store] : subscriptions_)
      store->write_settled(*sql_, context, position);
  }

 private:
  static constexpr std::size_t kHeld = 1024;
  static constexpr std::size_t kAckEvery = 64;

  // Under mutex_, inside an open write transaction; and once it committed.
  // A commit batch writes the acknowledgements once kAckEvery are held
  // (`all`: whatever is held); returns whether it wrote them, for
  // held_written.
  bool write_held(bool all) {
    const bool acks = all || held_ >= kAckEvery;
    if (acks) {
      for (SqliteSubscriptionStore* store : holding_)
        store->write_acknowledgements(*sql_);
    }
    for (SqliteContextLog* log : truncating_) log->write_truncation(*sql_);
    return acks;
  }
  void held_written(bool acks) noexcept {
    if (acks) {
      for (SqliteSubscriptionStore* store : holding_)
        store->acknowledgements_written();
      holding_.clear();
      held_ = 0;
    }
    for (SqliteContextLog* log : truncating_) log->truncation_written();
    truncating_.clear();
  }
  void write_held_now() {
    WriteTransaction tx(*sql_);
    write_held(true);
    tx.commit();
    held_written(true);
  }

  // A commit record with the text of what it stores encoded: the agent's
  // state and each emission's payload, in the record's order.
  struct PreparedCommit {
    CommitRecord* record;
    std::string state;
    std::vector<std::string> payloads;
  };

  static PreparedCommit prepare(CommitRecord& r) {
    PreparedCommit p{&r, {}, {}};
    if (r.state) {
      p.state = encoded(
          [&] { return r.state->kind->encode_state(r.state->state.get()); },
          [&] {
            return fmt::format("the state of agent {} {}", r.state->agent_kind,
                               r.state->key);
          });
    }
    p.payloads.reserve(r.events.size());
    for (const OutboxEvent& e : r.events) {
      const EventType& type = *e.entry->type;
      p.payloads.push_back(
          encoded([&] { return type.codec().encode(e.entry->payload); },
                  [&] { return fmt::format("a payload of {}", type.name()); }));
    }
    return p;
  }

  // The JSON text of what `encode` returns. A String that is not valid
  // UTF-8 is an InvalidText naming `what` and its path (a deterministic
  // fault of the committing handler), anything else an Error.
  template <class Encode, class What>
  static std::string encoded(Encode&& encode, What&& what) {
    nlohmann::json j;
    try {
      j = encode();
      return j.dump();
    } catch (const std::exception& e) {
      if (auto at = wire::invalid_text(j)) {
        throw InvalidText(
            fmt::format("{} does not encode: the String at {} is not valid "
                        "UTF-8",
                        what(), *at));
      }
      throw Error(fmt::format("{} does not encode: {}", what(), e.what()));
    }
  }

  // `grouped`: the dedup records of a subscription's group commit
  // (commit_dedups), their cursors and pending attempts written together
  // (write_grouped).
  void apply_batch(std::vector<PreparedCommit*>& batch, bool grouped = false) {
    std::vector<std::size_t> duplicates(batch.size(), 0);
    {
      std::lock_guard lock(mutex_);
      committed_.clear();
      grouped_cursors_.clear();
      grouped_positions_.clear();
      counters_->begin();
      WriteTransaction tx(*sql_);
      std::int64_t latest = latest_written_;
      for (std::size_t i = 0; i < batch.size(); ++i) {
        duplicates[i] = apply(*batch[i], grouped);
        latest = std::max(latest, to_stored_time(batch[i]->record->now));
      }
      if (grouped) write_grouped();
      if (latest > latest_written_) {
        Use q(*latest_time_write_);
        q->bind(1, std::to_string(latest));
        q->exec();
      }
      const bool acks = write_held(false);
      tx.commit();
      latest_written_ = latest;
      counters_->committed();
      held_written(acks);
      for (auto& [log, entry] : committed_) log->committed(std::move(entry));
      committed_.clear();
    }
    // Committed: only now does anything outside the database change.
    for (std::size_t i = 0; i < batch.size(); ++i)
      batch[i]->record->duplicates = duplicates[i];
  }

  // Applies one record inside the open transaction; returns how many of
  // its emissions were duplicates of a supplied eventId (D6).
  std::size_t apply(PreparedCommit& p, bool grouped) {
    CommitRecord& r = *p.record;
    if (options_.commit_hook) options_.commit_hook(CommitPoint::before_apply);
    const std::int64_t now = to_stored_time(r.now);
    if (r.state) {
      const AgentKindBase& kind = *r.state->kind;
      Use q(sql_->write_state);
      q->bind(1, text(r.state->agent_kind));
      q->bind(2, text(r.state->key));
      q->bind(3, kind.state_version());
      q->bind(4, p.state);
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
    if (r.dedup) {
      if (grouped) {
        stage_dedup(*r.dedup);
      } else {
        apply_dedup(*r.dedup);
      }
    }
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
      auto& log = static_cast<SqliteContextLog&>(*r.log);
      for (std::size_t i = 0; i < r.events.size(); ++i) {
        if (!append(log, r.events[i], p.payloads[i], r.now)) ++duplicates;
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

  // A dedup record of a group commit: its cursor's highest sequence and its
  // position kept for write_grouped; a redrive's dead letter deleted now.
  void stage_dedup(const CommitRecord::DedupRecord& d) {
    auto* store = static_cast<SqliteSubscriptionStore*>(d.store);
    grouped_positions_.emplace_back(store, d.position);
    if (d.redrive) {
      Use q(sql_->letter_delete);
      q->bind(1, store->name());
      q->bind(2, d.event_id.str());
      q->exec();
    }
    for (GroupedCursor& c : grouped_cursors_) {
      if (c.store == store && c.publisher == d.publisher) {
        c.sequence = std::max(c.sequence, d.sequence);
        return;
      }
    }
    grouped_cursors_.push_back(GroupedCursor{store, d.publisher, d.sequence});
  }

  // The staged records of a group commit, inside its transaction: what
  // apply_dedup writes for each, with one cursor write per subscription and
  // publisher (its highest sequence: the write keeps the larger anyway),
  // and the deliveries' pending attempts deleted only when the subscription
  // has any (most groups retried nothing).
  void write_grouped() {
    for (const GroupedCursor& c : grouped_cursors_) {
      Use q(sql_->cursor_commit);
      q->bind(1, c.store->name());
      q->bind(2, text(c.publisher));
      q->bind(3, c.sequence);
      q->exec();
    }
    const SqliteSubscriptionStore* probed = nullptr;
    bool any = false;
    for (const auto& [store, position] : grouped_positions_) {
      if (store != probed) {
        probed = store;
        Use q(sql_->attempt_any);
        q->bind(1, store->name());
        any = q->executeStep();
      }
      if (!any) continue;
      Use q(sql_->attempt_delete);
      q->bind(1, store->name());
      q->bind(2, position);
      q->exec();
    }
  }

  // Stamps and logs one emission as MemoryContextLog::append does; false if
  // its supplied id is already known within the dedup window. The payload's
  // text moves to the entry the log's tail keeps (an outbox relay publishes
  // it as stored).
  bool append(SqliteContextLog& log, const OutboxEvent& e, std::string& payload,
              Instant at) {
    const std::string& context = log.context();
    const std::string id = e.event_id.str();
    at = log.stamp(at);
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
    const std::int64_t sequence =
        counters_->next_sequence(context, e.publisher_id);
    const std::int64_t position = counters_->next_position(context);
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
    q->bind(12, payload);
    q->exec();
    // The entry as the log's tail will keep it once this commits.
    auto entry = std::make_shared<CommittedLogEntry>();
    entry->emitted = e.entry;
    entry->publisher = text(e.publisher_id);
    entry->type = &type;
    entry->payload = e.entry->payload;
    entry->text = std::move(payload);
    entry->position = position;
    EventEnvelope& env = entry->envelope;
    env.eventId = e.event_id;
    env.eventType = type.name();
    env.publisherId = entry->publisher;
    env.sequence = sequence;
    env.emittedAt = at;
    env.schemaVersion = type.schema_version();
    env.causationId = e.causation;
    env.correlationId = e.correlation.is_nil() ? e.event_id : e.correlation;
    env.depth = e.depth;
    committed_.emplace_back(&log, std::move(entry));
    return true;
  }

  SqliteBackendOptions options_;
  FileLock lock_;  // taken before the database is opened
  SQLite::Database db_;
  std::mutex mutex_;  // the connection and its statements
  std::unique_ptr<Statements> sql_;
  std::unique_ptr<SqliteCounters> counters_;  // over sql_
  GroupCommit<PreparedCommit> commits_;
  std::mutex objects_mutex_;
  std::map<std::string, std::unique_ptr<SqliteContextLog>, std::less<>> logs_;
  std::map<std::string, std::unique_ptr<SqliteSubscriptionStore>, std::less<>>
      subscriptions_;
  // Under mutex_: the entries the open commit batch logs, for their logs'
  // tails once it committed; the stores holding acknowledgements and how
  // many they hold; the logs holding a truncation.
  std::vector<std::pair<SqliteContextLog*, std::shared_ptr<CommittedLogEntry>>>
      committed_;
  // Under mutex_: what a group commit staged (stage_dedup).
  struct GroupedCursor {
    const SqliteSubscriptionStore* store;
    std::string_view publisher;
    std::int64_t sequence;
  };
  std::vector<GroupedCursor> grouped_cursors_;
  std::vector<std::pair<const SqliteSubscriptionStore*, std::int64_t>>
      grouped_positions_;
  std::vector<SqliteSubscriptionStore*> holding_;
  std::size_t held_ = 0;
  std::vector<SqliteContextLog*> truncating_;
  // Under mutex_: the latest commit time herald_meta holds ('latest_time',
  // written by a batch whose commits are later), and the statement that
  // writes it.
  std::int64_t latest_written_ = 0;
  std::unique_ptr<SQLite::Statement> latest_time_write_;
};

}  // namespace herald::sqlite_detail
