#include "fanout_actor.hpp"

#include "context_runtime.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/runtime.hpp"
#include "subscription_actor.hpp"

namespace herald {
namespace {
// Entries routed per run: large enough to amortise scheduling, small enough
// that other actors get the thread.
constexpr std::size_t kBatch = 256;
}  // namespace

FanoutActor::FanoutActor(Runtime& runtime, ContextRuntime& context)
    : runtime_(runtime),
      context_(context),
      mutex_(runtime.executor().concurrent()) {
  batch_.reserve(kBatch);
}

void FanoutActor::wake() {
  bool schedule = false;
  {
    std::lock_guard lock(mutex_);
    pending_ = true;
    schedule = !std::exchange(scheduled_, true);
  }
  if (schedule) runtime_.executor().schedule(*this);
}

void FanoutActor::recover(std::int64_t position,
                          const std::vector<LogEntryPtr>& unsettled) {
  routed_ = position;
  for (const LogEntryPtr& entry : unsettled) unsettled_.push_back(entry);
}

void FanoutActor::run() {
  {
    std::lock_guard lock(mutex_);
    pending_ = false;
  }
  bool more = false;
  try {
    batch_.clear();
    context_.log->read(routed_, kBatch, batch_);
    for (const LogEntryPtr& entry : batch_) {
      route(entry);
      routed_ = entry->position;
    }
    more = batch_.size() == kBatch;
    batch_.clear();
    truncate();
  } catch (const SimulatedCrash&) {
    throw;
  } catch (const std::exception& e) {
    // The log could not be read: nothing was lost (it is in the store), and
    // the next wake reads from the same position.
    batch_.clear();
    runtime_.write_log(LogLevel::error, {{"event", "fanout.fault"},
                                         {"context", context_.name},
                                         {"position", routed_},
                                         {"message", e.what()}});
  }
  bool again = false;
  {
    std::lock_guard lock(mutex_);
    if (pending_ || more) {
      again = true;
    } else {
      scheduled_ = false;
    }
  }
  if (again) runtime_.executor().schedule(*this);
}

void FanoutActor::truncate() {
  std::int64_t settled = 0;
  while (!unsettled_.empty() &&
         unsettled_.front()->pending.load(std::memory_order_acquire) == 0) {
    settled = unsettled_.front()->position;
    unsettled_.pop_front();
  }
  if (settled == 0) return;
  const Duration retention = runtime_.config().backend_log_retention;
  context_.log->truncate(settled, runtime_.executor().now() - retention);
}

void FanoutActor::route(const LogEntryPtr& entry) {
  matched_.clear();
  const auto* routes = runtime_.routes_of(*entry);
  if (routes == nullptr) {
    // Not routed (an event type this build does not know): nothing owes
    // it an acknowledgement.
    entry->pending.store(0, std::memory_order_release);
    unsettled_.push_back(entry);
    return;
  }
  runtime_.event_metrics_[entry->type->index()]->released.add();
  // The routes are in qualified-service-name order (D11), so every run
  // enqueues in the same order.
  for (SubscriptionActor* sub : *routes) {
    if (entry->position <= sub->start()) continue;
    if (sub->accepts(*entry)) {
      matched_.push_back(sub);
    } else {
      sub->metrics().filtered.add();
    }
  }
  // Set before enqueueing: a subscription may acknowledge on another thread
  // before this loop ends.
  entry->pending.store(static_cast<std::int32_t>(matched_.size()),
                       std::memory_order_release);
  unsettled_.push_back(entry);
  // The subscriptions this event wakes go to the executor together (one
  // lock on the threaded executor instead of one per subscription), in
  // route order, so the deterministic executor sees the same sequence.
  wake_.clear();
  for (SubscriptionActor* sub : matched_) {
    if (sub->enqueue_deferred(entry)) wake_.push_back(sub);
  }
  runtime_.executor().schedule_batch(wake_.data(), wake_.size());
}

}  // namespace herald
