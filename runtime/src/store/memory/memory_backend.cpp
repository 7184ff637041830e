// The memory backend: every store is a plain container behind a lock that
// is real only when the executor is concurrent. It outlives the runtimes
// that use it, so a restart (a new Runtime over the same backend) finds
// everything a commit wrote.
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <unordered_map>

#include "herald/agent.hpp"
#include "herald/backend.hpp"
#include "herald/executor.hpp"
#include "memory_context_log.hpp"
#include "memory_subscription_store.hpp"

namespace herald {
namespace {

std::string joined_key(std::string_view kind, std::string_view key) {
  std::string k;
  k.reserve(kind.size() + key.size() + 1);
  k.append(kind).push_back('/');
  k.append(key);
  return k;
}

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
    note_time(record.now);
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

  void commit_dedup(const CommitRecord::DedupRecord& dedup,
                    Instant now) override {
    if (options_.commit_hook) {
      commit_dedup_hooked(dedup, now);
      return;
    }
    note_time(now);
    static_cast<MemorySubscriptionStore*>(dedup.store)->record(dedup);
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
    note_time(message.dead_lettered_at);
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

  Instant latest_time() override {
    return Instant(Duration(latest_.load(std::memory_order_relaxed)));
  }

 private:
  // The test points see the record commit() would.
  [[gnu::noinline]] void commit_dedup_hooked(
      const CommitRecord::DedupRecord& dedup, Instant now) {
    LocalBackend::commit_dedup(dedup, now);
  }

  // Most commits come at a time already noted (the deterministic clock
  // stands still while it runs): one load, the update out of line.
  void note_time(Instant at) {
    const Instant::rep t = at.time_since_epoch().count();
    if (latest_.load(std::memory_order_relaxed) < t) raise_latest(t);
  }

  [[gnu::noinline]] void raise_latest(Instant::rep t) {
    Instant::rep seen = latest_.load(std::memory_order_relaxed);
    while (seen < t &&
           !latest_.compare_exchange_weak(seen, t, std::memory_order_relaxed)) {
    }
  }

  MemoryBackendOptions options_;
  std::atomic<Instant::rep> latest_{0};
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
