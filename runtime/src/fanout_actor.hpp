#pragma once
// Internal: the fan-out actor of one publishing context (D3). Single
// threaded by construction (an actor): it reads the context's log (which
// commits stamp and append to) from its position on and routes each entry
// to the subscriptions whose pattern and `via` accept it. Its position is
// volatile: recovery sets it to the log's head after re-queueing what the
// subscriptions had not acknowledged.
#include <vector>

#include "herald/backend.hpp"
#include "herald/executor.hpp"
#include "herald/ring_queue.hpp"

namespace herald {

class Runtime;
class SubscriptionActor;
struct ContextRuntime;

class FanoutActor final : public Actor {
 public:
  FanoutActor(Runtime& runtime, ContextRuntime& context);

  // Called after a commit appended events to the log.
  void wake();
  void run() override;
  // Recovery: routing goes on after `position`; `unsettled` are the
  // retained entries before it, whose subscriptions were queued by
  // recovery (the log is truncated once they settle).
  void recover(std::int64_t position,
               const std::vector<LogEntryPtr>& unsettled);

 private:
  void route(const LogEntryPtr& entry);
  void truncate();

  Runtime& runtime_;
  ContextRuntime& context_;
  ActorMutex mutex_;
  bool scheduled_ = false;
  bool pending_ = false;
  std::int64_t routed_ = 0;  // position of the last entry routed
  std::vector<LogEntryPtr> batch_;
  // Routed entries, oldest first, until every subscription settled them.
  RingQueue<LogEntryPtr> unsettled_;
  std::vector<SubscriptionActor*> matched_;
  std::vector<Actor*> wake_;
};

}  // namespace herald
