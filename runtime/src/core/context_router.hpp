#pragma once
// Internal: the runtime's Router for one publishing context. The transport
// hands it each logged entry of the context; it matches the entry against
// the subscriptions of its type (start position, `via`, pattern) and queues
// it in each one that takes it.
#include <vector>

#include "herald/executor.hpp"
#include "herald/transport.hpp"

namespace herald {

class RuntimeImpl;
struct ContextRuntime;

class ContextRouter final : public Router {
 public:
  ContextRouter(RuntimeImpl& runtime, ContextRuntime& context)
      : runtime_(runtime), context_(context) {}

  void route(const LogEntryPtr& entry) override;
  void publish_fault(std::int64_t position,
                     const std::exception& error) noexcept override;

 private:
  RuntimeImpl& runtime_;
  ContextRuntime& context_;
  // Scratch space of route(): a publication routes from one actor at a time.
  std::vector<Actor*> wake_;
};

}  // namespace herald
