// EventRecorder: emissions recorded through Runtime::tap, with a copy of
// the envelope and the payload in wire and typed form.
#include <utility>

#include "herald/testing.hpp"

namespace herald::testing {

nlohmann::json RecordedEvent::envelope_json() const {
  EventEnvelope env;
  env.eventId = event_id;
  env.eventType = event_type;
  env.publisherId = publisher_id;
  env.sequence = sequence;
  env.emittedAt = emitted_at;
  env.schemaVersion = schema_version;
  env.causationId = causation_id;
  env.correlationId = correlation_id;
  env.depth = depth;
  return envelope_to_json(env);
}

EventRecorder::EventRecorder() : store_(std::make_shared<Store>()) {}

void EventRecorder::record(Runtime& rt, const EventType& type) {
  rt.tap(type, [store = store_](const LogEntry& entry) {
    RecordedEvent e;
    const EventEnvelope& env = entry.envelope;
    e.event_type = std::string(env.eventType);
    e.event_id = env.eventId;
    e.publisher_id = std::string(env.publisherId);
    e.sequence = env.sequence;
    e.emitted_at = env.emittedAt;
    e.schema_version = env.schemaVersion;
    e.causation_id = env.causationId;
    e.correlation_id = env.correlationId;
    e.depth = env.depth;
    e.position = entry.position;
    e.type = entry.type;
    if (entry.payload != nullptr) {
      // Through the codec, as a durable log would hold it; the typed value
      // is decoded from that, so it is the event's own copy.
      e.payload = entry.type->codec().encode(entry.payload);
      e.value = entry.type->codec().decode(e.payload, env.schemaVersion);
    } else if (entry.malformed != nullptr) {
      e.payload = {{"malformed", entry.malformed->error},
                   {"raw", entry.malformed->raw}};
    }
    std::lock_guard lock(store->mutex);
    store->events.push_back(std::move(e));
  });
}

std::vector<RecordedEvent> EventRecorder::events() const {
  std::lock_guard lock(store_->mutex);
  return store_->events;
}

std::vector<RecordedEvent> EventRecorder::events(
    std::string_view event_type) const {
  std::lock_guard lock(store_->mutex);
  std::vector<RecordedEvent> out;
  for (const RecordedEvent& e : store_->events)
    if (e.event_type == event_type) out.push_back(e);
  return out;
}

std::size_t EventRecorder::size() const {
  std::lock_guard lock(store_->mutex);
  return store_->events.size();
}

void EventRecorder::clear() {
  std::lock_guard lock(store_->mutex);
  store_->events.clear();
}

}  // namespace herald::testing
