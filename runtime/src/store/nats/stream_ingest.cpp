#include "stream_ingest.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "nats_client.hpp"
#include "stream_layout.hpp"
#include "stream_message.hpp"

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
  std::vector<std::int64_t> sequences;  // of the batch's messages
  sequences.reserve(static_cast<std::size_t>(batch.list.Count));
  std::int64_t reached = ingested_;
  for (int i = 0; i < batch.list.Count; ++i) {
    natsMsg* msg = batch.list.Msgs[i];
    const auto sequence = static_cast<std::int64_t>(stream_sequence(msg));
    sequences.push_back(sequence);
    if (sequence <= ingested_) continue;  // in the store already
    fresh.push_back(msg);
    reached = std::max(reached, sequence);
  }
  std::vector<Rejection> rejected;
  std::optional<UnknownFormat> refused;
  try {
    if (!fresh.empty()) {
      try {
        rejected = sink_->append(fresh, mark_, reached);
      } catch (const UnknownFormat& e) {
        // Its batch stops there: the messages before it go in, it and the
        // ones after it wait on the consumer, unacknowledged.
        refused = e;
        const auto kept =
            std::find(fresh.begin(), fresh.end(), e.message()) - fresh.begin();
        // In stream order: the last one kept is the highest.
        reached = ingested_;
        for (int i = 0; i < batch.list.Count; ++i) {
          if (kept > 0 && batch.list.Msgs[i] == fresh[kept - 1])
            reached = sequences[static_cast<std::size_t>(i)];
        }
        const auto at = fresh.begin() + kept;
        fresh.erase(at, fresh.end());
        if (!fresh.empty()) rejected = sink_->append(fresh, mark_, reached);
      }
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
  // server does not deliver it again either, and reported. What a refused
  // message held back is delivered again.
  for (int i = 0; i < batch.list.Count; ++i) {
    natsMsg* msg = batch.list.Msgs[i];
    const auto rejection =
        std::find_if(rejected.begin(), rejected.end(),
                     [msg](const Rejection& r) { return r.message == msg; });
    const std::int64_t sequence = sequences[static_cast<std::size_t>(i)];
    if (sequence > ingested_) {
      natsMsg_Nak(msg, nullptr);
    } else if (rejection == rejected.end()) {
      natsMsg_Ack(msg, nullptr);
    } else {
      natsMsg_Term(msg, nullptr);
      faults_.rejected(static_cast<std::uint64_t>(sequence), rejection->why);
    }
  }
  if (refused) throw *refused;
  return true;
}

}  // namespace herald::nats_detail
