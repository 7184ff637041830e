#pragma once
// The nats backend (library herald::runtime_nats, package component
// `nats`): a node of a Herald program spread over several processes or
// machines. Each node keeps its own sqlite local store
// (herald/sqlite_backend.hpp) and names the contexts it hosts; each hosted
// context is leased to the node in a replicated JetStream key-value bucket
// (HERALD_LEASES), renewed while the node lives, so that a context is
// hosted by one live node at a time. A program that links the library can
// name it by configuration alone (backend.kind = nats).
//
// Every installed context must be one the node hosts; events and agent
// messages cross to the other nodes through JetStream streams
// (runtime/docs/deployment.md says what is built).
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "herald/backend.hpp"
#include "herald/sqlite_backend.hpp"

namespace herald {

struct RuntimeConfig;

// A point of a relay's work, told to NatsBackendOptions::relay_hook from the
// relay's thread.
struct RelayPoint {
  enum class Kind {
    // A batch of `count` events of the hosted `context` is in its stream;
    // the outbox relay has not committed its local mark yet. `position`:
    // the batch's last log position.
    events_published,
    // A batch of `count` agent messages to the agents of `context` (hosted
    // elsewhere) is acknowledged on this node's subject of the context's
    // message stream; the message relay has not removed them from the
    // local store yet. `position`: the subject's last sequence the relay
    // knows.
    messages_published,
    // The message relay read this node's subject's last message (at
    // start, or after an error) and removed the `count` pending messages
    // up to the one it carries, which an earlier relay published and did
    // not remove, without publishing them again. `position`: that
    // message's sequence.
    messages_resynced,
  };
  Kind kind = Kind::events_published;
  std::string_view context;
  std::int64_t position = 0;
  std::int64_t count = 0;
};

struct NatsBackendOptions {
  std::vector<std::string> servers;   // URLs: nats://host:port, tls://...
  std::string node;                   // letters, digits, '-', '_'
  std::vector<std::string> contexts;  // the contexts this node hosts
  int replicas = 1;                   // of the leases bucket and streams
  // A context stream's limits: max age (0: none) and size cap in bytes (0:
  // none; at the cap the relay waits and the outbox keeps the events).
  Duration stream_max_age = std::chrono::hours(168);
  std::int64_t stream_max_bytes = 0;
  Duration lease_ttl = std::chrono::seconds(10);
  Duration timeout = std::chrono::seconds(2);  // connect, each request
  std::string credentials;  // a NATS .creds file; empty: none
  std::string tls_ca;       // CA certificates; set: TLS, servers verified
  std::string tls_cert;     // client certificate chain, with tls_key
  std::string tls_key;
  // Called by the relays at each RelayPoint (tests: stop the process
  // between a publish and its local record, see what a restarted relay
  // found).
  std::function<void(const RelayPoint&)> relay_hook;
};

// The options the configuration names (backend.nats.*).
NatsBackendOptions nats_backend_options(const RuntimeConfig& config);

// Connects, opens (or creates) the leases bucket and takes the lease of
// every context in `nats.contexts`, then opens the local store. Throws
// OwnershipError naming the holder when another node holds a lease,
// ConfigError when the bucket was created with other settings, and
// herald::Error when the servers cannot be reached or the local store
// cannot be opened. Installing a context the node does not host is a
// ConfigError, and so is, at recovery, a hosted context that was not
// installed. Every commit is refused (herald::Error, which the runtime
// retries) while the node does not hold all its leases.
std::unique_ptr<Backend> make_nats_backend(NatsBackendOptions nats,
                                           SqliteBackendOptions local);

}  // namespace herald
