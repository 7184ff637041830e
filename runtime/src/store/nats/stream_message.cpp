#include "stream_message.hpp"

#include <charconv>
#include <iterator>
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

constexpr std::size_t kIdLength = 36;  // an id's text form

void set(natsMsg* msg, const char* key, const char* value) {
  // The header's name is formatted only for a failure: a relay sets four
  // headers on every message.
  const natsStatus status = natsMsgHeader_Set(msg, key, value);
  if (status != NATS_OK) check(status, fmt::format("message header {}", key));
}

void set(natsMsg* msg, const char* key, const std::string& value) {
  set(msg, key, value.c_str());
}

void set_integer(natsMsg* msg, const char* key, std::int64_t value) {
  char text[24] = {};
  std::to_chars(text, text + sizeof text - 1, value);
  set(msg, key, text);
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

// Where a consumed message is, for errors: "message <sequence> of stream
// <stream>" ("a message" when it was not read through a consumer).
std::string location(natsMsg* msg) {
  jsMsgMetaData* meta = nullptr;
  if (natsMsg_GetMetaData(&meta, msg) != NATS_OK || meta == nullptr)
    return "a message";
  std::string text = fmt::format("message {} of stream {}",
                                 meta->Sequence.Stream, meta->Stream);
  jsMsgMetaData_Destroy(meta);
  return text;
}

// The envelope line of an event message's body, field by field.
class EnvelopeLine {
 public:
  EnvelopeLine(natsMsg* msg, std::string_view body) : msg_(msg) {
    const auto end = body.find('\n');
    rest_ = body.substr(0, end);
    payload_ = end == std::string_view::npos ? std::string_view()
                                             : body.substr(end + 1);
    ended_ = end == std::string_view::npos;
  }

  // Throws UnknownFormat unless the line starts with kEventFormat.
  void check_format() {
    const auto space = rest_.find(' ');
    const std::string_view version = rest_.substr(0, space);
    int number = 0;
    const auto [end, error] = std::from_chars(
        version.data(), version.data() + version.size(), number);
    const bool numeric = !version.empty() && error == std::errc() &&
                         end == version.data() + version.size();
    if (numeric && number == kEventFormat) {
      rest_ = space == std::string_view::npos ? std::string_view()
                                              : rest_.substr(space + 1);
      return;
    }
    throw UnknownFormat(
        fmt::format(
            "{} is a Herald event {}; this build reads event format {}: the "
            "message is left unacknowledged for a build that reads it",
            location(msg_),
            numeric ? fmt::format("of event format {}", number)
                    : std::string("without an event format version (a build "
                                  "before versioned formats wrote it)"),
            kEventFormat),
        msg_);
  }

  std::string_view field(const char* name) {
    if (rest_.empty()) malformed(name, "is missing");
    const auto space = rest_.find(' ');
    const std::string_view value = rest_.substr(0, space);
    rest_ = space == std::string_view::npos ? std::string_view()
                                            : rest_.substr(space + 1);
    if (value.empty()) malformed(name, "is empty");
    return value;
  }

  std::int64_t integer(const char* name) {
    const std::string_view text = field(name);
    std::int64_t value = 0;
    const auto [end, error] =
        std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
      malformed(name, fmt::format("'{}' is not an integer", text));
    return value;
  }

  EventId id(const char* name, std::string_view text) {
    auto parsed = EventId::parse(text);
    if (!parsed) malformed(name, fmt::format("'{}' is not an id", text));
    return *parsed;
  }

  // The payload after the line; throws if the line has fields left or no
  // end.
  std::string_view payload() {
    if (!rest_.empty()) malformed("line", "has fields after depth");
    if (ended_) malformed("line", "has no end");
    return payload_;
  }

 private:
  [[noreturn]] void malformed(const char* name, std::string_view what) {
    throw MalformedMessage(fmt::format("{} (subject {}): the envelope's {} {}",
                                       location(msg_), natsMsg_GetSubject(msg_),
                                       name, what));
  }

  natsMsg* msg_;
  std::string_view rest_;  // the fields not read yet
  std::string_view payload_;
  bool ended_ = false;
};

// An event's message, from its entry in memory or its row as stored.
struct EventFields {
  std::string_view type;
  std::string_view publisher;
  EventId id;
  std::int64_t sequence = 0;
  std::int64_t emitted_at = 0;  // ns since the epoch
  std::int64_t schema_version = 1;
  std::optional<EventId> causation;
  EventId correlation;
  std::int64_t depth = 0;
  std::int64_t position = 0;
};

MsgPtr message(const EventFields& f, std::string_view payload,
               EventScratch& scratch) {
  std::string& body = scratch.body;
  body.clear();
  auto out = std::back_inserter(body);
  char id[kIdLength + 1] = {};
  fmt::format_to(out, "{} {} {} {} ", kEventFormat, f.type, f.emitted_at,
                 f.schema_version);
  if (f.causation) {
    f.causation->write_to(id);
    body.append(id, kIdLength);
  } else {
    body.push_back('-');
  }
  body.push_back(' ');
  f.correlation.write_to(id);
  body.append(id, kIdLength);
  fmt::format_to(out, " {}\n", f.depth);
  body.append(payload);

  if (scratch.subject.empty() || f.type != scratch.type ||
      f.publisher != scratch.publisher) {
    scratch.type.assign(f.type);
    scratch.publisher.assign(f.publisher);
    scratch.subject = event_subject(f.type, f.publisher);
  }
  natsMsg* raw = nullptr;
  check(natsMsg_Create(&raw, scratch.subject.c_str(), nullptr, body.data(),
                       static_cast<int>(body.size())),
        "a stream message");
  MsgPtr msg(raw);
  f.id.write_to(id);
  set(raw, "Nats-Msg-Id", id);
  set(raw, "Herald-Publisher", scratch.publisher.c_str());
  set_integer(raw, "Herald-Sequence", f.sequence);
  set_integer(raw, "Herald-Position", f.position);
  return msg;
}

}  // namespace

