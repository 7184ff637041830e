#include "tools/herald/text_output.hpp"

#include <numeric>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tools/herald/table.hpp"

namespace herald::tool {
namespace {

constexpr std::size_t kErrorWidth = 60;

std::string number(std::int64_t n) { return std::to_string(n); }

std::string plural(std::int64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string section(const char* title, const Table& table) {
  if (table.empty()) return fmt::format("{}: none\n", title);
  return fmt::format("{}\n{}", title, table.render());
}

// Each line of `text` indented by four spaces.
std::string indented(const std::string& text) {
  std::string out = "    ";
  for (char c : text) {
    out += c;
    if (c == '\n') out += "    ";
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '\n'))
    out.pop_back();
  return out + '\n';
}

// `text` pretty-printed when it is JSON, else as stored with a note.
std::string pretty_json(const std::string& text) {
  const nlohmann::json parsed =
      nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_discarded()) return parsed.dump(2);
  return text + "\n(not JSON; shown as stored)";
}

std::string marks(const std::optional<op::CursorMarks>& before,
                  std::int64_t op::CursorMarks::*mark,
                  const op::CursorMarks& after) {
  if (!before) return fmt::format("(new) {}", after.*mark);
  if ((*before).*mark == after.*mark) return number(after.*mark);
  return fmt::format("{} -> {}", (*before).*mark, after.*mark);
}

}  // namespace

std::string short_instant(Instant at) {
  const std::string full = format_instant(at);  // ...:SS.nnnnnnnnnZ
  return full.substr(0, full.size() - 7) + 'Z';
}

std::string one_line(const std::string& text, std::size_t limit) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  if (out.size() <= limit) return out;
  std::size_t cut = limit > 3 ? limit - 3 : 0;
  // Never split a UTF-8 sequence.
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
    --cut;
  return out.substr(0, cut) + "...";
}

std::string status_text(const op::Status& status) {
  Table subscriptions({{"SUBSCRIPTION"},
                       {"CONTEXT"},
                       {"POSITION", Align::Right},
                       {"LAG", Align::Right},
                       {"RETRYING", Align::Right},
                       {"DEAD LETTERS", Align::Right},
                       {"RE-DRIVING", Align::Right}});
  for (const op::SubscriptionStatus& s : status.subscriptions)
    subscriptions.add_row({s.name, s.context, number(s.position), number(s.lag),
                           number(s.retrying), number(s.dead_letters),
                           number(s.redriving)});
  Table agents({{"AGENT KIND"}, {"INSTANCES", Align::Right}});
  for (const op::AgentKindStatus& a : status.agents)
    agents.add_row({a.kind, number(a.instances)});
  Table logs({{"LOG"},
              {"HEAD", Align::Right},
              {"RETAINED", Align::Right},
              {"OLDEST POSITION", Align::Right},
              {"OLDEST EMITTED AT"}});
  for (const op::LogStatus& l : status.logs)
    logs.add_row(
        {l.context, number(l.head), number(l.retained),
         l.oldest_position ? number(*l.oldest_position) : "-",
         l.oldest_emitted_at ? short_instant(*l.oldest_emitted_at) : "-"});
  std::string unknown;
  for (const op::LogStatus& l : status.logs) {
    for (const op::UnknownEventType& u : l.unknown_types)
      unknown += fmt::format(
          "Log {} keeps {} of event type {}, which the program does not "
          "know: delivered to nothing until a build that knows it runs\n",
          l.context, plural(u.entries, "entry", "entries"), u.event_type);
  }
  Table marks({{"TRANSPORT MARK"}, {"VALUE", Align::Right}});
  for (const op::TransportMark& m : status.transport_marks)
    marks.add_row({m.name, number(m.value)});
  return fmt::format(
      "Database {} (schema version {}, last opened by runtime {})\n\n"
      "{}\n{}\n{}{}\nAgent messages: {} pending, {} dead\n{}",
      status.path, status.schema_version,
      status.runtime_version ? *status.runtime_version : "unknown",
      section("Subscriptions", subscriptions), section("Agents", agents),
      section("Logs", logs), unknown, status.pending_messages,
      status.dead_messages,
      marks.empty() ? std::string() : "\n" + marks.render());
}

