// The operator's view of a nats node (herald/nats_operator.hpp): the local
// status, and the node's streams and consumers as the servers report them.
#include "herald/nats_operator.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "nats_client.hpp"
#include "stream_layout.hpp"
#include "stream_lookup.hpp"
#include "stream_message.hpp"

namespace herald::nats_detail {
namespace {

struct StreamNamesDeleter {
  void operator()(jsStreamNamesList* list) const {
    jsStreamNamesList_Destroy(list);
  }
};
struct ConsumerNamesDeleter {
  void operator()(jsConsumerNamesList* list) const {
    jsConsumerNamesList_Destroy(list);
  }
};

constexpr std::string_view kStreamPrefix = "HERALD_";
constexpr std::string_view kMessageStreamPrefix = "HERALD_MSG_";

// The inverse of the name mapping (stream_layout.hpp): Herald names hold
// no '-'.
std::string undashed(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '-', '.');
  return out;
}

std::string context_of(const std::string& event_type) {
  const std::size_t dot = event_type.rfind('.');
  return dot == std::string::npos ? event_type : event_type.substr(0, dot);
}

std::int64_t head_of(const op::Status& local, std::string_view context) {
  for (const op::LogStatus& log : local.logs)
    if (log.context == context) return log.head;
  return 0;
}

std::int64_t mark_of(const op::Status& local, std::string_view name) {
  for (const op::TransportMark& mark : local.transport_marks)
    if (mark.name == name) return mark.value;
  return 0;
}

// Whether `consumer`, on `stream`, is `node`'s consumer of one of the
// stream's event types. A node name may hold '_', so the prefix
// `<node>_` alone does not tell: node `a` must not claim the consumers of
// node `a_b` (`a_b_commerce-order-E` read as node `a` names the event type
// `b_commerce.order.E`, not one of this stream's context).
bool is_consumer_of(std::string_view consumer, std::string_view node,
                    std::string_view stream) {
  if (!stream.starts_with(kStreamPrefix)) return false;
  const std::string prefix = fmt::format("{}_", node);
  if (!consumer.starts_with(prefix)) return false;
  const std::string event_type = undashed(consumer.substr(prefix.size()));
  return context_of(event_type) ==
             undashed(stream.substr(kStreamPrefix.size())) &&
         consumer_name(node, event_type) == consumer;
}

// The servers' answers the status needs, each request bounded by the
// node's timeout.
class Broker {
 public:
  explicit Broker(const NatsBackendOptions& o)
      : client_(NatsClientOptions{
            o.servers, fmt::format("herald status {}", o.node), o.timeout,
            o.credentials, o.tls_ca, o.tls_cert, o.tls_key}) {}

  // Unset when the stream does not exist. The log position of the last
  // message is read for a context's event stream only (agent messages
  // carry none).
  std::optional<op::StreamState> stream(const std::string& name) {
    std::optional<op::StreamState> s = stream_state(name);
    if (!s || s->last_sequence == 0 || s->messages == 0) return s;
    natsMsg* msg = nullptr;
    jsErrCode code{};
    const natsStatus got = js_GetMsg(&msg, client_.jetstream(), name.c_str(),
                                     s->last_sequence, nullptr, &code);
    if (got != NATS_NOT_FOUND && code != JSNoMessageFoundErr) {
      check(got, fmt::format("the last message of stream {}", name));
      const MsgPtr owned(msg);
      s->last_position = message_position(msg);
    }
    return s;
  }

  // Unset when the stream does not exist; without `last_position`.
  std::optional<op::StreamState> stream_state(const std::string& name) {
    jsStreamInfo* raw = nullptr;
    jsErrCode code{};
    const natsStatus status = js_GetStreamInfo(&raw, client_.jetstream(),
                                               name.c_str(), nullptr, &code);
    if (status == NATS_NOT_FOUND || code == JSStreamNotFoundErr) return {};
    check(status, fmt::format("stream {}", name));
    const std::unique_ptr<jsStreamInfo, StreamInfoDeleter> info(raw);
    op::StreamState s;
    s.messages = info->State.Msgs;
    s.bytes = info->State.Bytes;
    s.first_sequence = info->State.FirstSeq;
    s.last_sequence = info->State.LastSeq;
    s.replicas = info->Config->Replicas;
    if (info->Cluster != nullptr && info->Cluster->Leader != nullptr)
      s.leader = info->Cluster->Leader;
    return s;
  }

