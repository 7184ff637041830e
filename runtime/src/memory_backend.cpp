// The memory backend: every store is a plain container behind a lock that
// is real only when the executor is concurrent. It outlives the runtimes
// that use it, so a restart (a new Runtime over the same backend) finds
// everything a commit wrote.
#include <algorithm>
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

std::string joined_key(std::string_view kind, std::string_view key) {
  std::string k;
  k.reserve(kind.size() + key.size() + 1);
  k.append(kind).push_back('/');
  k.append(key);
  return k;
}

class MemoryContextLog final : public ContextLog {
 public:
  MemoryContextLog(bool concurrent, Duration dedup_window)
      : mutex_(concurrent), dedup_window_(dedup_window) {}

  void read(std::int64_t after, std::size_t max,
            std::vector<LogEntryPtr>& out) override {
    std::lock_guard lock(mutex_);
    std::int64_t from = std::max(after + 1, first_);
    for (std::int64_t p = from; p <= head_ && max > 0; ++p, --max)
      out.push_back(log_[static_cast<std::size_t>(p - first_)]);
  }

  std::int64_t head() override {
    std::lock_guard lock(mutex_);
    return head_;
  }

  std::size_t size() override {
    std::lock_guard lock(mutex_);
    return log_.size();
  }

  void truncate(std::int64_t position, Instant retain_until) override {
    std::lock_guard lock(mutex_);
    while (!log_.empty() && first_ <= position &&
           log_.front()->envelope.emittedAt <= retain_until) {
      log_.pop_front();
      ++first_;
    }
  }

  // Under the backend's commit: stamps and logs the event, or returns false
  // if its supplied id is already known.
  bool append(OutboxEvent& event, Instant now) {
    std::lock_guard lock(mutex_);
    expire_ids(now);
    if (event.supplied_id) {
      if (!ids_.emplace(event.event_id).second) return false;
      id_order_.emplace_back(event.event_id, now + dedup_window_);
    }
    auto publisher = sequences_.find(event.publisher_id);
    if (publisher == sequences_.end())
      publisher = sequences_.emplace(std::string(event.publisher_id), 0).first;
    LogEntryPtr entry = std::move(event.entry);
    EventEnvelope& env = entry->envelope;
    env.eventId = event.event_id;
    env.eventType = entry->type->name();
    env.publisherId = publisher->first;
    env.sequence = ++publisher->second;
    env.emittedAt = now;
    env.schemaVersion = entry->type->schema_version();
    env.causationId = event.causation;
    env.correlationId =
        event.correlation.is_nil() ? event.event_id : event.correlation;
    env.depth = event.depth;
    entry->position = ++head_;
    log_.push_back(std::move(entry));
    return true;
  }

  std::size_t purge(Instant now) {
    std::lock_guard lock(mutex_);
    return expire_ids(now);
  }

 private:
  std::size_t expire_ids(Instant now) {
    std::size_t n = 0;
    while (!id_order_.empty() && id_order_.front().second <= now) {
      ids_.erase(id_order_.front().first);
      id_order_.pop_front();
      ++n;
    }
    return n;
  }

  ActorMutex mutex_;
  Duration dedup_window_;
  RingQueue<LogEntryPtr> log_;
  std::int64_t first_ = 1;  // position of log_.front()
  std::int64_t head_ = 0;
  // Node-based: the keys are the stable publisher ids envelopes point to.
  std::map<std::string, std::int64_t, std::less<>> sequences_;
  std::unordered_set<EventId, EventIdHash> ids_;
  std::deque<std::pair<EventId, Instant>> id_order_;  // expiry order
};

class MemorySubscriptionStore final : public SubscriptionStore {
 public:
  explicit MemorySubscriptionStore(bool concurrent) : mutex_(concurrent) {}

  bool recorded(std::string_view publisher, std::int64_t sequence) override {
    std::lock_guard lock(mutex_);
    return sequence <= cursor_of(publisher).committed;
  }

  // Under the backend's commit.
  void record(const CommitRecord::DedupRecord& d) {
    std::lock_guard lock(mutex_);
    Cursor& c = cursor_of(d.publisher);
    if (d.sequence > c.committed) c.committed = d.sequence;
    if (!attempts_.empty()) attempts_.erase(d.position);
    if (d.redrive) erase_letter(d.event_id);
  }

  std::int64_t acknowledged(std::string_view publisher) override {
    std::lock_guard lock(mutex_);
    return cursor_of(publisher).acknowledged;
  }

  void acknowledge(std::string_view publisher, std::int64_t sequence,
                   std::int64_t position) override {
    std::lock_guard lock(mutex_);
    Cursor& c = cursor_of(publisher);
    if (sequence > c.acknowledged) c.acknowledged = sequence;
    acked_position_ = std::max(acked_position_, position);
  }

