// Text and JSON forms of the results, the table, and the progress bar.
#include <cstdio>
#include <string>

#include <doctest/doctest.h>

#include "herald/sqlite_operator.hpp"
#include "sample_database.hpp"
#include "tools/herald/json_output.hpp"
#include "tools/herald/progress.hpp"
#include "tools/herald/table.hpp"
#include "tools/herald/text_output.hpp"

using namespace herald::test_support;
using Database = herald::SqliteOperator;
using herald::tool::Json;

namespace {

bool has_keys(const Json& j, std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    if (!j.contains(key)) {
      MESSAGE("missing key ", key, " in ", j.dump());
      return false;
    }
  return true;
}

std::string read_all(std::FILE* f) {
  std::rewind(f);
  std::string out;
  char buffer[256];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, f))
    out.append(buffer, n);
  return out;
}

}  // namespace

TEST_CASE("a table pads columns, right-aligns numbers, trims line ends") {
  herald::tool::Table table(
      {{"NAME"}, {"N", herald::tool::Align::Right}, {"NOTE"}});
  table.add_row({"a", "10", ""});
  table.add_row({"long-name", "2", "é"});
  CHECK(table.render() ==
        "NAME        N  NOTE\n"
        "a          10\n"
        "long-name   2  é\n");
}

TEST_CASE("one_line joins lines and cuts long text") {
  CHECK(herald::tool::one_line("a\nb\tc", 10) == "a b c");
  CHECK(herald::tool::one_line("0123456789abc", 10) == "0123456...");
  CHECK(herald::tool::short_instant(herald::Instant(std::chrono::nanoseconds(
            kSampleT0 + 125'999'999))) == "2026-12-02T07:00:00.125Z");
}

TEST_CASE("status text and JSON") {
  Sample s;
  Database db(s.path);
  const auto status = db.status();
  const std::string text = herald::tool::status_text(status);
  CHECK(text.find("SUBSCRIPTION                              CONTEXT           "
                  "POSITION  LAG  RETRYING  DEAD LETTERS  RE-DRIVING\n") !=
        std::string::npos);
  CHECK(text.find("commerce.notifications.OnDomesticPayment  commerce.order   "
                  "        5    1         1             1           0\n") !=
        std::string::npos);
  CHECK(text.find("commerce.order.Order              3\n") !=
        std::string::npos);
  CHECK(text.find("Agent messages: 1 pending, 1 dead\n") != std::string::npos);

  const Json j = Json::parse(herald::tool::status_json(status).dump());
  REQUIRE(has_keys(
      j, {"database", "subscriptions", "agents", "logs", "agent_messages"}));
  CHECK(has_keys(j["database"], {"path", "schema_version", "runtime_version"}));
  CHECK(text.starts_with("Database " + s.path +
                         " (schema version 3, last opened by runtime 1)\n"));
  REQUIRE(j["subscriptions"].size() == 3);
  CHECK(has_keys(j["subscriptions"][0],
                 {"name", "context", "position", "lag", "retrying",
                  "dead_letters", "redriving"}));
  CHECK(j["subscriptions"][2]["lag"] == 1);
  CHECK(has_keys(j["agents"][0], {"kind", "instances"}));
  CHECK(has_keys(j["logs"][0], {"context", "head", "retained",
                                "oldest_position", "oldest_emitted_at"}));
  CHECK(j["logs"][0]["oldest_emitted_at"] == "2026-12-02T07:00:01.000000000Z");
  CHECK(j["agent_messages"]["pending"] == 1);
  CHECK(j["agent_messages"]["dead"] == 1);
}