  // The sequence of the last message of `subject` on `stream`; unset when
  // the subject holds none (or the stream does not exist).
  std::optional<std::uint64_t> last_on_subject(const std::string& stream,
                                               const std::string& subject) {
    natsMsg* raw = nullptr;
    jsErrCode code{};
    const natsStatus status =
        js_GetLastMsg(&raw, client_.jetstream(), stream.c_str(),
                      subject.c_str(), nullptr, &code);
    if (status == NATS_NOT_FOUND || code == JSNoMessageFoundErr ||
        code == JSStreamNotFoundErr)
      return {};
    check(status, fmt::format("the last message of subject {} of stream {}",
                              subject, stream));
    const MsgPtr owned(raw);
    return natsMsg_GetSequence(raw);
  }

  // Unset when the consumer does not exist.
  std::optional<op::ConsumerState> consumer(const std::string& stream,
                                            const std::string& name) {
    jsConsumerInfo* raw = nullptr;
    jsErrCode code{};
    const natsStatus status =
        js_GetConsumerInfo(&raw, client_.jetstream(), stream.c_str(),
                           name.c_str(), nullptr, &code);
    if (status == NATS_NOT_FOUND || code == JSConsumerNotFoundErr ||
        code == JSStreamNotFoundErr)
      return {};
    check(status, fmt::format("consumer {} of stream {}", name, stream));
    const std::unique_ptr<jsConsumerInfo, ConsumerInfoDeleter> info(raw);
    return op::ConsumerState{info->Delivered.Stream, info->AckFloor.Stream,
                             info->NumPending, info->NumAckPending,
                             info->NumRedelivered};
  }

  // The streams Herald's relays write to.
  std::vector<std::string> herald_streams() {
    jsStreamNamesList* raw = nullptr;
    jsErrCode code{};
    const natsStatus status =
        js_StreamNames(&raw, client_.jetstream(), nullptr, &code);
    if (status == NATS_NOT_FOUND) return {};
    check(status, "the names of the streams");
    const std::unique_ptr<jsStreamNamesList, StreamNamesDeleter> list(raw);
    std::vector<std::string> out;
    for (int i = 0; i < list->Count; ++i) {
      const std::string_view name = list->List[i];
      if (name.starts_with(kStreamPrefix)) out.emplace_back(name);
    }
    return out;
  }

  std::vector<std::string> consumers_of(const std::string& stream) {
    jsConsumerNamesList* raw = nullptr;
    jsErrCode code{};
    const natsStatus status = js_ConsumerNames(&raw, client_.jetstream(),
                                               stream.c_str(), nullptr, &code);
    if (status == NATS_NOT_FOUND) return {};
    check(status, fmt::format("the consumers of stream {}", stream));
    const std::unique_ptr<jsConsumerNamesList, ConsumerNamesDeleter> list(raw);
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(list->Count));
    for (int i = 0; i < list->Count; ++i) out.emplace_back(list->List[i]);
    return out;
  }

  // The messages of `stream` matching `filter` with a sequence in (after,
  // upto], walked one matching message at a time; unset when there are
  // more than `cap`.
  std::optional<std::int64_t> count_between(const std::string& stream,
                                            const std::string& filter,
                                            std::uint64_t after,
                                            std::uint64_t upto,
                                            std::int64_t cap) {
    std::int64_t count = 0;
    std::uint64_t from = after + 1;
    while (from <= upto) {
      const std::optional<std::uint64_t> seq =
          next_matching(client_, stream, filter, from);
      if (!seq || *seq > upto) break;
      if (++count > cap) return {};
      from = *seq + 1;
    }
    return count;
  }

 private:
  NatsClient client_;
};

