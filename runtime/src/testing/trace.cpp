// Traces: what a run did as JSON that stays the same from run to run (ids
// named by first appearance, wall-clock fields left out).
#include <fmt/format.h>

#include "herald/testing.hpp"

namespace herald::testing {

std::string IdNames::name(const EventId& id) { return name(id.str()); }

std::string IdNames::name(const std::string& id_text) {
  auto it = names_.find(id_text);
  if (it == names_.end()) {
    it =
        names_.emplace(id_text, fmt::format("<id{}>", names_.size() + 1)).first;
  }
  return it->second;
}

nlohmann::json trace_events(const std::vector<RecordedEvent>& events,
                            IdNames& names) {
  nlohmann::json out = nlohmann::json::array();
  for (const RecordedEvent& e : events) {
    nlohmann::json env = {
        {"eventType", e.event_type},
        {"eventId", names.name(e.event_id)},
        {"publisherId", e.publisher_id},
        {"sequence", e.sequence},
        {"emittedAt", format_instant(e.emitted_at)},
        {"schemaVersion", e.schema_version},
        {"causationId", e.causation_id
                            ? nlohmann::json(names.name(*e.causation_id))
                            : nlohmann::json(nullptr)},
        {"correlationId", names.name(e.correlation_id)},
        {"depth", e.depth}};
    out.push_back({{"envelope", std::move(env)}, {"payload", e.payload}});
  }
  return out;
}

nlohmann::json Harness::trace() const {
  IdNames names;
  nlohmann::json out;
  out["events"] = trace_events(recorder_.events(), names);
  // Each id field of a log line, named; the rest of the line as written
  // (ts and node left out: wall time and host name).
  auto named = [&names](const std::optional<EventId>& id) {
    return id ? nlohmann::json(names.name(*id)) : nlohmann::json(nullptr);
  };
  out["faults"] = nlohmann::json::array();
  for (const LogLine& line : faults()) {
    nlohmann::json f = {{"event", line.event},
                        {"message", line.message},
                        {"eventId", named(line.event_id)},
                        {"messageId", named(line.message_id)}};
    if (line.handler) f["handler"] = *line.handler;
    if (line.subscription) f["subscription"] = *line.subscription;
    if (line.agent) f["agent"] = *line.agent;
    if (line.attempt) f["attempt"] = *line.attempt;
    out["faults"].push_back(std::move(f));
  }
  out["deadLetters"] = nlohmann::json::array();
  for (const DeadLetter& d : runtime_->dead_letters()) {
    out["deadLetters"].push_back(
        {{"subscription", d.subscription},
         {"eventId", names.name(d.event->envelope.eventId)},
         {"eventType", std::string(d.event->envelope.eventType)},
         {"attempts", d.attempts},
         {"lastError", d.last_error}});
  }
  out["deadMessages"] = nlohmann::json::array();
  for (const DeadMessage& d : runtime_->dead_messages()) {
    out["deadMessages"].push_back({{"messageId", names.name(d.message.id)},
                                   {"agent", d.message.agent_kind},
                                   {"key", d.message.key},
                                   {"handler", d.message.handler},
                                   {"attempts", d.attempts},
                                   {"lastError", d.last_error}});
  }
  return out;
}

}  // namespace herald::testing
