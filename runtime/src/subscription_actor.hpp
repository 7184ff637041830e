#pragma once
// Internal: one subscription as an actor (D4): its own queue, cursor, dedup
// records, retries and dead letters. Deliveries from one publisher are served
// strictly in sequence (D7): while one waits for a retry, later events of
// that publisher are parked, and other publishers go on.
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>

#include "herald/backend.hpp"
#include "herald/context.hpp"
#include "herald/mailbox.hpp"
#include "herald/metrics.hpp"

namespace herald {

class FaultInjector;
class Runtime;

struct Delivery {
  LogEntryPtr entry;
  std::uint32_t attempt = 1;
  bool redrive = false;  // from the dead-letter store: outside FIFO, parks nothing
  bool resumed = false;  // a retry that holds its publisher's lane
  Instant first_attempt_at{};
};

class SubscriptionActor final : public Actor {
 public:
  SubscriptionActor(Runtime& runtime, SubscriptionSpec spec, const InvocationSite& site, SubscriptionStore& store,
                    SubscriptionMetrics& metrics);

  const SubscriptionSpec& spec() const { return spec_; }
  SubscriptionStore& store() { return store_; }
  SubscriptionMetrics& metrics() { return metrics_; }

  // The compiled `via` and pattern (D3).
  bool accepts(const LogEntry& entry) const {
    if (spec_.via && !spec_.via(entry.envelope)) return false;
    return !spec_.pattern || spec_.pattern(entry.payload);
  }

  void enqueue(LogEntryPtr entry);
  // Queues without scheduling; returns true if the caller must schedule this
  // actor (see Mailbox::push_deferred).
  [[nodiscard]] bool enqueue_deferred(LogEntryPtr entry);
  void redrive(DeadLetter letter);
  void run() override;
  // Simulated crash: queues, parked lanes and retry state are volatile.
  void reset();

 private:
  void deliver(Delivery& d);
  // tx: the aborted invocation, or nullptr if the handler never ran.
  void fault(Delivery& d, const std::string& message, Invocation* tx);
  void finish(const Delivery& d);
  nlohmann::json log_line(const char* event, const Delivery& d, const std::string& message) const;
  Duration backoff(std::uint32_t attempt);

  Runtime& runtime_;
  SubscriptionSpec spec_;
  const InvocationSite& site_;
  SubscriptionStore& store_;
  SubscriptionMetrics& metrics_;
  Mailbox<Delivery> inbox_;
  RingQueue<Delivery> batch_;
  // Publishers with a delivery waiting for its retry, and what arrived from
  // them meanwhile, in sequence order.
  std::unordered_map<PublisherIndex, std::deque<Delivery>> parked_;
  FaultInjector* faults_;  // the deterministic executor's, else nullptr
};

}  // namespace herald
