#include "herald/envelope.hpp"

#include <nlohmann/json.hpp>

namespace herald {

nlohmann::json envelope_to_json(const EventEnvelope& env) {
  nlohmann::json j;
  j["eventId"] = env.eventId.str();
  j["eventType"] = std::string(env.eventType);
  j["publisherId"] = std::string(env.publisherId);
  j["sequence"] = env.sequence;
  j["emittedAt"] = format_instant(env.emittedAt);
  j["schemaVersion"] = env.schemaVersion;
  j["causationId"] = env.causationId ? nlohmann::json(env.causationId->str()) : nlohmann::json(nullptr);
  j["correlationId"] = env.correlationId.str();
  j["depth"] = env.depth;
  return j;
}

}  // namespace herald
