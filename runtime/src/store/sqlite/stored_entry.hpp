#pragma once
// Log entries read back from a durable store (D9): every row is decoded
// through its event type's codec. A row that does not decode becomes an
// entry marked malformed (the envelope fields that could be read, the raw
// payload text and the error); a row whose event type this build does not
// know becomes an entry without a type.
#include <cstdint>
#include <optional>
#include <string>

#include "herald/log_entry.hpp"
#include "herald/sqlite_backend.hpp"

namespace herald {

// One stored event as text and integers, column for column.
struct StoredEvent {
  std::string event_id;
  std::string event_type;
  std::string publisher;
  std::int64_t sequence = 0;
  std::int64_t emitted_at = 0;  // ns since the Unix epoch
  std::int64_t schema_version = 1;
  std::optional<std::string> causation_id;
  std::string correlation_id;
  std::int64_t depth = 0;
  std::string payload;  // JSON
  std::int64_t position = 0;
};

// Never throws for bad content: what fails to decode is recorded on the
// entry.
LogEntryPtr decode_stored_event(StoredEvent row);
// The same entry as decode_stored_event gives for `event`'s row at
// `position`, from the event as a mirror receives it: its ids are not
// formatted and parsed again.
LogEntryPtr decode_mirrored_event(const MirroredEvent& event,
                                  std::int64_t position);

// The payload as a store keeps it: the codec's compact JSON, or the raw
// text of a malformed entry.
std::string stored_payload(const LogEntry& entry);

std::int64_t to_stored_time(Instant at);
Instant from_stored_time(std::int64_t ns);

}  // namespace herald
