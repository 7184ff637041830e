#pragma once
// The envelope of language.md §5, carried beside every delivered payload.
#include <cstdint>
#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "herald/event_id.hpp"
#include "herald/time.hpp"

namespace herald {

// A view: eventType and publisherId point into storage the runtime keeps for
// its whole lifetime (event type descriptors and the publisher registry), so
// an envelope is stamped without allocating. A handler that keeps an
// envelope field beyond its call copies it (std::string(env.publisherId)).
struct EventEnvelope {
  EventId eventId;
  std::string_view eventType;
  std::string_view publisherId;
  std::int64_t sequence = 0;
  Instant emittedAt{};
  std::int64_t schemaVersion = 1;
  std::optional<EventId> causationId;
  EventId correlationId;
  std::int64_t depth = 0;
};

// The wire form: field names exactly as in language.md §5, ids in UUID text
// form, emittedAt as ISO-8601 UTC.
nlohmann::json envelope_to_json(const EventEnvelope& env);

}  // namespace herald
