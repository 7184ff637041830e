#pragma once
// A nats-server with JetStream that a test starts on a 127.0.0.1 port it
// reserves (test_port.hpp) and a store directory of its own, and stops (or
// kills, and restarts on the same port and store: a server crash) itself. A
// server may be a member of a cluster (nats_cluster.hpp), which starts its
// members together.
#include <string>
#include <vector>

#include "test_port.hpp"
#include <sys/types.h>

namespace herald::test {

// The nats-server binary (PATH, then /usr/sbin); empty if none is installed.
std::string find_nats_server();

class NatsServer {
 public:
  // What a cluster member needs besides a standalone server.
  struct Membership {
    std::string cluster;      // the cluster's name
    std::string server;       // this server's name, unique in the cluster
    TestPort route_port;      // where the other members connect
    std::vector<int> routes;  // the other members' route ports
  };

  // A standalone server: starts it and waits until JetStream answers
  // (throws std::runtime_error if it does not within 15 s).
  NatsServer();
  // A cluster member on its own client port and store; not started (its
  // JetStream answers only once a majority of the cluster runs).
  explicit NatsServer(Membership membership);
  // Stops the server and removes its store directory.
  ~NatsServer();
  NatsServer(const NatsServer&) = delete;
  NatsServer& operator=(const NatsServer&) = delete;

  // nats://127.0.0.1:<port>
  const std::string& url() const { return url_; }
  // The server's name (a cluster member's as given; else empty).
  const std::string& name() const { return membership_.server; }
  // SIGKILL: the server stops at once, as in a crash.
  void kill();
  // Starts it again on the same port and store directory, and waits until
  // JetStream answers.
  void start();
  // Starts the process without waiting (a cluster starts all its members,
  // then waits for each).
  void launch();
  // Waits until JetStream answers on this server (15 s at most).
  void wait_ready();
  // Waits until the server takes client connections (15 s at most); a
  // cluster member's JetStream may not answer yet.
  void wait_listening();
  // SIGSTOP and SIGCONT: the server hangs, as a stalled machine does, and
  // goes on.
  void pause();
  void resume();

 private:
  // Both waits: until a client connects and, if `jetstream`, JetStream
  // answers.
  void wait_until(bool jetstream);

  std::string binary_;
  std::string store_;
  TestPort port_;
  std::string url_;
  Membership membership_;
  pid_t pid_ = -1;
};

}  // namespace herald::test
