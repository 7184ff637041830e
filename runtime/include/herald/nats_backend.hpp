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
// What this build does: the leases, and every installed context must be
// one the node hosts (its events are delivered in the node, through its
// local store). Relaying a context's log to a JetStream stream and
// ingesting other nodes' streams (cross-node delivery) are not built yet;
// runtime/README.md, "Backends", says what is.
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
  // Called by a hosted context's outbox relay once a batch is in the
  // context's stream, before the relay commits its local mark, with the
  // context and the batch's last log position (tests: stop the process
  // there).
  std::function<void(std::string_view, std::int64_t)> relay_hook;
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
