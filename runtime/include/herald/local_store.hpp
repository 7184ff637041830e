#pragma once
// The local-store half of the storage seam: what a handler's commit writes.
// Agent state, each publishing context's log (the log is the outbox: an event
// is stamped with its eventId, per-publisher sequence and log position inside
// the commit that emits it), dedup records, Idempotency keys and pending
// agent messages. Commit is the only durable step; everything else the
// runtime holds (queues, lanes, timers, agent caches) is rebuilt from the
// store by Runtime::recover().
//
// Concurrency: every method may be called from any worker thread;
// implementations lock accordingly. Nothing here is called while a store
// lock of the caller is held.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "herald/agent_message.hpp"
#include "herald/dead_message.hpp"
#include "herald/envelope.hpp"
#include "herald/log_entry.hpp"
#include "herald/transport.hpp"

namespace herald {

class AgentKindBase;

// An emission staged by an invocation (or a host publish), completed into a
// log entry by the commit that carries it.
struct OutboxEvent {
  EventId event_id;
  LogEntryPtr entry;  // type and payload; the commit completes its envelope
  std::string_view publisher_id;  // interned (herald/publisher_ids.hpp)
  std::optional<EventId> causation;
  EventId correlation;  // nil: this event is the root of its cascade
  std::int64_t depth = 0;
  // The id came from outside the runtime (Runtime::publish with an id: an
  // outbox relay, a bridge) and may repeat one already logged (D6).
  bool supplied_id = false;
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

class LocalStore {
 public:
  virtual ~LocalStore() = default;
  virtual std::string_view name() const = 0;

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
  // A delivery whose handler staged nothing commits its dedup record alone
  // (D6), at `now`: the same as commit() of a record holding only `dedup`,
  // which is what this default does. A backend may apply it without
  // building a record; the memory backend does.
  virtual void commit_dedup(const CommitRecord::DedupRecord& dedup,
                            Instant now) {
    CommitRecord record;
    record.dedup = dedup;
    record.now = now;
    commit(record);
  }
  // True if commit_dedups() applies its records in one transaction, all or
  // nothing: a subscription then commits the deliveries of one run whose
  // handlers staged nothing together (group commit). False by default: the
  // memory backend commits each delivery on its own.
  [[nodiscard]] virtual bool commits_dedups_together() const { return false; }
  // The dedup records of several deliveries whose handlers staged nothing,
  // at `now`: the same as commit_dedup() of each, in order. A backend whose
  // commits_dedups_together() is true applies all of them or none (throws
  // then, as commit() does); this default commits each in turn.
  virtual void commit_dedups(std::span<const CommitRecord::DedupRecord> dedups,
                             Instant now) {
    for (const CommitRecord::DedupRecord& d : dedups) commit_dedup(d, now);
  }
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
  // The latest time the store holds: at least the `now` of every commit
  // (what stamps emittedAt) and the time of every dead message (the sqlite
  // backend also reads its dead letters' and log's times); the epoch if it
  // holds none. Recovery floors the executor's clock at it.
  virtual Instant latest_time() = 0;
};

}  // namespace herald
