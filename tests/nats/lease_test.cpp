// The context leases in the JetStream key-value bucket: one holder per
// context, a second node refused with the holder named, a lapse only after
// the TTL without renewal, release at close, the bucket's settings never
// changed silently, and leases kept across a server crash.
#include <chrono>
#include <thread>

#include <doctest/doctest.h>

#include "context_leases.hpp"
#include "herald/errors.hpp"
#include "nats_client.hpp"
#include "nats_server.hpp"

namespace herald::test {
namespace {

using nats_detail::ContextLeases;
using nats_detail::LeaseOptions;
using nats_detail::NatsClient;
using nats_detail::NatsClientOptions;
using namespace std::chrono_literals;

NatsClientOptions client_of(const NatsServer& server) {
  NatsClientOptions o;
  o.servers = {server.url()};
  o.name = "lease test";
  return o;
}

LeaseOptions lease(std::string node, Duration ttl = 10s) {
  return LeaseOptions{"HERALD_LEASES", std::move(node), 1, ttl};
}

TEST_CASE(
    "Leases: a second node asking for a held context is refused, "
    "naming the holder; released at close, it is taken at once") {
  NatsServer server;
  NatsClient client_a(client_of(server));
  NatsClient client_b(client_of(server));
  auto a = std::make_unique<ContextLeases>(client_a, lease("node-a"));
  a->acquire("shop.orders");
  a->check_held();
  ContextLeases b(client_b, lease("node-b"));
  CHECK_THROWS_WITH_AS(
      b.acquire("shop.orders"),
      doctest::Contains("context 'shop.orders' is hosted by node 'node-a'"),
      OwnershipError);
  // Another context is free for b.
  b.acquire("shop.billing");
  REQUIRE(b.holder("shop.billing").has_value());
  CHECK(b.holder("shop.billing")->node == "node-b");
  a.reset();  // released, by revision
  CHECK_FALSE(b.holder("shop.orders").has_value());
  b.acquire("shop.orders");
  CHECK(b.holder("shop.orders")->node == "node-b");
  b.check_held();
}

TEST_CASE("Leases: a lease lapses only after its TTL without renewal") {
  NatsServer server;
  NatsClient client_a(client_of(server));
  NatsClient client_b(client_of(server));
  // Renewed: still held after three TTLs.
  {
    ContextLeases a(client_a, lease("node-a", 1s));
    a.acquire("shop.orders");
    a.start_renewal();
    ContextLeases b(client_b, lease("node-b", 1s));
    std::this_thread::sleep_for(3s);
    CHECK_NOTHROW(a.check_held());
    CHECK_THROWS_AS(b.acquire("shop.orders"), OwnershipError);
  }
  // Not renewed (a node that stopped without releasing): refused before
  // the TTL, free after it; the old holder knows it lost it, and its
  // release at close does not touch the new holder's lease.
  auto a = std::make_unique<ContextLeases>(client_a, lease("node-a", 1s));
  a->acquire("shop.orders");
  ContextLeases b(client_b, lease("node-b", 1s));
  CHECK_THROWS_AS(b.acquire("shop.orders"), OwnershipError);
  std::this_thread::sleep_for(2500ms);
  CHECK_THROWS_WITH_AS(a->check_held(),
                       doctest::Contains("the lease of context 'shop.orders' "
                                         "held by node 'node-a' lapsed"),
                       Unavailable);
  b.acquire("shop.orders");
  a.reset();
  REQUIRE(b.holder("shop.orders").has_value());
  CHECK(b.holder("shop.orders")->node == "node-b");
}

TEST_CASE("Leases: a restarted node takes its own lease back at once") {
  NatsServer server;
  NatsClient client(client_of(server));
  ContextLeases first(client, lease("node-a"));
  first.acquire("shop.orders");
  // A second process of node-a (the first crashed: it never released).
  ContextLeases second(client, lease("node-a"));
  second.acquire("shop.orders");
  CHECK(second.holder("shop.orders")->instance == second.self().instance);
}

TEST_CASE(
    "Leases: an existing bucket with another TTL is a configuration "
    "error, never changed silently") {
  NatsServer server;
  NatsClient client(client_of(server));
  ContextLeases a(client, lease("node-a", 10s));
  CHECK_THROWS_WITH_AS(
      ContextLeases(client, lease("node-b", 20s)),
      doctest::Contains("the JetStream bucket HERALD_LEASES exists and its "
                        "lease TTL is 10s but backend.nats.lease_ttl is 20s"),
      ConfigError);
}

TEST_CASE(
    "Leases: held across a server crash and restart on the same "
    "store") {
  NatsServer server;
  NatsClient client_a(client_of(server));
  ContextLeases a(client_a, lease("node-a", 3s));
  a.acquire("shop.orders");
  a.start_renewal();
  server.kill();
  server.start();
  // Renewals resume once the client reconnects (well within the TTL).
  std::this_thread::sleep_for(2500ms);
  NatsClient client_b(client_of(server));
  ContextLeases b(client_b, lease("node-b", 3s));
  CHECK_THROWS_WITH_AS(b.acquire("shop.orders"),
                       doctest::Contains("hosted by node 'node-a'"),
                       OwnershipError);
  CHECK_NOTHROW(a.check_held());
}

}  // namespace
}  // namespace herald::test
