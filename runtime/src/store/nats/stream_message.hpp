#pragma once
// Internal to the nats backend: an event as a message on a context's
// stream, and an agent message as a message on the message stream of its
// agent's context (stream_layout.hpp).
//
// An event: the body is the payload's JSON text; the envelope travels in
// headers: Nats-Msg-Id (the eventId: the server drops a repeat within the
// stream's duplicate window), Herald-Event-Type, Herald-Publisher,
// Herald-Sequence, Herald-Position (in the publishing node's log: how the
// relay finds where the stream ends), Herald-Emitted-At (nanoseconds since
// the epoch), Herald-Schema-Version, Herald-Causation (absent for a root
// event), Herald-Correlation and Herald-Depth.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "herald/agent_message.hpp"
#include "herald/errors.hpp"
#include "herald/log_entry.hpp"
#include "herald/sqlite_backend.hpp"
#include <nats/nats.h>

namespace herald::nats_detail {

// A stream message whose headers are not those of a Herald event or agent
// message (published to the subject by something else than Herald).
class MalformedMessage final : public Error {
 public:
  using Error::Error;
};

struct MsgDeleter {
  void operator()(natsMsg* msg) const { natsMsg_Destroy(msg); }
};
using MsgPtr = std::unique_ptr<natsMsg, MsgDeleter>;

// The message of a logged entry with a known event type (throws
// herald::Error when its payload does not encode).
MsgPtr event_message(const LogEntry& entry);

// The log position a message of the stream carries; throws MalformedMessage
// when it carries none (a message no relay of Herald published).
std::int64_t message_position(natsMsg* msg);

// The event a message carries; throws MalformedMessage naming the missing
// or malformed header.
MirroredEvent mirrored_event(natsMsg* msg);

// An agent message: the body is the handler's encoded arguments (as the
// sender's store holds them); headers Nats-Msg-Id (the message id),
// Herald-Agent (the qualified agent kind), Herald-Key, Herald-Handler,
// Herald-Causation (absent at the root), Herald-Correlation and
// Herald-Depth. `subject`: message_subject of the agent's context and the
// sending node.
MsgPtr agent_message(const AgentMessage& message, const std::string& subject);

// The agent message a message carries (arguments that are not JSON are kept
// as text and marked malformed, as a store reads them back: the receiving
// node dead-letters it); throws MalformedMessage naming a missing or
// malformed header.
AgentMessage received_message(natsMsg* msg);

// The id a message carries in Nats-Msg-Id; nullopt when it has none.
std::optional<EventId> message_id(natsMsg* msg);

}  // namespace herald::nats_detail
