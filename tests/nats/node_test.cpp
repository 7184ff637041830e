// A node on the nats backend, configured by keys alone (backend.kind =
// nats): the commerce program's two contexts hosted by one node, its local
// store a sqlite database held in SQLite's exclusive locking mode; the leases
// refusing a second node, an installed context the node does not host, a hosted
// context never installed, and every commit once the node's leases lapsed.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/agent_kind.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/errors.hpp"
#include "herald/log.hpp"
#include "herald/runtime.hpp"
#include "herald/service.hpp"
#include "nats_server.hpp"
#include "temp_database.hpp"

namespace herald::test {
namespace {

using commerce::order::AuthId;
using commerce::order::InternalCaller;
using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::UserId;
using namespace std::chrono_literals;

class RecordingGateway final : public commerce::notifications::Gateway {
 public:
  void notify(const UserId& /*user*/, const std::string& text) override {
    sent.push_back(text);
  }
  std::vector<std::string> sent;
};

RuntimeConfig node_config(const NatsServer& server, const std::string& node,
                          const std::string& contexts,
                          const std::string& database,
                          const std::string& lease_ttl = "10s") {
  ConfigSources sources;
  sources.settings = {{"executor.kind", "deterministic"},
                      {"backend.kind", "nats"},
                      {"backend.sqlite.path", database},
                      {"backend.nats.servers", server.url()},
                      {"backend.nats.node", node},
                      {"backend.nats.contexts", contexts},
                      {"backend.nats.lease_ttl", lease_ttl}};
  sources.environment = std::map<std::string, std::string>{};
  return load_config(sources);
}

constexpr const char* kBoth = "commerce.order,commerce.notifications";

// One process of a node: a runtime over the backend its configuration
// names, with both contexts installed.
struct Node {
  explicit Node(RuntimeConfig config) : executor(1) {
    runtime =
        std::make_unique<Runtime>(std::move(config), executor, nullptr, &log);
    runtime->install(commerce::order::context());
    runtime->install(commerce::notifications::context(gateway));
    runtime->recover();
  }
  void pay(const std::string& order, const std::string& user) {
    Order o = Order::at(*runtime, OrderId::from_raw(order));
    o.place(UserId::from_raw(user), Money{1000, "EUR"});
    o.markPaid(InternalCaller{}, AuthId::from_raw("a-" + order));
    executor.run_all();
  }
  std::vector<std::string> inbox(const std::string& owner) {
    return commerce::notifications::Inbox::at(*runtime, owner).messages();
  }

  DeterministicExecutor executor;
  MemoryLogSink log;
  RecordingGateway gateway;
  std::unique_ptr<Runtime> runtime;
};

TEST_CASE(
    "Node: a node hosting both contexts delivers in its local store, "
    "across a restart on the same database") {
  NatsServer server;
  TempDatabase db;
  {
    Node node(node_config(server, "node-a", kBoth, db.path));
    node.pay("o-1", "u-1");
    CHECK(node.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
    CHECK(node.runtime->store().name() == "nats");
    // The node holds its database in SQLite's exclusive locking mode: the
    // WAL index is in its memory, never a shared `-shm` file.
    CHECK_FALSE(std::filesystem::exists(db.path + "-shm"));
  }
  Node again(node_config(server, "node-a", kBoth, db.path));
  CHECK(again.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
  again.pay("o-2", "u-1");
  CHECK(again.inbox("u-1") ==
        std::vector<std::string>{"domestic o-1:1000", "domestic o-2:1000"});
}

TEST_CASE(
    "Node: a second node configured for a hosted context stops at "
    "start-up, naming the holder") {
  NatsServer server;
  TempDatabase db_a;
  TempDatabase db_b;
  Node a(node_config(server, "node-a", kBoth, db_a.path));
  DeterministicExecutor executor(1);
  MemoryLogSink log;
  CHECK_THROWS_WITH_AS(
      Runtime(node_config(server, "node-b", "commerce.order", db_b.path),
              executor, nullptr, &log),
      doctest::Contains("context 'commerce.order' is hosted by node 'node-a' "
                        "(process "),
      OwnershipError);
}

TEST_CASE(
    "Node: an installed context the node does not host, and a hosted "
    "context never installed, are configuration errors") {
  NatsServer server;
  {
    TempDatabase db;
    DeterministicExecutor executor(1);
    MemoryLogSink log;
    RecordingGateway gateway;
    Runtime rt(node_config(server, "node-a", "commerce.order", db.path),
               executor, nullptr, &log);
    rt.install(commerce::order::context());
    CHECK_THROWS_WITH_AS(
        rt.install(commerce::notifications::context(gateway)),
        doctest::Contains("context 'commerce.notifications' is installed on "
                          "node 'node-a', whose backend.nats.contexts does not "
                          "name it"),
        ConfigError);
  }
  TempDatabase db;
  DeterministicExecutor executor(1);
  MemoryLogSink log;
  Runtime rt(
      node_config(server, "node-a", "commerce.order,commerce.ordr", db.path),
      executor, nullptr, &log);
  rt.install(commerce::order::context());
  CHECK_THROWS_WITH_AS(
      rt.recover(),
      "configuration key 'backend.nats.contexts' names 'commerce.ordr', which "
      "is not an installed context; did you mean 'commerce.order'?",
      ConfigError);
}

TEST_CASE(
    "Node: once its leases lapse (servers gone past the TTL) a node "
    "commits nothing; it goes on once it holds them again") {
  NatsServer server;
  TempDatabase db;
  Node node(node_config(server, "node-a", kBoth, db.path, "1s"));
  node.pay("o-1", "u-1");
  server.kill();
  std::this_thread::sleep_for(1500ms);
  Order o = Order::at(*node.runtime, OrderId::from_raw("o-2"));
  CHECK_THROWS_WITH_AS(
      o.place(UserId::from_raw("u-1"), Money{500, "EUR"}),
      doctest::Contains("the lease of context 'commerce.notifications' held "
                        "by node 'node-a' lapsed"),
      HandlerFault);
  // Not the call's fault: a delivery or message meeting it waits for the
  // lease instead of spending its attempts.
  try {
    o.place(UserId::from_raw("u-1"), Money{500, "EUR"});
    FAIL("committed without the lease");
  } catch (const HandlerFault& fault) {
    CHECK(fault.kind() == FaultKind::unavailable);
  }
  server.start();
  // The client reconnects and the renewal takes the lapsed leases back.
  bool placed = false;
  for (int i = 0; i < 100 && !placed; ++i) {
    try {
      o.place(UserId::from_raw("u-1"), Money{500, "EUR"});
      placed = true;
    } catch (const HandlerFault&) {
      std::this_thread::sleep_for(100ms);
    }
  }
  CHECK(placed);
  o.markPaid(InternalCaller{}, AuthId::from_raw("a-2"));
  node.executor.run_all();
  CHECK(node.inbox("u-1") ==
        std::vector<std::string>{"domestic o-1:1000", "domestic o-2:500"});
}

}  // namespace
}  // namespace herald::test
