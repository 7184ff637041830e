#include "subscription_actor.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "herald/deterministic_executor.hpp"
#include "herald/errors.hpp"
#include "herald/fault_injector.hpp"
#include "runtime_impl.hpp"

namespace herald {
namespace {
constexpr std::size_t kBatch = 64;

// Ends an actor run on every path, so that a fault cannot leave the
// subscription scheduled and never run again.
class FinishRun {
 public:
  FinishRun(Mailbox<Delivery>& inbox, const RingQueue<Delivery>& batch)
      : inbox_(inbox), batch_(batch) {}
  ~FinishRun() { inbox_.finish_run(!batch_.empty()); }
  FinishRun(const FinishRun&) = delete;
  FinishRun& operator=(const FinishRun&) = delete;

 private:
  Mailbox<Delivery>& inbox_;
  const RingQueue<Delivery>& batch_;
};
}  // namespace

SubscriptionActor::SubscriptionActor(RuntimeImpl& runtime,
                                     SubscriptionSpec spec,
                                     const InvocationSite& site,
                                     SubscriptionStore& store,
                                     SubscriptionMetrics& metrics)
    : runtime_(runtime),
      spec_(std::move(spec)),
      site_(site),
      store_(store),
      metrics_(metrics),
      inbox_(runtime.executor(), *this),
      policy_(dead_letter_policy(runtime.config(), spec_.service)),
      settle_after_ack_(!store.settles_before_acknowledgement()),
      concurrent_(runtime.executor().concurrent()),
      group_commits_(runtime.store().commits_dedups_together()),
      faults_(runtime.executor().faults()) {}

bool SubscriptionActor::recover(LogEntryPtr entry) {
  metrics_.enqueued.add();
  Delivery d = Delivery::owning(std::move(entry));
  d.recovered = true;
  const auto pending = store_.pending_attempt(d.entry->position);
  if (pending) {
    d.attempt = pending->attempts + 1;
    d.first_attempt_at = pending->first_attempt_at;
    d.not_before = pending->retry_at;
  }
  inbox_.push(std::move(d));
  return pending.has_value();
}

void SubscriptionActor::redrive(DeadLetter letter) {
  metrics_.redriven.add();
  metrics_.enqueued.add();
  Delivery d = Delivery::owning(std::move(letter.event));
  d.redrive = true;
  inbox_.push(std::move(d));
}

void SubscriptionActor::skip(DeadLetter letter) {
  Delivery d = Delivery::owning(std::move(letter.event));
  d.release = true;
  inbox_.push(std::move(d));
}

void SubscriptionActor::load_halts() {
  for (DeadLetter& letter : store_.dead_letters()) {
    if (letter.policy != DeadLetterPolicy::halt) continue;
    const std::string_view publisher = letter.event->envelope.publisherId;
    halted_.insert_or_assign(publisher, letter.event);
    parked_.try_emplace(publisher);
  }
  halts_loaded_ = true;
}

void SubscriptionActor::release_halt(const LogEntry& entry) {
  const EventEnvelope& env = entry.envelope;
  auto it = halted_.find(env.publisherId);
  if (it == halted_.end() || it->second->envelope.eventId != env.eventId)
    return;
  // The lane's key may point into the letter's entry: resumed first.
  const LogEntryPtr letter = std::move(it->second);
  halted_.erase(it);
  resume_lane(letter->envelope.publisherId);
  runtime_.write_log(LogLevel::info,
                     {{"event", "delivery.lane_resumed"},
                      {"subscription", spec_.service},
                      {"eventId", env.eventId.str()},
                      {"publisherId", std::string(env.publisherId)}});
}

void SubscriptionActor::run() {
  FinishRun finish_run(inbox_, batch_);
  try {
    run_batch();
  } catch (const SimulatedCrash&) {
    // The group not committed is lost with the process: recovery queues
    // its deliveries again.
    group_.clear();
    group_records_.clear();
    // What the run acknowledged is written as each acknowledgement was
    // before the crash point (the stores keep the highest sequence).
    try {
      write_acknowledgement();
    } catch (...) {  // NOLINT(bugprone-empty-catch): lost with the crash;
                     // recovery re-queues and dedup acknowledges (D6)
    }
    throw;
  }
  try {
    write_acknowledgement();
  } catch (const SimulatedCrash&) {
    throw;
  } catch (const std::exception& e) {
    // Still held: written by the next run; if the process stops first,
    // recovery re-queues the deliveries and dedup acknowledges them (D6).
    try {
      runtime_.write_log(LogLevel::error, {{"event", "delivery.store_fault"},
                                           {"subscription", spec_.service},
                                           {"message", fault_text(e.what())}});
    } catch (...) {  // NOLINT(bugprone-empty-catch): the log is best effort
    }
  }
}

void SubscriptionActor::acknowledge_other(const LogEntry& entry) {
  write_acknowledgement();
  ack_publisher_ = entry.envelope.publisherId;
  ack_sequence_ = entry.envelope.sequence;
  ack_position_ = entry.position;
  ack_held_ = true;
}

void SubscriptionActor::write_acknowledgement() {
  if (!ack_held_) return;
  store_.acknowledge(ack_publisher_, ack_sequence_, ack_position_);
  ack_held_ = false;
  for (LogEntry* entry : settle_) release_pending(*entry);
  settle_.clear();
}

inline void SubscriptionActor::serve(Delivery& d) {
  try {
    // Anything but another member of the group is decided after the group
    // committed (a delivery the group's failure parks waits in its lane).
    if (!group_.empty() && !joins_group(d)) commit_group();
    if (!halts_loaded_) load_halts();
    if (d.release) {
      release_halt(*d.entry);
      return;
    }
    if (!d.redrive && !d.resumed) {
      // Most of the time no lane is parked: skip the hash lookup then.
      if (!parked_.empty()) {
        auto lane = parked_.find(d.entry->envelope.publisherId);
        if (lane != parked_.end()) {
          lane->second.push_back(std::move(d));
          return;
        }
      }
      if (d.not_before != Instant{} &&
          d.not_before > runtime_.executor().now()) {
        // A recovered retry: it holds its lane until it is due.
        parked_.try_emplace(d.entry->envelope.publisherId);
        Delivery next = d;
        next.resumed = true;
        retry_later(std::move(next), d.not_before);
        return;
      }
    }
    deliver(d);
  } catch (const SimulatedCrash&) {
    throw;
  } catch (const std::exception& e) {
    contain_store_fault(d, fault_text(e.what()));
  } catch (...) {
    contain_store_fault(d, "unknown exception");
  }
}

void SubscriptionActor::contain_store_fault(Delivery& d,
                                            const std::string& message) {
  if (!held_behind_group(d)) contain(d, message);
}

void SubscriptionActor::run_batch() {
  // What the last run left is served first; else the whole mailbox is taken
  // (no delivery is moved). A run serves at most kBatch of it, plus what a
  // lane it resumes puts in front.
  if (batch_.empty()) inbox_.take_all(batch_);
  last_commit_ = Instant{};
  std::size_t budget = std::min(kBatch, batch_.size());
  while (budget > 0) {
    --budget;
    Delivery& d = batch_.front();
    serve(d);
    batch_.pop_front();
    if (!resumed_.empty()) {
      // What waited behind a lane goes first, in order.
      budget += resumed_.size();
      for (auto it = resumed_.rbegin(); it != resumed_.rend(); ++it)
        batch_.push_front(std::move(*it));
      resumed_.clear();
    }
  }
  // The run's group commits before its acknowledgements are written; what
  // it resumes is served by the next run.
  commit_group();
  for (auto it = resumed_.rbegin(); it != resumed_.rend(); ++it)
    batch_.push_front(std::move(*it));
  resumed_.clear();
}

void SubscriptionActor::commit_group() {
  if (group_.empty() || committing_group_) return;
  committing_group_ = true;
  group_failed_.clear();
  Instant committed_at{};
  std::optional<std::string> failure;
  FaultKind kind = FaultKind::commit;
  try {
    committed_at = runtime_.commit_deliveries(group_records_);
  } catch (const SimulatedCrash&) {
    committing_group_ = false;
    throw;
  } catch (const std::exception& e) {
    failure = fault_text(e.what());
    kind = fault_kind(e);
  } catch (...) {
    failure = "unknown exception";
    kind = FaultKind::host;
  }
  group_records_.clear();
  try {
    if (failure) {
      // Nothing of the group committed: each publisher's first delivery
      // faults (retried, holding its lane), the others wait behind it, in
      // order, parked first so that a first delivery dead-lettered at once
      // resumes them.
      std::vector<Delivery*> firsts;
      for (Delivery& d : group_) {
        const std::string_view publisher = d.entry->envelope.publisherId;
        if (std::find(group_failed_.begin(), group_failed_.end(), publisher) !=
            group_failed_.end()) {
          park_behind(std::move(d));
        } else {
          group_failed_.push_back(publisher);
          firsts.push_back(&d);
        }
      }
      for (Delivery* d : firsts) {
        try {
          fault(*d, *failure, kind, nullptr);
        } catch (const SimulatedCrash&) {
          throw;
        } catch (const std::exception& e) {
          contain(*d, fault_text(e.what()));
        }
      }
    } else {
      for (Delivery& d : group_) {
        metrics_.delivered.add();
        metrics_.latency.record(committed_at - d.entry->envelope.emittedAt);
        if (faults_ != nullptr && faults_->on_delivery_commit(spec_.service))
          throw SimulatedCrash{};
        try {
          acknowledge(*d.entry);
          finish_acknowledged(d);
        } catch (const std::exception& e) {
          // Committed: its next attempt meets its dedup record (D6).
          contain(d, fault_text(e.what()));
        }
      }
    }
  } catch (...) {
    group_.clear();
    committing_group_ = false;
    throw;
  }
  group_.clear();
  committing_group_ = false;
}

bool SubscriptionActor::commit_group_before(Delivery& d) {
  commit_group();
  if (group_failed_.empty() || d.redrive || d.release) return false;
  const std::string_view publisher = d.entry->envelope.publisherId;
  if (std::find(group_failed_.begin(), group_failed_.end(), publisher) ==
      group_failed_.end())
    return false;
  park_behind(d);
  return true;
}

void SubscriptionActor::park_behind(Delivery d) {
  const std::string_view publisher = d.entry->envelope.publisherId;
  parked_[publisher].push_back(std::move(d));
}

Instant SubscriptionActor::attempt_start() {
  const Instant at = std::exchange(last_commit_, Instant{});
  return at != Instant{} ? at : runtime_.executor().now();
}

void SubscriptionActor::deliver(Delivery& d) {
  const LogEntry& entry = *d.entry;
  const EventEnvelope& env = entry.envelope;
  if (d.first_attempt_at == Instant{}) d.first_attempt_at = attempt_start();

  if (d.redrive) {
    // Its commit removed the letter: this copy (queued again by a recovery)
    // has run already.
    if (!store_.find_dead_letter(env.eventId)) {
      metrics_.deduplicated.add();
      release_halt(entry);
      finish(d);
      return;
    }
  } else if (store_.recorded(env.publisherId, env.sequence)) {
    // D6: a redelivery of a recorded delivery is acknowledged, not run.
    if (held_behind_group(d)) return;
    metrics_.deduplicated.add();
    acknowledge(entry);
    finish_acknowledged(d);
    return;
  }

  if (entry.malformed != nullptr) {
    // D9: a stored payload that does not decode cannot be handled; retrying
    // it would fail the same way.
    if (held_behind_group(d)) return;
    dead_letter_malformed(d);
    return;
  }

  if (d.recovered && !d.redrive) {
    // A handler that stops the process (a crash, not a fault) must reach
    // the dead letters too: each run after a recovery is counted before it
    // starts, so it is dead-lettered after at most retry.max_attempts runs
    // past the first.
    const auto max_attempts =
        static_cast<std::uint32_t>(runtime_.config().retry_max_attempts);
    if (d.attempt > max_attempts) {
      const auto pending = store_.pending_attempt(entry.position);
      --d.attempt;
      fault(d,
            pending ? pending->last_error
                    : "the process stopped during every attempt",
            FaultKind::host, nullptr);
      return;
    }
    store_.record_attempt(
        entry.position,
        PendingAttempt{d.attempt, "the process stopped during this attempt",
                       d.first_attempt_at, runtime_.executor().now()});
  }

  FaultInjector* faults = faults_;
  if (faults != nullptr) {
    if (auto injected = faults->on_delivery_attempt(spec_.service)) {
      fault(d, fault_text(*injected), FaultKind::host, nullptr);
      return;
    }
  }

  Invocation tx(runtime_.runtime(), site_, "", env);
  Instant committed_at{};
  try {
    spec_.handler(tx, entry.payload, env);
    if (faults != nullptr) {
      if (auto injected = faults->on_handler_exit(spec_.service))
        throw HandlerFailure(*injected);
    }
    CommitRecord::DedupRecord dedup{&store_,      env.publisherId,
                                    env.sequence, entry.position,
                                    env.eventId,  d.redrive};
    // A store that commits no group (the memory store's) skips the group
    // in one test.
    if (group_commits_ && joined_or_held(d, tx, dedup)) return;
    committed_at = runtime_.commit_delivery(tx, dedup);
    last_commit_ = committed_at;
  } catch (const SimulatedCrash&) {
    throw;
  } catch (const std::exception& e) {
    // The fault's text is made loggable and bounded here, where it enters
    // the runtime: a host's exception may carry any bytes.
    fault(d, fault_text(e.what()), fault_kind(e), &tx);
    return;
  } catch (...) {
    fault(d, "unknown exception", FaultKind::host, &tx);
    return;
  }
  metrics_.delivered.add();
  metrics_.latency.record(committed_at - env.emittedAt);
  if (faults != nullptr && faults->on_delivery_commit(spec_.service))
    throw SimulatedCrash{};
  if (d.redrive) {
    // The letter is gone with this commit: a lane it halted goes on.
    release_halt(entry);
    finish(d);
    return;
  }
  acknowledge(entry);
  finish_acknowledged(d);
}

bool SubscriptionActor::joined_or_held(Delivery& d, Invocation& tx,
                                       const CommitRecord::DedupRecord& dedup) {
  if (joins_group(d) && RuntimeImpl::staged_nothing(tx)) {
    // Committed with the rest of the group (commit_group()), which
    // finishes it.
    group_.push_back(d);
    try {
      group_records_.push_back(dedup);
    } catch (...) {
      group_.pop_back();
      throw;
    }
    return true;
  }
  if (held_behind_group(d)) {
    // Its staged effects are dropped; it runs again in its lane.
    // At error, as every delivery.store_fault line.
    runtime_.abort(tx,
                   log_line("delivery.store_fault", d,
                            "the group commit before it failed"),
                   LogLevel::error);
    return true;
  }
  return false;
}

nlohmann::json SubscriptionActor::log_line(const char* event, const Delivery& d,
                                           const std::string& message) const {
  // Enough to find the delivery again: the event, its cascade and the attempt.
  const EventEnvelope& env = d.entry->envelope;
  return {
      {"event", event},
      {"subscription", spec_.service},
      {"handler", spec_.service},
      {"eventId", env.eventId.str()},
      {"eventType", std::string(env.eventType)},
      {"correlationId", env.correlationId.str()},
      {"causationId", env.causationId ? nlohmann::json(env.causationId->str())
                                      : nlohmann::json(nullptr)},
      {"attempt", d.attempt},
      {"message", message}};
}

void SubscriptionActor::retry_later(Delivery next, Instant at) {
  runtime_.executor().schedule_at(at, [this, next = std::move(next)]() mutable {
    try {
      inbox_.push(std::move(next));
    } catch (...) {  // NOLINT(bugprone-empty-catch): only allocation fails
                     // here; the store keeps the attempt for recovery
    }
  });
}

void SubscriptionActor::fault(Delivery& d, const std::string& message,
                              FaultKind kind, Invocation* tx) {
  const Instant now = runtime_.executor().now();
  metrics_.aborted.add();
  // D1: nothing the handler staged survives, and the fault is reported.
  nlohmann::json fault_line = log_line("delivery.fault", d, message);
  fault_line["faultKind"] = std::string(fault_kind_name(kind));
  if (tx != nullptr) {
    runtime_.abort(*tx, std::move(fault_line));
  } else {
    runtime_.write_log(LogLevel::warn, std::move(fault_line));
  }
  // Run again behind the group's deliveries if that failed.
  if (held_behind_group(d)) return;
  if (fault_class(kind) == FaultClass::unavailable) {
    wait_unavailable(d, message, now);
    return;
  }
  const auto max_attempts =
      static_cast<std::uint32_t>(runtime_.config().retry_max_attempts);
  // A deterministic fault (a limit, a re-entrant call, ...) would fail the
  // same way on every attempt: it goes to the dead letters at once.
  if (fault_class(kind) == FaultClass::transient && d.attempt < max_attempts) {
    const Duration delay = runtime_.retry_delay(d.attempt);
    // nak: the attempt count is stored, so a crash does not start it over.
    if (!d.redrive)
      store_.record_attempt(
          d.entry->position,
          PendingAttempt{d.attempt, message, d.first_attempt_at, now + delay});
    metrics_.retried.add();
    nlohmann::json retry_line = log_line("delivery.retry", d, message);
    retry_line["nextAttempt"] = d.attempt + 1;
    retry_line["delay"] = format_duration(delay);
    runtime_.write_log(LogLevel::warn, std::move(retry_line));
    run_again(d, d.attempt + 1, 0, now + delay);
    return;
  }
  term(d, message, now);
}

void SubscriptionActor::wait_unavailable(const Delivery& d,
                                         const std::string& message,
                                         Instant now) {
  const std::uint32_t waits = d.unavailable_waits + 1;
  const Duration delay = runtime_.unavailable_delay(waits);
  metrics_.retried.add();
  nlohmann::json line = log_line("delivery.unavailable", d, message);
  line["waits"] = waits;
  line["delay"] = format_duration(delay);
  runtime_.write_log(LogLevel::warn, std::move(line));
  run_again(d, d.attempt, waits, now + delay);
}

void SubscriptionActor::run_again(const Delivery& d, std::uint32_t attempt,
                                  std::uint32_t waits, Instant at) {
  if (!d.redrive) parked_.try_emplace(d.entry->envelope.publisherId);
  Delivery next = d;
  next.attempt = attempt;
  next.resumed = !d.redrive;
  next.not_before = {};
  // A recovered delivery's attempt was stored before it ran; the next one
  // is stored by the fault that schedules it, if it counts.
  next.recovered = false;
  next.release = false;
  next.store_faults = 0;
  next.unavailable_waits = waits;
  retry_later(std::move(next), at);
}

void SubscriptionActor::dead_letter_malformed(Delivery& d) {
  term(d, "malformed: " + d.entry->malformed->error, runtime_.executor().now());
}

void SubscriptionActor::term(Delivery& d, const std::string& message,
                             Instant now) {
  const EventEnvelope& env = d.entry->envelope;
  // A re-drive keeps the policy its letter was written under.
  DeadLetterPolicy policy = policy_;
  if (d.redrive) {
    auto it = halted_.find(env.publisherId);
    policy = it != halted_.end() && it->second->envelope.eventId == env.eventId
                 ? DeadLetterPolicy::halt
                 : DeadLetterPolicy::skip;
  }
  DeadLetter letter{
      spec_.service, d.share(), d.attempt, message, d.first_attempt_at,
      now,           now,       false,     policy};
  // term: a re-drive that faulted again puts its attempts back on the letter.
  if (d.redrive) {
    store_.update_dead_letter(std::move(letter));
  } else {
    store_.dead_letter(std::move(letter));
  }
  metrics_.dead_lettered.add();
  if (policy == DeadLetterPolicy::halt && !d.redrive) {
    // Nothing later from this publisher is delivered here until the letter
    // is re-driven and commits, or is skipped.
    halted_.insert_or_assign(env.publisherId, d.share());
    parked_.try_emplace(env.publisherId);
  }
  nlohmann::json line = log_line("delivery.dead_letter", d, message);
  line["policy"] = std::string(dead_letter_policy_name(policy));
  runtime_.write_log(LogLevel::error, std::move(line));
  finish(d);
}

void SubscriptionActor::contain(Delivery& d,
                                const std::string& message) noexcept {
  try {
    if (!d.redrive) parked_.try_emplace(d.entry->envelope.publisherId);
    // The store refused a write (a full disk): tried again after a growing,
    // capped delay; after retry.max_attempts refusals in a row the delivery
    // is left unacknowledged in the store (its lane waits) and reported, so
    // the process can finish; the next recovery re-drives it.
    const std::uint32_t faults = d.store_faults + 1;
    if (faults >=
        static_cast<std::uint32_t>(runtime_.config().retry_max_attempts)) {
      runtime_.metrics().store_refused().add();
      nlohmann::json line = log_line("delivery.store_refused", d, message);
      line["storeFaults"] = faults;
      runtime_.write_log(LogLevel::error, std::move(line));
      return;
    }
    runtime_.write_log(LogLevel::error,
                       log_line("delivery.store_fault", d, message));
    Delivery next = d;
    next.resumed = !d.redrive;
    next.store_faults = faults;
    retry_later(std::move(next),
                runtime_.executor().now() + runtime_.retry_delay(faults));
  } catch (...) {  // NOLINT(bugprone-empty-catch): recovery re-drives what was
                   // not acknowledged
  }
}

void SubscriptionActor::resume_after(const Delivery& d) {
  // A halted lane waits for its letter's re-drive or skip.
  if (!halted_.empty() && halted_.contains(d.entry->envelope.publisherId))
    return;
  // The lane of this publisher was held by this delivery if it was parked;
  // what waited behind it goes first, in order.
  resume_lane(d.entry->envelope.publisherId);
}

void SubscriptionActor::resume_lane(std::string_view publisher) {
  auto lane = parked_.find(publisher);
  if (lane == parked_.end()) return;
  std::deque<Delivery> waiting = std::move(lane->second);
  parked_.erase(lane);
  // Served next, after the delivery being served (run_batch()).
  for (Delivery& next : waiting) resumed_.push_back(std::move(next));
}

}  // namespace herald
