#pragma once
// N worker threads sharing one ready queue. Actors keep each agent and each
// subscription serialised; different actors run in parallel. A worker looking
// for work fires a due timer before it takes a ready actor, so retries keep
// their time under a steady stream of new work.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <queue>
#include <thread>
#include <vector>

#include "herald/executor.hpp"
#include "herald/ring_queue.hpp"

namespace herald {

class ThreadedExecutor final : public Executor {
 public:
  // threads == 0 means std::thread::hardware_concurrency().
  explicit ThreadedExecutor(unsigned threads);
  ~ThreadedExecutor() override;

  void schedule(Actor& actor) override;
  void schedule_batch(Actor* const* actors, std::size_t count) override;
  void schedule_at(Instant at, std::function<void()> task) override;
  Instant now() const override;
  void floor_clock(Instant at) override;
  std::uint64_t random() override;
  bool concurrent() const override { return true; }
  void detach() override { shutdown(); }

  // Blocks until nothing is runnable, running or waiting on a timer.
  void drain() override;
  void hold() override;
  void release() override;
  // Waits up to `timeout` for the executor to drain, then drops what is
  // left, lets running actors finish and joins the workers.
  StopReport stop(Duration timeout) override;
  bool stopped() const override {
    return stopped_.load(std::memory_order_acquire);
  }
  std::size_t refused() const override {
    return refused_.load(std::memory_order_relaxed);
  }
  // Drains in-flight work (retries included), however long it takes, then
  // stops the workers. Idempotent.
  void shutdown();

  unsigned threads() const { return static_cast<unsigned>(workers_.size()); }

 private:
  void work();
  // Runs the earliest timer if it is due; false if none is.
  bool fire_due_timer(std::unique_lock<std::mutex>& lock);
  StopReport stop_at(
      std::optional<std::chrono::steady_clock::time_point> deadline);
  bool idle_locked() const {
    return ready_.empty() && running_ == 0 && timers_.empty();
  }

  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  // A ring rather than a deque: a deque allocates and frees a block every 64
  // actors pushed, and it would do so while holding the lock.
  RingQueue<Actor*> ready_;
  TimerQueue timers_;
  std::uint64_t timer_order_ = 0;
  std::size_t running_ = 0;
  std::size_t sleepers_ = 0;
  // Holds in force (hold()): while > 0 no worker takes an actor or a timer.
  unsigned held_ = 0;
  bool stopping_ = false;
  // Set under mutex_; read without it by stopped().
  std::atomic<bool> stopped_{false};
  std::atomic<std::size_t> refused_{0};
  // floor_clock's instant (ns since the epoch); now() is never before it.
  std::atomic<Instant::rep> floor_{Instant::min().time_since_epoch().count()};
  // Mirrors ready_.size() for workers spinning without the lock.
  std::atomic<std::size_t> ready_count_{0};
  std::vector<std::thread> workers_;
};

}  // namespace herald
