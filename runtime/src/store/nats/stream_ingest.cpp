#include "stream_ingest.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "nats_client.hpp"
#include "stream_layout.hpp"

namespace herald::nats_detail {
namespace {

using namespace std::chrono_literals;

constexpr int kFetchBatch = 256;
constexpr std::int64_t kFetchWaitMs = 500;

struct ListGuard {
  natsMsgList list{};
  ~ListGuard() { natsMsgList_Destroy(&list); }
};
struct MetaDeleter {
  void operator()(jsMsgMetaData* meta) const { jsMsgMetaData_Destroy(meta); }
};

std::uint64_t stream_sequence(natsMsg* msg) {
  jsMsgMetaData* raw = nullptr;
  check(natsMsg_GetMetaData(&raw, msg), "a consumed message's metadata");
  const std::unique_ptr<jsMsgMetaData, MetaDeleter> meta(raw);
  return meta->Sequence.Stream;
}

}  // namespace

StreamIngest::StreamIngest(NatsClient& client, SqliteTransportStore& store,
                           const ConsumerSpec& consumer, std::string mark,
                           std::unique_ptr<IngestSink> sink,
                           std::shared_ptr<TransportFaults> faults,
                           std::string context)
    : client_(client),
      stream_(consumer.stream),
      consumer_(consumer.name),
      mark_(std::move(mark)),
      sink_(std::move(sink)),
      faults_(std::move(faults), TransportFaultKind::ingest_failed,
              std::move(context), stream_, consumer_) {
  ensure_consumer(client.jetstream(), consumer);
  jsSubOptions options;
  jsSubOptions_Init(&options);
  // Bound: the consumer is used as it is, never created or changed here.
  options.Stream = stream_.c_str();
  options.Consumer = consumer_.c_str();
  jsErrCode code{};
  check(js_PullSubscribe(&subscription_, client.jetstream(),
                         consumer.filter.c_str(), consumer_.c_str(), nullptr,
                         &options, &code),
        fmt::format("consumer {} of stream {}", consumer_, stream_));
  ingested_ = store.transport_mark(mark_);
}

StreamIngest::~StreamIngest() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wakeup_.notify_all();
  if (thread_.joinable()) thread_.join();
  natsSubscription_Destroy(subscription_);
}

void StreamIngest::start() {
  thread_ = std::thread([this] { run(); });
}

bool StreamIngest::sleep(std::chrono::milliseconds duration) {
  std::unique_lock lock(mutex_);
  return !wakeup_.wait_for(lock, duration, [this] { return stopping_; });
}

bool StreamIngest::unacknowledged() {
  jsConsumerInfo* raw = nullptr;
  jsErrCode code{};
  check(js_GetConsumerInfo(&raw, client_.jetstream(), stream_.c_str(),
                           consumer_.c_str(), nullptr, &code),
        fmt::format("consumer {} of stream {}", consumer_, stream_));
  const std::unique_ptr<jsConsumerInfo, ConsumerInfoDeleter> info(raw);
  return info->NumAckPending > 0;
}

void StreamIngest::run() {
  // Deliveries not acknowledged (an earlier process's, or a fetch whose
  // answer was lost) come back after the ack wait: until then nothing
  // newer is fetched.
  bool suspect = true;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    try {
      if (suspect) {
        if (unacknowledged() &&
            !sleep(std::chrono::duration_cast<std::chrono::milliseconds>(
                       kAckWait) +
                   500ms))
          return;
        suspect = false;
      }
      if (!ingest_batch()) suspect = true;
      faults_.succeeded();
    } catch (const std::exception& e) {
      faults_.failed(e);
      suspect = true;
      if (!sleep(250ms)) return;
    }
  }
}

bool StreamIngest::ingest_batch() {
  ListGuard batch;
  jsErrCode code{};
  const natsStatus status = natsSubscription_Fetch(
      &batch.list, subscription_, kFetchBatch, kFetchWaitMs, &code);
  if (status == NATS_TIMEOUT) return true;
  check(status, fmt::format("fetching from consumer {}", consumer_));
  std::vector<natsMsg*> fresh;
  std::int64_t reached = ingested_;
  for (int i = 0; i < batch.list.Count; ++i) {
    natsMsg* msg = batch.list.Msgs[i];
    const auto sequence = static_cast<std::int64_t>(stream_sequence(msg));
    if (sequence <= ingested_) continue;  // in the store already
    fresh.push_back(msg);
    reached = std::max(reached, sequence);
  }
  std::vector<Rejection> rejected;
  try {
    if (!fresh.empty()) {
      rejected = sink_->append(fresh, mark_, reached);
      ingested_ = reached;
    }
  } catch (...) {
    // Not in the store: delivered again (first) once the ack wait passed.
    for (int i = 0; i < batch.list.Count; ++i)
      natsMsg_Nak(batch.list.Msgs[i], nullptr);
    throw;
  }
  if (!fresh.empty()) sink_->appended();
  // Committed: acknowledged (an acknowledgement lost brings the message
  // back, and the mark drops it); a rejected message is terminated, so the
  // server does not deliver it again either, and reported.
  for (int i = 0; i < batch.list.Count; ++i) {
    natsMsg* msg = batch.list.Msgs[i];
    const auto rejection =
        std::find_if(rejected.begin(), rejected.end(),
                     [msg](const Rejection& r) { return r.message == msg; });
    if (rejection == rejected.end()) {
      natsMsg_Ack(msg, nullptr);
    } else {
      natsMsg_Term(msg, nullptr);
      faults_.rejected(stream_sequence(msg), rejection->why);
    }
  }
  return true;
}

}  // namespace herald::nats_detail
