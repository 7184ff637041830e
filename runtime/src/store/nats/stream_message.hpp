#pragma once
// Internal to the nats backend: an event as a message on a context's
// stream, and an agent message as a message on the message stream of its
// agent's context (stream_layout.hpp).
//
// An event: headers Nats-Msg-Id (the eventId: the server drops a repeat
// within the stream's duplicate window), Herald-Publisher, Herald-Sequence
// and Herald-Position (in the publishing node's log: how the relay finds
// where the stream ends). The body is the rest of the envelope on one line,
// then the payload's JSON text:
//
//   <format> <event type> <emitted at> <schema version> <causation>
//     <correlation> <depth> '\n' <payload>
//
// on one line, fields separated by one space; <format> the event format version
// (kEventFormat), <emitted at> nanoseconds since the epoch, <causation>
// '-' for a root event, ids in their text form. Every format keeps
// Nats-Msg-Id, Herald-Position and the leading version: a message with
// Herald-Position whose body starts with another version (or none) is a
// Herald event this build cannot read, refused (UnknownFormat) rather than
// dropped.
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

// A Herald event of a format version this build does not read (written by
// a newer build): the ingest refuses its batch and acknowledges none of it.
class UnknownFormat final : public Error {
 public:
  UnknownFormat(const std::string& what, natsMsg* message)
      : Error(what), message_(message) {}
  // The message refused (owned by its batch).
  natsMsg* message() const { return message_; }

 private:
  natsMsg* message_;
};

// The event format version this build writes and reads.
inline constexpr int kEventFormat = 1;

// What an outbox relay reuses from one message to the next.
struct EventScratch {
  std::string body;
  std::string payload;  // an entry's in memory, encoded
  // The last message's event type and publisher (NUL-terminated for the
  // client's headers) and their subject: a run of one publisher's events
  // of one type computes it once.
  std::string type;
  std::string publisher;
  std::string subject;
};

// The message of a logged entry with a known event type (throws
// herald::Error when its payload does not encode).
MsgPtr event_message(const LogEntry& entry, EventScratch& scratch);
// The message of a logged entry read back as stored (OutboxEntry): its
// payload's JSON text as its commit wrote it.
MsgPtr event_message(const MirroredEvent& stored, std::int64_t position,
                     EventScratch& scratch);

// The log position a message of the stream carries; throws MalformedMessage
// when it carries none (a message no relay of Herald published).
std::int64_t message_position(natsMsg* msg);

// The event a message carries; throws MalformedMessage naming the missing
// or malformed header or envelope field, and UnknownFormat naming the
// message's stream, sequence and version when its body is of another event
// format than kEventFormat.
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
