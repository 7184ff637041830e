#pragma once
// The storage seam, in two halves.
//
// The local store keeps what a handler's commit writes: agent state, each
// publishing context's log (the log is the outbox: an event is stamped with
// its eventId, per-publisher sequence and log position inside the commit
// that emits it), dedup records, Idempotency keys and pending agent
// messages. Commit is the only durable step; everything else the runtime
// holds (queues, lanes, timers, agent caches) is rebuilt from the store by
// Runtime::recover().
//
// The transport moves logged events to subscriptions and keeps what a
// consumer acknowledges: per (subscription, publisher) the highest sequence
// acknowledged (ack), the attempts of a delivery that faulted (nak) and the
// dead letters (term). In the memory backend the fan-out actors and
// subscription queues are the transport's moving part and the memory
// backend holds its records; a broker transport keeps them in the broker.
//
// Publisher ids are strings everywhere the seam stores them: a restarted
// runtime must find the same cursors and sequences.
//
// Concurrency: every method may be called from any worker thread;
// implementations lock accordingly. Nothing here is called while a store
// lock of the caller is held.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "herald/agent_message.hpp"
#include "herald/envelope.hpp"
#include "herald/event_type.hpp"
#include "herald/log_entry.hpp"

namespace herald {

class AgentKindBase;

// An emission staged by an invocation (or a host publish), completed into a
// log entry by the commit that carries it.
struct OutboxEvent {
  EventId event_id;
  LogEntryPtr entry;  // type and payload; the commit completes its envelope
  std::string_view publisher_id;
  std::optional<EventId> causation;
  EventId correlation;  // nil: this event is the root of its cascade
  std::int64_t depth = 0;
  // The id came from outside the runtime (Runtime::publish with an id: an
  // outbox relay, a bridge) and may repeat one already logged (D6).
  bool supplied_id = false;
};

struct DeadLetter {
  std::string subscription;
  LogEntryPtr event;  // envelope and payload, kept for inspection and re-drive
  std::uint32_t attempts = 0;
  std::string last_error;
  Instant first_attempt_at{};
  Instant last_attempt_at{};
  Instant dead_lettered_at{};
  // A re-drive was asked for and has not committed yet: the letter stays
  // until the re-driven delivery commits (the commit removes it), so a crash
  // in between re-drives it again after the restart.
  bool redriving = false;
};

// A delivery that faulted and waits for its next attempt (nak).
struct PendingAttempt {
  std::uint32_t attempts = 0;  // made so far
  std::string last_error;
  Instant first_attempt_at{};
  Instant retry_at{};
};

// An agent message that faulted on its last attempt.
struct DeadMessage {
  AgentMessage message;
  std::uint32_t attempts = 0;
  std::string last_error;
  Instant dead_lettered_at{};
};

// Each publishing context's log: positions are gap-free from 1, in commit
// order; entries below the first retained position were truncated.
class ContextLog {
 public:
  virtual ~ContextLog() = default;
  // Appends up to `max` entries with a position above `after` to `out`.
  virtual void read(std::int64_t after, std::size_t max,
                    std::vector<LogEntryPtr>& out) = 0;
  // Position of the last entry; 0 while the log is empty.
  virtual std::int64_t head() = 0;
  // Entries retained (not yet truncated).
  virtual std::size_t size() = 0;
  // Drops the entries at or below `position` emitted at or before
  // `retain_until` (now minus the configured retention).
  virtual void truncate(std::int64_t position, Instant retain_until) = 0;
};

// The transport's records for one subscription.
class SubscriptionStore {
 public:
  virtual ~SubscriptionStore() = default;
  // D6: has a delivery of this event committed here? Exact: deliveries of
  // one publisher commit in sequence order (D7).
  virtual bool recorded(std::string_view publisher, std::int64_t sequence) = 0;
  // Where the subscription starts in its publishing context's log: entries
  // at or below this position are never delivered to it. The first call in
  // a store that has never seen the subscription records `context` and
  // `start_if_new` (at `now`); every later call returns what was recorded.
  virtual std::int64_t start_position(std::string_view context,
                                      std::int64_t start_if_new,
                                      Instant now) = 0;
  // Highest sequence of `publisher` acknowledged (delivered, deduplicated or
  // dead-lettered) here; 0 if none.
  virtual std::int64_t acknowledged(std::string_view publisher) = 0;
  // `position`: the entry's log position, kept as the highest acknowledged.
  virtual void acknowledge(std::string_view publisher, std::int64_t sequence,
                           std::int64_t position) = 0;
  // Highest log position acknowledged or dead-lettered here; 0 if none.
  virtual std::int64_t acked_position() = 0;
  // nak: the attempt of the delivery at `position` faulted.
  virtual void record_attempt(std::int64_t position,
                              PendingAttempt attempt) = 0;
  virtual std::optional<PendingAttempt> pending_attempt(
      std::int64_t position) = 0;
  // term: records the dead letter, settles its sequence and clears its
  // pending attempt.
  virtual void dead_letter(DeadLetter letter) = 0;
  // Oldest first.
  virtual std::vector<DeadLetter> dead_letters() = 0;
  virtual std::optional<DeadLetter> find_dead_letter(const EventId& id) = 0;
  // Marks the letter as being re-driven; false if there is none (or it is
  // already being re-driven).
  virtual bool mark_redriving(const EventId& id) = 0;
  // Clears the mark of a re-drive that faulted again (its new attempts
  // went back to the letter).
  virtual void update_dead_letter(DeadLetter letter) = 0;
};

// One atomic unit: a handler's effects and, for a delivery, its dedup record
// (D1, D6). Backend::commit applies all of it or nothing.
struct CommitRecord {
  struct StateWrite {
    // The kind encodes the state for a backend that stores it encoded
    // (AgentKindBase::encode_state, state_version); the memory backend keeps
    // the immutable value itself.
    const AgentKindBase* kind = nullptr;
    std::string_view agent_kind;  // kind->qualified()
    std::string_view key;
    std::shared_ptr<const void> state;
  };
  struct DedupRecord {
    SubscriptionStore* store;
    std::string_view publisher;
    std::int64_t sequence;
    std::int64_t position;
    EventId event_id;
    bool redrive = false;  // removes the dead letter of event_id
  };
  struct IdempotencyWrite {
    std::string key;
    Instant expires_at;
  };