TEST_CASE(
    "a nats node's status shows its message relays and intakes, a message "
    "stream not created yet, and what the servers did not say") {
  Sample s;
  Database db(s.path);
  herald::op::NodeStatus node;
  node.node = "rooms-1";
  node.servers = {"nats://127.0.0.1:4222"};
  node.local = db.status();
  herald::op::MessageRelayStatus relay;
  relay.context = "chat.rooms";
  relay.stream = "HERALD_MSG_chat-rooms";
  relay.subject = "herald_msg.chat.rooms.rooms-1";
  relay.pending = 3;
  relay.state = herald::op::StreamState{};
  relay.state->messages = 12;
  relay.state->last_sequence = 12;
  relay.last_sequence = 9;
  node.message_relays.push_back(relay);
  herald::op::MessageIntakeStatus rooms;
  rooms.context = "chat.lobby";
  rooms.stream = "HERALD_MSG_chat-lobby";
  rooms.consumer = "rooms-1_messages";
  rooms.received = 5;
  rooms.state = herald::op::StreamState{};
  rooms.state->last_sequence = 8;
  rooms.consumer_state = herald::op::ConsumerState{6, 5, 2, 1, 0};
  rooms.lag = 3;
  node.message_intakes.push_back(rooms);
  herald::op::MessageIntakeStatus quiet;
  quiet.context = "chat.quiet";
  quiet.stream = "HERALD_MSG_chat-quiet";
  quiet.consumer = "rooms-1_messages";
  quiet.lag = 0;
  node.message_intakes.push_back(quiet);

  const std::string text = herald::tool::node_status_text(node);
  CHECK(
      text.find("Message relays (agent messages to contexts other nodes "
                "host)\n"
                "CONTEXT     STREAM                 SUBJECT                    "
                "    LAST SEQ  PENDING\n"
                "chat.rooms  HERALD_MSG_chat-rooms  "
                "herald_msg.chat.rooms.rooms-1         9        3\n") !=
      std::string::npos);
  CHECK(
      text.find("chat.lobby  HERALD_MSG_chat-lobby  rooms-1_messages          "
                "6          5        2            1         5    3\n") !=
      std::string::npos);
  CHECK(
      text.find("chat.quiet  HERALD_MSG_chat-quiet  rooms-1_messages          "
                "-          -        -            -         0    0\n") !=
      std::string::npos);
  CHECK(text.ends_with(
      "Stream HERALD_MSG_chat-quiet: not created yet: no sender so far\n"));
  CHECK(text.find("HERALD_MSG_chat-lobby: not created") == std::string::npos);

  Json j = Json::parse(herald::tool::node_status_json(node).dump());
  REQUIRE(j["node"]["message_relays"].size() == 1);
  const Json& r = j["node"]["message_relays"][0];
  CHECK(r["subject"] == "herald_msg.chat.rooms.rooms-1");
  CHECK(r["pending"] == 3);
  CHECK(r["last_sequence"] == 9);
  CHECK(r["stream_created"] == true);
  CHECK(r["stream_state"]["messages"] == 12);
  REQUIRE(j["node"]["message_intakes"].size() == 2);
  const Json& lobby = j["node"]["message_intakes"][0];
  CHECK(lobby["received"] == 5);
  CHECK(lobby["consumer_state"]["delivered"] == 6);
  CHECK(lobby["consumer_state"]["ack_floor"] == 5);
  CHECK(lobby["consumer_state"]["pending"] == 2);
  CHECK(lobby["lag"] == 3);
  const Json& empty = j["node"]["message_intakes"][1];
  CHECK(empty["stream_created"] == false);
  CHECK(empty["stream_state"].is_null());
  CHECK(empty["consumer_state"].is_null());
  CHECK(empty["lag"] == 0);

  // The servers were not read: '?' for what only they know, nothing said
  // of streams not created.
  node.broker_error = "no servers available for connection";
  node.message_relays[0].state.reset();
  node.message_relays[0].last_sequence.reset();
  node.message_intakes[0].state.reset();
  node.message_intakes[0].consumer_state.reset();
  node.message_intakes[0].lag.reset();
  node.message_intakes[1].lag.reset();
  const std::string partial = herald::tool::node_status_text(node);
  CHECK(partial.find("chat.rooms  HERALD_MSG_chat-rooms  "
                     "herald_msg.chat.rooms.rooms-1         ?        3\n") !=
        std::string::npos);
  CHECK(partial.find(
            "chat.lobby  HERALD_MSG_chat-lobby  rooms-1_messages     "
            "     ?          ?        ?            ?         5    ?\n") !=
        std::string::npos);
  CHECK(partial.find("not created yet") == std::string::npos);
  j = Json::parse(herald::tool::node_status_json(node).dump());
  CHECK(j["node"]["message_relays"][0]["stream_created"].is_null());
  CHECK(j["node"]["message_relays"][0]["last_sequence"].is_null());
  CHECK(j["node"]["message_intakes"][1]["lag"].is_null());
}

