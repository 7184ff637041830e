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
  // The same, the item built from `args` in its slot of the queue (an
  // aggregate such as a subscription's Delivery is initialised from them).
  template <class... Args>
  [[nodiscard]] bool emplace_deferred(Args&&... args) {
    std::lock_guard lock(mutex_);
    items_.emplace_back(std::forward<Args>(args)...);
    return !std::exchange(scheduled_, true);
  }

  // Moves every item into `out`, which must be empty: the two queues trade
  // buffers, so no item is moved (the actor reuses `out`, so a steady stream
  // allocates nothing).
  void take_all(RingQueue<Item>& out) {
    std::lock_guard lock(mutex_);
    out.swap(items_);
  }

  // Ends a run: reschedules the actor if items arrived meanwhile, or if
  // `more` (the run left some of what it took).
  void finish_run(bool more = false) {
    bool again = more;
    {
      std::lock_guard lock(mutex_);
      if (items_.empty() && !more) {
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
