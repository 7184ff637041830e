// Herald's events across two nodes on NATS JetStream, each node a process:
// the publisher hosts sqlbench.src (the sqlite benchmark's program) and
// emits; the subscriber hosts sqlbench.one, whose one subscription takes
// every Tick through the broker (relay, stream, ingest, local delivery).
//
//   herald_bench_nats publisher SERVERS REPLICAS DB EVENTS throughput|latency
//                     [PACE_US]
//   herald_bench_nats subscriber SERVERS REPLICAS DB EVENTS
//   herald_bench_nats ready SERVERS
//
// The publisher emits EVENTS ticks (throughput: 32 per commit, back to
// back; latency: one per commit, one every PACE_US microseconds, default
// 5000), once the subscriber's consumer has a fetch waiting, then relays
// until it is killed. The subscriber waits until every tick is delivered
// once and prints "events/s P50_US P99_US": the rate from the first emit
// to the last delivery, and each tick's emit-to-delivery time (both
// processes read the same monotonic clock). `ready` waits (15 s at most)
// until JetStream answers on every one of SERVERS.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "sqlbench/one.h"
#include "sqlbench/src.h"
#include <herald/config.hpp>
#include <herald/errors.hpp>
#include <herald/runtime.hpp>
#include <herald/threaded_executor.hpp>
#include <nats/nats.h>

namespace {

using namespace std::chrono;

constexpr std::int64_t kBatch = HERALD_BENCH_BATCH;

std::int64_t steady_ns() {
  return duration_cast<nanoseconds>(steady_clock::now().time_since_epoch())
      .count();
}

herald::RuntimeConfig node_config(const std::string& servers,
                                  const std::string& replicas,
                                  const std::string& node,
                                  const std::string& context,
                                  const std::string& db) {
  herald::ConfigSources sources;
  sources.environment = std::map<std::string, std::string>{};
  sources.settings = {{"backend.kind", "nats"},
                      {"backend.sqlite.path", db},
                      {"backend.sqlite.synchronous", "normal"},
                      {"backend.nats.servers", servers},
                      {"backend.nats.node", node},
                      {"backend.nats.contexts", context},
                      {"backend.nats.replicas", replicas},
                      {"executor.kind", "threaded"},
                      {"executor.threads", "2"},
                      {"log.level", "error"}};
  return herald::load_config(sources);
}

// What the subscription was delivered; touched only by its actor, read
// by the main thread after `count` reached the total (an acquire load).
class Probe final : public sqlbench::src::Probe {
 public:
  explicit Probe(std::int64_t events) {
    at_.reserve(static_cast<std::size_t>(events));
    delivered_.reserve(static_cast<std::size_t>(events));
  }
  void seen(std::int64_t /*slot*/, std::int64_t n, std::int64_t at) override {
    sum_ += n;
    at_.push_back(at);
    delivered_.push_back(steady_ns());
    count_.store(count_.load(std::memory_order_relaxed) + 1,
                 std::memory_order_release);
  }
  std::int64_t count() const { return count_.load(std::memory_order_acquire); }
  std::int64_t sum() const { return sum_; }
  const std::vector<std::int64_t>& at() const { return at_; }
  const std::vector<std::int64_t>& delivered() const { return delivered_; }

