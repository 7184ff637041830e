#include "tools/herald/json_output.hpp"

namespace herald::tool {
namespace {

Json mark_change(const std::optional<op::CursorMarks>& before,
                 std::int64_t op::CursorMarks::*mark,
                 const op::CursorMarks& after) {
  Json j;
  j["before"] = before ? Json((*before).*mark) : Json(nullptr);
  j["after"] = after.*mark;
  return j;
}

Json stream_state_json(const std::optional<op::StreamState>& state) {
  if (!state) return nullptr;
  const op::StreamState& s = *state;
  Json j = {{"messages", s.messages},
            {"bytes", s.bytes},
            {"first_sequence", s.first_sequence},
            {"last_sequence", s.last_sequence},
            {"replicas", s.replicas}};
  j["leader"] = s.leader ? Json(*s.leader) : Json(nullptr);
  j["last_position"] = s.last_position ? Json(*s.last_position) : Json(nullptr);
  return j;
}

Json consumer_state_json(const std::optional<op::ConsumerState>& state) {
  if (!state) return nullptr;
  const op::ConsumerState& c = *state;
  return {{"delivered", c.delivered},
          {"ack_floor", c.ack_floor},
          {"pending", c.pending},
          {"ack_pending", c.ack_pending},
          {"redelivered", c.redelivered}};
}

}  // namespace

Json status_json(const op::Status& status) {
  Json j;
  j["database"] = {{"path", status.path},
                   {"schema_version", status.schema_version}};
  j["database"]["runtime_version"] =
      status.runtime_version ? Json(*status.runtime_version) : Json(nullptr);
  j["subscriptions"] = Json::array();
  for (const op::SubscriptionStatus& s : status.subscriptions)
    j["subscriptions"].push_back({{"name", s.name},
                                  {"context", s.context},
                                  {"position", s.position},
                                  {"lag", s.lag},
                                  {"retrying", s.retrying},
                                  {"dead_letters", s.dead_letters},
                                  {"redriving", s.redriving}});
  j["agents"] = Json::array();
  for (const op::AgentKindStatus& a : status.agents)
    j["agents"].push_back({{"kind", a.kind}, {"instances", a.instances}});
  j["logs"] = Json::array();
  for (const op::LogStatus& l : status.logs) {
    Json log = {
        {"context", l.context}, {"head", l.head}, {"retained", l.retained}};
    log["oldest_position"] =
        l.oldest_position ? Json(*l.oldest_position) : Json(nullptr);
    log["oldest_emitted_at"] = l.oldest_emitted_at
                                   ? Json(format_instant(*l.oldest_emitted_at))
                                   : Json(nullptr);
    log["unknown_event_types"] = Json::array();
    for (const op::UnknownEventType& u : l.unknown_types)
      log["unknown_event_types"].push_back(
          {{"event_type", u.event_type}, {"entries", u.entries}});
    j["logs"].push_back(std::move(log));
  }
  j["agent_messages"] = {{"pending", status.pending_messages},
                         {"dead", status.dead_messages}};
  j["transport_marks"] = Json::array();
  for (const op::TransportMark& m : status.transport_marks)
    j["transport_marks"].push_back({{"name", m.name}, {"value", m.value}});
  return j;
}

Json node_status_json(const op::NodeStatus& status) {
  Json j = status_json(status.local);
  Json node;
  node["name"] = status.node;
  node["servers"] = status.servers;
  node["broker"] = {{"available", !status.broker_error}};
  node["broker"]["error"] =
      status.broker_error ? Json(*status.broker_error) : Json(nullptr);
  node["relays"] = Json::array();
  for (const op::RelayStatus& r : status.relays) {
    Json relay = {{"context", r.context},
                  {"stream", r.stream},
                  {"head", r.head},
                  {"relayed", r.relayed},
                  {"lag", r.lag}};
    relay["stream_state"] = stream_state_json(r.state);
    node["relays"].push_back(std::move(relay));
  }
  node["ingests"] = Json::array();
  for (const op::IngestStatus& i : status.ingests) {
    Json ingest = {{"consumer", i.consumer}, {"stream", i.stream},
                   {"context", i.context},   {"event_type", i.event_type},
                   {"ingested", i.ingested}, {"mirror_head", i.mirror_head}};
    ingest["consumer_state"] = consumer_state_json(i.state);
    ingest["lag"] = i.lag ? Json(*i.lag) : Json(nullptr);
    node["ingests"].push_back(std::move(ingest));
  }
  // Whether a stream was created: unknown when the servers were not read.
  const auto created = [&](bool there) {
    return status.broker_error ? Json(nullptr) : Json(there);
  };
  node["message_relays"] = Json::array();
  for (const op::MessageRelayStatus& r : status.message_relays) {
    Json relay = {{"context", r.context},
                  {"stream", r.stream},
                  {"subject", r.subject},
                  {"pending", r.pending}};
    relay["stream_created"] = created(r.state.has_value());
    relay["stream_state"] = stream_state_json(r.state);
    relay["last_sequence"] =
        r.last_sequence ? Json(*r.last_sequence) : Json(nullptr);
    node["message_relays"].push_back(std::move(relay));
  }
  node["message_intakes"] = Json::array();
  for (const op::MessageIntakeStatus& i : status.message_intakes) {
    Json intake = {{"context", i.context},
                   {"stream", i.stream},
                   {"consumer", i.consumer},
                   {"received", i.received}};
    intake["stream_created"] = created(i.state.has_value());
    intake["stream_state"] = stream_state_json(i.state);
    intake["consumer_state"] = consumer_state_json(i.consumer_state);
    intake["lag"] = i.lag ? Json(*i.lag) : Json(nullptr);
    node["message_intakes"].push_back(std::move(intake));
  }
  j["node"] = std::move(node);
  return j;
}

Json dead_letter_json(const op::DeadLetter& d) {
  Json j = {{"id", d.id},
            {"subscription", d.subscription},
            {"event_id", d.event_id},
            {"event_type", d.event_type},
            {"context", d.context},
            {"position", d.position},
            {"publisher", d.publisher},
            {"sequence", d.sequence},
            {"emitted_at", format_instant(d.emitted_at)},
            {"schema_version", d.schema_version}};
  j["causation_id"] = d.causation_id ? Json(*d.causation_id) : Json(nullptr);
  j["correlation_id"] = d.correlation_id;
  j["depth"] = d.depth;
  Json payload = Json::parse(d.payload, nullptr, /*allow_exceptions=*/false);
  j["payload_is_json"] = !payload.is_discarded();
  j["payload"] = payload.is_discarded() ? Json(d.payload) : std::move(payload);
  j["attempts"] = d.attempts;
  j["last_error"] = d.last_error;
  j["first_attempt_at"] = format_instant(d.first_attempt_at);
  j["last_attempt_at"] = format_instant(d.last_attempt_at);
  j["dead_lettered_at"] = format_instant(d.dead_lettered_at);
  j["redriving"] = d.redriving;
  return j;
}

Json dead_letters_json(const std::vector<op::DeadLetter>& letters) {
  Json j = Json::array();
  for (const op::DeadLetter& d : letters) j.push_back(dead_letter_json(d));
  return j;
}

Json redrive_json(const op::RedriveResult& result) {
  return {{"marked", result.marked}, {"already_marked", result.already_marked}};
}

Json dead_message_json(const op::DeadMessage& m) {
  Json j = {{"seq", m.seq},
            {"message_id", m.id},
            {"agent_kind", m.agent_kind},
            {"agent_key", m.agent_key},
            {"handler", m.handler}};
  Json args = Json::parse(m.args, nullptr, /*allow_exceptions=*/false);
  j["args_is_json"] = !args.is_discarded();
  j["args"] = args.is_discarded() ? Json(m.args) : std::move(args);
  j["causation_id"] = m.causation_id ? Json(*m.causation_id) : Json(nullptr);
  j["correlation_id"] = m.correlation_id;
  j["depth"] = m.depth;
  j["attempts"] = m.attempts;
  j["last_error"] = m.last_error;
  j["dead_lettered_at"] = format_instant(m.dead_lettered_at);
  return j;
}

Json dead_messages_json(const std::vector<op::DeadMessage>& messages) {
  Json j = Json::array();
  for (const op::DeadMessage& m : messages) j.push_back(dead_message_json(m));
  return j;
}

Json message_redrive_json(const op::MessageRedriveResult& result) {
  return {{"requeued", result.requeued}};
}

Json replay_json(const op::ReplayResult& result) {
  Json j = {{"subscription", result.subscription},
            {"context", result.context},
            {"force", result.force},
            {"start_position",
             {{"before", result.start_position_before},
              {"after", result.start_position_after}}}};
  std::int64_t requeued = 0;
  std::int64_t skips = 0;
  j["publishers"] = Json::array();
  for (const op::PublisherReplay& r : result.replayed) {
    j["publishers"].push_back(
        {{"publisher", r.publisher},
         {"first_sequence", r.first_sequence},
         {"first_position", r.first_position},
         {"cursor_created", !r.before.has_value()},
         {"acknowledged",
          mark_change(r.before, &op::CursorMarks::acknowledged, r.after)},
         {"committed",
          mark_change(r.before, &op::CursorMarks::committed, r.after)},
         {"requeued", r.requeued},
         {"dedup_skips", r.dedup_skips}});
    requeued += r.requeued;
    skips += r.dedup_skips;
  }
  j["held"] = Json::array();
  for (const op::PublisherHeld& h : result.held)
    j["held"].push_back(
        {{"publisher", h.publisher},
         {"cursor_created", !h.before.has_value()},
         {"acknowledged",
          mark_change(h.before, &op::CursorMarks::acknowledged, h.after)}});
  j["requeued"] = requeued;
  j["dedup_skips"] = skips;
  return j;
}

}  // namespace herald::tool
