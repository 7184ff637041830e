#pragma once
// The storage seam. Everything the delivery contract must keep lives behind
// it: agent state, each publishing context's outbox and log, each
// subscription's cursor, dedup records and dead letters, and the Idempotency
// keys. The delivery logic (fan-out, subscriptions, agents) talks only to
// these interfaces, so a durable backend replaces the memory one without
// touching it.
//
// Concurrency: a ContextLog is used by its context's fan-out actor and by
// committing handlers; a SubscriptionStore by its subscription actor and by
// the host's dead-letter calls. Implementations lock accordingly.
#include <atomic>
#include <cstdint>
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

// A committed event not yet in its publisher's log. eventId is minted at
// commit so that re-publishing the entry (an outbox relay retrying after a
// crash) carries the same id and is stored once.
struct OutboxEvent {
  EventId event_id;
  LogEntryPtr entry;  // type and payload; the log completes its envelope
  PublisherIndex publisher = 0;
  std::string_view publisher_id;  // interned by the runtime, stable
  Instant emitted_at{};
  std::optional<EventId> causation;
  EventId correlation;  // nil: this event is the root of its cascade
  std::int64_t depth = 0;
  // The id came from outside the runtime (Runtime::publish with an id: an
  // outbox relay, a bridge) and may repeat one already logged.
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
};

class ContextLog {
 public:
  virtual ~ContextLog() = default;
  // Outbox: committed events of this publishing context, in commit order.
  virtual void append_outbox(std::vector<OutboxEvent>& events) = 0;
  // Moves up to `max` outbox events into `out`, oldest first.
  virtual void take_outbox(std::vector<OutboxEvent>& out, std::size_t max) = 0;
  virtual std::size_t outbox_size() = 0;
  // Appends to the log, completing the envelope with the publisher's next
  // gap-free sequence. Returns nullptr if the eventId is already logged (D6).
  // Ids minted at commit are fresh 122-bit random values handed over by the
  // outbox exactly once, so only supplied ids need the duplicate check.
  virtual LogEntryPtr append(OutboxEvent&& event) = 0;
  // Drops the prefix of the log no subscription needs any more.
  virtual void truncate() = 0;
  // The retained log in append order (recovery re-drives from it).
  virtual std::vector<LogEntryPtr> entries() = 0;
};

class SubscriptionStore {
 public:
  virtual ~SubscriptionStore() = default;
  // D6: has a delivery of this event committed here?
  virtual bool recorded(PublisherIndex publisher, std::int64_t sequence,
                        const EventId& id) = 0;
  // Highest sequence of `publisher` acknowledged (delivered, deduplicated or
  // dead-lettered) here; 0 if none.
  virtual std::int64_t cursor(PublisherIndex publisher) = 0;
  virtual void acknowledge(PublisherIndex publisher, std::int64_t sequence) = 0;
  // Records the dead letter and moves the cursor past it.
  virtual void dead_letter(DeadLetter letter) = 0;
  virtual std::vector<DeadLetter> dead_letters() = 0;
  // Removes and returns the dead letter for `id`, for a re-drive.
  virtual std::optional<DeadLetter> take_dead_letter(const EventId& id) = 0;
};

// One atomic unit: a handler's effects and, for a delivery, its dedup record
// (D1, D6).
struct CommitRecord {
  struct StateWrite {
    // The kind encodes the state for a backend that stores it as JSON
    // (AgentKindBase::encode_state, state_version).
    const AgentKindBase* kind = nullptr;
    std::string_view agent_kind;  // kind->qualified()
    std::string_view key;
    std::shared_ptr<const void> state;
  };
  struct DedupRecord {
    SubscriptionStore* store;
    PublisherIndex publisher;
    std::int64_t sequence;
    EventId event_id;
  };
  struct IdempotencyWrite {
    std::string key;
    Instant expires_at;
  };

  std::optional<StateWrite> state;
  std::optional<DedupRecord> dedup;
  std::string_view idempotency_scope;
  std::vector<IdempotencyWrite> idempotency;
  ContextLog* outbox_log = nullptr;
  std::vector<OutboxEvent> outbox;
  // One-way agent messages the invocation sent, in send order. commit()
  // leaves them in place: the runtime posts them to their agents' mailboxes
  // once commit returns. A durable backend stores them in the same write, so
  // that a restart can post those not yet run; the memory backend does not.
  std::vector<AgentMessage> messages;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  virtual ContextLog& context_log(std::string_view context) = 0;
  virtual SubscriptionStore& subscription_store(
      std::string_view subscription) = 0;
  // nullptr if the agent has no committed state yet. A backend that stores
  // JSON decodes it with kind.decode_state.
  virtual std::shared_ptr<const void> load_agent_state(
      const AgentKindBase& kind, std::string_view key) = 0;
  virtual bool idempotency_seen(std::string_view scope, std::string_view key,
                                Instant now) = 0;
  virtual void commit(CommitRecord& record) = 0;
};

struct MemoryBackendOptions {
  bool concurrent = true;  // false: one thread only, no locking
  std::size_t event_id_window = 1 << 16;
};

// Nothing durable. Under the deterministic executor's simulated crash it
// plays the durable store: it keeps everything while the runtime's volatile
// state (queues, timers, agent caches and mailboxes) is dropped.
std::unique_ptr<Backend> make_memory_backend(MemoryBackendOptions options);

}  // namespace herald
