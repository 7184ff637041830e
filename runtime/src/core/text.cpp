// The text forms of the envelope and its id (herald/text.hpp).
#include "herald/text.hpp"

#include "herald/envelope.hpp"
#include "herald/event_id.hpp"

namespace herald {

void append_text(std::string& out, const EventId& id) { out += id.str(); }

void append_text(std::string& out, const EventEnvelope& env) {
  out += "EventEnvelope { eventId: ";
  append_text(out, env.eventId);
  out += ", eventType: ";
  out += env.eventType;
  out += ", publisherId: ";
  out += env.publisherId;
  out += ", sequence: ";
  append_text(out, env.sequence);
  out += ", emittedAt: ";
  append_text(out, env.emittedAt);
  out += ", schemaVersion: ";
  append_text(out, env.schemaVersion);
  out += ", causationId: ";
  if (env.causationId) {
    out += "Some(";
    append_text(out, *env.causationId);
    out += ')';
  } else {
    out += "None";
  }
  out += ", correlationId: ";
  append_text(out, env.correlationId);
  out += ", depth: ";
  append_text(out, env.depth);
  out += " }";
}

}  // namespace herald
