// `herald status` on a nats node (the built tool, run on a stopped node's
// database with the node's configuration file): node A hosts
// commerce.order, node B hosts commerce.notifications and ingests A's
// payments (and relays its own receipts). Checked, in text and JSON: the
// streams, the consumer and lags that are the right numbers after a
// drain, with B stopped while A publishes more, and with the server gone
// (the local part still printed, exit status 4); the consumer of another
// node whose name starts with B's is not B's.
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commerce/notifications.h"
#include "commerce_nodes.hpp"
#include "herald/agent_kind.hpp"
#include "herald/log.hpp"
#include "herald/runtime.hpp"
#include "herald/threaded_executor.hpp"
#include "nats_server.hpp"
#include "node_process.hpp"
#include "temp_database.hpp"
#include "tool_run.hpp"
#include <nats/nats.h>
#include <sys/wait.h>

namespace herald::test {
namespace {

using namespace std::chrono_literals;

constexpr int kFirst = 20;  // payments B ingests and delivers
constexpr int kMore = 7;    // payments published while B is stopped
// The consumer a node named `notify-1_x` would have: not notify-1's,
// although its name starts with `notify-1_`.
const std::string kOtherNodes = "notify-1_x_commerce-order-PaymentConfirmed";

// A durable consumer `name` on `stream` (what another node's ingest
// creates), made with the client library.
void add_consumer(const std::string& url, const std::string& stream,
                  const std::string& name, const std::string& filter) {
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  REQUIRE(natsConnection_ConnectTo(&nc, url.c_str()) == NATS_OK);
  REQUIRE(natsConnection_JetStream(&js, nc, nullptr) == NATS_OK);
  jsConsumerConfig config;
  REQUIRE(jsConsumerConfig_Init(&config) == NATS_OK);
  config.Durable = name.c_str();
  config.AckPolicy = js_AckExplicit;
  config.FilterSubject = filter.c_str();
  jsConsumerInfo* info = nullptr;
  jsErrCode code{};
  const natsStatus status =
      js_AddConsumer(&info, js, stream.c_str(), &config, nullptr, &code);
  jsConsumerInfo_Destroy(info);
  jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  REQUIRE(status == NATS_OK);
}

// The role "notifications-until-drained" (expected): node B until it
// delivered `expected` payments to u-1's inbox and relayed the receipts
// they issued; then it stops (exit 0), or 1 after 60 s (a loaded machine is
// slow, not wrong).
int notifications_until_drained(const NodeSpec& spec, const NodeArgs& args) {
  const int expected = int_arg(args, 0);
  ThreadedExecutor executor(2);
  StderrLogSink log;
  QuietGateway gateway;
  Runtime rt(spec.config(), executor, nullptr, &log);
  rt.install(commerce::notifications::context(gateway));
  rt.recover();
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < until) {
    const auto inbox = commerce::notifications::Inbox::at(rt, "u-1").messages();
    if (static_cast<int>(inbox.size()) >= expected &&
        stream_messages(spec.servers, "HERALD_commerce-notifications") >=
            expected)
      return 0;
    std::this_thread::sleep_for(20ms);
  }
  return 1;
}

const NodeRole kUntilDrained("notifications-until-drained",
                             &notifications_until_drained);

const nlohmann::json& ingest(const nlohmann::json& status) {
  const nlohmann::json& ingests = status.at("node").at("ingests");
  REQUIRE(ingests.size() == 1);
  CHECK(ingests[0].at("consumer") == kPaymentConsumer);
  return ingests[0];
}

TEST_CASE(
    "Status: herald status on a nats node shows its streams, its consumer "
    "and its lags, and the local part when the servers are gone") {
  NatsServer server;
  TempDatabase orders_db;
  TempDatabase notifications_db;
  TempDatabase config_file;
  const NodeSpec orders{server.url(), "orders-1", "commerce.order",
                        orders_db.path};
  const NodeSpec notifications{server.url(), "notify-1",
                               "commerce.notifications", notifications_db.path};
  {
    std::ofstream out(config_file.path);
    out << "backend.kind = nats\n"
        << "backend.sqlite.path = " << notifications_db.path << "\n"
        << "backend.nats.servers = " << server.url() << "\n"
        << "backend.nats.node = notify-1\n"
        << "backend.nats.contexts = commerce.notifications\n";
  }
  const std::string status_args =
      fmt::format("--config '{}' status", config_file.path);

  // A publishes kFirst payments; B delivers them all and stops.
  const pid_t consumer = spawn("notifications-until-drained", notifications,
                               {std::to_string(kFirst)});
  ChildProcess publisher(start_orders(orders, 1, kFirst, 0ms));
  const int drained = wait_for(consumer, 90s);
  REQUIRE(drained != -1);
  REQUIRE(WIFEXITED(drained));
  REQUIRE(WEXITSTATUS(drained) == 0);

  // Another node whose name starts with this one's and an underscore
  // ingests the same event type: its consumer is not this node's.
  add_consumer(server.url(), "HERALD_commerce-order", kOtherNodes,
               "herald.commerce.order.PaymentConfirmed.*");

  // After a drain every lag is 0.
  {
    const ToolRun json = run_herald(status_args + " --json");
    REQUIRE(json.exit == 0);
    const auto status = nlohmann::json::parse(json.out);
    const auto& node = status.at("node");
    CHECK(node.at("name") == "notify-1");
    CHECK(node.at("broker").at("available") == true);
    REQUIRE(node.at("relays").size() == 1);
    const auto& relay = node.at("relays")[0];
    CHECK(relay.at("context") == "commerce.notifications");
    CHECK(relay.at("stream") == "HERALD_commerce-notifications");
    CHECK(relay.at("head") == kFirst);  // a receipt per domestic payment
    CHECK(relay.at("relayed") == kFirst);
    CHECK(relay.at("lag") == 0);
    CHECK(relay.at("stream_state").at("messages") == kFirst);
    CHECK(relay.at("stream_state").at("first_sequence") == 1);
    CHECK(relay.at("stream_state").at("last_sequence") == kFirst);
    CHECK(relay.at("stream_state").at("replicas") == 1);
    CHECK(relay.at("stream_state").at("last_position") == kFirst);
    const auto& in = ingest(status);
    CHECK(in.at("stream") == "HERALD_commerce-order");
    CHECK(in.at("event_type") == "commerce.order.PaymentConfirmed");
    CHECK(in.at("ingested") == kFirst);
    CHECK(in.at("mirror_head") == kFirst);
    CHECK(in.at("consumer_state").at("delivered") == kFirst);
    CHECK(in.at("consumer_state").at("ack_floor") == kFirst);
    CHECK(in.at("consumer_state").at("pending") == 0);
    CHECK(in.at("consumer_state").at("ack_pending") == 0);
    CHECK(in.at("lag") == 0);
    // Every subscription settled every payment: those that take u-1's
    // domestic payments delivered them, OnInternationalPayment filtered
    // them all out.
    REQUIRE(status.at("subscriptions").size() == 3);
    for (const auto& s : status.at("subscriptions")) {
      CAPTURE(s.at("name"));
      CHECK(s.at("lag") == 0);
    }

    const ToolRun text = run_herald(status_args);
    REQUIRE(text.exit == 0);
    CHECK(text.out.find("Node notify-1 (servers " + server.url() + ")") !=
          std::string::npos);
    // CONTEXT STREAM MESSAGES FIRST LAST REPLICAS HEAD RELAYED IN-STREAM LAG
    CHECK(table_row(text.out, "Relays", "commerce.notifications") ==
          std::vector<std::string>{"commerce.notifications",
                                   "HERALD_commerce-notifications", "20", "1",
                                   "20", "1", "20", "20", "20", "0"});
    // CONSUMER STREAM DELIVERED ACK-FLOOR PENDING ACK-PENDING INGESTED
    // MIRROR-HEAD LAG
    CHECK(table_row(text.out, "Ingests", kOtherNodes).empty());
    CHECK(table_row(text.out, "Ingests", kPaymentConsumer) ==
          std::vector<std::string>{kPaymentConsumer, "HERALD_commerce-order",
                                   "20", "20", "0", "0", "20", "20", "0"});
  }

  // A stopped consumer lags by what was published since.
  {
    publisher.reset(start_orders(orders, kFirst + 1, kFirst + kMore, 0ms));
    const auto until = std::chrono::steady_clock::now() + 20s;
    while (stream_messages(server.url(), "HERALD_commerce-order") <
               kFirst + kMore &&
           std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(20ms);
    REQUIRE(stream_messages(server.url(), "HERALD_commerce-order") ==
            kFirst + kMore);
    const ToolRun json = run_herald(status_args + " --json");
    REQUIRE(json.exit == 0);
    const auto status = nlohmann::json::parse(json.out);
    const auto& in = ingest(status);
    CHECK(in.at("ingested") == kFirst);
    CHECK(in.at("consumer_state").at("delivered") == kFirst);
    CHECK(in.at("consumer_state").at("pending") == kMore);
    CHECK(in.at("lag") == kMore);
    const ToolRun text = run_herald(status_args);
    REQUIRE(text.exit == 0);
    CHECK(table_row(text.out, "Ingests", kPaymentConsumer).back() ==
          std::to_string(kMore));
  }

  // Without the servers: the local part, and exit status 4.
  {
    publisher.reset();
    server.kill();
    const ToolRun text = run_herald(status_args);
    CHECK(text.exit == 4);
    CHECK(text.out.find("Subscriptions") != std::string::npos);
    CHECK(text.out.find("Broker: unavailable (") != std::string::npos);
    // The marks are local: the relay's lag counts from them; the ingest's
    // lag is unknown.
    CHECK(table_row(text.out, "Relays", "commerce.notifications") ==
          std::vector<std::string>{"commerce.notifications",
                                   "HERALD_commerce-notifications", "?", "?",
                                   "?", "?", "20", "20", "?", "0"});
    CHECK(table_row(text.out, "Ingests", kPaymentConsumer) ==
          std::vector<std::string>{kPaymentConsumer, "HERALD_commerce-order",
                                   "?", "?", "?", "?", "20", "20", "?"});
    const ToolRun json = run_herald(status_args + " --json");
    CHECK(json.exit == 4);
    const auto status = nlohmann::json::parse(json.out);
    CHECK(status.at("node").at("broker").at("available") == false);
    CHECK(status.at("node").at("broker").at("error").is_string());
    const auto& in = ingest(status);
    CHECK(in.at("ingested") == kFirst);
    CHECK(in.at("consumer_state").is_null());
    CHECK(in.at("lag").is_null());
  }
}

}  // namespace
}  // namespace herald::test