std::string node_status_text(const op::NodeStatus& status) {
  // A value of the broker's that is missing: not read, or not there.
  const std::string none = status.broker_error ? "?" : "-";
  Table relays({{"CONTEXT"},
                {"STREAM"},
                {"MESSAGES", Align::Right},
                {"FIRST SEQ", Align::Right},
                {"LAST SEQ", Align::Right},
                {"REPLICAS", Align::Right},
                {"LOG HEAD", Align::Right},
                {"RELAYED", Align::Right},
                {"IN STREAM", Align::Right},
                {"LAG", Align::Right}});
  for (const op::RelayStatus& r : status.relays) {
    const auto& s = r.state;
    relays.add_row({r.context, r.stream, s ? fmt::to_string(s->messages) : none,
                    s ? fmt::to_string(s->first_sequence) : none,
                    s ? fmt::to_string(s->last_sequence) : none,
                    s ? fmt::to_string(s->replicas) : none, number(r.head),
                    number(r.relayed),
                    s && s->last_position ? number(*s->last_position) : none,
                    number(r.lag)});
  }
  Table ingests({{"CONSUMER"},
                 {"STREAM"},
                 {"DELIVERED", Align::Right},
                 {"ACK FLOOR", Align::Right},
                 {"PENDING", Align::Right},
                 {"ACK PENDING", Align::Right},
                 {"INGESTED", Align::Right},
                 {"MIRROR HEAD", Align::Right},
                 {"LAG", Align::Right}});
  for (const op::IngestStatus& i : status.ingests) {
    const auto& c = i.state;
    ingests.add_row({i.consumer, i.stream,
                     c ? fmt::to_string(c->delivered) : none,
                     c ? fmt::to_string(c->ack_floor) : none,
                     c ? fmt::to_string(c->pending) : none,
                     c ? number(c->ack_pending) : none, number(i.ingested),
                     number(i.mirror_head), i.lag ? number(*i.lag) : "?"});
  }
  Table message_relays({{"CONTEXT"},
                        {"STREAM"},
                        {"SUBJECT"},
                        {"LAST SEQ", Align::Right},
                        {"PENDING", Align::Right}});
  for (const op::MessageRelayStatus& r : status.message_relays) {
    message_relays.add_row(
        {r.context, r.stream, r.subject,
         r.last_sequence ? fmt::to_string(*r.last_sequence) : none,
         number(r.pending)});
  }
  Table message_intakes({{"CONTEXT"},
                         {"STREAM"},
                         {"CONSUMER"},
                         {"DELIVERED", Align::Right},
                         {"ACK FLOOR", Align::Right},
                         {"PENDING", Align::Right},
                         {"ACK PENDING", Align::Right},
                         {"RECEIVED", Align::Right},
                         {"LAG", Align::Right}});
  std::string not_created;
  for (const op::MessageIntakeStatus& i : status.message_intakes) {
    const auto& c = i.consumer_state;
    message_intakes.add_row({i.context, i.stream, i.consumer,
                             c ? fmt::to_string(c->delivered) : none,
                             c ? fmt::to_string(c->ack_floor) : none,
                             c ? fmt::to_string(c->pending) : none,
                             c ? number(c->ack_pending) : none,
                             number(i.received), i.lag ? number(*i.lag) : "?"});
    if (!status.broker_error && !i.state)
      not_created += fmt::format(
          "Stream {}: not created yet: no sender so far\n", i.stream);
  }
  std::string servers;
  for (const std::string& url : status.servers)
    servers += (servers.empty() ? "" : ",") + url;
  const std::string broker =
      status.broker_error
          ? fmt::format(
                "Broker: unavailable ({}). Stream and consumer columns show "
                "'?'; relay lags count from this node's marks only; ingest "
                "and message intake lags are unknown.\n\n",
                *status.broker_error)
          : std::string();
  return fmt::format(
      "{}\nNode {} (servers {})\n\n{}{}\n{}\n{}\n{}{}",
      status_text(status.local), status.node, servers, broker,
      section("Relays (hosted contexts to their streams)", relays),
      section("Ingests (other nodes' streams into this node's "
              "mirrors)",
              ingests),
      section("Message relays (agent messages to contexts other nodes host)",
              message_relays),
      section("Message intakes (agent messages other nodes send to hosted "
              "contexts)",
              message_intakes),
      not_created);
}

std::string dead_letter_list_text(const std::vector<op::DeadLetter>& letters) {
  if (letters.empty()) return "No dead letters.\n";
  Table table({{"ID", Align::Right},
               {"EVENT ID"},
               {"SUBSCRIPTION"},
               {"EVENT TYPE"},
               {"PUBLISHER/SEQUENCE"},
               {"ATTEMPTS", Align::Right},
               {"DEAD-LETTERED AT"},
               {"RE-DRIVE"},
               {"LAST ERROR"}});
  for (const op::DeadLetter& d : letters)
    table.add_row({number(d.id), d.event_id, d.subscription, d.event_type,
                   fmt::format("{}/{}", d.publisher, d.sequence),
                   number(d.attempts), short_instant(d.dead_lettered_at),
                   d.redriving ? "pending" : "-",
                   one_line(d.last_error, kErrorWidth)});
  return table.render();
}