// The node's lag for a consumer: the messages of its `filter` that
// `stream` holds above `ingested`, the sequence the node's store holds (an
// event type's, into a mirror; a context's agent messages, into the
// pending messages). The consumer's pending count is taken above its last
// delivery; the messages between that and the store's mark are counted one
// by one (normally the deliveries of a batch in flight, at most the
// consumer's max ack pending).
std::optional<std::int64_t> consumer_lag(
    Broker& broker, const std::string& stream, const std::string& filter,
    std::int64_t mark, const std::optional<op::ConsumerState>& consumer,
    const std::optional<op::StreamState>& s) {
  const auto ingested = static_cast<std::uint64_t>(mark);
  if (!consumer) {
    if (!s) return 0;
    return broker.count_between(stream, filter, ingested, s->last_sequence,
                                kMaxAckPending);
  }
  const op::ConsumerState& c = *consumer;
  const auto pending = static_cast<std::int64_t>(c.pending);
  if (ingested == c.delivered) return pending;
  if (ingested < c.delivered) {
    const auto between = broker.count_between(stream, filter, ingested,
                                              c.delivered, kMaxAckPending);
    if (!between) return {};
    return pending + *between;
  }
  const auto between = broker.count_between(stream, filter, c.delivered,
                                            ingested, kMaxAckPending);
  if (!between) return {};
  return std::max<std::int64_t>(0, pending - *between);
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The message relays and intakes the database tells of: a relay per
// context hosted elsewhere whose agents have messages pending here; an
// intake per hosted context whose agents have state or pending messages
// here, or whose messages this node received before.
void local_message_parts(
    const op::Status& local, const NatsBackendOptions& options,
    std::map<std::string, op::MessageRelayStatus>& relays,
    std::map<std::string, op::MessageIntakeStatus>& intakes) {
  const auto intake = [&](const std::string& context) {
    op::MessageIntakeStatus& in = intakes[context];
    in.context = context;
    in.stream = message_stream(context).name;
    in.consumer = message_consumer(context, options.node).name;
    in.received = mark_of(local, "ingest." + in.stream);
  };
  for (const op::PendingMessages& p : local.pending_by_kind) {
    const std::string context = context_of(p.agent_kind);
    if (contains(options.contexts, context)) {
      intake(context);
      continue;
    }
    op::MessageRelayStatus& relay = relays[context];
    relay.context = context;
    relay.stream = message_stream(context).name;
    relay.subject = message_subject(context, options.node);
    relay.pending += p.messages;
  }
  for (const op::AgentKindStatus& a : local.agents) {
    const std::string context = context_of(a.kind);
    if (contains(options.contexts, context)) intake(context);
  }
  for (const std::string& context : options.contexts) {
    if (!intakes.contains(context) &&
        mark_of(local, "ingest." + message_stream(context).name) > 0)
      intake(context);
  }
}

}  // namespace
}  // namespace herald::nats_detail

