#pragma once
// Where an invocation sits in a cascade; copied onto the envelopes of what it
// emits and onto the agent messages it sends, so that a message's handler
// continues the cascade of its sender.
#include <cstdint>
#include <optional>

#include "herald/envelope.hpp"
#include "herald/event_id.hpp"

namespace herald {

struct Cause {
  std::optional<EventId> causation;  // the delivered event that led here
  EventId correlation;  // nil at the root: each emission roots its own cascade
  std::int64_t depth = 0;  // envelope depth of emissions made here

  static Cause of_delivery(const EventEnvelope& env) {
    return Cause{env.eventId, env.correlationId, env.depth + 1};
  }
};

}  // namespace herald
