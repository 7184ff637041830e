// A generator of faults around one ingest, replayable from a seed: while an
// orders node publishes the payments at a pace the seed picks, the
// consuming node's deliveries are lost on the way (another reader takes
// one from its consumer and drops it), the consuming node is SIGKILLed and
// started again over its database, and the server is SIGKILLed and started
// again, each at a point of the stream and as often as the seed picks.
// After each seed every payment is notified once and in order, the audit
// inbox is complete, and the stream holds each event once.
//
// HERALD_INGEST_SEEDS seeds (default 3, the bounded budget ctest runs)
// from HERALD_INGEST_SEED (default 1), on one server or, with
// HERALD_INGEST_SERVERS=3, a 3-server cluster (streams and consumers with
// three replicas; a server killed is one the seed picks); a failure names
// its seed and the command that replays it. The summary line: "ingest
// faults: N seeds ...".
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "commerce_nodes.hpp"
#include "lost_delivery.hpp"
#include "nats_cluster.hpp"
#include "nats_server.hpp"
#include "node_process.hpp"
#include <sys/wait.h>

namespace herald::test {
namespace {

using namespace std::chrono_literals;

enum class Fault { lose_delivery, kill_node, kill_server };

const char* name_of(Fault f) {
  switch (f) {
    case Fault::lose_delivery:
      return "lose-delivery";
    case Fault::kill_node:
      return "kill-node";
    case Fault::kill_server:
      return "kill-server";
  }
  return "?";
}

struct Step {
  std::int64_t at = 0;  // once the stream holds this many messages
  Fault fault = Fault::lose_delivery;
  std::chrono::milliseconds down{0};  // a killed server's time down
  int server = 0;                     // which one, on a cluster
};

struct Plan {
  std::chrono::milliseconds pause{0};  // between payments
  std::vector<Step> steps;
};

Plan plan_of(std::uint64_t seed, int servers) {
  std::mt19937_64 rng(seed);
  const auto between = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  Plan p;
  p.pause = std::chrono::milliseconds(between(0, 12));
  const auto add = [&](Fault f, int count) {
    for (int i = 0; i < count; ++i)
      p.steps.push_back(Step{between(1, kEvents * 3 / 4), f,
                             std::chrono::milliseconds(between(0, 1000)),
                             between(0, servers - 1)});
  };
  add(Fault::lose_delivery, between(0, 3));
  add(Fault::kill_node, between(0, 2));
  add(Fault::kill_server, between(0, 1));
  std::stable_sort(p.steps.begin(), p.steps.end(),
                   [](const Step& a, const Step& b) { return a.at < b.at; });
  return p;
}

std::string describe(const Plan& p) {
  std::string out = fmt::format("{} ms between payments", p.pause.count());
  for (const Step& s : p.steps) {
    out += fmt::format("; {} at {}", name_of(s.fault), s.at);
    if (s.fault == Fault::kill_server)
      out += fmt::format(" (server {} down {} ms)", s.server, s.down.count());
  }
  return out;
}

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  return text == nullptr ? fallback : std::strtoull(text, nullptr, 10);
}

// The last line of the node's log ("" when it has none).
std::string last_log_line(const NodeSpec& spec) {
  std::ifstream in(node_log(spec));
  std::string line;
  std::string last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

struct Totals {
  int lost = 0;  // deliveries taken and dropped
  int node_kills = 0;
  int server_kills = 0;
  int wrong = 0;     // seeds whose outcome was not every payment once
  int restarts = 0;  // of a node that started while no server answered
};

// Waits for the notifications node to end on its own (up to 90 s); one that
// stopped at start-up because no server answered (it started while the
// server was down) is started again, as a supervisor would. Its status, as
// wait_for's.
int wait_supervised(TwoNodes& nodes, pid_t& consumer, Totals& totals) {
  const auto until = std::chrono::steady_clock::now() + 90s;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::seconds>(
        until - std::chrono::steady_clock::now());
    const int status = wait_for(consumer, std::max(left, 1s));
    const bool no_server =
        status != -1 && WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
        last_log_line(nodes.notifications)
                .find("cannot connect to the NATS servers") !=
            std::string::npos;
    if (!no_server || std::chrono::steady_clock::now() >= until) return status;
    consumer = nodes.start_notifications();
    ++totals.restarts;
  }
}

void run_seed(std::uint64_t seed, int servers, Totals& totals) {
  const Plan plan = plan_of(seed, servers);
  INFO("seed ", seed, " on ", servers, " server(s): ", describe(plan),
       "; replay: HERALD_INGEST_SERVERS=", servers,
       " HERALD_INGEST_SEED=", seed,
       " HERALD_INGEST_SEEDS=1 tests/nats/herald_nats_tests "
       "-tc='Ingest faults*'");
  std::printf("ingest faults: seed %llu on %d server(s): %s\n",
              static_cast<unsigned long long>(seed), servers,
              describe(plan).c_str());
  std::fflush(stdout);
  // One server, or a cluster whose streams and consumers have a replica on
  // each server.
  std::unique_ptr<NatsServer> single;
  std::unique_ptr<NatsCluster> cluster;
  if (servers == 1)
    single = std::make_unique<NatsServer>();
  else
    cluster = std::make_unique<NatsCluster>(servers);
  const auto server = [&](int i) -> NatsServer& {
    return single ? *single : cluster->server(i);
  };
  const std::string urls = single ? single->url() : cluster->urls();
  TwoNodes nodes(urls, servers);
  pid_t consumer = nodes.start_notifications();
  const ChildProcess publisher(
      start_orders(nodes.orders, 1, kEvents, plan.pause));
  for (const Step& step : plan.steps) {
    const auto until = std::chrono::steady_clock::now() + 60s;
    while (stream_messages(urls, kOrderStream) < step.at &&
           std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(5ms);
    switch (step.fault) {
      case Fault::lose_delivery:
        if (take_one_delivery(urls, 500ms) > 0) ++totals.lost;
        break;
      case Fault::kill_node:
        stop(consumer);
        consumer = nodes.start_notifications();
        ++totals.node_kills;
        break;
      case Fault::kill_server:
        server(step.server).kill();
        std::this_thread::sleep_for(step.down);
        server(step.server).start();
        ++totals.server_kills;
        break;
    }
  }
  nodes.check_ended(wait_supervised(nodes, consumer, totals));
  const Outcome o = read_outcome(nodes.result.path);
  if (o.inbox != expected_inbox() ||
      o.audit != static_cast<std::size_t>(kEvents) || o.stream != kEvents)
    ++totals.wrong;
}

TEST_CASE(
    "Ingest faults: deliveries lost on the way, the consuming node and the "
    "server killed, at points a seed picks: every payment once, in order") {
  const std::uint64_t first = env_number("HERALD_INGEST_SEED", 1);
  const std::uint64_t seeds = env_number("HERALD_INGEST_SEEDS", 3);
  const auto servers = static_cast<int>(env_number("HERALD_INGEST_SERVERS", 1));
  REQUIRE((servers == 1 || servers == 3));
  Totals totals;
  const auto started = std::chrono::steady_clock::now();
  for (std::uint64_t seed = first; seed < first + seeds; ++seed)
    run_seed(seed, servers, totals);
  std::printf(
      "ingest faults: %llu seeds on %d server(s) in %.1f s; %d deliveries "
      "lost on the way, "
      "%d node kills, %d server kills (%d node starts again after no "
      "server answered); %d seeds with a payment missing, repeated or out "
      "of order\n",
      static_cast<unsigned long long>(seeds), servers,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count(),
      totals.lost, totals.node_kills, totals.server_kills, totals.restarts,
      totals.wrong);
}

}  // namespace
}  // namespace herald::test
