// The memory backend: every store is a plain container behind a lock that
// is real only when the executor is concurrent.
#include <deque>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "herald/agent.hpp"
#include "herald/backend.hpp"
#include "herald/executor.hpp"
#include "herald/ring_queue.hpp"

namespace herald {
namespace {

class MemoryContextLog final : public ContextLog {
 public:
  MemoryContextLog(bool concurrent, std::size_t window)
      : mutex_(concurrent), outbox_mutex_(concurrent), window_(window) {}

  void append_outbox(std::vector<OutboxEvent>& events) override {
    std::lock_guard lock(outbox_mutex_);
    for (OutboxEvent& e : events) outbox_.push_back(std::move(e));
    // Emptied but with its capacity kept, so the caller can reuse it.
    events.clear();
  }

  void take_outbox(std::vector<OutboxEvent>& out, std::size_t max) override {
    std::lock_guard lock(outbox_mutex_);
    for (std::size_t i = 0; i < max && !outbox_.empty(); ++i)
      out.push_back(outbox_.take_front());
  }

  std::size_t outbox_size() override {
    std::lock_guard lock(outbox_mutex_);
    return outbox_.size();
  }

  LogEntryPtr append(OutboxEvent&& event) override {
    std::lock_guard lock(mutex_);
    if (event.supplied_id) {
      if (!ids_.insert(event.event_id).second) return nullptr;
      id_order_.push_back(event.event_id);
      if (id_order_.size() > window_) {
        ids_.erase(id_order_.front());
        id_order_.pop_front();
      }
    }
    LogEntryPtr entry = std::move(event.entry);
    EventEnvelope& env = entry->envelope;
    env.eventId = event.event_id;
    env.eventType = entry->type->name();
    env.publisherId = event.publisher_id;
    env.sequence = ++sequence_of(event.publisher);
    env.emittedAt = event.emitted_at;
    env.schemaVersion = entry->type->schema_version();
    env.causationId = event.causation;
    env.correlationId =
        event.correlation.is_nil() ? event.event_id : event.correlation;
    env.depth = event.depth;
    entry->publisher = event.publisher;
    log_.push_back(entry);
    return entry;
  }

  void truncate() override {
    std::lock_guard lock(mutex_);
    while (!log_.empty() &&
           log_.front()->pending.load(std::memory_order_acquire) == 0)
      log_.pop_front();
  }

  std::vector<LogEntryPtr> entries() override {
    std::lock_guard lock(mutex_);
    std::vector<LogEntryPtr> all;
    all.reserve(log_.size());
    for (std::size_t i = 0; i < log_.size(); ++i) all.push_back(log_[i]);
    return all;
  }

 private:
  ActorMutex mutex_;
  ActorMutex outbox_mutex_;
  std::size_t window_;
  RingQueue<OutboxEvent> outbox_;
  RingQueue<LogEntryPtr> log_;
  std::unordered_set<EventId, EventIdHash> ids_;
  std::deque<EventId> id_order_;
  std::unordered_map<PublisherIndex, std::int64_t> sequences_;
  PublisherIndex last_publisher_ = 0;
  std::int64_t* last_sequence_ = nullptr;

  // A handler's emissions arrive together; remembering the last publisher's
  // counter saves a hash lookup per event (unordered_map nodes never move).
  std::int64_t& sequence_of(PublisherIndex publisher) {
    if (last_sequence_ == nullptr || last_publisher_ != publisher) {
      last_sequence_ = &sequences_[publisher];
      last_publisher_ = publisher;
    }
    return *last_sequence_;
  }
};

// Dedup records are kept per publisher as the highest committed sequence:
// deliveries from one publisher commit in sequence order (D7), so "seq <=
// committed" is exactly the set of recorded eventIds, except those that were
// dead-lettered and not yet re-driven, which are listed apart.
class MemorySubscriptionStore final : public SubscriptionStore {
 public:
  explicit MemorySubscriptionStore(bool concurrent) : mutex_(concurrent) {}

  bool recorded(PublisherIndex publisher, std::int64_t sequence,
                const EventId& id) override {
    std::lock_guard lock(mutex_);
    if (sequence > cursor_of(publisher).committed) return false;
    return dead_ids_.empty() || !dead_ids_.contains(id);
  }

  void record(PublisherIndex publisher, std::int64_t sequence,
              const EventId& id) {
    std::lock_guard lock(mutex_);
    Cursor& c = cursor_of(publisher);
    if (sequence > c.committed) c.committed = sequence;
    if (!dead_ids_.empty()) dead_ids_.erase(id);
  }

  std::int64_t cursor(PublisherIndex publisher) override {
    std::lock_guard lock(mutex_);
    return cursor_of(publisher).acknowledged;
  }

  void acknowledge(PublisherIndex publisher, std::int64_t sequence) override {
    std::lock_guard lock(mutex_);
    Cursor& c = cursor_of(publisher);
    if (sequence > c.acknowledged) c.acknowledged = sequence;
  }

