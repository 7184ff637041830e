#pragma once
// The commerce program (tests/runtime/commerce) as nodes in processes of
// their own: one hosting commerce.order (its Payments service publishes
// PaymentConfirmed), one hosting commerce.notifications (whose
// subscriptions take it), each with its own sqlite database, forked by the
// test. What the consuming node saw is written to a file and read back.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "herald/config.hpp"
#include "temp_database.hpp"
#include <sys/types.h>

namespace herald::test {

// The payments the tests confirm, o-1 .. o-kEvents.
constexpr int kEvents = 120;

// A node's configuration: the nats backend on `servers` (URLs separated by
// commas), hosting `context`, its store in `database`.
RuntimeConfig node_config(const std::string& servers, const std::string& node,
                          const std::string& context,
                          const std::string& database, int replicas = 1);

// A child process running `body`; its exit code is what body returns (1
// if it throws).
pid_t spawn(const std::function<int()>& body);
// The child's wait status once it ended, or -1 after `timeout` (it is then
// killed).
int wait_for(pid_t pid, std::chrono::seconds timeout);
// SIGKILL, and reaps the child.
void stop(pid_t pid);

// The publishing node: hosts commerce.order; confirms payments `from`..`to`
// (one transaction each, one publisher: the Payments service), `pause`
// between them, then stays up (relaying) until it is killed.
int orders_node(const RuntimeConfig& config, int from, int to,
                std::chrono::milliseconds pause);

// The number of messages in `stream`, asked of `servers`; -1 if none
// answers.
std::int64_t stream_messages(const std::string& servers,
                             const std::string& stream);

// The consuming node: hosts commerce.notifications; waits (up to 25 s)
// until u-1's inbox and the audit inbox hold `expected` posts, then writes
// both inboxes and the order stream's message count to `result`.
int notifications_node(const RuntimeConfig& config, const std::string& servers,
                       const std::string& result, int expected);

struct Outcome {
  std::int64_t stream = -1;
  std::size_t audit = 0;
  std::vector<std::string> inbox;
};

Outcome read_outcome(const std::string& path);

// u-1's inbox when each of the kEvents payments arrived once, in order.
std::vector<std::string> expected_inbox();

// An orders node and a notifications node on `servers`, their databases
// and the file for the outcome.
struct TwoNodes {
  explicit TwoNodes(std::string servers, int replicas = 1);

  std::string servers;
  TempDatabase orders_db;
  TempDatabase notifications_db;
  TempDatabase result;  // a file of its own for the outcome
  RuntimeConfig orders;
  RuntimeConfig notifications;

  pid_t start_notifications();
  // Waits for the notifications node to end and checks what it saw: every
  // payment once, in order; the audit inbox complete; the stream holding
  // each event once.
  void check_outcome(pid_t consumer);
};

}  // namespace herald::test