namespace herald {

op::NodeStatus nats_node_status(SqliteOperator& db,
                                const NatsBackendOptions& options) {
  namespace nd = nats_detail;
  op::NodeStatus status;
  status.node = options.node;
  status.servers = options.servers;
  status.local = db.status();
  const op::Status& local = status.local;

  std::vector<std::string> hosted = options.contexts;
  std::sort(hosted.begin(), hosted.end());
  for (const std::string& context : hosted) {
    op::RelayStatus relay;
    relay.context = context;
    relay.stream = nd::stream_name(context);
    relay.head = nd::head_of(local, context);
    relay.relayed = nd::mark_of(local, "relay." + context);
    relay.lag = std::max<std::int64_t>(0, relay.head - relay.relayed);
    status.relays.push_back(std::move(relay));
  }

  // This node's consumers: those its database keeps a mark of ...
  const std::string prefix = options.node + "_";
  std::map<std::string, op::IngestStatus> ingests;
  const auto add_ingest = [&](const std::string& consumer) {
    op::IngestStatus& ingest = ingests[consumer];
    ingest.consumer = consumer;
    ingest.event_type = nd::undashed(consumer.substr(prefix.size()));
    ingest.context = nd::context_of(ingest.event_type);
    ingest.stream = nd::stream_name(ingest.context);
    ingest.ingested = nd::mark_of(local, "ingest." + consumer);
    ingest.mirror_head = nd::head_of(local, ingest.context);
  };
  for (const op::TransportMark& mark : local.transport_marks) {
    constexpr std::string_view kIngest = "ingest.";
    if (!mark.name.starts_with(kIngest)) continue;
    const std::string consumer = mark.name.substr(kIngest.size());
    // A message stream's mark (ingest.HERALD_MSG_<context>) is the message
    // intake's.
    if (consumer.starts_with(nd::kMessageStreamPrefix)) continue;
    if (consumer.starts_with(prefix)) add_ingest(consumer);
  }

  std::map<std::string, op::MessageRelayStatus> message_relays;
  std::map<std::string, op::MessageIntakeStatus> message_intakes;
  nd::local_message_parts(local, options, message_relays, message_intakes);

  try {
    nd::Broker broker(options);
    std::vector<op::RelayStatus> relays = status.relays;
    for (op::RelayStatus& relay : relays) {
      relay.state = broker.stream(relay.stream);
      if (relay.state && relay.state->last_position) {
        relay.lag = std::max<std::int64_t>(
            0,
            relay.head - std::max(relay.relayed, *relay.state->last_position));
      }
    }
    // ... and those the servers have on Herald's streams.
    const std::vector<std::string> streams_there = broker.herald_streams();
    for (const std::string& stream : streams_there) {
      if (stream.starts_with(nd::kMessageStreamPrefix)) continue;
      for (const std::string& consumer : broker.consumers_of(stream)) {
        if (nd::is_consumer_of(consumer, options.node, stream) &&
            !ingests.contains(consumer))
          add_ingest(consumer);
      }
    }
    std::map<std::string, std::optional<op::StreamState>> streams;
    for (auto& [name, ingest] : ingests) {
      ingest.state = broker.consumer(ingest.stream, name);
      auto known = streams.find(ingest.stream);
      if (known == streams.end())
        known =
            streams.emplace(ingest.stream, broker.stream(ingest.stream)).first;
      ingest.lag = nd::consumer_lag(
          broker, ingest.stream, nd::event_filter(ingest.event_type),
          ingest.ingested, ingest.state, known->second);
    }

    // Agent messages: the message streams there are tell of the contexts
    // this node sent to (its subject holds messages) and of the hosted
    // contexts other nodes sent to.
    std::map<std::string, op::MessageRelayStatus> sent = message_relays;
    std::map<std::string, op::MessageIntakeStatus> received = message_intakes;
    for (const std::string& stream : streams_there) {
      if (!stream.starts_with(nd::kMessageStreamPrefix)) continue;
      const std::string context =
          nd::undashed(stream.substr(nd::kMessageStreamPrefix.size()));
      if (nd::contains(options.contexts, context)) {
        op::MessageIntakeStatus& in = received[context];
        in.context = context;
        in.stream = stream;
        in.consumer = nd::message_consumer(context, options.node).name;
        in.received = nd::mark_of(local, "ingest." + stream);
        continue;
      }
      const std::string subject = nd::message_subject(context, options.node);
      if (!sent.contains(context) && broker.last_on_subject(stream, subject)) {
        op::MessageRelayStatus& relay = sent[context];
        relay.context = context;
        relay.stream = stream;
        relay.subject = subject;
      }
    }
    for (auto& [context, relay] : sent) {
      relay.state = broker.stream_state(relay.stream);
      if (relay.state)
        relay.last_sequence =
            broker.last_on_subject(relay.stream, relay.subject);
    }
    for (auto& [context, in] : received) {
      in.state = broker.stream_state(in.stream);
      if (in.state) in.consumer_state = broker.consumer(in.stream, in.consumer);
      in.lag = nd::consumer_lag(
          broker, in.stream, nd::message_consumer(context, options.node).filter,
          in.received, in.consumer_state, in.state);
    }
    status.relays = std::move(relays);
    message_relays = std::move(sent);
    message_intakes = std::move(received);
  } catch (const std::exception& e) {
    status.broker_error = e.what();
    for (auto& [name, ingest] : ingests) {
      ingest.state.reset();
      ingest.lag.reset();
    }
  }
  for (auto& [name, ingest] : ingests)
    status.ingests.push_back(std::move(ingest));
  for (auto& [context, relay] : message_relays)
    status.message_relays.push_back(std::move(relay));
  for (auto& [context, in] : message_intakes)
    status.message_intakes.push_back(std::move(in));
  return status;
}

}  // namespace herald
