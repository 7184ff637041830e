#include "herald/threaded_executor.hpp"

#include <algorithm>

#include "herald/id_source.hpp"

namespace herald {

ThreadedExecutor::ThreadedExecutor(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  workers_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i)
    workers_.emplace_back([this] { work(); });
}

ThreadedExecutor::~ThreadedExecutor() { shutdown(); }

namespace {
// How long an idle worker polls for new work before it sleeps. Waking a
// sleeping thread costs a system call on each side and, on a busy machine,
// a trip through the OS scheduler; polling briefly keeps a steady stream of
// events off that path. Idle workers sleep after this.
constexpr auto kSpin = std::chrono::microseconds(200);
}  // namespace

void ThreadedExecutor::schedule(Actor& actor) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (stopped_.load(std::memory_order_relaxed)) {
      refused_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    ready_.push_back(&actor);
    ready_count_.store(ready_.size(), std::memory_order_release);
    wake = sleepers_ > 0;
  }
  if (wake) work_cv_.notify_one();
}

void ThreadedExecutor::schedule_batch(Actor* const* actors, std::size_t count) {
  if (count == 0) return;
  std::size_t wake = 0;
  {
    std::lock_guard lock(mutex_);
    if (stopped_.load(std::memory_order_relaxed)) {
      refused_.fetch_add(count, std::memory_order_relaxed);
      return;
    }
    for (std::size_t i = 0; i < count; ++i) ready_.push_back(actors[i]);
    ready_count_.store(ready_.size(), std::memory_order_release);
    wake = std::min(sleepers_, count);
  }
  // One sleeper per new actor at most: spinning workers find the rest.
  for (std::size_t i = 0; i < wake; ++i) work_cv_.notify_one();
}

void ThreadedExecutor::schedule_at(Instant at, std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (stopped_.load(std::memory_order_relaxed)) {
      refused_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    timers_.push(Timer{at, timer_order_++, std::move(task)});
  }
  // A new earliest timer must shorten some worker's wait.
  work_cv_.notify_all();
}

Instant ThreadedExecutor::now() const {
  const Instant wall =
      std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
  const Instant floor(Duration(floor_.load(std::memory_order_relaxed)));
  return wall < floor ? floor : wall;
}

void ThreadedExecutor::floor_clock(Instant at) {
  const Instant::rep wanted = at.time_since_epoch().count();
  Instant::rep current = floor_.load(std::memory_order_relaxed);
  while (current < wanted && !floor_.compare_exchange_weak(
                                 current, wanted, std::memory_order_relaxed)) {
  }
}

std::uint64_t ThreadedExecutor::random() {
  // splitmix64 per thread, seeded from the kernel's generator: jitter needs
  // no more, and no two threads or processes share a stream.
  thread_local std::uint64_t state = secure_random64();
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

bool ThreadedExecutor::fire_due_timer(std::unique_lock<std::mutex>& lock) {
  if (timers_.empty() || timers_.top().at > now()) return false;
  Timer timer = timers_.top();
  timers_.pop();
  ++running_;
  lock.unlock();
  timer.task();
  lock.lock();
  --running_;
  if (idle_locked()) idle_cv_.notify_all();
  return true;
}

void ThreadedExecutor::hold() {
  std::lock_guard lock(mutex_);
  ++held_;
}

void ThreadedExecutor::release() {
  {
    std::lock_guard lock(mutex_);
    if (--held_ > 0) return;
  }
  work_cv_.notify_all();
}

void ThreadedExecutor::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    if (stopped_.load(std::memory_order_relaxed)) return;
    if (held_ > 0) {
      // What is scheduled meanwhile waits in ready_ and timers_, in order.
      ++sleepers_;
      work_cv_.wait(lock);
      --sleepers_;
      continue;
    }
    // A due timer goes first: taking ready actors first would starve it for
    // as long as new work keeps arriving.
    if (fire_due_timer(lock)) continue;
    if (!ready_.empty()) {
      Actor* actor = ready_.front();
      ready_.pop_front();
      ready_count_.store(ready_.size(), std::memory_order_release);
      ++running_;
      lock.unlock();
      actor->run();
      lock.lock();
      --running_;
      if (idle_locked()) idle_cv_.notify_all();
      continue;
    }
    if (!stopping_) {
      lock.unlock();
      const auto until = std::chrono::steady_clock::now() + kSpin;
      bool found = false;
      while (!found && std::chrono::steady_clock::now() < until) {
        for (int i = 0; i < 64 && !found; ++i)
          found = ready_count_.load(std::memory_order_acquire) > 0;
      }
      lock.lock();
      if (!ready_.empty()) continue;
    }
    if (!timers_.empty()) {
      if (timers_.top().at <= now()) continue;
      ++sleepers_;
      work_cv_.wait_until(
          lock,
          std::chrono::system_clock::time_point(
              std::chrono::duration_cast<std::chrono::system_clock::duration>(
                  timers_.top().at.time_since_epoch())));
      --sleepers_;
      continue;
    }
    if (stopping_) return;
    ++sleepers_;
    work_cv_.wait(lock);
    --sleepers_;
  }
}

void ThreadedExecutor::drain() {
  std::unique_lock lock(mutex_);
  idle_cv_.wait(lock, [this] { return idle_locked(); });
}

ThreadedExecutor::StopReport ThreadedExecutor::stop(Duration timeout) {
  const auto now = std::chrono::steady_clock::now();
  const auto room = std::chrono::steady_clock::time_point::max() - now;
  if (timeout >= room) return stop_at(std::nullopt);
  return stop_at(
      now +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout));
}

void ThreadedExecutor::shutdown() { stop_at(std::nullopt); }

ThreadedExecutor::StopReport ThreadedExecutor::stop_at(
    std::optional<std::chrono::steady_clock::time_point> deadline) {
  StopReport left;
  {
    std::unique_lock lock(mutex_);
    // A second stop, from any thread, leaves the joining to the first.
    if (workers_.empty() || stopped_.load(std::memory_order_relaxed))
      return left;
    if (deadline) {
      idle_cv_.wait_until(lock, *deadline, [this] { return idle_locked(); });
    } else {
      idle_cv_.wait(lock, [this] { return idle_locked(); });
    }
    left = StopReport{ready_.size(), timers_.size()};
    stopping_ = true;
    stopped_.store(true, std::memory_order_release);
    ready_.clear();
    ready_count_.store(0, std::memory_order_release);
    timers_ = {};
  }
  work_cv_.notify_all();
  // Running actors finish their run; anything they schedule is refused.
  for (std::thread& t : workers_) t.join();
  workers_.clear();
  return left;
}

}  // namespace herald