  std::int64_t start_position(std::string_view /*context*/,
                              std::int64_t start_if_new,
                              Instant /*now*/) override {
    std::lock_guard lock(mutex_);
    if (!start_) start_ = start_if_new;
    return *start_;
  }

  std::int64_t acked_position() override {
    std::lock_guard lock(mutex_);
    return acked_position_;
  }

  void record_attempt(std::int64_t position, PendingAttempt attempt) override {
    std::lock_guard lock(mutex_);
    attempts_[position] = std::move(attempt);
  }

  std::optional<PendingAttempt> pending_attempt(
      std::int64_t position) override {
    std::lock_guard lock(mutex_);
    auto it = attempts_.find(position);
    if (it == attempts_.end()) return std::nullopt;
    return it->second;
  }

  void dead_letter(DeadLetter letter) override {
    std::lock_guard lock(mutex_);
    const EventEnvelope& env = letter.event->envelope;
    Cursor& c = cursor_of(env.publisherId);
    if (env.sequence > c.committed) c.committed = env.sequence;
    if (env.sequence > c.acknowledged) c.acknowledged = env.sequence;
    acked_position_ = std::max(acked_position_, letter.event->position);
    attempts_.erase(letter.event->position);
    const EventId id = env.eventId;
    erase_letter(id);
    const std::uint64_t order = next_order_++;
    order_of_.emplace(id, order);
    letters_.emplace(order, std::move(letter));
  }

  std::vector<DeadLetter> dead_letters() override {
    std::lock_guard lock(mutex_);
    std::vector<DeadLetter> all;
    all.reserve(letters_.size());
    for (const auto& [order, letter] : letters_) all.push_back(letter);
    return all;
  }

  std::optional<DeadLetter> find_dead_letter(const EventId& id) override {
    std::lock_guard lock(mutex_);
    auto it = order_of_.find(id);
    if (it == order_of_.end()) return std::nullopt;
    return letters_.at(it->second);
  }

  bool mark_redriving(const EventId& id) override {
    std::lock_guard lock(mutex_);
    auto it = order_of_.find(id);
    if (it == order_of_.end()) return false;
    DeadLetter& letter = letters_.at(it->second);
    return !std::exchange(letter.redriving, true);
  }

  void update_dead_letter(DeadLetter letter) override {
    std::lock_guard lock(mutex_);
    auto it = order_of_.find(letter.event->envelope.eventId);
    if (it == order_of_.end()) return;
    letters_.at(it->second) = std::move(letter);
  }

 private:
  struct Cursor {
    std::int64_t committed = 0;
    std::int64_t acknowledged = 0;
  };

  void erase_letter(const EventId& id) {
    auto it = order_of_.find(id);
    if (it == order_of_.end()) return;
    letters_.erase(it->second);
    order_of_.erase(it);
  }

  // Deliveries come in runs from one publisher; remembering the last cursor
  // saves the lookups of a delivery's check, record and acknowledgement
  // (std::map nodes never move, so the pointer stays valid).
  Cursor& cursor_of(std::string_view publisher) {
    if (last_ == nullptr || last_publisher_ != publisher) {
      auto it = cursors_.find(publisher);
      if (it == cursors_.end())
        it = cursors_.emplace(std::string(publisher), Cursor{}).first;
      last_ = &it->second;
      last_publisher_ = it->first;
    }
    return *last_;
  }

  ActorMutex mutex_;
  std::optional<std::int64_t> start_;  // recorded at the first recovery
  std::int64_t acked_position_ = 0;
  std::map<std::string, Cursor, std::less<>> cursors_;
  std::string_view last_publisher_;
  Cursor* last_ = nullptr;
  std::unordered_map<std::int64_t, PendingAttempt> attempts_;
  std::map<std::uint64_t, DeadLetter> letters_;  // in dead-lettering order
  std::unordered_map<EventId, std::uint64_t, EventIdHash> order_of_;
  std::uint64_t next_order_ = 0;
};

class MemoryBackend final : public LocalBackend {
 public:
  explicit MemoryBackend(MemoryBackendOptions options)
      : options_(std::move(options)),
        mutex_(options_.concurrent),
        messages_mutex_(options_.concurrent) {}

  std::string_view name() const override { return "memory"; }

  ContextLog& context_log(std::string_view context) override {
    std::lock_guard lock(mutex_);
    auto& slot = logs_[std::string(context)];
    if (!slot)
      slot = std::make_unique<MemoryContextLog>(options_.concurrent,
                                                options_.dedup_window);
    return *slot;
  }