 private:
  std::atomic<std::int64_t> count_{0};
  std::int64_t sum_ = 0;
  std::vector<std::int64_t> at_;
  std::vector<std::int64_t> delivered_;
};

// Waits (60 s at most) until the subscribing node's consumer of Tick has
// a fetch waiting: the node is up and ingesting. What is measured starts
// there, as raw_js's measurement starts once its stream and consumer
// exist; else the first events would wait for the new stream's replicas,
// the consumer and the node's recovery, and the figures would hold the
// start-up of the cluster and the node.
void await_subscriber(const std::string& servers) {
  std::vector<std::string> urls;
  std::size_t start = 0;
  while (start <= servers.size()) {
    const std::size_t comma = servers.find(',', start);
    urls.push_back(servers.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::vector<const char*> raw;
  raw.reserve(urls.size());
  for (const std::string& url : urls) raw.push_back(url.c_str());
  natsOptions* options = nullptr;
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  bool up = false;
  if (natsOptions_Create(&options) == NATS_OK &&
      natsOptions_SetServers(options, raw.data(),
                             static_cast<int>(raw.size())) == NATS_OK &&
      natsConnection_Connect(&nc, options) == NATS_OK &&
      natsConnection_JetStream(&js, nc, nullptr) == NATS_OK) {
    const auto until = steady_clock::now() + seconds(60);
    while (!up && steady_clock::now() < until) {
      jsConsumerInfo* info = nullptr;
      if (js_GetConsumerInfo(&info, js, "HERALD_sqlbench-src",
                             "bench-sub_sqlbench-src-Tick", nullptr,
                             nullptr) == NATS_OK) {
        up = info->NumWaiting > 0;
        jsConsumerInfo_Destroy(info);
      }
      if (!up) std::this_thread::sleep_for(milliseconds(20));
    }
  }
  jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  natsOptions_Destroy(options);
  if (!up)
    throw std::runtime_error("the subscribing node did not start in 60 s");
}

int publisher(const herald::RuntimeConfig& config, const std::string& servers,
              std::int64_t events, bool latency, std::int64_t pace_us) {
  herald::ThreadedExecutor executor(2);
  herald::Runtime rt(config, executor);
  rt.install(sqlbench::src::context());
  rt.recover();
  await_subscriber(servers);
  auto source = sqlbench::src::Source::at(rt, "s");
  if (latency) {
    for (std::int64_t i = 0; i < events; ++i) {
      source.one(steady_ns());
      std::this_thread::sleep_for(microseconds(pace_us));
    }
  } else {
    // Whole batches, then the rest one by one: exactly `events`.
    for (std::int64_t i = 0; i + kBatch <= events; i += kBatch)
      source.batch(steady_ns());
    for (std::int64_t i = 0; i < events % kBatch; ++i) source.one(steady_ns());
  }
  for (;;) std::this_thread::sleep_for(seconds(1));
}

// Every server answers JetStream requests (a cluster's once it has a meta
// leader).
int ready(const std::string& servers) {
  const auto until = steady_clock::now() + seconds(15);
  std::size_t start = 0;
  while (start <= servers.size()) {
    const std::size_t comma = servers.find(',', start);
    const std::string url = servers.substr(start, comma - start);
    for (bool up = false; !up;) {
      natsConnection* nc = nullptr;
      jsCtx* js = nullptr;
      jsAccountInfo* info = nullptr;
      up = natsConnection_ConnectTo(&nc, url.c_str()) == NATS_OK &&
           natsConnection_JetStream(&js, nc, nullptr) == NATS_OK &&
           js_GetAccountInfo(&info, js, nullptr, nullptr) == NATS_OK;
      jsAccountInfo_Destroy(info);
      jsCtx_Destroy(js);
      natsConnection_Destroy(nc);
      if (up) break;
      if (steady_clock::now() > until) return 1;
      std::this_thread::sleep_for(milliseconds(50));
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return 0;
}

int subscriber(const herald::RuntimeConfig& config, std::int64_t events) {
  Probe probe(events);
  herald::ThreadedExecutor executor(2);
  herald::Runtime rt(config, executor);
  rt.install(sqlbench::one::context(probe));
  rt.recover();
  const auto until = steady_clock::now() + minutes(5);
  while (probe.count() < events && steady_clock::now() < until)
    std::this_thread::sleep_for(milliseconds(2));
  if (probe.count() != events || probe.sum() != events * (events - 1) / 2) {
    std::fprintf(
        stderr, "herald_bench_nats: %lld of %lld ticks delivered (sum %lld)\n",
        static_cast<long long>(probe.count()), static_cast<long long>(events),
        static_cast<long long>(probe.sum()));
    return 1;
  }
  std::vector<std::int64_t> latencies;
  latencies.reserve(probe.at().size());
  for (std::size_t i = 0; i < probe.at().size(); ++i)
    latencies.push_back(probe.delivered()[i] - probe.at()[i]);
  const std::int64_t first =
      *std::min_element(probe.at().begin(), probe.at().end());
  const std::int64_t last =
      *std::max_element(probe.delivered().begin(), probe.delivered().end());
  std::sort(latencies.begin(), latencies.end());
  const auto quantile = [&](double q) {
    return static_cast<double>(latencies[static_cast<std::size_t>(
               q * static_cast<double>(latencies.size() - 1))]) /
           1000.0;
  };
  fmt::print(
      "{:.0f} {:.1f} {:.1f}\n",
      static_cast<double>(events) / (static_cast<double>(last - first) / 1e9),
      quantile(0.50), quantile(0.99));
  rt.shutdown();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if ((args.size() == 6 || args.size() == 7) && args[0] == "publisher" &&
        (args[5] == "throughput" || args[5] == "latency")) {
      return publisher(
          node_config(args[1], args[2], "bench-pub", "sqlbench.src", args[3]),
          args[1], std::stoll(args[4]), args[5] == "latency",
          args.size() == 7 ? std::stoll(args[6]) : 5000);
    }
    if (args.size() == 2 && args[0] == "ready") return ready(args[1]);
    if (args.size() == 5 && args[0] == "subscriber") {
      return subscriber(
          node_config(args[1], args[2], "bench-sub", "sqlbench.one", args[3]),
          std::stoll(args[4]));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "herald_bench_nats: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr,
               "usage: herald_bench_nats publisher SERVERS REPLICAS DB EVENTS "
               "throughput|latency [PACE_US]\n"
               "       herald_bench_nats subscriber SERVERS REPLICAS DB "
               "EVENTS\n"
               "       herald_bench_nats ready SERVERS\n");
  return 2;
}
