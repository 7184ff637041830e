#pragma once
// Nodes as separate processes (forked) for the multi-process nats tests:
// each child is one node of the commerce program with its own sqlite
// database, stopped by SIGKILL as in a crash.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "herald/config.hpp"
#include <sys/types.h>

namespace herald::test {

// A node's configuration: backend.kind = nats on `servers` (URLs
// separated by commas), named `node`, hosting `context`, its local store
// `database` (synchronous = normal), its buckets and streams created with
// `replicas`.
RuntimeConfig node_config(const std::string& servers, const std::string& node,
                          const std::string& context,
                          const std::string& database, int replicas = 1);

// A child process running `body`; its exit code is what body returns (1
// if it throws).
pid_t spawn(const std::function<int()>& body);

// The child's wait status once it ended, or -1 after `timeout` (it is then
// killed).
int wait_for(pid_t pid, std::chrono::seconds timeout);

// SIGKILL, and reaped.
void stop(pid_t pid);

// A child process stopped (SIGKILL) when this goes out of scope, so that
// a failed check leaves no node running.
struct ChildProcess {
  explicit ChildProcess(pid_t p = -1) : pid(p) {}
  ~ChildProcess() { reset(); }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Stops the running child, if any, and holds `next`.
  void reset(pid_t next = -1) {
    if (pid > 0) stop(pid);
    pid = next;
  }
  pid_t pid;
};

// The publishing node: hosts commerce.order; confirms payments `from`..`to`
// of `user` (one transaction each, one publisher: the Payments service),
// `pause` between them, then stays up (relaying) until it is killed.
int orders_node(const RuntimeConfig& config, int from, int to,
                std::chrono::milliseconds pause,
                const std::string& user = "u-1");

// The messages `stream` holds, asked of `servers` (URLs separated by
// commas), or -1 if it cannot be read.
std::int64_t stream_messages(const std::string& servers,
                             const std::string& stream);

}  // namespace herald::test
