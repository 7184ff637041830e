#include "nats_cluster.hpp"

#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

#include <nats/nats.h>

namespace herald::test {

NatsCluster::NatsCluster(int size, Start start) {
  // Each member holds its own route port's reservation; the others only
  // its number.
  std::vector<TestPort> route_ports(static_cast<std::size_t>(size));
  std::vector<int> numbers;
  numbers.reserve(route_ports.size());
  for (const TestPort& port : route_ports) numbers.push_back(port.number());
  for (int i = 0; i < size; ++i) {
    NatsServer::Membership m;
    m.cluster = "herald-test";
    m.server = "herald-" + std::to_string(i + 1);
    for (int j = 0; j < size; ++j) {
      if (j != i) m.routes.push_back(numbers[static_cast<std::size_t>(j)]);
    }
    m.route_port = std::move(route_ports[static_cast<std::size_t>(i)]);
    servers_.push_back(std::make_unique<NatsServer>(std::move(m)));
  }
  for (auto& server : servers_) server->launch();
  for (auto& server : servers_) {
    switch (start) {
      case Start::ready:
        server->wait_ready();
        break;
      case Start::forming:
        server->wait_listening();
        break;
    }
  }
}

std::string NatsCluster::urls() const {
  std::string all;
  for (const auto& server : servers_) {
    all += all.empty() ? "" : ",";
    all += server->url();
  }
  return all;
}

int NatsCluster::stream_leader(const std::string& stream, int seconds) const {
  std::vector<const char*> urls;
  for (const auto& server : servers_) urls.push_back(server->url().c_str());
  natsOptions* options = nullptr;
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  int leader = -1;
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  if (natsOptions_Create(&options) == NATS_OK &&
      natsOptions_SetServers(options, urls.data(),
                             static_cast<int>(urls.size())) == NATS_OK &&
      natsConnection_Connect(&nc, options) == NATS_OK &&
      natsConnection_JetStream(&js, nc, nullptr) == NATS_OK) {
    while (leader < 0 && std::chrono::steady_clock::now() < until) {
      jsStreamInfo* info = nullptr;
      if (js_GetStreamInfo(&info, js, stream.c_str(), nullptr, nullptr) ==
              NATS_OK &&
          info->Cluster != nullptr && info->Cluster->Leader != nullptr) {
        for (std::size_t i = 0; i < servers_.size(); ++i) {
          if (servers_[i]->name() == info->Cluster->Leader)
            leader = static_cast<int>(i);
        }
      }
      jsStreamInfo_Destroy(info);
      if (leader < 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  natsOptions_Destroy(options);
  return leader;
}

}  // namespace herald::test
