#include "subscription_actor.hpp"

#include <cmath>

#include "herald/deterministic_executor.hpp"
#include "herald/fault_injector.hpp"
#include "herald/runtime.hpp"

namespace herald {
namespace {
constexpr std::size_t kBatch = 64;
}  // namespace

SubscriptionActor::SubscriptionActor(Runtime& runtime, SubscriptionSpec spec, const InvocationSite& site,
                                     SubscriptionStore& store, SubscriptionMetrics& metrics)
    : runtime_(runtime),
      spec_(std::move(spec)),
      site_(site),
      store_(store),
      metrics_(metrics),
      inbox_(runtime.executor(), *this),
      faults_(runtime.executor().faults()) {}

void SubscriptionActor::enqueue(LogEntryPtr entry) {
  metrics_.enqueued.add();
  inbox_.push(Delivery{std::move(entry)});
}

bool SubscriptionActor::enqueue_deferred(LogEntryPtr entry) {
  metrics_.enqueued.add();
  return inbox_.push_deferred(Delivery{std::move(entry)});
}

void SubscriptionActor::redrive(DeadLetter letter) {
  metrics_.redriven.add();
  inbox_.push(Delivery{std::move(letter.event), 1, true, false, {}});
}

void SubscriptionActor::reset() {
  // Everything queued is dropped; the restart enqueues what is unfinished.
  metrics_.finished.add(metrics_.lag());
  inbox_.drop_all();
  batch_.clear();
  parked_.clear();
}

void SubscriptionActor::run() {
  inbox_.take(batch_, kBatch);
  while (!batch_.empty()) {
    Delivery d = batch_.take_front();
    // Most of the time no lane is parked: skip the hash lookup then.
    if (!d.redrive && !d.resumed && !parked_.empty()) {
      auto lane = parked_.find(d.entry->publisher);
      if (lane != parked_.end()) {
        lane->second.push_back(std::move(d));
        continue;
      }
    }
    deliver(d);
  }
  inbox_.finish_run();
}

void SubscriptionActor::deliver(Delivery& d) {
  const LogEntry& entry = *d.entry;
  const EventEnvelope& env = entry.envelope;
  if (d.first_attempt_at == Instant{}) d.first_attempt_at = runtime_.executor().now();

  // D6: a redelivery of a recorded eventId is acknowledged, not run.
  if (store_.recorded(entry.publisher, env.sequence, env.eventId)) {
    metrics_.deduplicated.add();
    if (!d.redrive) store_.acknowledge(entry.publisher, env.sequence);
    finish(d);
    return;
  }

  FaultInjector* faults = faults_;
  if (faults != nullptr) {
    if (auto injected = faults->on_delivery_attempt(spec_.service)) {
      fault(d, *injected, nullptr);
      return;
    }
  }

  Invocation tx(runtime_, site_, "", Cause::of_delivery(env));
  try {
    spec_.handler(tx, entry.payload, env);
    if (faults != nullptr) {
      if (auto injected = faults->on_handler_exit(spec_.service)) throw HandlerFailure(*injected);
    }
  } catch (const std::exception& e) {
    fault(d, e.what(), &tx);
    return;
  } catch (...) {
    fault(d, "unknown exception", &tx);
    return;
  }

  CommitRecord record;
  record.dedup = CommitRecord::DedupRecord{&store_, entry.publisher, env.sequence, env.eventId};
  runtime_.commit(tx, record);
  metrics_.delivered.add();
  metrics_.latency.record(runtime_.executor().now() - env.emittedAt);
  if (faults != nullptr && faults->on_delivery_commit(spec_.service)) throw SimulatedCrash{};
  if (!d.redrive) store_.acknowledge(entry.publisher, env.sequence);
  finish(d);
}

Duration SubscriptionActor::backoff(std::uint32_t attempt) {
  // Capped exponential: base * 2^(attempt-1), at most cap; then `jitter` of
  // it is randomised downwards so retries of many subscribers spread out.
  const auto& cfg = runtime_.config();
  const double exp = std::ldexp(static_cast<double>(cfg.retry_base.count()), static_cast<int>(attempt) - 1);
  const double capped = std::min(exp, static_cast<double>(cfg.retry_cap.count()));
  const double unit = static_cast<double>(runtime_.executor().random() >> 11) * 0x1.0p-53;
  return Duration(static_cast<Duration::rep>(capped * (1.0 - cfg.retry_jitter * unit)));
}

nlohmann::json SubscriptionActor::log_line(const char* event, const Delivery& d, const std::string& message) const {
  // Enough to find the delivery again: the event, its cascade and the attempt.
  const EventEnvelope& env = d.entry->envelope;
  return {{"event", event},
          {"subscription", spec_.service},
          {"handler", spec_.service},
          {"eventId", env.eventId.str()},
          {"eventType", std::string(env.eventType)},
          {"correlationId", env.correlationId.str()},
          {"causationId", env.causationId ? nlohmann::json(env.causationId->str()) : nlohmann::json(nullptr)},
          {"attempt", d.attempt},
          {"message", message}};
}

void SubscriptionActor::fault(Delivery& d, const std::string& message, Invocation* tx) {
  const Instant now = runtime_.executor().now();
  metrics_.aborted.add();
  // D1: nothing the handler staged survives, and the fault is reported.
  nlohmann::json fault_line = log_line("delivery.fault", d, message);
  if (tx != nullptr) {
    runtime_.abort(*tx, std::move(fault_line));
  } else {
    runtime_.write_log(LogLevel::warn, std::move(fault_line));
  }
  const auto max_attempts = static_cast<std::uint32_t>(runtime_.config().retry_max_attempts);
  if (d.attempt < max_attempts) {
    const Duration delay = backoff(d.attempt);
    metrics_.retried.add();
    nlohmann::json retry_line = log_line("delivery.retry", d, message);
    retry_line["nextAttempt"] = d.attempt + 1;
    retry_line["delay"] = format_duration(delay);
    runtime_.write_log(LogLevel::warn, std::move(retry_line));
    if (!d.redrive) parked_.try_emplace(d.entry->publisher);
    Delivery next{d.entry, d.attempt + 1, d.redrive, !d.redrive, d.first_attempt_at};
    runtime_.executor().schedule_at(now + delay, [this, next = std::move(next)]() mutable {
      inbox_.push(std::move(next));
    });
    return;
  }
  DeadLetter letter{spec_.service, d.entry, d.attempt, message, d.first_attempt_at, now, now};
  store_.dead_letter(std::move(letter));
  metrics_.dead_lettered.add();
  runtime_.write_log(LogLevel::error, log_line("delivery.dead_letter", d, message));
  finish(d);
}

void SubscriptionActor::finish(const Delivery& d) {
  metrics_.finished.add();
  if (d.redrive) return;
  d.entry->pending.fetch_sub(1, std::memory_order_acq_rel);
  if (parked_.empty()) return;
  // The lane of this publisher was held by this delivery if it was parked;
  // what waited behind it goes first, in order.
  auto lane = parked_.find(d.entry->publisher);
  if (lane == parked_.end()) return;
  std::deque<Delivery> waiting = std::move(lane->second);
  parked_.erase(lane);
  for (auto it = waiting.rbegin(); it != waiting.rend(); ++it) batch_.push_front(std::move(*it));
}

}  // namespace herald
