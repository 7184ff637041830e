#pragma once
// Internal to the nats backend: an event as a message on a context's
// stream. The body is the payload's JSON text; the envelope travels in
// headers: Nats-Msg-Id (the eventId: the server drops a repeat within the
// stream's duplicate window), Herald-Event-Type, Herald-Publisher,
// Herald-Sequence, Herald-Position (in the publishing node's log: how the
// relay finds where the stream ends), Herald-Emitted-At (nanoseconds since
// the epoch), Herald-Schema-Version, Herald-Causation (absent for a root
// event), Herald-Correlation and Herald-Depth.
#include <cstdint>
#include <memory>

#include "herald/log_entry.hpp"
#include "herald/sqlite_backend.hpp"
#include <nats/nats.h>

namespace herald::nats_detail {

struct MsgDeleter {
  void operator()(natsMsg* msg) const { natsMsg_Destroy(msg); }
};
using MsgPtr = std::unique_ptr<natsMsg, MsgDeleter>;

// The message of a logged entry with a known event type (throws
// herald::Error when its payload does not encode).
MsgPtr event_message(const LogEntry& entry);

// The log position a message of the stream carries; throws herald::Error
// when it carries none (a message no relay of Herald published).
std::int64_t message_position(natsMsg* msg);

// The event a message carries; throws herald::Error naming the missing or
// malformed header.
MirroredEvent mirrored_event(natsMsg* msg);

}  // namespace herald::nats_detail
