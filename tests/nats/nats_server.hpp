#pragma once
// A nats-server with JetStream that a test starts on a free 127.0.0.1 port
// and a store directory of its own, and stops (or kills, and restarts on
// the same port and store: a server crash) itself.
#include <string>

#include <sys/types.h>

namespace herald::test {

// The nats-server binary (PATH, then /usr/sbin); empty if none is installed.
std::string find_nats_server();

class NatsServer {
 public:
  // Starts the server and waits until JetStream answers (throws
  // std::runtime_error if it does not within 15 s).
  NatsServer();
  // Stops the server and removes its store directory.
  ~NatsServer();
  NatsServer(const NatsServer&) = delete;
  NatsServer& operator=(const NatsServer&) = delete;

  // nats://127.0.0.1:<port>
  const std::string& url() const { return url_; }
  // SIGKILL: the server stops at once, as in a crash.
  void kill();
  // Starts it again on the same port and store directory.
  void start();

 private:
  void wait_ready();

  std::string binary_;
  std::string store_;
  int port_ = 0;
  std::string url_;
  pid_t pid_ = -1;
};

}  // namespace herald::test