TEST_CASE("dead letter text and JSON keep the payload and the whole error") {
  Sample s;
  Database db(s.path);
  const auto letters = db.dead_letters(std::nullopt);
  const std::string list = herald::tool::dead_letter_list_text(letters);
  CHECK(list.find("handler failed: fx.Converter.convert timed out after 2s "
                  "w...\n") != std::string::npos);
  CHECK(list.find("order-1/3") != std::string::npos);
  CHECK(list.find("2026-12-02T07:01:00.000Z") != std::string::npos);

  const std::string shown = herald::tool::dead_letter_text(letters);
  CHECK(shown.find("  payload\n    {\n      \"amount\": {\n") !=
        std::string::npos);
  CHECK(shown.find("    {not json\n    (not JSON; shown as stored)\n") !=
        std::string::npos);
  CHECK(shown.find("(attempt 5 of 5)") != std::string::npos);
  CHECK(shown.find("  re-drive        not requested\n") != std::string::npos);

  const Json j = Json::parse(herald::tool::dead_letters_json(letters).dump());
  REQUIRE(j.size() == 2);
  CHECK(has_keys(
      j[0],
      {"id",         "subscription",     "event_id",        "event_type",
       "context",    "position",         "publisher",       "sequence",
       "emitted_at", "schema_version",   "causation_id",    "correlation_id",
       "depth",      "payload_is_json",  "payload",         "attempts",
       "last_error", "first_attempt_at", "last_attempt_at", "dead_lettered_at",
       "redriving"}));
  CHECK(j[0]["payload"]["amount"]["cents"] == 100);
  CHECK(j[0]["payload_is_json"] == true);
  CHECK(j[0]["causation_id"].is_null());
  CHECK(j[0]["last_error"].get<std::string>().ends_with("(attempt 5 of 5)"));
  CHECK(j[1]["payload"] == "{not json");
  CHECK(j[1]["payload_is_json"] == false);
}

TEST_CASE("replay and redrive text and JSON") {
  Sample s;
  herald::op::ReplayResult r;
  {
    Database db(s.path);
    herald::tool::Progress quiet = herald::tool::Progress::quiet();
    r = db.replay({kAudit, std::int64_t{1}, std::nullopt, false}, quiet);
  }
  const std::string text = herald::tool::replay_text(r);
  CHECK(text.find("order-1                1              1        4 -> 0"
                  "          4          4            4\n") !=
        std::string::npos);
  CHECK(text.find("Start position lowered: 2 -> 0\n") != std::string::npos);
  CHECK(text.find("re-queues 6 events; dedup skips 5 of them") !=
        std::string::npos);
  const Json j = Json::parse(herald::tool::replay_json(r).dump());
  CHECK(has_keys(j, {"subscription", "context", "force", "start_position",
                     "publishers", "held", "requeued", "dedup_skips"}));
  CHECK(j["start_position"]["before"] == 2);
  CHECK(j["start_position"]["after"] == 0);
  CHECK(has_keys(
      j["publishers"][0],
      {"publisher", "first_sequence", "first_position", "cursor_created",
       "acknowledged", "committed", "requeued", "dedup_skips"}));
  CHECK(j["publishers"][0]["acknowledged"]["before"] == 4);
  CHECK(j["publishers"][0]["acknowledged"]["after"] == 0);
  CHECK(j["requeued"] == 6);
  CHECK(j["dedup_skips"] == 5);

  CHECK(herald::tool::redrive_text({2, 1}) ==
        "Marked 2 dead letters for re-drive (1 already marked); the "
        "program's next start re-drives them.\n");
  CHECK(herald::tool::redrive_json({2, 1}).dump() ==
        R"({"marked":2,"already_marked":1})");
}

TEST_CASE("the progress bar redraws at most every 100 ms and ends the line") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  std::chrono::steady_clock::time_point now{};
  herald::tool::Progress progress =
      herald::tool::Progress::on(out, [&] { return now; });
  progress.start("marking", 4);
  progress.advance(1);  // the first step draws
  now += std::chrono::milliseconds(50);
  progress.advance(1);  // too soon
  now += std::chrono::milliseconds(60);
  progress.advance(1);  // 110 ms after the last draw
  progress.advance(1);  // too soon
  progress.finish();    // the final state, always
  const std::string drawn = read_all(out);
  std::fclose(out);
  CHECK(drawn ==
        "\rmarking [#######                       ] 1/4  25%"
        "\rmarking [######################        ] 3/4  75%"
        "\rmarking [##############################] 4/4 100%\n");

  herald::tool::Progress quiet = herald::tool::Progress::quiet();
  quiet.start("marking", 1);
  quiet.advance(1);
  quiet.finish();
}
