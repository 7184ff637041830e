#pragma once
// Internal to the nats backend: the log of a hosted context as the runtime
// sees it. Every call goes to the local store's log, but a truncation stops
// below the first entry the outbox relay has not published yet: an entry
// every local subscription settled may still be owed to other nodes.
#include <algorithm>
#include <atomic>
#include <cstdint>

#include "herald/local_store.hpp"

namespace herald::nats_detail {

class RelayedLog final : public ContextLog {
 public:
  // `relayed`: the relay's position committed to the local store.
  RelayedLog(ContextLog& local, std::int64_t relayed)
      : local_(local), relayed_(relayed) {}

  ContextLog& local() { return local_; }
  // Every entry at or below `position` is in the context's stream.
  void set_relayed(std::int64_t position) {
    relayed_.store(position, std::memory_order_release);
  }
  std::int64_t relayed() const {
    return relayed_.load(std::memory_order_acquire);
  }

  void read(std::int64_t after, std::size_t max,
            std::vector<LogEntryPtr>& out) override {
    local_.read(after, max, out);
  }
  std::int64_t head() override { return local_.head(); }
  std::size_t size() override { return local_.size(); }
  void truncate(std::int64_t position, Instant retain_until) override {
    local_.truncate(std::min(position, relayed()), retain_until);
  }

 private:
  ContextLog& local_;
  std::atomic<std::int64_t> relayed_;
};

}  // namespace herald::nats_detail
