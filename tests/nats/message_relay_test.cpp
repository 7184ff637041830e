// Agent messages across nodes when the sending node dies between a
// publish's acknowledgement and the local removal of what it published.
// The test kit's walk program (tests/testing/walk.herald, relay.herald):
// node A hosts walk (Walker agents; walking emits Walked), node B hosts
// walk.relay, whose subscription takes A's Walked events and sends each
// walk's levels to A's Walker "notes" as an agent message. B's message
// relay is SIGKILLed once its first batch is acknowledged, before it
// removes the batch; B is started again on the same database. Checked:
// the notes add up every message once (none lost, none run twice), the
// message stream holds each once, the restarted relay removed exactly the
// killed batch from its subject's last message and published only the
// rest; and `herald status` on both nodes shows the message stream, A's
// consumer and B's subject (and, before any sender, that the stream is not
// created yet).
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "herald/log.hpp"
#include "herald/nats_backend.hpp"
#include "herald/runtime.hpp"
#include "herald/threaded_executor.hpp"
#include "nats_server.hpp"
#include "node_process.hpp"
#include "temp_database.hpp"
#include "tool_run.hpp"
#include "walk.h"
#include "walk/relay.h"
#include <sys/wait.h>

namespace herald::test {
namespace {

using namespace std::chrono_literals;

// Walkers w-1 .. w-kWalks walk i levels each: B sends kWalks messages, and
// Walker "notes" ends with the sum of 1..kWalks.
constexpr int kWalks = 40;
constexpr int kNotesTotal = kWalks * (kWalks + 1) / 2;

// The role "walkers": node A. Walks w-<from> .. w-<to> (i levels for w-i);
// with `expected` > 0 it then waits (up to 90 s) until Walker "notes" holds
// at least that total, waits 1 s more for anything that would come twice,
// and writes the total to `result`.
int walkers_node(const NodeSpec& spec, const NodeArgs& args) {
  const int from = int_arg(args, 0);
  const int to = int_arg(args, 1);
  const int expected = int_arg(args, 2);
  const std::string& result = args.at(3);
  ThreadedExecutor executor(2);
  StderrLogSink log;
  Runtime rt(spec.config(), executor, nullptr, &log);
  rt.install(walk::context());
  rt.recover();
  for (int i = from; i <= to; ++i)
    walk::Walker::at(rt, fmt::format("w-{}", i)).walk(i);
  if (expected == 0) return 0;
  const auto until = std::chrono::steady_clock::now() + 90s;
  while (walk::Walker::at(rt, "notes").totalOf() < expected &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(50ms);
  std::this_thread::sleep_for(1s);
  std::ofstream(result) << walk::Walker::at(rt, "notes").totalOf() << "\n";
  return 0;
}

const NodeRole kWalkers("walkers", &walkers_node);

// The role "walk-relay" (mode, messages): node B. Every RelayPoint of
// agent messages is written to its log as `relay point KIND COUNT
// POSITION`. Mode "kill": SIGKILLed at the first batch published, before
// its removal. Mode "resume": once its relay resynced and published
// `messages` in all, it stops (the relay finishes removing its batch).
int walk_relay_node(const NodeSpec& spec, const NodeArgs& args) {
  const bool kill = args.at(0) == "kill";
  const int messages = int_arg(args, 1);
  auto relayed = std::make_shared<std::atomic<int>>(0);
  ThreadedExecutor executor(2);
  StderrLogSink log;
  const RuntimeConfig config = spec.config();
  NatsBackendOptions options = nats_backend_options(config);
  options.relay_hook = [kill, relayed](const RelayPoint& point) {
    const char* kind = "";
    switch (point.kind) {
      case RelayPoint::Kind::events_published:
        return;
      case RelayPoint::Kind::messages_published:
        kind = "published";
        break;
      case RelayPoint::Kind::messages_resynced:
        kind = "resynced";
        break;
    }
    std::fprintf(stderr, "relay point %s %lld %lld\n", kind,
                 static_cast<long long>(point.count),
                 static_cast<long long>(point.position));
    std::fflush(stderr);
    if (kill) std::raise(SIGKILL);
    relayed->fetch_add(static_cast<int>(point.count));
  };
  std::fprintf(stderr, "walk-relay %s\n", args.at(0).c_str());
  Runtime rt(
      config, executor,
      make_nats_backend(std::move(options), sqlite_backend_options(config)),
      &log);
  rt.install(walk::relay::context());
  rt.recover();
  const auto until = std::chrono::steady_clock::now() + 90s;
  while (relayed->load() < messages && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(20ms);
  return relayed->load() >= messages ? 0 : 1;
}

const NodeRole kWalkRelay("walk-relay", &walk_relay_node);

// The relay points a node's log holds, after each `walk-relay MODE` line.
struct LoggedPoint {
  std::string kind;
  long long count = 0;
  long long position = 0;
};
std::vector<std::vector<LoggedPoint>> relay_points(const NodeSpec& spec) {
  std::ifstream in(node_log(spec));
  std::vector<std::vector<LoggedPoint>> runs;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("walk-relay ", 0) == 0) {
      runs.emplace_back();
      continue;
    }
    std::istringstream words(line);
    std::string relay;
    std::string point;
    LoggedPoint p;
    if (!(words >> relay >> point >> p.kind >> p.count >> p.position) ||
        relay != "relay" || point != "point" || runs.empty())
      continue;
    runs.back().push_back(p);
  }
  return runs;
}

// The herald tool on the node whose configuration is `config`: status,
// `extra` added; its stdout and exit status.
ToolRun herald_status(const std::string& config,
                      const std::string& extra = "") {
  return run_herald(fmt::format("--config '{}' status {}", config, extra));
}

void write_config(const std::string& path, const NodeSpec& spec) {
  std::ofstream out(path);
  out << "backend.kind = nats\n"
      << "backend.sqlite.path = " << spec.database << "\n"
      << "backend.nats.servers = " << spec.servers << "\n"
      << "backend.nats.node = " << spec.node << "\n"
      << "backend.nats.contexts = " << spec.context << "\n";
}

TEST_CASE(
    "Message relay: a sending node SIGKILLed between a publish's "
    "acknowledgement and its local removal, restarted: every agent message "
    "received once, the relay resynced from its subject's last message; "
    "herald status shows the message streams") {
  NatsServer server;
  TempDatabase walkers_db;
  TempDatabase relays_db;
  TempDatabase result;
  TempDatabase walkers_config;
  TempDatabase relays_config;
  const NodeSpec walkers{server.url(), "walkers-1", "walk", walkers_db.path};
  const NodeSpec relays{server.url(), "relays-1", "walk.relay", relays_db.path};
  write_config(walkers_config.path, walkers);
  write_config(relays_config.path, relays);
  const auto logs = [&] {
    return node_log_tail(walkers) + node_log_tail(relays);
  };

  // A walks every walker and stops: no node has sent to walk's agents.
  {
    const int walked =
        wait_for(spawn("walkers", walkers,
                       {"1", std::to_string(kWalks), "0", result.path}),
                 60s);
    INFO(logs());
    REQUIRE(walked != -1);
    REQUIRE(WIFEXITED(walked));
    REQUIRE(WEXITSTATUS(walked) == 0);
    const ToolRun json = herald_status(walkers_config.path, "--json");
    REQUIRE(json.exit == 0);
    const auto node = nlohmann::json::parse(json.out).at("node");
    CHECK(node.at("message_relays").empty());
    REQUIRE(node.at("message_intakes").size() == 1);
    const auto& intake = node.at("message_intakes")[0];
    CHECK(intake.at("context") == "walk");
    CHECK(intake.at("stream") == "HERALD_MSG_walk");
    CHECK(intake.at("consumer") == "walkers-1_messages");
    CHECK(intake.at("stream_created") == false);
    CHECK(intake.at("stream_state").is_null());
    CHECK(intake.at("consumer_state").is_null());
    CHECK(intake.at("received") == 0);
    CHECK(intake.at("lag") == 0);
    const ToolRun text = herald_status(walkers_config.path);
    REQUIRE(text.exit == 0);
    CHECK(text.out.find(
              "Stream HERALD_MSG_walk: not created yet: no sender so far") !=
          std::string::npos);
  }

  // A again, until the notes are complete; B dies once its relay's first
  // batch is acknowledged, before removing it.
  ChildProcess walking(
      spawn("walkers", walkers,
            {"1", "0", std::to_string(kNotesTotal), result.path}));
  {
    const int killed = wait_for(
        spawn("walk-relay", relays, {"kill", std::to_string(kWalks)}), 90s);
    INFO(logs());
    REQUIRE(killed != -1);
    REQUIRE(WIFSIGNALED(killed));
    CHECK(WTERMSIG(killed) == SIGKILL);
  }
  // B again, on the same database: its relay reads its subject's last
  // message, removes the batch it carries and publishes the rest.
  const int resumed = wait_for(
      spawn("walk-relay", relays, {"resume", std::to_string(kWalks)}), 120s);
  const int walked = wait_for(walking.pid, 120s);
  walking.pid = -1;
  INFO(logs());
  REQUIRE(resumed != -1);
  CHECK(WIFEXITED(resumed));
  CHECK(WEXITSTATUS(resumed) == 0);
  REQUIRE(walked != -1);
  CHECK(WIFEXITED(walked));
  CHECK(WEXITSTATUS(walked) == 0);

  // Every message once: the notes add up each walk once, and the stream
  // holds each message once.
  int total = -1;
  std::ifstream(result.path) >> total;
  CHECK(total == kNotesTotal);
  CHECK(stream_messages(server.url(), "HERALD_MSG_walk") == kWalks);

  // The killed run published one batch; the restarted relay first removed
  // that batch (found on its subject, up to the same sequence) without
  // publishing it again, then published the rest: every message was
  // published once. (A later resync removes a message whose publish timed
  // out after the server stored it: also published once.)
  const auto runs = relay_points(relays);
  REQUIRE(runs.size() == 2);
  REQUIRE(runs[0].size() == 1);
  const LoggedPoint& killed_batch = runs[0][0];
  CHECK(killed_batch.kind == "published");
  CHECK(killed_batch.count >= 1);
  REQUIRE(!runs[1].empty());
  CHECK(runs[1][0].kind == "resynced");
  CHECK(runs[1][0].count == killed_batch.count);
  CHECK(runs[1][0].position == killed_batch.position);
  // Removed by a resync or published, each message once.
  long long relayed = 0;
  for (const LoggedPoint& p : runs[1]) relayed += p.count;
  CHECK(relayed == kWalks);

  // herald status on both stopped nodes.
  {
    const ToolRun json = herald_status(relays_config.path, "--json");
    REQUIRE(json.exit == 0);
    const auto node = nlohmann::json::parse(json.out).at("node");
    CHECK(node.at("message_intakes").empty());
    REQUIRE(node.at("message_relays").size() == 1);
    const auto& relay = node.at("message_relays")[0];
    CHECK(relay.at("context") == "walk");
    CHECK(relay.at("stream") == "HERALD_MSG_walk");
    CHECK(relay.at("subject") == "herald_msg.walk.relays-1");
    CHECK(relay.at("stream_created") == true);
    CHECK(relay.at("stream_state").at("messages") == kWalks);
    CHECK(relay.at("last_sequence") == kWalks);
    CHECK(relay.at("pending") == 0);
    const ToolRun text = herald_status(relays_config.path);
    REQUIRE(text.exit == 0);
    // CONTEXT STREAM SUBJECT LAST-SEQ PENDING
    CHECK(table_row(text.out, "Message relays", "walk") ==
          std::vector<std::string>{"walk", "HERALD_MSG_walk",
                                   "herald_msg.walk.relays-1",
                                   std::to_string(kWalks), "0"});
  }
  {
    const ToolRun json = herald_status(walkers_config.path, "--json");
    REQUIRE(json.exit == 0);
    const auto node = nlohmann::json::parse(json.out).at("node");
    CHECK(node.at("message_relays").empty());
    REQUIRE(node.at("message_intakes").size() == 1);
    const auto& intake = node.at("message_intakes")[0];
    CHECK(intake.at("stream_created") == true);
    CHECK(intake.at("stream_state").at("last_sequence") == kWalks);
    CHECK(intake.at("received") == kWalks);
    CHECK(intake.at("consumer_state").at("delivered") == kWalks);
    CHECK(intake.at("consumer_state").at("ack_floor") == kWalks);
    CHECK(intake.at("consumer_state").at("pending") == 0);
    CHECK(intake.at("lag") == 0);
    const ToolRun text = herald_status(walkers_config.path);
    REQUIRE(text.exit == 0);
    // CONTEXT STREAM CONSUMER DELIVERED ACK-FLOOR PENDING ACK-PENDING
    // RECEIVED LAG
    const std::string n = std::to_string(kWalks);
    CHECK(table_row(text.out, "Message intakes", "walk") ==
          std::vector<std::string>{"walk", "HERALD_MSG_walk",
                                   "walkers-1_messages", n, n, "0", "0", n,
                                   "0"});
    CHECK(text.out.find("not created yet") == std::string::npos);
  }

  // Without the servers: the local part (B's pending count, A's received
  // mark), unknowns for the rest, exit status 4.
  {
    server.kill();
    const ToolRun relay_json = herald_status(relays_config.path, "--json");
    CHECK(relay_json.exit == 4);
    const auto relay =
        nlohmann::json::parse(relay_json.out).at("node").at("message_relays");
    // Known from the servers only: B has nothing pending for walk.
    CHECK(relay.empty());
    const ToolRun json = herald_status(walkers_config.path, "--json");
    CHECK(json.exit == 4);
    const auto node = nlohmann::json::parse(json.out).at("node");
    REQUIRE(node.at("message_intakes").size() == 1);
    const auto& intake = node.at("message_intakes")[0];
    CHECK(intake.at("received") == kWalks);
    CHECK(intake.at("stream_created").is_null());
    CHECK(intake.at("consumer_state").is_null());
    CHECK(intake.at("lag").is_null());
    const ToolRun text = herald_status(walkers_config.path);
    CHECK(text.exit == 4);
    CHECK(table_row(text.out, "Message intakes", "walk") ==
          std::vector<std::string>{"walk", "HERALD_MSG_walk",
                                   "walkers-1_messages", "?", "?", "?", "?",
                                   std::to_string(kWalks), "?"});
  }
}

}  // namespace
}  // namespace herald::test
