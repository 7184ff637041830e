// Something else than Herald publishes to a context's stream: a message
// with none of Herald's headers, on the subject of PaymentConfirmed,
// between the orders node's events. The consuming node rejects it (it is
// terminated on its consumer and reported in its log with its stream
// sequence) and goes on with the events after it; the publishing node's
// relay, whose next publish no longer finds the stream's last sequence
// where it left it, reports the failure, finds its last event behind the
// foreign message and goes on. Every payment arrives once, in order.
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "commerce_nodes.hpp"
#include "nats_server.hpp"
#include "node_process.hpp"
#include <nats/nats.h>
#include <sys/wait.h>

namespace herald::test {
namespace {

using namespace std::chrono_literals;

// Publishes `body` to `subject` through JetStream, with no headers; the
// stream sequence it got (0 if the publish failed).
std::uint64_t publish_foreign(const std::string& url,
                              const std::string& subject,
                              const std::string& body) {
  natsMsg* raw = nullptr;
  if (natsMsg_Create(&raw, subject.c_str(), nullptr, body.data(),
                     static_cast<int>(body.size())) != NATS_OK)
    return 0;
  const std::uint64_t sequence = publish_to_stream(url, raw);
  natsMsg_Destroy(raw);
  return sequence;
}

TEST_CASE(
    "Ingest: a message that is no Herald event, published to a context's "
    "stream between its events, is rejected and reported; the events "
    "around it arrive once, in order") {
  NatsServer server;
  TwoNodes nodes(server.url());
  const pid_t consumer = nodes.start_notifications();
  const pid_t publisher = start_orders(nodes.orders, 1, kEvents, 15ms);
  // Once the relay is well under way, with most events still to publish.
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (stream_messages(server.url(), "HERALD_commerce-order") < 10 &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(20ms);
  const std::uint64_t foreign =
      publish_foreign(server.url(), "herald.commerce.order.PaymentConfirmed.3",
                      R"({"not":"an event"})");
  REQUIRE(foreign > 0);

  const int status = wait_for(consumer, 90s);
  stop(publisher);
  const Outcome o = read_outcome(nodes.result.path);
  if (status == -1 || o.inbox != expected_inbox()) {
    MESSAGE(node_log_tail(nodes.notifications));
    MESSAGE(node_log_tail(nodes.orders));
  }
  REQUIRE(status != -1);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(o.inbox == expected_inbox());
  CHECK(o.audit == static_cast<std::size_t>(kEvents));
  // Every event once, and the foreign message left in the stream.
  CHECK(o.stream == kEvents + 1);

  // The consuming node said which message it rejected.
  const auto rejected =
      node_log_lines(nodes.notifications, "transport.message_rejected");
  REQUIRE(rejected.size() == 1);
  CHECK(rejected[0].find(R"("streamSequence":)" + std::to_string(foreign)) !=
        std::string::npos);
  CHECK(rejected[0].find("HERALD_commerce-order") != std::string::npos);
  CHECK(rejected[0].find("has no Nats-Msg-Id header") != std::string::npos);
  // The publishing node's relay failed once past it and recovered.
  CHECK(!node_log_lines(nodes.orders, "transport.relay_failed").empty());
  CHECK(!node_log_lines(nodes.orders, "transport.recovered").empty());
}

}  // namespace
}  // namespace herald::test
