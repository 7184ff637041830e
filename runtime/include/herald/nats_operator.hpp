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

struct NodeStatus {
  std::string node;
  std::vector<std::string> servers;
  Status local;
  std::vector<RelayStatus> relays;    // by context: the hosted ones
  std::vector<IngestStatus> ingests;  // by consumer
  // Set when the broker part could not be read: why (the servers did not
  // answer, a request timed out). The local part is whole.
  std::optional<std::string> broker_error;
};

}  // namespace herald::op

namespace herald {

// The status of the node `options` configures, whose database `db` is:
// its local status, a relay per context it hosts, and an ingest per
// consumer of the node (those its database holds a mark of, and those the
// servers have on the Herald streams). Never throws for the broker part:
// what failed there is in broker_error.
op::NodeStatus nats_node_status(SqliteOperator& db,
                                const NatsBackendOptions& options);

}  // namespace herald
