#include "fanout_actor.hpp"

#include "context_runtime.hpp"
#include "herald/runtime.hpp"
#include "subscription_actor.hpp"

namespace herald {
namespace {
// Events moved from the outbox per run: large enough to amortise scheduling,
// small enough that other actors get the thread.
constexpr std::size_t kBatch = 256;
}  // namespace

FanoutActor::FanoutActor(Runtime& runtime, ContextRuntime& context)
    : runtime_(runtime), context_(context), mutex_(runtime.executor().concurrent()) {
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

void FanoutActor::reset() {
  std::lock_guard lock(mutex_);
  scheduled_ = false;
  pending_ = false;
}

void FanoutActor::run() {
  {
    std::lock_guard lock(mutex_);
    pending_ = false;
  }
  batch_.clear();
  context_.log->take_outbox(batch_, kBatch);
  for (OutboxEvent& event : batch_) {
    const EventType* type = event.entry->type;
    LogEntryPtr entry = context_.log->append(std::move(event));
    if (!entry) {
      // D6: the same eventId published again is stored once.
      runtime_.event_metrics_[type->index()]->duplicate_publishes.add();
      continue;
    }
    runtime_.event_metrics_[type->index()]->released.add();
    route(entry);
  }
  const bool more = batch_.size() == kBatch;
  batch_.clear();
  context_.log->truncate();
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

void FanoutActor::route(const LogEntryPtr& entry) {
  matched_.clear();
  // The routes are in qualified-service-name order (D11), so every run
  // enqueues in the same order.
  for (SubscriptionActor* sub : runtime_.routes_[entry->type->index()]) {
    if (sub->accepts(*entry)) {
      matched_.push_back(sub);
    } else {
      sub->metrics().filtered.add();
    }
  }
  // Set before enqueueing: a subscription may acknowledge on another thread
  // before this loop ends.
  entry->pending.store(static_cast<std::int32_t>(matched_.size()), std::memory_order_release);
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
