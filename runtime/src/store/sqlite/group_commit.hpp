#pragma once
// Group commit: concurrent callers hand in their items; one of them (the
// leader) applies every item queued so far in one batch while the others
// wait, and each caller returns only once the batch holding its item
// finished. If the batch fails, every caller in it gets its error.
#include <condition_variable>
#include <exception>
#include <mutex>
#include <vector>

namespace herald {

template <class Item>
class GroupCommit {
 public:
  // `apply(std::vector<Item*>&)` applies a batch all or nothing; it runs on
  // one caller's thread at a time.
  template <class Apply>
  void submit(Item& item, Apply&& apply) {
    Waiter me{&item, nullptr, false};
    std::unique_lock lock(mutex_);
    queue_.push_back(&me);
    while (!me.done) {
      if (leading_) {
        done_.wait(lock);
        continue;
      }
      leading_ = true;
      std::vector<Waiter*> batch;
      batch.swap(queue_);
      lock.unlock();
      std::exception_ptr error;
      try {
        std::vector<Item*> items;
        items.reserve(batch.size());
        for (Waiter* w : batch) items.push_back(w->item);
        apply(items);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      for (Waiter* w : batch) {
        w->error = error;
        w->done = true;
      }
      leading_ = false;
      done_.notify_all();
    }
    if (me.error) std::rethrow_exception(me.error);
  }

 private:
  struct Waiter {
    Item* item;
    std::exception_ptr error;
    bool done;
  };

  std::mutex mutex_;
  std::condition_variable done_;
  std::vector<Waiter*> queue_;
  bool leading_ = false;
};

}  // namespace herald
