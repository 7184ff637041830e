#pragma once
// The seam between the delivery logic and the threads that run it.
//
// Work is done by actors (fan-out actors, subscriptions, agents): an actor is
// scheduled at most once at a time and runs on one thread at a time, which is
// what serialises each agent and each subscription. Timers carry retries.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <vector>

#include "herald/time.hpp"

namespace herald {

class FaultInjector;
struct RuntimeConfig;

class Actor {
 public:
  virtual ~Actor() = default;
  // Runs a slice of the actor's pending work. The executor guarantees that no
  // two run() calls of one actor overlap.
  virtual void run() = 0;
};

// A task due at an instant; `order` keeps tasks due at the same instant in
// the order they were scheduled. Both executors keep their retry timers in
// a TimerQueue, earliest first.
struct Timer {
  Instant at;
  std::uint64_t order;
  std::function<void()> task;
};
struct TimerLater {
  bool operator()(const Timer& a, const Timer& b) const {
    return a.at != b.at ? a.at > b.at : a.order > b.order;
  }
};
using TimerQueue = std::priority_queue<Timer, std::vector<Timer>, TimerLater>;

class Executor {
 public:
  virtual ~Executor() = default;

  // Makes the actor runnable. The caller guarantees an actor is never
  // scheduled twice before it runs (Mailbox below keeps that rule).
  virtual void schedule(Actor& actor) = 0;
  // Makes several actors runnable, in this order, as one step: the threaded
  // executor takes its lock once for all of them.
  virtual void schedule_batch(Actor* const* actors, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) schedule(*actors[i]);
  }
  // Runs `task` at or after `at` on some thread.
  virtual void schedule_at(Instant at, std::function<void()> task) = 0;

  virtual Instant now() const = 0;
  // From here on now() is never before `at`. Recovery floors the clock at
  // the latest time the store holds, so a time written to a store never
  // goes backwards across restarts: the deterministic executor's clock
  // moves to `at` if it is behind; the threaded one's wall clock stands at
  // `at` until it passes it.
  virtual void floor_clock(Instant at) = 0;
  // 64 random bits: seeded and reproducible on the deterministic executor.
  // For scheduling and jitter; eventIds come from new_event_id()
  // (herald/id_source.hpp), which no seed repeats.
  virtual std::uint64_t random() = 0;
  // True when work may run on more than one thread; actors then lock.
  virtual bool concurrent() const = 0;
  // The deterministic executor's hooks; nullptr elsewhere.
  virtual FaultInjector* faults() { return nullptr; }

  // Runs what is runnable now; the threaded executor also waits for pending
  // retry timers.
  virtual void drain() = 0;

  // Holds the executor: from hold() until the matching release(), actors
  // scheduled and timers set are kept, in order, and none of them runs.
  // Recovery holds it while it reads the store and positions every
  // publication, so nothing it queues commits before each fan-out knows
  // where it stands. Holds nest. Hold is the RAII form.
  virtual void hold() = 0;
  virtual void release() = 0;
  class Hold {
   public:
    explicit Hold(Executor& executor) : executor_(executor) {
      executor_.hold();
    }
    ~Hold() { executor_.release(); }
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

   private:
    Executor& executor_;
  };

  // What stop() left undone: actors that were runnable and timers that had
  // not fired. The durable state still holds that work (an outbox entry, a
  // log entry past a cursor), so a later process re-drives it.
  struct StopReport {
    std::size_t actors = 0;
    std::size_t timers = 0;
    bool complete() const { return actors == 0 && timers == 0; }
  };
  // Runs what is runnable and the timers that fall due within `timeout`
  // (wall time on the threaded executor, virtual time on the deterministic
  // one), then drops what is left and stops: from then on the executor
  // refuses work (schedule and schedule_at run nothing; refused() counts
  // them). An actor already running when the deadline passes finishes its
  // run. Idempotent: a second stop reports nothing left.
  virtual StopReport stop(Duration timeout) = 0;
  // True once stop() began: the runtime refuses host calls from then on.
  virtual bool stopped() const = 0;
  // Work offered after stop(): actors scheduled and timers set.
  virtual std::size_t refused() const = 0;

  // Called by the Runtime's destructor: afterwards the executor runs nothing
  // that belongs to it. The threaded executor finishes in-flight work first;
  // the deterministic one discards what was not run.
  virtual void detach() = 0;
};

// The executor the configuration names: executor.kind, with
// executor.threads workers or the executor.seed seed.
std::unique_ptr<Executor> make_executor(const RuntimeConfig& config);

// A mutex that only locks when the executor is concurrent: one thread needs
// no locking, and the deterministic executor's throughput depends on it.
// The locking itself is out of line, so that a short critical section with
// the lock disabled compiles to its own few instructions (no registers saved
// for a call that does not happen).
class ActorMutex {
 public:
  explicit ActorMutex(bool enabled) : enabled_(enabled) {}
  void lock() {
    if (enabled_) lock_enabled();
  }
  void unlock() {
    if (enabled_) unlock_enabled();
  }
  bool enabled() const { return enabled_; }

 private:
  [[gnu::noinline]] void lock_enabled() { m_.lock(); }
  [[gnu::noinline]] void unlock_enabled() { m_.unlock(); }

  std::mutex m_;
  bool enabled_;
};

}  // namespace herald
