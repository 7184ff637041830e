#pragma once
// Nodes as separate processes for the multi-process nats tests: each child
// is one node of the commerce program with its own sqlite database,
// stopped by SIGKILL as in a crash.
//
// A child is a new process, not a fork of the test: the test binary runs
// again (exec) with `--herald-node ROLE`, and test_main.cpp hands it to the
// role's function. A plain fork would copy the test's nats library with
// none of its threads (the test process talks to the servers itself), and
// the child could crash or hang in it.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "herald/config.hpp"
#include <nats/nats.h>
#include <sys/types.h>

namespace herald::test {

// Where a node runs: backend.kind = nats on `servers` (URLs separated by
// commas), named `node`, hosting `context`, its local store `database`
// (synchronous = normal), its buckets and streams created with `replicas`.
struct NodeSpec {
  std::string servers;
  std::string node;
  std::string context;
  std::string database;
  int replicas = 1;

  RuntimeConfig config() const;
};

// What a role is given after its node: strings, as on a command line.
using NodeArgs = std::vector<std::string>;
// A role's body: the child's exit code.
using NodeMain = int (*)(const NodeSpec& spec, const NodeArgs& args);

// Makes `main` the body of the role `name` (an object at namespace scope
// in the file that defines the role).
class NodeRole {
 public:
  NodeRole(const char* name, NodeMain main);
};

// The flag test_main.cpp recognises as its first argument.
inline constexpr const char* kNodeFlag = "--herald-node";

// A child process running the role `role` for `spec` with `args`. Its
// stderr, where the roles write the runtime's log, is appended to
// node_log(spec).
pid_t spawn(const std::string& role, const NodeSpec& spec,
            const NodeArgs& args = {});

// A child process running the program `path` with `args` and, besides
// this process's environment, `environment` ("NAME=value"); its stdout and
// stderr are appended to `output`. It dies with the test process.
pid_t spawn_program(const std::string& path,
                    const std::vector<std::string>& args,
                    const std::vector<std::string>& environment,
                    const std::string& output);

// The file of a node's log lines: its database's path and ".log".
std::string node_log(const NodeSpec& spec);

// The lines of node_log(spec) whose "event" is `event`.
std::vector<std::string> node_log_lines(const NodeSpec& spec,
                                        const std::string& event);

// The last `lines` lines of node_log(spec) but for the handlers' own
// (event "handler.log"), for a failed check's message; the whole log is
// copied to failed-node-logs/ in the working directory (ctest's: the
// test's build directory), and the message names the copy.
std::string node_log_tail(const NodeSpec& spec, std::size_t lines = 40);

// The child's side: argv is `test-binary --herald-node ROLE NODE... ARGS...`;
// runs the role and returns its exit code (1 if it throws, 2 for an unknown
// role or a malformed command line).
int run_node(int argc, char** argv);

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

// The publishing node (role "orders"): hosts commerce.order; confirms
// payments `from`..`to` of `user` (one transaction each, one publisher: the
// Payments service), `pause` between them, then stays up (relaying) until
// it is killed.
pid_t start_orders(const NodeSpec& spec, int from, int to,
                   std::chrono::milliseconds pause,
                   const std::string& user = "u-1");

// The messages `stream` holds, asked of `servers` (URLs separated by
// commas), or -1 if it cannot be read.
std::int64_t stream_messages(const std::string& servers,
                             const std::string& stream);

// Publishes `msg` through JetStream to the stream of its subject, on the
// server at `url`; the stream sequence it got (0 if the publish failed).
std::uint64_t publish_to_stream(const std::string& url, natsMsg* msg);

// An integer argument of a role; throws std::invalid_argument when it is
// not one.
int int_arg(const NodeArgs& args, std::size_t index);

// Runs a node's host call, which commits, again every 50 ms while it throws
// herald::Error, for up to `limit`; then its error ends the node. While the
// servers cannot renew the node's lease (one of them killed or paused, the
// rest electing a leader) the lease can lapse, and the call then fails with
// nothing of it committed until the renewal takes the lease back.
void call_through_lapse(const std::function<void()>& call,
                        std::chrono::seconds limit);

}  // namespace herald::test