  // Transport records (published in process: LocalBackend).
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
    auto it = states_.find(joined_key(kind.qualified(), key));
    return it == states_.end() ? nullptr : it->second;
  }

  bool idempotency_seen(std::string_view scope, std::string_view key,
                        Instant now) override {
    std::lock_guard lock(mutex_);
    auto it = idempotency_.find(joined_key(scope, key));
    return it != idempotency_.end() && it->second > now;
  }

  void commit(CommitRecord& record) override {
    if (options_.commit_hook) options_.commit_hook(CommitPoint::before_apply);
    // The state stays the object the handler built (immutable, so it is as
    // good as its encoding). Each part is read by the actor that wrote it
    // (an agent's state by that agent, a dedup record by that subscription)
    // or by recovery, which runs alone: applying the parts one after the
    // other is atomic for every reader.
    if (record.state) {
      std::lock_guard lock(mutex_);
      states_[joined_key(record.state->agent_kind, record.state->key)] =
          std::move(record.state->state);
    }
    if (!record.idempotency.empty()) {
      std::lock_guard lock(mutex_);
      for (auto& w : record.idempotency)
        idempotency_[joined_key(record.idempotency_scope, w.key)] =
            w.expires_at;
    }
    if (record.dedup) {
      static_cast<MemorySubscriptionStore*>(record.dedup->store)
          ->record(*record.dedup);
    }
    if (record.consumed_message || !record.messages.empty()) {
      std::lock_guard lock(messages_mutex_);
      if (record.consumed_message) {
        auto it = message_order_.find(*record.consumed_message);
        if (it != message_order_.end()) {
          pending_.erase(it->second);
          message_order_.erase(it);
        }
        message_attempts_.erase(*record.consumed_message);
      }
      for (const AgentMessage& m : record.messages) {
        const std::uint64_t order = next_message_++;
        message_order_.emplace(m.id, order);
        pending_.emplace(order, m);
      }
    }
    if (!record.events.empty()) {
      auto& log = static_cast<MemoryContextLog&>(*record.log);
      for (OutboxEvent& e : record.events) {
        if (!log.append(e, record.now)) ++record.duplicates;
      }
    }
    if (options_.commit_hook) options_.commit_hook(CommitPoint::after_apply);
  }

  std::vector<AgentMessage> pending_messages() override {
    std::lock_guard lock(messages_mutex_);
    std::vector<AgentMessage> all;
    all.reserve(pending_.size());
    for (const auto& [order, m] : pending_) all.push_back(m);
    return all;
  }

  bool message_pending(const MessageId& id) override {
    std::lock_guard lock(messages_mutex_);
    return message_order_.contains(id);
  }

  std::uint32_t message_attempts(const MessageId& id) override {
    std::lock_guard lock(messages_mutex_);
    auto it = message_attempts_.find(id);
    return it == message_attempts_.end() ? 0 : it->second;
  }

  void record_message_attempt(const MessageId& id,
                              std::uint32_t attempts) override {
    std::lock_guard lock(messages_mutex_);
    message_attempts_[id] = attempts;
  }

  void dead_message(DeadMessage message) override {
    std::lock_guard lock(messages_mutex_);
    const MessageId id = message.message.id;
    auto it = message_order_.find(id);
    if (it != message_order_.end()) {
      pending_.erase(it->second);
      message_order_.erase(it);
    }
    message_attempts_.erase(id);
    dead_messages_.push_back(std::move(message));
  }

  std::vector<DeadMessage> dead_messages() override {
    std::lock_guard lock(messages_mutex_);
    return dead_messages_;
  }

  std::size_t purge_expired(Instant now) override {
    std::size_t n = 0;
    {
      std::lock_guard lock(mutex_);
      std::erase_if(idempotency_, [&](const auto& kv) {
        const bool expired = kv.second <= now;
        n += expired ? 1 : 0;
        return expired;
      });
    }
    std::vector<MemoryContextLog*> logs;
    {
      std::lock_guard lock(mutex_);
      for (auto& [name, log] : logs_) logs.push_back(log.get());
    }
    for (MemoryContextLog* log : logs) n += log->purge(now);
    return n;
  }

 private:
  MemoryBackendOptions options_;
  ActorMutex mutex_;
  ActorMutex messages_mutex_;
  std::map<std::string, std::unique_ptr<MemoryContextLog>, std::less<>> logs_;
  std::map<std::string, std::unique_ptr<MemorySubscriptionStore>, std::less<>>
      subscriptions_;
  std::unordered_map<std::string, std::shared_ptr<const void>> states_;
  std::unordered_map<std::string, Instant> idempotency_;
  std::map<std::uint64_t, AgentMessage> pending_;  // in commit order
  std::unordered_map<MessageId, std::uint64_t, EventIdHash> message_order_;
  std::unordered_map<MessageId, std::uint32_t, EventIdHash> message_attempts_;
  std::vector<DeadMessage> dead_messages_;
  std::uint64_t next_message_ = 0;
};

}  // namespace

std::unique_ptr<Backend> make_memory_backend(MemoryBackendOptions options) {
  return std::make_unique<MemoryBackend>(std::move(options));
}

}  // namespace herald
