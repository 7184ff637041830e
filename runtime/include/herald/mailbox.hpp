#pragma once
// The queue in front of an actor, and the rule that an actor is scheduled at
// most once: `scheduled_` stays true from the push that scheduled it until a
// run finds the queue empty.
#include <utility>

#include "herald/executor.hpp"
#include "herald/ring_queue.hpp"

namespace herald {

template <class Item>
class Mailbox {
 public:
  Mailbox(Executor& executor, Actor& owner)
      : executor_(executor), owner_(owner), mutex_(executor.concurrent()) {}

  void push(Item item) {
    if (push_deferred(std::move(item))) executor_.schedule(owner_);
  }

  // Like push, but leaves the scheduling to the caller: returns true if the
  // owner must now be scheduled. The fan-out uses it to hand all the
  // subscriptions an event wakes to the executor in one step.
  [[nodiscard]] bool push_deferred(Item&& item) {
    std::lock_guard lock(mutex_);
    items_.push_back(std::move(item));
    return !std::exchange(scheduled_, true);
  }

  // Moves up to `max` items into `out` (which the actor reuses, so a steady
  // stream allocates nothing).
  void take(RingQueue<Item>& out, std::size_t max) {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < max && !items_.empty(); ++i)
      out.push_back(items_.take_front());
  }

  // Ends a run: reschedules the actor if items arrived meanwhile.
  void finish_run() {
    bool again = false;
    {
      std::lock_guard lock(mutex_);
      if (items_.empty()) {
        scheduled_ = false;
      } else {
        again = true;
      }
    }
    if (again) executor_.schedule(owner_);
  }

  std::size_t size() {
    std::lock_guard lock(mutex_);
    return items_.size();
  }

  // Crash simulation: the queue is volatile, and the executor forgot it.
  void drop_all() {
    std::lock_guard lock(mutex_);
    scheduled_ = false;
    items_.clear();
  }

 private:
  Executor& executor_;
  Actor& owner_;
  ActorMutex mutex_;
  RingQueue<Item> items_;
  bool scheduled_ = false;
};

}  // namespace herald
