#include "message_relay.hpp"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "nats_client.hpp"
#include "stream_message.hpp"

namespace herald::nats_detail {
namespace {

using namespace std::chrono_literals;

// Messages published before their removal is committed.
constexpr std::size_t kRelayBatch = 64;

struct PubAckDeleter {
  void operator()(jsPubAck* ack) const { jsPubAck_Destroy(ack); }
};

}  // namespace

MessageRelay::MessageRelay(NatsClient& client, LocalStore& local,
                           SqliteTransportStore& store, std::string node,
                           std::function<bool(std::string_view)> carried,
                           StreamSettings settings, Duration timeout,
                           std::function<void(const RelayPoint&)> hook,
                           std::shared_ptr<TransportFaults> faults)
    : client_(client),
      local_(local),
      store_(store),
      node_(std::move(node)),
      carried_(std::move(carried)),
      settings_(settings),
      timeout_(timeout),
      hook_(std::move(hook)),
      faults_(std::move(faults), TransportFaultKind::relay_failed, {}, {}) {}

MessageRelay::~MessageRelay() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wakeup_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void MessageRelay::start() {
  thread_ = std::thread([this] { run(); });
}

void MessageRelay::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wakeup_.notify_one();
}

void MessageRelay::wait(std::chrono::milliseconds at_most) {
  std::unique_lock lock(mutex_);
  wakeup_.wait_for(lock, at_most, [this] { return woken_ || stopping_; });
  woken_ = false;
}

void MessageRelay::run() {
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    try {
      // Pending messages are also found without a wake: those an earlier
      // process committed, and those whose relay failed.
      const bool relayed = relay_pending();
      faults_.succeeded();
      if (!relayed) wait(1000ms);
    } catch (const std::exception& e) {
      faults_.failed(e);
      // The servers or the local store failed: nothing after the subjects'
      // last messages is assumed published. Read them again.
      for (auto& [context, subject] : subjects_) subject.known = false;
      wait(250ms);
    }
  }
}

bool MessageRelay::relay_pending() {
  // Pending messages by their agent's context, each in commit order.
  std::map<std::string, std::vector<AgentMessage>, std::less<>> by_context;
  for (AgentMessage& m : local_.pending_messages()) {
    const std::string_view kind = m.agent_kind;
    const auto dot = kind.rfind('.');
    const std::string_view context =
        dot == std::string_view::npos ? kind : kind.substr(0, dot);
    if (carried_(context))
      by_context[std::string(context)].push_back(std::move(m));
  }
  for (auto& [context, messages] : by_context) relay(context, messages);
  return !by_context.empty();
}

void MessageRelay::relay(const std::string& context,
                         std::vector<AgentMessage>& messages) {
  Subject& subject = subjects_[context];
  if (!subject.stream_ready) {
    ensure_stream(client_.jetstream(), message_stream(context), settings_);
    subject.stream_ready = true;
  }
  if (!subject.known) resync(context, subject, messages);
  const std::string name = message_subject(context, node_);
  std::vector<MessageId> published;
  auto remove_published = [&] {
    if (published.empty()) return;
    if (hook_) {
      hook_(RelayPoint{RelayPoint::Kind::messages_published, context,
                       static_cast<std::int64_t>(subject.last),
                       static_cast<std::int64_t>(published.size())});
    }
    store_.remove_carried(published);
    published.clear();
  };
  for (const AgentMessage& m : messages) {
    MsgPtr msg = agent_message(m, name);
    jsPubOptions options;
    jsPubOptions_Init(&options);
    options.MaxWait = to_millis(timeout_);
    // 0 expects nothing: only the first message on the subject.
    options.ExpectLastSubjectSeq = subject.last;
    jsPubAck* raw = nullptr;
    jsErrCode code{};
    const natsStatus status =
        js_PublishMsg(&raw, client_.jetstream(), msg.get(), &options, &code);
    const std::unique_ptr<jsPubAck, PubAckDeleter> ack(raw);
    if (status != NATS_OK) {
      // What was published is removed; what follows waits for the resync.
      subject.known = false;
      remove_published();
      check(status, fmt::format("publishing message {} to stream {}",
                                m.id.str(), message_stream(context).name));
    }
    if (ack->Duplicate) {
      // Already on the stream (the server's duplicate window): the
      // subject's last sequence is read again before the next publish.
      subject.known = false;
    } else {
      subject.last = ack->Sequence;
    }
    published.push_back(m.id);
    if (published.size() == kRelayBatch) remove_published();
    if (!subject.known) break;
  }
  remove_published();
}

void MessageRelay::resync(const std::string& context, Subject& subject,
                          std::vector<AgentMessage>& messages) {
  const std::string stream = message_stream(context).name;
  const std::string name = message_subject(context, node_);
  natsMsg* raw = nullptr;
  jsErrCode code{};
  const natsStatus status = js_GetLastMsg(
      &raw, client_.jetstream(), stream.c_str(), name.c_str(), nullptr, &code);
  if (status == NATS_NOT_FOUND || code == JSNoMessageFoundErr) {
    subject.last = 0;
    subject.known = true;
    return;
  }
  check(status, fmt::format("the last message of subject {} of stream {}", name,
                            stream));
  const MsgPtr last(raw);
  subject.last = natsMsg_GetSequence(raw);
  subject.known = true;
  const std::optional<MessageId> id = message_id(raw);
  if (!id) return;
  const auto it =
      std::find_if(messages.begin(), messages.end(),
                   [&](const AgentMessage& m) { return m.id == *id; });
  if (it == messages.end()) return;
  // Published by a relay that stopped before it removed them.
  std::vector<MessageId> published;
  for (auto m = messages.begin(); m != it + 1; ++m) published.push_back(m->id);
  store_.remove_carried(published);
  messages.erase(messages.begin(), it + 1);
  if (hook_) {
    hook_(RelayPoint{RelayPoint::Kind::messages_resynced, context,
                     static_cast<std::int64_t>(subject.last),
                     static_cast<std::int64_t>(published.size())});
  }
}

}  // namespace herald::nats_detail