  void dead_letter(DeadLetter letter) override {
    std::lock_guard lock(mutex_);
    const EventEnvelope& env = letter.event->envelope;
    Cursor& c = cursor_of(letter.event->publisher);
    if (env.sequence > c.committed) c.committed = env.sequence;
    if (env.sequence > c.acknowledged) c.acknowledged = env.sequence;
    dead_ids_.insert(env.eventId);
    letters_.push_back(std::move(letter));
  }

  std::vector<DeadLetter> dead_letters() override {
    std::lock_guard lock(mutex_);
    return letters_;
  }

  std::optional<DeadLetter> take_dead_letter(const EventId& id) override {
    std::lock_guard lock(mutex_);
    for (auto it = letters_.begin(); it != letters_.end(); ++it) {
      if (it->event->envelope.eventId == id) {
        DeadLetter letter = std::move(*it);
        letters_.erase(it);
        return letter;
      }
    }
    return std::nullopt;
  }

 private:
  struct Cursor {
    std::int64_t committed = 0;
    std::int64_t acknowledged = 0;
  };

  // Deliveries come in runs from one publisher; remembering the last cursor
  // saves the hash lookups of a delivery's check, record and acknowledgement.
  // (unordered_map nodes never move, so the pointer stays valid.)
  Cursor& cursor_of(PublisherIndex publisher) {
    if (last_ == nullptr || last_publisher_ != publisher) {
      last_ = &cursors_[publisher];
      last_publisher_ = publisher;
    }
    return *last_;
  }

  ActorMutex mutex_;
  std::unordered_map<PublisherIndex, Cursor> cursors_;
  PublisherIndex last_publisher_ = 0;
  Cursor* last_ = nullptr;
  std::unordered_set<EventId, EventIdHash> dead_ids_;
  std::vector<DeadLetter> letters_;
};

class MemoryBackend final : public Backend {
 public:
  explicit MemoryBackend(MemoryBackendOptions options)
      : options_(options), mutex_(options.concurrent) {}

  std::string_view name() const override { return "memory"; }

  ContextLog& context_log(std::string_view context) override {
    std::lock_guard lock(mutex_);
    auto& slot = logs_[std::string(context)];
    if (!slot)
      slot = std::make_unique<MemoryContextLog>(options_.concurrent,
                                                options_.event_id_window);
    return *slot;
  }

  SubscriptionStore& subscription_store(
      std::string_view subscription) override {
    std::lock_guard lock(mutex_);
    auto& slot = subscriptions_[std::string(subscription)];
    if (!slot)
      slot = std::make_unique<MemorySubscriptionStore>(options_.concurrent);
    return *slot;
  }

  std::shared_ptr<const void> load_agent_state(const AgentKindBase& kind,
                                               std::string_view key) override {
    std::lock_guard lock(mutex_);
    auto it = states_.find(state_key(kind.qualified(), key));
    return it == states_.end() ? nullptr : it->second;
  }

  bool idempotency_seen(std::string_view scope, std::string_view key,
                        Instant now) override {
    std::lock_guard lock(mutex_);
    auto it = idempotency_.find(state_key(scope, key));
    return it != idempotency_.end() && it->second > now;
  }

  void commit(CommitRecord& record) override {
    // The state stays the object the handler built, so no codec runs, and
    // record.messages stay volatile: the runtime posts them after this
    // returns. Each part is only ever read by the actor that wrote it (an
    // agent's state by that agent, a dedup record by that subscription), so
    // applying the parts one after the other is atomic for every reader.
    if (record.state) {
      std::lock_guard lock(mutex_);
      states_[state_key(record.state->agent_kind, record.state->key)] =
          std::move(record.state->state);
    }
    if (!record.idempotency.empty()) {
      std::lock_guard lock(mutex_);
      for (auto& w : record.idempotency)
        idempotency_[state_key(record.idempotency_scope, w.key)] = w.expires_at;
    }
    if (record.dedup) {
      auto* store = static_cast<MemorySubscriptionStore*>(record.dedup->store);
      store->record(record.dedup->publisher, record.dedup->sequence,
                    record.dedup->event_id);
    }
    if (!record.outbox.empty()) record.outbox_log->append_outbox(record.outbox);
  }

 private:
  static std::string state_key(std::string_view kind, std::string_view key) {
    std::string k;
    k.reserve(kind.size() + key.size() + 1);
    k.append(kind).push_back('/');
    k.append(key);
    return k;
  }

  MemoryBackendOptions options_;
  ActorMutex mutex_;
  std::map<std::string, std::unique_ptr<MemoryContextLog>, std::less<>> logs_;
  std::map<std::string, std::unique_ptr<MemorySubscriptionStore>, std::less<>>
      subscriptions_;
  std::unordered_map<std::string, std::shared_ptr<const void>> states_;
  std::unordered_map<std::string, Instant> idempotency_;
};

}  // namespace

std::unique_ptr<Backend> make_memory_backend(MemoryBackendOptions options) {
  return std::make_unique<MemoryBackend>(options);
}

}  // namespace herald
