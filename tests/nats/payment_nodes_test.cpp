// The PaymentConfirmed example (examples/payment) as three nodes on a
// 3-server cluster, each a process of payment_node (examples/payment/
// node.cpp): orders (commerce.order), notifications (commerce.notifications
// and fx) and rooms (chat.rooms). PaymentConfirmed crosses from the orders
// node to the notifications node as events; each notification crosses to
// the rooms node as an agent message. The notifications node is killed
// (SIGKILL) midway and started again on its database; every payment must
// still reach its customer's room exactly once.
#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "nats_cluster.hpp"
#include "node_process.hpp"
#include "temp_database.hpp"
#include <sys/wait.h>

namespace herald::test {
namespace {

using namespace std::chrono_literals;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size()))
    ++n;
  return n;
}

// One node of the example: its database, its output file and its
// environment.
struct PaymentNode {
  PaymentNode(std::string servers, std::string name, std::string contexts)
      : servers(std::move(servers)),
        name(std::move(name)),
        contexts(std::move(contexts)) {}

  std::vector<std::string> environment() const {
    return {"HERALD_BACKEND_KIND=nats",
            "HERALD_BACKEND_NATS_SERVERS=" + servers,
            "HERALD_BACKEND_NATS_NODE=" + name,
            "HERALD_BACKEND_NATS_CONTEXTS=" + contexts,
            "HERALD_BACKEND_NATS_REPLICAS=3",
            "HERALD_BACKEND_SQLITE_PATH=" + db.path,
            "HERALD_BACKEND_SQLITE_SYNCHRONOUS=normal",
            "HERALD_EXECUTOR_KIND=threaded",
            "HERALD_EXECUTOR_THREADS=2"};
  }
  pid_t start(const std::vector<std::string>& args = {}) {
    return spawn_program(HERALD_PAYMENT_NODE_PATH, args, environment(),
                         output());
  }
  std::string output() const { return db.path + ".out"; }
  std::string printed() const { return read_file(output()); }

  std::string servers;
  std::string name;
  std::string contexts;
  TempDatabase db;
};

// Waits until `node` printed `what` `times` times (bounded).
bool wait_printed(const PaymentNode& node, const std::string& what,
                  std::size_t times, std::chrono::seconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (count(node.printed(), what) >= times) return true;
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

TEST_CASE(
    "Payment nodes: orders, notifications and rooms as three processes on a "
    "cluster; the notifications node killed midway and started again; "
    "every payment reaches its room exactly once") {
  NatsCluster cluster(3);
  PaymentNode orders(cluster.urls(), "orders-1", "commerce.order");
  PaymentNode notifications(cluster.urls(), "notifications-1",
                            "commerce.notifications,fx");
  PaymentNode rooms(cluster.urls(), "rooms-1", "chat.rooms");
  const auto story = [&] {
    return fmt::format("--- orders\n{}--- notifications\n{}--- rooms\n{}",
                       orders.printed(), notifications.printed(),
                       rooms.printed());
  };
  ChildProcess room_node(rooms.start({"--settle-ms", "2000"}));
  ChildProcess notification_node(notifications.start());
  REQUIRE_MESSAGE(wait_printed(rooms, "hosting", 1, 60s), story());
  REQUIRE_MESSAGE(wait_printed(notifications, "hosting", 1, 60s), story());
  ChildProcess order_node(orders.start({"--pause-ms", "500"}));

  // Midway: once the first room holds its message, the notifications node
  // dies as in a crash, and is started again on the same database.
  REQUIRE_MESSAGE(wait_printed(rooms, "'s room: ", 1, 60s), story());
  notification_node.reset();
  std::this_thread::sleep_for(300ms);
  notification_node.reset(notifications.start());

  const int status = wait_for(room_node.pid, 90s);
  room_node.pid = -1;
  const std::string printed = story();
  INFO(printed);
  REQUIRE(status >= 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(count(printed,
              "every payment reached its room exactly once (5 "
              "rooms)") == 1);
  // Each payment was committed once, and each room got one message.
  CHECK(count(orders.printed(), "PaymentConfirmed committed") == 5);
  CHECK(count(rooms.printed(), "'s room: \"Payment confirmed") == 5);
  // The notifications node ran twice: before and after the kill. On a
  // loaded machine the kill can land after the first process handled every
  // payment, and the rooms then finish before the second has started.
  CHECK(wait_printed(notifications, "hosting", 2, 60s));
  CHECK(count(notifications.printed(), "hosting") == 2);
}

}  // namespace
}  // namespace herald::test
