#pragma once
// One thread, a virtual clock, a seeded scheduler. Every semantic test runs
// on it: a run is reproducible from its seed (eventIds aside, which come from
// herald/id_source.hpp so that no two runs share one), and time only moves
// when the test says so.
//
// Timers before actors: at every step, a timer due at or before the virtual
// now fires before any actor runs, earliest first (ties in the order they
// were set). A due retry therefore never waits behind a stream of new work;
// among runnable actors the seeded pick decides.
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "herald/executor.hpp"
#include "herald/fault_injector.hpp"

namespace herald {

// Thrown by an injected crash point; the executor turns it into a restart.
struct SimulatedCrash {};

class DeterministicExecutor final : public Executor {
 public:
  // Virtual time starts at `start` (default 2026-01-01T00:00:00Z).
  explicit DeterministicExecutor(std::uint64_t seed,
                                 Instant start = default_start());

  void schedule(Actor& actor) override;
  void schedule_at(Instant at, std::function<void()> task) override;
  Instant now() const override { return now_; }
  void floor_clock(Instant at) override {
    if (now_ < at) now_ = at;
  }
  std::uint64_t random() override;
  bool concurrent() const override { return false; }
  FaultInjector* faults() override { return &faults_; }
  void detach() override;
  void drain() override { run_until_idle(); }
  // While held, run_until_idle, advance, run_all and stop run nothing
  // (advance still moves the clock).
  void hold() override { ++held_; }
  void release() override { --held_; }
  // Runs until idle and fires the timers due within `timeout` of virtual
  // time, moving the clock to each; the timers past it are dropped.
  StopReport stop(Duration timeout) override;
  bool stopped() const override { return stopped_; }
  std::size_t refused() const override { return refused_; }

  // Runs runnable actors, picked in seeded random order, and timers already
  // due, until neither is left. Time stands still.
  void run_until_idle();
  // Moves virtual time forward by d, firing due timers in time order and
  // running until idle after each.
  void advance(Duration d);
  // Runs until idle and keeps jumping to the next timer until none is left;
  // stops after `horizon` of virtual time to make a livelock visible.
  void run_all(Duration horizon = std::chrono::hours(24));

  FaultInjector& injector() { return faults_; }
  // Steps taken so far (each actor run and each timer is one step).
  std::uint64_t steps() const { return steps_; }
  std::size_t pending_timers() const { return timers_.size(); }
  std::size_t crashes() const { return crashes_; }

  // The runtime's restart procedure, called after a simulated crash once the
  // executor has forgotten all runnable actors and timers.
  void on_crash(std::function<void()> restart) {
    restart_ = std::move(restart);
  }

  static Instant default_start();

 private:
  bool step();
  void fire_due_timer();
  void crash();

  std::uint64_t rng_state_;
  Instant now_;
  std::vector<Actor*> ready_;
  TimerQueue timers_;
  std::uint64_t timer_order_ = 0;
  std::uint64_t steps_ = 0;
  std::size_t crashes_ = 0;
  std::size_t refused_ = 0;
  bool stopped_ = false;
  unsigned held_ = 0;
  FaultInjector faults_;
  std::function<void()> restart_;
};

}  // namespace herald
