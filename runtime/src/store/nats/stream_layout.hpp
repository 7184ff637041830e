#pragma once
// Internal to the nats backend: where a context's events and the agent
// messages sent to its agents live on the servers, by one mapping of names
// (stream and consumer names cannot hold '.', context and event type names
// do; Herald names hold no '-'; a node name is one subject token):
//
//   events of a context
//   stream    HERALD_<context, '.' as '-'>
//             (HERALD_commerce-order)
//   subject   herald.<event type>.<partition>
//             (herald.commerce.order.PaymentConfirmed.7)
//   consumer  <node>_<event type, '.' as '-'>
//             (notify-1_commerce-order-PaymentConfirmed)
//
//   agent messages to a context's agents
//   stream    HERALD_MSG_<context, '.' as '-'>
//             (HERALD_MSG_chat-rooms)
//   subject   herald_msg.<context>.<sending node>
//             (herald_msg.chat.rooms.notify-1)
//   consumer  <node>_messages, the hosting node's
//             (rooms-1_messages)
//
// The partition is a stable hash (FNV-1a) of the publisher id modulo
// kPartitions: room for sharding one context by key later. A stream and a
// consumer that already exist are checked against the settings below and
// never changed: a mismatch is a ConfigError naming the setting. A read
// that disagrees is made again (5 attempts) before it counts; a request
// that fails (a cluster forming or electing a leader) is made again for up
// to 30 s.
#include <cstdint>
#include <string>
#include <string_view>

#include "herald/time.hpp"
#include <nats/nats.h>

namespace herald::nats_detail {

inline constexpr std::uint32_t kPartitions = 16;

// A stream: its name and the subjects it takes.
struct StreamSpec {
  std::string name;
  std::string subjects;
};
// A durable pull consumer: its stream, name and filter subject.
struct ConsumerSpec {
  std::string stream;
  std::string name;
  std::string filter;
};

StreamSpec event_stream(std::string_view context);
std::string stream_name(std::string_view context);  // event_stream's
std::string event_subject(std::string_view event_type,
                          std::string_view publisher);
std::string event_filter(std::string_view event_type);
std::string consumer_name(std::string_view node, std::string_view event_type);
ConsumerSpec event_consumer(std::string_view context, std::string_view node,
                            std::string_view event_type);

StreamSpec message_stream(std::string_view context);
std::string message_subject(std::string_view context, std::string_view node);
ConsumerSpec message_consumer(std::string_view context, std::string_view node);

struct StreamSettings {
  int replicas = 1;
  Duration max_age{};           // 0: kept until the size cap
  std::int64_t max_bytes = -1;  // -1: no cap; at the cap new publishes wait
  Duration duplicates = std::chrono::minutes(2);  // Nats-Msg-Id window
};

// Creates the stream (limits retention, file storage, discard-new) or
// checks the existing one.
void ensure_stream(jsCtx* js, const StreamSpec& stream,
                   const StreamSettings& settings);

// A consumer's delivery settings: explicit ack, from the stream's first
// message, every delivery retried by the server only after `ack_wait`
// (the node decides attempts; the server never gives up on a message).
inline constexpr std::int64_t kMaxAckPending = 4096;
inline constexpr Duration kAckWait = std::chrono::seconds(4);

// Creates the durable pull consumer or checks the existing one.
void ensure_consumer(jsCtx* js, const ConsumerSpec& consumer);

}  // namespace herald::nats_detail
