// The conformance suite (tests/runtime/conformance_cases.hpp) on the nats
// transport: every scenario's World is a node hosting both contexts of the
// commerce fixture, its local store a sqlite database, on a nats-server of
// its own (a new World, with a new database, starts a new server, so each
// scenario's streams start empty). A restart drops the backend and opens a
// new node of the same name on the same database, which takes its leases
// back at once; the relay publishes the context's events to its stream
// beside the local delivery the scenarios check.
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "herald/backend_kind.hpp"
#include "herald/nats_backend.hpp"
#include "nats_server.hpp"
#include "test_world.hpp"

namespace herald::test {
namespace {

struct OnNats {
  static constexpr BackendKind kind = BackendKind::nats;
};

// The server of the World being run (cases run one after another).
struct CurrentServer {
  std::string database;
  std::unique_ptr<NatsServer> server;
};

std::shared_ptr<Backend> open_node(SqliteBackendOptions local) {
  static CurrentServer current;
  if (current.database != local.path) {
    current.server.reset();
    current.server = std::make_unique<NatsServer>();
    current.database = local.path;
  }
  NatsBackendOptions nats;
  nats.servers = {current.server->url()};
  nats.node = "conformance-1";
  nats.contexts = {"commerce.order", "commerce.notifications"};
  return make_nats_backend(std::move(nats), std::move(local));
}

[[maybe_unused]] const bool kRegistered = [] {
  nats_backend_factory() = &open_node;
  return true;
}();

}  // namespace
}  // namespace herald::test

TYPE_TO_STRING_AS("nats", herald::test::OnNats);

#define HERALD_CONFORMANCE_BACKENDS herald::test::OnNats
#include "conformance_cases.hpp"
