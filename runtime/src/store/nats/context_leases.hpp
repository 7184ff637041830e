#pragma once
// Internal to the nats backend: each hosted context is leased to one node
// in a replicated JetStream key-value bucket (HERALD_LEASES, one key per
// context). A lease is taken with create-if-absent, or over a released or
// this node's own earlier lease by revision (compare and set); renewed by
// revision every third of the TTL; lapses when the bucket's TTL passes
// without a renewal (the server drops the value); released at close by
// revision. A second node asking for a held context is refused with an
// OwnershipError naming the holder.
//
// Fencing: a lease counts as held only until its TTL has passed since the
// start of its last successful renewal (the steady clock), since the
// server may have dropped it then. check_held() refuses every commit of a
// node that no longer holds all its leases, so two nodes never both act for
// one context; it throws herald::Unavailable, so that deliveries and
// messages wait for the lease instead of spending their attempts.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "herald/time.hpp"
#include "lease_record.hpp"
#include <nats/nats.h>

namespace herald::nats_detail {

class NatsClient;

struct LeaseOptions {
  std::string bucket = "HERALD_LEASES";
  std::string node;
  int replicas = 1;
  Duration ttl = std::chrono::seconds(10);
};

class ContextLeases {
 public:
  // Opens the bucket, creating it if absent. Throws ConfigError when an
  // existing bucket's TTL or replicas differ from `options` (every node of
  // a cluster must use the same; the bucket is never changed silently).
  ContextLeases(NatsClient& client, LeaseOptions options);
  // Stops renewing and releases every lease still held.
  ~ContextLeases();
  ContextLeases(const ContextLeases&) = delete;
  ContextLeases& operator=(const ContextLeases&) = delete;

  // Takes the lease of `context`. Throws OwnershipError naming the holder
  // when another node holds it, herald::Error when the servers fail.
  void acquire(const std::string& context);
  // Renews every held lease every third of the TTL, on a thread of its own,
  // until destruction.
  void start_renewal();
  // Throws herald::Unavailable naming the context when a lease lapsed (no
  // renewal for a TTL) or was lost to another node.
  void check_held() const;
  // The current holder of `context`'s lease in the bucket; nullopt if none.
  std::optional<LeaseRecord> holder(const std::string& context);
  const LeaseRecord& self() const { return self_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Held {
    std::uint64_t revision = 0;
    Clock::time_point valid_until{};
    std::string lost;        // why the lease is gone for good; empty if not
    std::string last_error;  // of the last renewal that failed
  };

  // Opens the bucket (creating it if absent) and returns its settings;
  // retried for at most the lease TTL. Throws Error after that.
  kvStatus* open(NatsClient& client);
  // One renewal of `context`'s lease at `revision` (network calls, outside
  // mutex_); takes it back when it lapsed and is free again. Updates
  // held_ under mutex_.
  void renew(const std::string& context, std::uint64_t revision,
             Clock::time_point valid_until);
  void renew_loop();
  // Create-if-absent, else compare and set over a released lease or this
  // node's own, retried (a cluster's new bucket answers once its replicas
  // have a leader) until `until` (at least one round). Returns the
  // revision; throws OwnershipError when held by another node.
  std::uint64_t take(const std::string& context, Clock::time_point until);
  bool stopping() const;

  LeaseOptions options_;
  LeaseRecord self_;
  std::string value_;  // encode_lease(self_)
  kvStore* kv_ = nullptr;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::map<std::string, Held> held_;
  std::thread renewer_;
};

}  // namespace herald::nats_detail