  std::optional<StateWrite> state;
  std::optional<DedupRecord> dedup;
  // The pending agent message this invocation ran (removed, and its id
  // recorded for the agent's dedup).
  std::optional<MessageId> consumed_message;
  std::string_view idempotency_scope;
  std::vector<IdempotencyWrite> idempotency;
  // Emissions, stamped by commit: eventId kept, sequence and log position
  // assigned, emittedAt = `now`.
  ContextLog* log = nullptr;
  std::vector<OutboxEvent> events;
  Instant now{};
  // One-way agent messages the invocation sent, in send order, with their
  // ids: stored as pending until the receiving agent's commit consumes them.
  std::vector<AgentMessage> messages;

  // Set by commit: emissions dropped because their supplied eventId was
  // already logged (D6).
  std::size_t duplicates = 0;
};

// Where a test injects a crash or a failure into a commit.
enum class CommitPoint {
  before_apply,  // nothing of the record is applied yet
  after_apply,   // all of it is applied, commit has not returned
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;

  // Local store.
  virtual ContextLog& context_log(std::string_view context) = 0;
  // nullptr if the agent has no committed state yet. A backend that stores
  // encoded state decodes it with kind.decode_state.
  virtual std::shared_ptr<const void> load_agent_state(
      const AgentKindBase& kind, std::string_view key) = 0;
  virtual bool idempotency_seen(std::string_view scope, std::string_view key,
                                Instant now) = 0;
  // May throw: nothing of the record is applied then (a retryable fault).
  // On return the record's events are logged and its messages pending.
  virtual void commit(CommitRecord& record) = 0;
  // Messages committed and not yet consumed, in commit order.
  virtual std::vector<AgentMessage> pending_messages() = 0;
  // False once a commit consumed the message (or it was dead-lettered): a
  // second copy of it is not run (the agent's dedup by message id).
  virtual bool message_pending(const MessageId& id) = 0;
  // A message that faulted: its attempts so far (0 if none recorded).
  virtual std::uint32_t message_attempts(const MessageId& id) = 0;
  virtual void record_message_attempt(const MessageId& id,
                                      std::uint32_t attempts) = 0;
  // Removes the pending message and keeps it as dead.
  virtual void dead_message(DeadMessage message) = 0;
  virtual std::vector<DeadMessage> dead_messages() = 0;
  // Drops expired Idempotency keys and dedup ids; returns how many.
  virtual std::size_t purge_expired(Instant now) = 0;

  // Transport.
  virtual SubscriptionStore& subscription_store(
      std::string_view subscription) = 0;
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