MsgPtr event_message(const LogEntry& entry, EventScratch& scratch) {
  const EventEnvelope& env = entry.envelope;
  scratch.payload = entry.type->codec().encode(entry.payload).dump();
  return message(
      EventFields{entry.type->name(), env.publisherId, env.eventId,
                  env.sequence, env.emittedAt.time_since_epoch().count(),
                  env.schemaVersion, env.causationId, env.correlationId,
                  env.depth, entry.position},
      scratch.payload, scratch);
}

MsgPtr event_message(const MirroredEvent& stored, std::int64_t position,
                     EventScratch& scratch) {
  return message(
      EventFields{stored.event_type, stored.publisher, stored.event_id,
                  stored.sequence, stored.emitted_at.time_since_epoch().count(),
                  stored.schema_version, stored.causation, stored.correlation,
                  stored.depth, position},
      stored.payload, scratch);
}

std::int64_t message_position(natsMsg* msg) {
  return integer(msg, "Herald-Position");
}

MirroredEvent mirrored_event(natsMsg* msg) {
  MirroredEvent e;
  e.event_id = event_id(msg, "Nats-Msg-Id");
  // A message of Herald's relay (whatever its format) carries its position.
  message_position(msg);
  const std::string_view body(
      natsMsg_GetData(msg),
      static_cast<std::size_t>(natsMsg_GetDataLength(msg)));
  EnvelopeLine line(msg, body);
  line.check_format();
  e.publisher = std::string(required(msg, "Herald-Publisher"));
  e.sequence = integer(msg, "Herald-Sequence");
  e.event_type = std::string(line.field("event type"));
  e.emitted_at = Instant(Duration(line.integer("emitted at")));
  e.schema_version = line.integer("schema version");
  const std::string_view causation = line.field("causation");
  if (causation != "-") e.causation = line.id("causation", causation);
  e.correlation = line.id("correlation", line.field("correlation"));
  e.depth = line.integer("depth");
  e.payload = std::string(line.payload());
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
