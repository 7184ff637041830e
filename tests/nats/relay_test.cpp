// Events across nodes: separate processes, each a node with its
// own sqlite database, one hosting commerce.order (its Payments service
// publishes PaymentConfirmed) and one hosting commerce.notifications
// (whose subscriptions take it). Checked: every event delivered once and in
// its publisher's order, also when the publishing node is SIGKILLed between
// a publish and its local mark, and when the server is SIGKILLed and
// restarted mid-stream; the stream holds each event once.
#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <thread>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "commerce/order.h"
#include "commerce_nodes.hpp"
#include "herald/log.hpp"
#include "herald/nats_backend.hpp"
#include "herald/runtime.hpp"
#include "herald/threaded_executor.hpp"
#include "nats_server.hpp"
#include <sys/wait.h>

namespace herald::test {
namespace {

using commerce::order::OrderId;
using commerce::order::UserId;
using namespace std::chrono_literals;

// The role "orders-killed-before-mark": the orders node confirms kEvents
// payments; its relay's first batch reaches the stream, and the process
// dies (SIGKILL) before the relay marks it, once every payment is
// committed.
int killed_before_mark(const NodeSpec& spec, const NodeArgs& /*args*/) {
  auto committed = std::make_shared<std::atomic<bool>>(false);
  ThreadedExecutor executor(2);
  StderrLogSink log;
  const RuntimeConfig config = spec.config();
  NatsBackendOptions options = nats_backend_options(config);
  options.relay_hook = [committed](const RelayPoint& point) {
    if (point.kind != RelayPoint::Kind::events_published) return;
    while (!committed->load()) std::this_thread::sleep_for(1ms);
    std::raise(SIGKILL);
  };
  Runtime rt(
      config, executor,
      make_nats_backend(std::move(options), sqlite_backend_options(config)),
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
}

const NodeRole kKilledBeforeMark("orders-killed-before-mark",
                                 &killed_before_mark);

TEST_CASE(
    "Relay: events of a context hosted by one process reach the "
    "subscriptions of another, once each, in publisher order") {
  NatsServer server;
  TwoNodes nodes(server.url());
  const pid_t consumer = nodes.start_notifications();
  const pid_t publisher = start_orders(nodes.orders, 1, kEvents, 0ms);
  nodes.check_outcome(consumer);
  stop(publisher);
}

TEST_CASE(
    "Relay: a publishing node SIGKILLed between a publish and its local "
    "mark, restarted: nothing lost, nothing published twice") {
  NatsServer server;
  TwoNodes nodes(server.url());
  const pid_t consumer = nodes.start_notifications();
  // The relay's first batch is in the stream; the process dies before the
  // relay marks it, once every payment is committed.
  const pid_t first = spawn("orders-killed-before-mark", nodes.orders);
  const int status = wait_for(first, 20s);
  REQUIRE(status != -1);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  // The same node again, on the same database: its relay goes on from the
  // stream's last message.
  const pid_t second = start_orders(nodes.orders, 1, 0, 0ms);
  nodes.check_outcome(consumer);
  stop(second);
}

TEST_CASE(
    "Relay: the server SIGKILLed and restarted mid-stream: every event "
    "arrives once, in order") {
  NatsServer server;
  TwoNodes nodes(server.url());
  const pid_t consumer = nodes.start_notifications();
  const pid_t publisher = start_orders(nodes.orders, 1, kEvents, 15ms);
  std::this_thread::sleep_for(700ms);
  server.kill();
  std::this_thread::sleep_for(1s);
  server.start();
  nodes.check_outcome(consumer);
  stop(publisher);
}

}  // namespace
}  // namespace herald::test
