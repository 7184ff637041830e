#pragma once
// Internal: the fan-out actor of one publishing context (D3). Single
// threaded by construction (an actor): it moves committed events from the
// context's outbox into its log, where they get their sequence, and routes
// each to the subscriptions whose pattern and `via` accept it.
#include <vector>

#include "herald/backend.hpp"
#include "herald/executor.hpp"

namespace herald {

class Runtime;
class SubscriptionActor;
struct ContextRuntime;

class FanoutActor final : public Actor {
 public:
  FanoutActor(Runtime& runtime, ContextRuntime& context);

  // Called after a commit put events in the outbox.
  void wake();
  void run() override;
  // Simulated crash: forget that a run was scheduled.
  void reset();

 private:
  void route(const LogEntryPtr& entry);

  Runtime& runtime_;
  ContextRuntime& context_;
  ActorMutex mutex_;
  bool scheduled_ = false;
  bool pending_ = false;
  std::vector<OutboxEvent> batch_;
  std::vector<SubscriptionActor*> matched_;
  std::vector<Actor*> wake_;
};

}  // namespace herald
