// The event format of a context's stream (stream_message.hpp): what the
// relay writes, field by field, and what the ingest reads back; a Herald
// event of a format version this build does not read is refused by the
// consuming node, which names it in its log and leaves it unacknowledged
// on its consumer, and the events before it arrive once.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "commerce/order.h"
#include "commerce_nodes.hpp"
#include "herald/log_entry.hpp"
#include "nats_server.hpp"
#include "node_process.hpp"
#include "stream_message.hpp"
#include <nats/nats.h>
#include <sys/wait.h>

namespace herald::test {
namespace {

using commerce::order::Money;
using commerce::order::OrderId;
using commerce::order::PaymentConfirmed;
using commerce::order::UserId;
using nats_detail::MalformedMessage;
using nats_detail::UnknownFormat;
using namespace std::chrono_literals;

const std::string kSubject = "herald.commerce.order.PaymentConfirmed.3";

std::string header(natsMsg* msg, const char* key) {
  const char* value = nullptr;
  if (natsMsgHeader_Get(msg, key, &value) != NATS_OK || value == nullptr)
    return "<none>";
  return value;
}

std::string body(natsMsg* msg) {
  return {natsMsg_GetData(msg),
          static_cast<std::size_t>(natsMsg_GetDataLength(msg))};
}

// A message on the subject of PaymentConfirmed with the headers of a
// Herald event at `position` and `text` as its body.
nats_detail::MsgPtr herald_message(const std::string& text,
                                   std::int64_t position) {
  natsMsg* raw = nullptr;
  REQUIRE(natsMsg_Create(&raw, kSubject.c_str(), nullptr, text.data(),
                         static_cast<int>(text.size())) == NATS_OK);
  nats_detail::MsgPtr msg(raw);
  const std::string id = EventId(7, static_cast<std::uint64_t>(position)).str();
  const std::string at = std::to_string(position);
  REQUIRE(natsMsgHeader_Set(raw, "Nats-Msg-Id", id.c_str()) == NATS_OK);
  REQUIRE(natsMsgHeader_Set(raw, "Herald-Publisher", "newer") == NATS_OK);
  REQUIRE(natsMsgHeader_Set(raw, "Herald-Sequence", "1") == NATS_OK);
  REQUIRE(natsMsgHeader_Set(raw, "Herald-Position", at.c_str()) == NATS_OK);
  return msg;
}

// The stream sequence up to which `consumer` has every message
// acknowledged (or terminated); 0 if it cannot be read.
std::uint64_t ack_floor(const std::string& url, const std::string& stream,
                        const std::string& consumer) {
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  jsConsumerInfo* info = nullptr;
  std::uint64_t floor = 0;
  if (natsConnection_ConnectTo(&nc, url.c_str()) == NATS_OK &&
      natsConnection_JetStream(&js, nc, nullptr) == NATS_OK &&
      js_GetConsumerInfo(&info, js, stream.c_str(), consumer.c_str(), nullptr,
                         nullptr) == NATS_OK) {
    floor = info->AckFloor.Stream;
  }
  jsConsumerInfo_Destroy(info);
  jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  return floor;
}

// Messages made here are freed through the library, which must be open.
void open_library() { REQUIRE(nats_Open(-1) == NATS_OK); }

TEST_CASE(
    "Event format: a relayed event is four headers and a body of its "
    "format version, the rest of its envelope and its payload; the ingest "
    "reads every field back") {
  open_library();
  const LogEntryPtr entry =
      AnyEvent::of(PaymentConfirmed{OrderId::from_raw("o-1"),
                                    UserId::from_raw("u-1"),
                                    Money{250, "EUR"},
                                    commerce::order::Region::Domestic,
                                    {}})
          .entry;
  EventEnvelope& env = entry->envelope;
  env.eventId = EventId(1, 2);
  env.publisherId = "commerce.order.Payments";
  env.sequence = 41;
  env.emittedAt = Instant(Duration(1'700'000'000'123'456'789));
  env.schemaVersion = 1;
  env.causationId = EventId(3, 4);
  env.correlationId = EventId(5, 6);
  env.depth = 2;
  entry->position = 97;

  nats_detail::EventScratch scratch;
  const nats_detail::MsgPtr msg = nats_detail::event_message(*entry, scratch);
  CHECK(header(msg.get(), "Nats-Msg-Id") == EventId(1, 2).str());
  CHECK(header(msg.get(), "Herald-Publisher") == "commerce.order.Payments");
  CHECK(header(msg.get(), "Herald-Sequence") == "41");
  CHECK(header(msg.get(), "Herald-Position") == "97");
  const char** keys = nullptr;
  int count = 0;
  REQUIRE(natsMsgHeader_Keys(msg.get(), &keys, &count) == NATS_OK);
  free(static_cast<void*>(keys));  // NOLINT: the client's malloc'd array
  CHECK(count == 4);
  const std::string text = body(msg.get());
  const std::string line = fmt::format(
      "1 commerce.order.PaymentConfirmed 1700000000123456789 1 {} {} 2\n",
      EventId(3, 4).str(), EventId(5, 6).str());
  REQUIRE(text.size() > line.size());
  CHECK(text.substr(0, line.size()) == line);
  CHECK(text.substr(line.size()).find(R"("cents":250)") != std::string::npos);

  const MirroredEvent e = nats_detail::mirrored_event(msg.get());
  CHECK(e.event_id == EventId(1, 2));
  CHECK(e.event_type == "commerce.order.PaymentConfirmed");
  CHECK(e.publisher == "commerce.order.Payments");
  CHECK(e.sequence == 41);
  CHECK(e.emitted_at == env.emittedAt);
  CHECK(e.schema_version == 1);
  REQUIRE(e.causation.has_value());
  CHECK(*e.causation == EventId(3, 4));
  CHECK(e.correlation == EventId(5, 6));
  CHECK(e.depth == 2);
  CHECK(e.payload == text.substr(line.size()));

  // A root event: no causation.
  env.causationId.reset();
  const nats_detail::MsgPtr root = nats_detail::event_message(*entry, scratch);
  CHECK(body(root.get()).find(" 1 - ") != std::string::npos);
  CHECK(!nats_detail::mirrored_event(root.get()).causation.has_value());
}

TEST_CASE(
    "Event format: a Herald event of another format version, or of none, "
    "is refused as unknown; a known version with a broken envelope is "
    "malformed") {
  open_library();
  const std::string tail = fmt::format(
      " commerce.order.PaymentConfirmed 5 1 - {} 0\n{{}}", EventId(5, 6).str());
  CHECK_THROWS_WITH_AS(
      nats_detail::mirrored_event(herald_message("2" + tail, 3).get()),
      doctest::Contains("of event format 2; this build reads event format 1"),
      UnknownFormat);
  CHECK_THROWS_WITH_AS(nats_detail::mirrored_event(
                           herald_message(R"({"orderId":"o-1"})", 3).get()),
                       doctest::Contains("without an event format version"),
                       UnknownFormat);
  CHECK_THROWS_WITH_AS(
      nats_detail::mirrored_event(
          herald_message("1 commerce.order.PaymentConfirmed 5 1 -\n{}", 3)
              .get()),
      doctest::Contains("the envelope's correlation is missing"),
      MalformedMessage);
  CHECK_THROWS_WITH_AS(
      nats_detail::mirrored_event(
          herald_message(
              fmt::format(
                  "1 commerce.order.PaymentConfirmed 5 1 - {} 0 9\n{{}}",
                  EventId(5, 6).str()),
              3)
              .get()),
      doctest::Contains("the envelope's line has fields after depth"),
      MalformedMessage);
  CHECK_THROWS_WITH_AS(
      nats_detail::mirrored_event(
          herald_message("1 commerce.order.PaymentConfirmed x", 3).get()),
      doctest::Contains("the envelope's emitted at 'x' is not an integer"),
      MalformedMessage);
  CHECK_NOTHROW(
      nats_detail::mirrored_event(herald_message("1" + tail, 3).get()));
}

TEST_CASE(
    "Event format: the consuming node refuses an event of a format version "
    "it does not read, names it, and leaves it unacknowledged; the events "
    "before it arrive once, in order") {
  NatsServer server;
  TwoNodes nodes(server.url());
  // Every payment in the stream, then an event a newer build relayed.
  const pid_t publisher = start_orders(nodes.orders, 1, kEvents, 0ms);
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (stream_messages(server.url(), kOrderStream) < kEvents &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(20ms);
  stop(publisher);
  REQUIRE(stream_messages(server.url(), kOrderStream) == kEvents);
  const std::string newer = fmt::format(
      "2 commerce.order.PaymentConfirmed 5 1 - {} 0 a-field-of-format-2\n{{}}",
      EventId(5, 6).str());
  const std::uint64_t refused =
      publish_to_stream(server.url(), herald_message(newer, kEvents + 1).get());
  REQUIRE(refused == static_cast<std::uint64_t>(kEvents + 1));

  const pid_t consumer = nodes.start_notifications();
  const int status = wait_for(consumer, 90s);
  const Outcome o = read_outcome(nodes.result.path);
  if (status == -1 || o.inbox != expected_inbox())
    MESSAGE(node_log_tail(nodes.notifications));
  REQUIRE(status != -1);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(o.inbox == expected_inbox());
  CHECK(o.audit == static_cast<std::size_t>(kEvents));
  // Still in the stream, and neither acknowledged nor terminated.
  CHECK(o.stream == kEvents + 1);
  CHECK(ack_floor(server.url(), kOrderStream, kPaymentConsumer) ==
        static_cast<std::uint64_t>(kEvents));

  const auto failed =
      node_log_lines(nodes.notifications, "transport.ingest_failed");
  REQUIRE(!failed.empty());
  CHECK(failed[0].find(fmt::format("message {} of stream {}", refused,
                                   kOrderStream)) != std::string::npos);
  CHECK(failed[0].find("of event format 2") != std::string::npos);
  CHECK(node_log_lines(nodes.notifications, "transport.message_rejected")
            .empty());
}

}  // namespace
}  // namespace herald::test