std::string dead_letter_text(const std::vector<op::DeadLetter>& letters) {
  std::string out;
  for (const op::DeadLetter& d : letters) {
    if (!out.empty()) out += '\n';
    const std::string payload = pretty_json(d.payload);
    out += fmt::format(
        "Dead letter {} of subscription {}\n"
        "  event id        {}\n"
        "  event type      {} (schema version {})\n"
        "  context         {}, position {}\n"
        "  publisher       {}, sequence {}\n"
        "  emitted at      {}\n"
        "  causation id    {}\n"
        "  correlation id  {}\n"
        "  depth           {}\n"
        "  attempts        {}\n"
        "  first attempt   {}\n"
        "  last attempt    {}\n"
        "  dead-lettered   {}\n"
        "  re-drive        {}\n"
        "  last error\n{}"
        "  payload\n{}",
        d.id, d.subscription, d.event_id, d.event_type, d.schema_version,
        d.context, d.position, d.publisher, d.sequence,
        format_instant(d.emitted_at),
        d.causation_id ? *d.causation_id : "(none: a root event)",
        d.correlation_id, d.depth, d.attempts,
        format_instant(d.first_attempt_at), format_instant(d.last_attempt_at),
        format_instant(d.dead_lettered_at),
        d.redriving ? "pending: the program's next start re-drives it"
                    : "not requested",
        indented(d.last_error), indented(payload));
  }
  return out;
}

std::string redrive_text(const op::RedriveResult& result) {
  std::string out =
      fmt::format("Marked {} for re-drive",
                  plural(result.marked, "dead letter", "dead letters"));
  if (result.already_marked > 0)
    out += fmt::format(" ({} already marked)", result.already_marked);
  if (result.marked + result.already_marked == 0)
    return out + "; there is nothing to re-drive.\n";
  return out + (result.marked + result.already_marked == 1
                    ? "; the program's next start re-drives it.\n"
                    : "; the program's next start re-drives them.\n");
}

std::string dead_message_list_text(
    const std::vector<op::DeadMessage>& messages) {
  if (messages.empty()) return "No dead messages.\n";
  Table table({{"SEQ", Align::Right},
               {"MESSAGE ID"},
               {"AGENT"},
               {"HANDLER"},
               {"ATTEMPTS", Align::Right},
               {"DEAD-LETTERED AT"},
               {"LAST ERROR"}});
  for (const op::DeadMessage& m : messages)
    table.add_row({number(m.seq), m.id,
                   fmt::format("{} {}", m.agent_kind, m.agent_key), m.handler,
                   number(m.attempts), short_instant(m.dead_lettered_at),
                   one_line(m.last_error, kErrorWidth)});
  return table.render();
}

std::string dead_message_text(const op::DeadMessage& m) {
  return fmt::format(
      "Dead message {} to agent {} {}\n"
      "  handler         {}\n"
      "  causation id    {}\n"
      "  correlation id  {}\n"
      "  depth           {}\n"
      "  attempts        {}\n"
      "  dead-lettered   {} (seq {})\n"
      "  last error\n{}"
      "  arguments\n{}",
      m.id, m.agent_kind, m.agent_key, m.handler,
      m.causation_id ? *m.causation_id : "(none)", m.correlation_id, m.depth,
      m.attempts, format_instant(m.dead_lettered_at), m.seq,
      indented(m.last_error), indented(pretty_json(m.args)));
}

std::string message_redrive_text(const op::MessageRedriveResult& result) {
  const std::string out = fmt::format(
      "Re-queued {}", plural(result.requeued, "dead message", "dead messages"));
  if (result.requeued == 0) return out + "; there is nothing to re-drive.\n";
  return out + (result.requeued == 1
                    ? "; the program's next start runs it.\n"
                    : "; the program's next start runs them.\n");
}

std::string replay_text(const op::ReplayResult& result) {
  std::string out = fmt::format("Replay of subscription {} (context {}){}\n",
                                result.subscription, result.context,
                                result.force ? ", --force" : "");
  if (result.replayed.empty())
    return out +
           "Nothing to replay: no retained entry falls in the request; "
           "nothing was changed.\n";
  Table table({{"PUBLISHER"},
               {"FROM SEQUENCE", Align::Right},
               {"FROM POSITION", Align::Right},
               {"ACKNOWLEDGED", Align::Right},
               {"COMMITTED", Align::Right},
               {"RE-QUEUED", Align::Right},
               {"DEDUP SKIPS", Align::Right}});
  std::int64_t requeued = 0;
  std::int64_t skips = 0;
  for (const op::PublisherReplay& r : result.replayed) {
    table.add_row({r.publisher, number(r.first_sequence),
                   number(r.first_position),
                   marks(r.before, &op::CursorMarks::acknowledged, r.after),
                   marks(r.before, &op::CursorMarks::committed, r.after),
                   number(r.requeued), number(r.dedup_skips)});
    requeued += r.requeued;
    skips += r.dedup_skips;
  }
  out += table.render();
  if (result.start_position_after != result.start_position_before)
    out +=
        fmt::format("Start position lowered: {} -> {}\n",
                    result.start_position_before, result.start_position_after);
  for (const op::PublisherHeld& h : result.held)
    out += fmt::format(
        "Publisher {}: acknowledged {} (its entries below the old start "
        "position stay undelivered)\n",
        h.publisher, marks(h.before, &op::CursorMarks::acknowledged, h.after));
  out += fmt::format(
      "The program's next start re-queues {}; dedup skips {} of them "
      "(delivered before{}).\n",
      plural(requeued, "event", "events"), skips,
      result.force ? "" : "; --force runs their handlers again");
  return out;
}

}  // namespace herald::tool
