// The in-process publication of the local backends (D3): one fan-out actor
// per publishing context. Single threaded by construction (an actor): it
// reads the context's log (which commits stamp and append to) from its
// position on and hands each entry to the runtime's Router. Its position is
// volatile: recovery resumes it at the log's head after re-queueing what the
// subscriptions had not acknowledged.
#include <deque>
#include <utility>
#include <vector>

#include "herald/backend.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/executor.hpp"
#include "herald/local_store.hpp"
#include "herald/transport.hpp"

namespace herald {
namespace {

// Entries routed per run: large enough to amortise scheduling, small enough
// that other actors get the thread.
constexpr std::size_t kBatch = 256;

class FanoutActor final : public Actor, public Publication {
 public:
  FanoutActor(ContextLog& log, Router& router,
              const PublicationOptions& options)
      : log_(log),
        router_(router),
        executor_(*options.executor),
        retention_(options.retention),
        mutex_(executor_.concurrent()) {
    batch_.reserve(kBatch);
  }

  void wake() override {
    bool schedule = false;
    {
      std::lock_guard lock(mutex_);
      pending_ = true;
      schedule = !std::exchange(scheduled_, true);
    }
    if (schedule) executor_.schedule(*this);
  }

  // Called by recovery while it holds the executor (Executor::Hold): no
  // run() overlaps it, and none runs before it.
  void resume(std::int64_t position,
              const std::vector<LogEntryPtr>& unsettled) override {
    routed_ = position;
    for (const LogEntryPtr& entry : unsettled) unsettled_.push_back(entry);
  }

  void run() override {
    {
      std::lock_guard lock(mutex_);
      pending_ = false;
    }
    bool more = false;
    try {
      batch_.clear();
      log_.read(routed_, kBatch, batch_);
      for (LogEntryPtr& entry : batch_) {
        // Kept first: the subscriptions borrow it there (Router::route).
        unsettled_.push_back(std::move(entry));
        const LogEntryPtr& kept = unsettled_.back();
        router_.route(kept);
        routed_ = kept->position;
      }
      more = batch_.size() == kBatch;
      batch_.clear();
      truncate();
    } catch (const SimulatedCrash&) {
      throw;
    } catch (const std::exception& e) {
      batch_.clear();
      router_.publish_fault(routed_, e);
    }
    bool again = false;
    {
      std::lock_guard lock(mutex_);
      if (pending_ || more) {
        again = true;
      } else {
        scheduled_ = false;
      }
    }
    if (again) executor_.schedule(*this);
  }

 private:
  // Drops the entries every subscription settled (their pending count is
  // 0), oldest first, once the retention has passed.
  void truncate() {
    std::int64_t settled = 0;
    while (!unsettled_.empty() &&
           unsettled_.front()->pending.load(std::memory_order_acquire) == 0) {
      settled = unsettled_.front()->position;
      unsettled_.pop_front();
    }
    if (settled == 0) return;
    log_.truncate(settled, executor_.now() - retention_);
  }

  ContextLog& log_;
  Router& router_;
  Executor& executor_;
  Duration retention_;
  ActorMutex mutex_;
  bool scheduled_ = false;
  bool pending_ = false;
  std::int64_t routed_ = 0;  // position of the last entry routed
  std::vector<LogEntryPtr> batch_;
  // Routed entries, oldest first, until every subscription settled them.
  // A deque: an entry's pointer stays where it is while it waits, for the
  // deliveries that borrow it (Router::route).
  std::deque<LogEntryPtr> unsettled_;
};

}  // namespace

std::unique_ptr<Publication> LocalBackend::attach(std::string_view /*context*/,
                                                  ContextLog& log,
                                                  Router& router,
                                                  PublicationOptions options) {
  return make_local_publication(log, router, options);
}

std::unique_ptr<Publication> make_local_publication(
    ContextLog& log, Router& router, const PublicationOptions& options) {
  return std::make_unique<FanoutActor>(log, router, options);
}

}  // namespace herald
