#pragma once
// A cluster of nats-servers with JetStream on 127.0.0.1 (free client and
// route ports, a store directory each) that a test starts, faults (kill,
// restart, pause) and stops.
#include <memory>
#include <string>
#include <vector>

#include "nats_server.hpp"

namespace herald::test {

class NatsCluster {
 public:
  // How far the constructor waits: until JetStream answers on every
  // server (a meta leader is elected), or only until every server takes
  // client connections (the cluster is still forming).
  enum class Start { ready, forming };

  // Starts `size` servers routed to each other and waits as `start` says.
  explicit NatsCluster(int size, Start start = Start::ready);

  // Every server's URL, separated by commas (backend.nats.servers).
  std::string urls() const;
  int size() const { return static_cast<int>(servers_.size()); }
  NatsServer& server(int i) {
    return *servers_.at(static_cast<std::size_t>(i));
  }
  // The index of the server leading `stream`'s replicas, asked of the
  // cluster through `urls()`; -1 if no server answers within `seconds`
  // or the stream has no leader yet.
  int stream_leader(const std::string& stream, int seconds = 10) const;

 private:
  std::vector<std::unique_ptr<NatsServer>> servers_;
};

}  // namespace herald::test
