#include "stored_entry.hpp"

#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace herald {
namespace {

// Owns what the envelope's views point to and the decoded payload.
struct StoredLogEntry final : LogEntry {
  std::string event_type;
  std::string publisher;
  std::shared_ptr<const void> value;
  MalformedPayload bad;
};

EventId id_field(const std::string& text, const char* field,
                 std::string& error) {
  if (auto id = EventId::parse(text)) return *id;
  if (error.empty()) error = fmt::format("{} '{}' is not a UUID", field, text);
  return EventId{};
}

// The id a row whose eventId does not parse is known by (its dead letters,
// its dedup records): a UUID of version 8 holding the row's log position,
// unique in its log as the row is, where the nil UUID of every such row
// made their dead letters replace each other. Minted ids are version 7 or
// 4, so it meets none of them.
EventId stand_in_id(std::int64_t position) {
  constexpr std::uint64_t kVersion8 = 0x8000;
  constexpr std::uint64_t kVariant = 0x8000000000000000ull;
  constexpr std::uint64_t kLow62 = 0x3FFFFFFFFFFFFFFFull;
  return EventId(kVersion8,
                 kVariant | (static_cast<std::uint64_t>(position) & kLow62));
}

}  // namespace

std::int64_t to_stored_time(Instant at) {
  return at.time_since_epoch().count();
}

Instant from_stored_time(std::int64_t ns) {
  return Instant(std::chrono::nanoseconds(ns));
}

namespace {

// The entry's payload decoded from its JSON text `payload` (after the
// envelope: `error` names an id that did not parse); what fails is
// recorded on the entry.
LogEntryPtr decode_payload(std::shared_ptr<StoredLogEntry> entry,
                           std::string payload, std::string error) {
  if (entry->type == nullptr) {
    // Not routed: nothing of this build can read it. The raw text stays
    // for a dead letter or a log line.
    entry->bad = MalformedPayload{std::move(payload),
                                  fmt::format("event type {} is not known to "
                                              "this build",
                                              entry->event_type)};
    entry->malformed = &entry->bad;
    return entry;
  }
  if (error.empty()) {
    try {
      const nlohmann::json wire = nlohmann::json::parse(payload);
      entry->value =
          entry->type->codec().decode(wire, entry->envelope.schemaVersion);
      entry->payload = entry->value.get();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  if (!error.empty()) {
    entry->bad = MalformedPayload{std::move(payload), std::move(error)};
    entry->malformed = &entry->bad;
  }
  return entry;
}

std::shared_ptr<StoredLogEntry> typed_entry(std::string event_type,
                                            std::string publisher,
                                            std::int64_t position) {
  auto entry = std::make_shared<StoredLogEntry>();
  entry->event_type = std::move(event_type);
  entry->publisher = std::move(publisher);
  entry->type = find_event_type(entry->event_type);
  entry->position = position;
  EventEnvelope& env = entry->envelope;
  env.eventType = entry->type != nullptr ? std::string_view(entry->type->name())
                                         : std::string_view(entry->event_type);
  env.publisherId = entry->publisher;
  return entry;
}

}  // namespace

LogEntryPtr decode_stored_event(StoredEvent row) {
  auto entry = typed_entry(std::move(row.event_type), std::move(row.publisher),
                           row.position);
  std::string error;
  EventEnvelope& env = entry->envelope;
  env.eventId = id_field(row.event_id, "eventId", error);
  if (env.eventId.is_nil()) env.eventId = stand_in_id(row.position);
  env.sequence = row.sequence;
  env.emittedAt = from_stored_time(row.emitted_at);
  env.schemaVersion = row.schema_version;
  if (row.causation_id)
    env.causationId = id_field(*row.causation_id, "causationId", error);
  env.correlationId = id_field(row.correlation_id, "correlationId", error);
  env.depth = row.depth;
  return decode_payload(std::move(entry), std::move(row.payload),
                        std::move(error));
}

LogEntryPtr decode_mirrored_event(const MirroredEvent& event,
                                  std::int64_t position) {
  auto entry = typed_entry(event.event_type, event.publisher, position);
  EventEnvelope& env = entry->envelope;
  env.eventId =
      event.event_id.is_nil() ? stand_in_id(position) : event.event_id;
  env.sequence = event.sequence;
  env.emittedAt = event.emitted_at;
  env.schemaVersion = event.schema_version;
  env.causationId = event.causation;
  env.correlationId = event.correlation;
  env.depth = event.depth;
  return decode_payload(std::move(entry), event.payload, {});
}

std::string stored_payload(const LogEntry& entry) {
  if (entry.malformed != nullptr) return entry.malformed->raw;
  return entry.type->codec().encode(entry.payload).dump();
}

}  // namespace herald
