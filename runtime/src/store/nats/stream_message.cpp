#include "stream_message.hpp"

#include <charconv>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "herald/errors.hpp"
#include "nats_client.hpp"
#include "stream_layout.hpp"

namespace herald::nats_detail {
namespace {

void set(natsMsg* msg, const char* key, const std::string& value) {
  check(natsMsgHeader_Set(msg, key, value.c_str()),
        fmt::format("message header {}", key));
}

std::optional<std::string_view> header(natsMsg* msg, const char* key) {
  const char* value = nullptr;
  if (natsMsgHeader_Get(msg, key, &value) != NATS_OK || value == nullptr)
    return std::nullopt;
  return std::string_view(value);
}

std::string_view required(natsMsg* msg, const char* key) {
  auto value = header(msg, key);
  if (!value) {
    throw MalformedMessage(
        fmt::format("a message on subject {} has no {} header",
                    natsMsg_GetSubject(msg), key));
  }
  return *value;
}

std::int64_t integer(natsMsg* msg, const char* key) {
  const std::string_view text = required(msg, key);
  std::int64_t value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw MalformedMessage(
        fmt::format("a message on subject {} has {} '{}', not an "
                    "integer",
                    natsMsg_GetSubject(msg), key, text));
  }
  return value;
}

EventId event_id(natsMsg* msg, const char* key) {
  const std::string_view text = required(msg, key);
  auto id = EventId::parse(text);
  if (!id) {
    throw MalformedMessage(
        fmt::format("a message on subject {} has {} '{}', not an id",
                    natsMsg_GetSubject(msg), key, text));
  }
  return *id;
}

}  // namespace

MsgPtr event_message(const LogEntry& entry) {
  const EventEnvelope& env = entry.envelope;
  const std::string body = entry.type->codec().encode(entry.payload).dump();
  const std::string subject =
      event_subject(entry.type->name(), env.publisherId);
  natsMsg* raw = nullptr;
  check(natsMsg_Create(&raw, subject.c_str(), nullptr, body.data(),
                       static_cast<int>(body.size())),
        "a stream message");
  MsgPtr msg(raw);
  set(raw, "Nats-Msg-Id", env.eventId.str());
  set(raw, "Herald-Event-Type", std::string(entry.type->name()));
  set(raw, "Herald-Publisher", std::string(env.publisherId));
  set(raw, "Herald-Sequence", std::to_string(env.sequence));
  set(raw, "Herald-Position", std::to_string(entry.position));
  set(raw, "Herald-Emitted-At",
      std::to_string(env.emittedAt.time_since_epoch().count()));
  set(raw, "Herald-Schema-Version", std::to_string(env.schemaVersion));
  if (env.causationId) set(raw, "Herald-Causation", env.causationId->str());
  set(raw, "Herald-Correlation", env.correlationId.str());
  set(raw, "Herald-Depth", std::to_string(env.depth));
  return msg;
}

std::int64_t message_position(natsMsg* msg) {
  return integer(msg, "Herald-Position");
}

MirroredEvent mirrored_event(natsMsg* msg) {
  MirroredEvent e;
  e.event_id = event_id(msg, "Nats-Msg-Id");
  e.event_type = std::string(required(msg, "Herald-Event-Type"));
  e.publisher = std::string(required(msg, "Herald-Publisher"));
  e.sequence = integer(msg, "Herald-Sequence");
  e.emitted_at = Instant(Duration(integer(msg, "Herald-Emitted-At")));
  e.schema_version = integer(msg, "Herald-Schema-Version");
  if (header(msg, "Herald-Causation"))
    e.causation = event_id(msg, "Herald-Causation");
  e.correlation = event_id(msg, "Herald-Correlation");
  e.depth = integer(msg, "Herald-Depth");
  e.payload.assign(natsMsg_GetData(msg),
                   static_cast<std::size_t>(natsMsg_GetDataLength(msg)));
  return e;
}

MsgPtr agent_message(const AgentMessage& message, const std::string& subject) {
  const std::string body =
      !message.malformed.empty() && message.args.is_string()
          ? message.args.get<std::string>()
          : message.args.dump();
  natsMsg* raw = nullptr;
  check(natsMsg_Create(&raw, subject.c_str(), nullptr, body.data(),
                       static_cast<int>(body.size())),
        "a stream message");
  MsgPtr msg(raw);
  set(raw, "Nats-Msg-Id", message.id.str());
  set(raw, "Herald-Agent", message.agent_kind);
  set(raw, "Herald-Key", message.key);
  set(raw, "Herald-Handler", message.handler);
  if (message.cause.causation)
    set(raw, "Herald-Causation", message.cause.causation->str());
  set(raw, "Herald-Correlation", message.cause.correlation.str());
  set(raw, "Herald-Depth", std::to_string(message.cause.depth));
  return msg;
}

AgentMessage received_message(natsMsg* msg) {
  AgentMessage m;
  m.id = event_id(msg, "Nats-Msg-Id");
  m.agent_kind = std::string(required(msg, "Herald-Agent"));
  m.key = std::string(required(msg, "Herald-Key"));
  m.handler = std::string(required(msg, "Herald-Handler"));
  if (header(msg, "Herald-Causation"))
    m.cause.causation = event_id(msg, "Herald-Causation");
  m.cause.correlation = event_id(msg, "Herald-Correlation");
  m.cause.depth = integer(msg, "Herald-Depth");
  std::string args(natsMsg_GetData(msg),
                   static_cast<std::size_t>(natsMsg_GetDataLength(msg)));
  try {
    m.args = nlohmann::json::parse(args);
  } catch (const nlohmann::json::exception& e) {
    m.malformed = e.what();
    m.args = std::move(args);
  }
  return m;
}

std::optional<EventId> message_id(natsMsg* msg) {
  auto text = header(msg, "Nats-Msg-Id");
  if (!text) return std::nullopt;
  return EventId::parse(*text);
}

}  // namespace herald::nats_detail
