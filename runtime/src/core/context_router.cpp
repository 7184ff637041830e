#include "context_router.hpp"

#include "context_runtime.hpp"
#include "runtime_impl.hpp"
#include "subscription_actor.hpp"

namespace herald {

void ContextRouter::route(const LogEntryPtr& entry) {
  const auto* routes = runtime_.routes_of(*entry);
  if (routes == nullptr) {
    // Not routed (an event type this build does not know): nothing owes
    // it an acknowledgement.
    entry->pending.store(0, std::memory_order_release);
    return;
  }
  // Host taps see every routed entry of their type, whichever
  // subscriptions take it (released was counted at commit, D2).
  runtime_.run_taps(*entry);
  // Set before enqueueing, to every route: a subscription may acknowledge
  // on another thread before this loop ends, and the count must not reach
  // 0 before the last one is queued. The routes that do not take the entry
  // are taken off at the end.
  const auto routed = static_cast<std::int32_t>(routes->size());
  entry->pending.store(routed, std::memory_order_release);
  std::int32_t queued = 0;
  // The routes are in qualified-service-name order (D11), so every run
  // enqueues in the same order. The subscriptions this event wakes go to
  // the executor together (one lock on the threaded executor instead of one
  // per subscription), in route order, so the deterministic executor sees
  // the same sequence.
  wake_.clear();
  // Read once: the compiler cannot tell that queueing leaves them alone.
  const LogEntry& e = *entry;
  const std::int64_t position = e.position;
  for (SubscriptionActor* sub : *routes) {
    if (position <= sub->start()) continue;
    if (!sub->accepts(e)) {
      sub->metrics().filtered.add();
      continue;
    }
    ++queued;
    if (sub->enqueue_deferred(entry)) wake_.push_back(sub);
  }
  if (queued != routed)
    entry->pending.fetch_sub(routed - queued, std::memory_order_acq_rel);
  // Mostly none: a subscription with deliveries queued is scheduled.
  if (!wake_.empty())
    runtime_.executor().schedule_batch(wake_.data(), wake_.size());
}

void ContextRouter::publish_fault(std::int64_t position,
                                  const std::exception& error) noexcept {
  try {
    runtime_.write_log(LogLevel::error, {{"event", "publish.fault"},
                                         {"context", context_.name},
                                         {"position", position},
                                         {"message", error.what()}});
  } catch (...) {
    // The log line could not be written either; the next wake retries.
  }
}

}  // namespace herald
