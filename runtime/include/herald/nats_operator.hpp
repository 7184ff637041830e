#pragma once
// The operator's view of a node of the nats backend: the local status of
// its database (herald/sqlite_operator.hpp) beside what the NATS servers
// say of the node's streams and consumers, and the lags the two give
// together (runtime/docs/deployment.md, "Reading a node's state"; the
// `herald status` front end: tools/herald/README.md). It only reads: the
// broker part through JetStream's info requests, with the node's
// connection options and timeout. When no server answers, the local part
// is still whole and the broker part says why it is missing.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "herald/nats_backend.hpp"
#include "herald/sqlite_operator.hpp"

namespace herald::op {

// A stream as the servers report it.
struct StreamState {
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;
  std::uint64_t first_sequence = 0;
  std::uint64_t last_sequence = 0;
  int replicas = 0;
  std::optional<std::string> leader;  // the server leading it, if known
  // The log position the stream's last message carries (unset when the
  // stream is empty).
  std::optional<std::int64_t> last_position;
};

// A hosted context's outbox relay: its local log beside its stream.
struct RelayStatus {
  std::string context;
  std::string stream;                // HERALD_<context>
  std::int64_t head = 0;             // the local log's head
  std::int64_t relayed = 0;          // the relay's committed mark (a position)
  std::optional<StreamState> state;  // unset: the broker was not read, or
                                     // the stream does not exist yet
  // Entries of the local log not yet in the stream: head minus the higher
  // of the mark and the stream's last position (never below 0).
  std::int64_t lag = 0;
};

// A consumer as the servers report it (stream sequences).
struct ConsumerState {
  std::uint64_t delivered = 0;   // the last delivered
  std::uint64_t ack_floor = 0;   // acknowledged up to here
  std::uint64_t pending = 0;     // of its type, not yet delivered
  std::int64_t ack_pending = 0;  // delivered, not acknowledged
  std::int64_t redelivered = 0;
};

// The ingest of one event type of a context another node hosts, into this
// node's mirror of that context's log.
struct IngestStatus {
  std::string consumer;  // <node>_<event type, '.' as '-'>
  std::string stream;
  std::string context;
  std::string event_type;
  std::int64_t ingested = 0;           // the stream sequence the mirror holds
  std::int64_t mirror_head = 0;        // the mirror's head (a local position)
  std::optional<ConsumerState> state;  // unset: not read, or no consumer
  // Messages of the event type the stream holds above `ingested`: the
  // node's lag for this type (its subscriptions' local lags come on top).
  // Unset when the broker was not read, or when more than kMaxAckPending
  // messages would have to be walked to count it.
  std::optional<std::int64_t> lag;
};

// The agent messages this node sends to the agents of a context another
// node hosts: what waits in its store beside its subject of the context's
// message stream.
struct MessageRelayStatus {
  std::string context;
  std::string stream;   // HERALD_MSG_<context>
  std::string subject;  // herald_msg.<context>.<node>
  // Messages to the context's agents pending in the local store: not yet
  // relayed.
  std::int64_t pending = 0;
  std::optional<StreamState> state;  // unset: the broker was not read, or
                                     // the stream does not exist yet
  // The sequence of the subject's last message; unset when the broker was
  // not read, or the subject holds none.
  std::optional<std::uint64_t> last_sequence;
};

// The agent messages other nodes send to the agents of a hosted context:
// the context's message stream and this node's consumer of it.
struct MessageIntakeStatus {
  std::string context;
  std::string stream;    // HERALD_MSG_<context>
  std::string consumer;  // <node>_messages
  // The stream sequence the node's store holds (received into its pending
  // messages): its mark.
  std::int64_t received = 0;
  // Unset: the broker was not read, or no node sent to the context's
  // agents yet (the first sender creates the stream).
  std::optional<StreamState> state;
  std::optional<ConsumerState> consumer_state;  // unset: not read, or none
  // Messages the stream holds above `received`: sent to this node's agents,
  // not taken in yet. Unset when the broker was not read, or when more
  // than kMaxAckPending messages would have to be walked to count it.
  std::optional<std::int64_t> lag;
};

struct NodeStatus {
  std::string node;
  std::vector<std::string> servers;
  Status local;
  std::vector<RelayStatus> relays;    // by context: the hosted ones
  std::vector<IngestStatus> ingests;  // by consumer
  std::vector<MessageRelayStatus> message_relays;    // by context
  std::vector<MessageIntakeStatus> message_intakes;  // by context
  // Set when the broker part could not be read: why (the servers did not
  // answer, a request timed out). The local part is whole.
  std::optional<std::string> broker_error;
};

}  // namespace herald::op

namespace herald {

// The status of the node `options` configures, whose database `db` is:
// its local status, a relay per context it hosts, an ingest per consumer
// of the node (those its database holds a mark of, and those the servers
// have on the Herald streams), a message relay per context it does not
// host that it sends agent messages to (messages to its agents pending in
// the database, or the node's subject holding messages on its message
// stream), and a message intake per hosted context with agents (agent
// state or pending messages of its agent kinds, a received mark, or its
// message stream on the servers). Never throws for the broker part:
// what failed there is in broker_error.
op::NodeStatus nats_node_status(SqliteOperator& db,
                                const NatsBackendOptions& options);

}  // namespace herald
