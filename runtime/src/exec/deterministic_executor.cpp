#include "herald/deterministic_executor.hpp"

#include <stdexcept>

namespace herald {
namespace {

// splitmix64: tiny, fast and good enough to pick the next actor.
std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

Instant DeterministicExecutor::default_start() {
  return Instant(std::chrono::sys_days(std::chrono::year(2026) / 1 / 1));
}

DeterministicExecutor::DeterministicExecutor(std::uint64_t seed, Instant start)
    : rng_state_(seed), now_(start) {}

void DeterministicExecutor::schedule(Actor& actor) {
  if (stopped_) {
    ++refused_;
    return;
  }
  ready_.push_back(&actor);
}

void DeterministicExecutor::schedule_at(Instant at,
                                        std::function<void()> task) {
  if (stopped_) {
    ++refused_;
    return;
  }
  timers_.push(Timer{at < now_ ? now_ : at, timer_order_++, std::move(task)});
}

std::uint64_t DeterministicExecutor::random() { return splitmix(rng_state_); }

void DeterministicExecutor::detach() {
  ready_.clear();
  timers_ = {};
  restart_ = nullptr;
}

bool DeterministicExecutor::step() {
  if (held_ > 0) return false;
  if (!timers_.empty() && timers_.top().at <= now_) {
    fire_due_timer();
    return true;
  }
  if (ready_.empty()) return false;
  ++steps_;
  if (faults_.crash_due(steps_)) {
    faults_.clear_crash_step();
    crash();
    return true;
  }
  // Seeded choice among the runnable actors: different seeds explore
  // different interleavings, one seed always replays the same one.
  std::size_t pick = static_cast<std::size_t>(random() % ready_.size());
  Actor* actor = ready_[pick];
  ready_[pick] = ready_.back();
  ready_.pop_back();
  try {
    actor->run();
  } catch (const SimulatedCrash&) {
    crash();
  }
  return true;
}

void DeterministicExecutor::fire_due_timer() {
  Timer timer = timers_.top();
  timers_.pop();
  ++steps_;
  if (faults_.crash_due(steps_)) {
    faults_.clear_crash_step();
    crash();
    return;
  }
  try {
    timer.task();
  } catch (const SimulatedCrash&) {
    crash();
  }
}

void DeterministicExecutor::crash() {
  ++crashes_;
  ready_.clear();
  timers_ = {};
  if (!restart_)
    throw std::logic_error(
        "simulated crash with no restart procedure installed");
  restart_();
}

void DeterministicExecutor::run_until_idle() {
  while (step()) {
  }
}

void DeterministicExecutor::advance(Duration d) {
  const Instant until = now_ + d;
  run_until_idle();
  while (held_ == 0 && !timers_.empty() && timers_.top().at <= until) {
    now_ = timers_.top().at;
    run_until_idle();
  }
  now_ = until;
}

DeterministicExecutor::StopReport DeterministicExecutor::stop(
    Duration timeout) {
  if (stopped_) return {};
  const Instant deadline =
      timeout >= Instant::max() - now_ ? Instant::max() : now_ + timeout;
  run_until_idle();
  while (held_ == 0 && !timers_.empty() && timers_.top().at <= deadline) {
    now_ = timers_.top().at;
    run_until_idle();
  }
  const StopReport left{ready_.size(), timers_.size()};
  stopped_ = true;
  ready_.clear();
  timers_ = {};
  return left;
}

void DeterministicExecutor::run_all(Duration horizon) {
  const Instant limit = now_ + horizon;
  run_until_idle();
  while (held_ == 0 && !timers_.empty() && timers_.top().at <= limit) {
    advance(timers_.top().at - now_);
  }
}

}  // namespace herald
