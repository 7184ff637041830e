// A delivery the server made that never reached the node: the consumer
// counts it delivered and sends it again only after its ack wait, while
// the events after it keep coming. What loses a message this way is a
// server dying between the consumer's leader and the node's connection;
// here a second reader takes one delivery from the node's durable consumer
// and drops it unacknowledged, which the server cannot tell apart. And a
// node whose store lacks messages its consumer counts acknowledged (a disk
// lost, or restored from an older copy), which the consumer will never
// send again: the ingest reads them from the stream itself.
#include "lost_delivery.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "commerce_nodes.hpp"
#include "nats_server.hpp"
#include "node_process.hpp"
#include <sys/wait.h>

namespace herald::test {
namespace {

using namespace std::chrono_literals;

TEST_CASE(
    "Ingest: a delivery lost between the server and the node mid-stream "
    "(sent again only after the ack wait): every event once, in order") {
  NatsServer server;
  TwoNodes nodes(server.url());
  const pid_t consumer = nodes.start_notifications();
  const ChildProcess publisher(start_orders(nodes.orders, 1, kEvents, 15ms));
  // Once the ingest is under way, with most events still to publish.
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (stream_messages(server.url(), kOrderStream) < 10 &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(20ms);
  // The node's own fetch waits beside this one: a few tries at most.
  std::uint64_t taken = 0;
  for (int i = 0; i < 20 && taken == 0; ++i)
    taken = take_one_delivery(server.url(), 1s);
  REQUIRE(taken > 0);
  REQUIRE(stream_messages(server.url(), kOrderStream) < kEvents);
  nodes.check_outcome(consumer);
}

TEST_CASE(
    "Ingest: a node whose store lost what its consumer acknowledged (its "
    "database deleted) reads those events from the stream: every event "
    "once, in order") {
  NatsServer server;
  TwoNodes nodes(server.url());
  constexpr int kFirst = 20;
  constexpr int kAll = 25;
  const auto notifications = [&](int expected) {
    return spawn("commerce-notifications", nodes.notifications,
                 {nodes.result.path, std::to_string(expected)});
  };
  std::vector<std::string> expected = expected_inbox();
  expected.resize(kAll);
  {
    const ChildProcess orders(start_orders(nodes.orders, 1, kFirst, 0ms));
    const int status = wait_for(notifications(kFirst), 90s);
    REQUIRE(status != -1);
    REQUIRE(read_outcome(nodes.result.path).inbox.size() ==
            static_cast<std::size_t>(kFirst));
  }
  // The disk lost: the consumer has acknowledged 20 events the new store
  // does not hold, and will not deliver them again.
  for (const char* suffix : {"", "-wal", "-shm"})
    std::remove((nodes.notifications.database + suffix).c_str());
  const ChildProcess orders(start_orders(nodes.orders, kFirst + 1, kAll, 0ms));
  const pid_t again = notifications(kAll);
  const int status = wait_for(again, 90s);
  const Outcome o = read_outcome(nodes.result.path);
  if (status == -1 || o.inbox != expected)
    MESSAGE(node_log_tail(nodes.notifications));
  REQUIRE(status != -1);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(o.inbox == expected);
  CHECK(o.audit == static_cast<std::size_t>(kAll));
}

}  // namespace
}  // namespace herald::test
