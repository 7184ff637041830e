#include "message_intake.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "ingest_sinks.hpp"
#include "nats_client.hpp"

namespace herald::nats_detail {

using namespace std::chrono_literals;

MessageIngests::MessageIngests(NatsClient& client, SqliteTransportStore& store,
                               std::string node,
                               std::vector<std::string> contexts,
                               StreamSettings settings, MessageSink& sink,
                               Duration remember,
                               std::shared_ptr<TransportFaults> faults)
    : client_(client),
      store_(store),
      node_(std::move(node)),
      settings_(settings),
      sink_(sink),
      remember_(remember),
      faults_(std::move(faults)),
      waiting_(std::move(contexts)) {
  for (const std::string& context : waiting_) {
    reporters_.emplace(context,
                       FaultReporter(faults_, TransportFaultKind::ingest_failed,
                                     context, message_stream(context).name));
  }
  thread_ = std::thread([this] { run(); });
}

MessageIngests::~MessageIngests() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wakeup_.notify_all();
  if (thread_.joinable()) thread_.join();
  ingests_.clear();
}

bool MessageIngests::start_ingest(const std::string& context) {
  const StreamSpec stream = message_stream(context);
  jsStreamInfo* raw = nullptr;
  jsErrCode code{};
  const natsStatus status = js_GetStreamInfo(
      &raw, client_.jetstream(), stream.name.c_str(), nullptr, &code);
  if (status == NATS_NOT_FOUND || code == JSStreamNotFoundErr) return false;
  check(status, fmt::format("stream {}", stream.name));
  jsStreamInfo_Destroy(raw);
  // Its settings are checked as every node's are.
  ensure_stream(client_.jetstream(), stream, settings_);
  const ConsumerSpec consumer = message_consumer(context, node_);
  auto ingest = std::make_unique<StreamIngest>(
      client_, store_, consumer, fmt::format("ingest.{}", consumer.stream),
      std::make_unique<ReceivedMessages>(store_, sink_, remember_), faults_,
      context);
  ingest->start();
  ingests_.push_back(std::move(ingest));
  return true;
}

void MessageIngests::run() {
  while (!waiting_.empty()) {
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      bool started = false;
      try {
        started = start_ingest(*it);
        reporters_.at(*it).succeeded();
      } catch (const std::exception& e) {
        // The servers failed to answer, or disagree with the settings:
        // asked again at the next round.
        reporters_.at(*it).failed(e);
      }
      it = started ? waiting_.erase(it) : it + 1;
    }
    if (waiting_.empty()) return;
    std::unique_lock lock(mutex_);
    if (wakeup_.wait_for(lock, 2s, [this] { return stopping_; })) return;
  }
}

}  // namespace herald::nats_detail
