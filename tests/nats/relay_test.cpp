// Events across nodes: separate processes (forked), each a node with its
// own sqlite database, one hosting commerce.order (its Payments service
// publishes PaymentConfirmed) and one hosting commerce.notifications
// (whose subscriptions take it). Checked: every event delivered once and in
// its publisher's order, also when the publishing node is SIGKILLed between
// a publish and its local mark, and when the server is SIGKILLed and
// restarted mid-stream; the stream holds each event once.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/agent_kind.hpp"
#include "herald/errors.hpp"
#include "herald/log.hpp"
#include "herald/nats_backend.hpp"
#include "herald/runtime.hpp"
#include "herald/service.hpp"
#include "herald/threaded_executor.hpp"
#include "nats_server.hpp"
#include "node_process.hpp"
#include "temp_database.hpp"
#include <nats/nats.h>
#include <sys/wait.h>
#include <unistd.h>

namespace herald::test {
namespace {

using commerce::order::OrderId;
using commerce::order::UserId;
using namespace std::chrono_literals;

constexpr int kEvents = 120;

class QuietGateway final : public commerce::notifications::Gateway {
 public:
  void notify(const UserId& /*user*/, const std::string& /*text*/) override {}
};

// The consuming node: hosts commerce.notifications; waits (up to 25 s)
// until u-1's inbox and the audit inbox hold `expected` posts, then writes
// both inboxes and the stream's message count to `result`.
int notifications_node(const RuntimeConfig& config, const std::string& url,
                       const std::string& result, int expected) {
  ThreadedExecutor executor(2);
  MemoryLogSink log;
  QuietGateway gateway;
  Runtime rt(config, executor, nullptr, &log);
  rt.install(commerce::notifications::context(gateway));
  rt.recover();
  using commerce::notifications::Inbox;
  const auto until = std::chrono::steady_clock::now() + 25s;
  std::vector<std::string> inbox;
  std::vector<std::string> audit;
  while (std::chrono::steady_clock::now() < until) {
    inbox = Inbox::at(rt, "u-1").messages();
    audit = Inbox::at(rt, "audit").messages();
    if (static_cast<int>(inbox.size()) >= expected &&
        static_cast<int>(audit.size()) >= expected)
      break;
    std::this_thread::sleep_for(50ms);
  }
  // Anything more would come now.
  std::this_thread::sleep_for(300ms);
  inbox = Inbox::at(rt, "u-1").messages();
  audit = Inbox::at(rt, "audit").messages();
  std::ofstream out(result);
  out << "stream " << stream_messages(url, "HERALD_commerce-order") << "\n";
  out << "audit " << audit.size() << "\n";
  for (const std::string& line : inbox) out << line << "\n";
  return 0;
}

struct Outcome {
  std::int64_t stream = -1;
  std::size_t audit = 0;
  std::vector<std::string> inbox;
};

Outcome read_outcome(const std::string& path) {
  Outcome o;
  std::ifstream in(path);
  std::string word;
  in >> word >> o.stream >> word >> o.audit;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) o.inbox.push_back(line);
  return o;
}

std::vector<std::string> expected_inbox() {
  std::vector<std::string> lines;
  for (int i = 1; i <= kEvents; ++i)
    lines.push_back(fmt::format("domestic o-{}:{}", i, i));
  return lines;
}

struct TwoNodes {
  NatsServer server;
  TempDatabase orders_db;
  TempDatabase notifications_db;
  TempDatabase result;  // a file of its own for the outcome
  RuntimeConfig orders =
      node_config(server, "orders-1", "commerce.order", orders_db.path);
  RuntimeConfig notifications = node_config(
      server, "notify-1", "commerce.notifications", notifications_db.path);

  pid_t start_notifications() {
    return spawn([this] {
      return notifications_node(notifications, server.url(), result.path,
                                kEvents);
    });
  }
  void check_outcome(pid_t consumer) {
    const int status = wait_for(consumer, 40s);
    REQUIRE(status != -1);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    const Outcome o = read_outcome(result.path);
    // Once each, in the publisher's order.
    CHECK(o.inbox == expected_inbox());
    CHECK(o.audit == static_cast<std::size_t>(kEvents));
    // Nothing published twice.
    CHECK(o.stream == kEvents);
  }
};

TEST_CASE(
    "Relay: events of a context hosted by one process reach the "
    "subscriptions of another, once each, in publisher order") {
  TwoNodes nodes;
  const pid_t consumer = nodes.start_notifications();
  const pid_t publisher =
      spawn([&] { return orders_node(nodes.orders, 1, kEvents, 0ms); });
  nodes.check_outcome(consumer);
  stop(publisher);
}

TEST_CASE(
    "Relay: a publishing node SIGKILLed between a publish and its local "
    "mark, restarted: nothing lost, nothing published twice") {
  TwoNodes nodes;
  const pid_t consumer = nodes.start_notifications();
  // The relay's first batch is in the stream; the process dies before the
  // relay marks it, once every payment is committed.
  const pid_t first = spawn([&] {
    auto committed = std::make_shared<std::atomic<bool>>(false);
    ThreadedExecutor executor(2);
    MemoryLogSink log;
    NatsBackendOptions options = nats_backend_options(nodes.orders);
    options.relay_hook = [committed](std::string_view, std::int64_t) {
      while (!committed->load()) std::this_thread::sleep_for(1ms);
      std::raise(SIGKILL);
    };
    Runtime rt(nodes.orders, executor,
               make_nats_backend(std::move(options),
                                 sqlite_backend_options(nodes.orders)),
               &log);
    rt.install(commerce::order::context());
    rt.recover();
    auto payments = commerce::order::Payments::in(rt);
    for (int i = 1; i <= kEvents; ++i) {
      payments.confirmExternal(OrderId::from_raw(fmt::format("o-{}", i)),
                               UserId::from_raw("u-1"), i);
    }
    committed->store(true);
    for (;;) std::this_thread::sleep_for(1s);
    return 0;
  });
  const int status = wait_for(first, 20s);
  REQUIRE(status != -1);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  // The same node again, on the same database: its relay goes on from the
  // stream's last message.
  const pid_t second =
      spawn([&] { return orders_node(nodes.orders, 1, 0, 0ms); });
  nodes.check_outcome(consumer);
  stop(second);
}

TEST_CASE(
    "Relay: the server SIGKILLed and restarted mid-stream: every event "
    "arrives once, in order") {
  TwoNodes nodes;
  const pid_t consumer = nodes.start_notifications();
  const pid_t publisher =
      spawn([&] { return orders_node(nodes.orders, 1, kEvents, 15ms); });
  std::this_thread::sleep_for(700ms);
  nodes.server.kill();
  std::this_thread::sleep_for(1s);
  nodes.server.start();
  nodes.check_outcome(consumer);
  stop(publisher);
}

}  // namespace
}  // namespace herald::test
