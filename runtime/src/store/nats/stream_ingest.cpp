#include "stream_ingest.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "nats_client.hpp"
#include "stream_layout.hpp"
#include "stream_lookup.hpp"
#include "stream_message.hpp"

namespace herald::nats_detail {
namespace {

using namespace std::chrono_literals;

constexpr int kFetchBatch = 256;
constexpr std::int64_t kFetchWaitMs = 500;
// At most this many messages read from the stream itself per batch; the
// rest of the batch is held back (delivered again after kHoldMs) for the
// next round.
constexpr std::size_t kFillCap = kFetchBatch;
constexpr std::int64_t kHoldMs = 500;

struct ListGuard {
  natsMsgList list{};
  ~ListGuard() { natsMsgList_Destroy(&list); }
};
struct MetaDeleter {
  void operator()(jsMsgMetaData* meta) const { jsMsgMetaData_Destroy(meta); }
};

// What the server says of one delivery (its reply subject).
struct DeliveryMeta {
  std::int64_t stream = 0;      // the message's stream sequence
  std::uint64_t consumer = 0;   // the delivery's, counted by the consumer
  std::uint64_t delivered = 0;  // how many times it was delivered
};

DeliveryMeta delivery_of(natsMsg* msg) {
  jsMsgMetaData* raw = nullptr;
  check(natsMsg_GetMetaData(&raw, msg), "a consumed message's metadata");
  const std::unique_ptr<jsMsgMetaData, MetaDeleter> meta(raw);
  return {static_cast<std::int64_t>(meta->Sequence.Stream),
          meta->Sequence.Consumer, meta->NumDelivered};
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
      filter_(consumer.filter),
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

void StreamIngest::run() {
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    try {
      ingest_batch();
      faults_.succeeded();
    } catch (const std::exception& e) {
      faults_.failed(e);
      // What this batch left unacknowledged comes again, later.
      unsure_ = true;
      if (!sleep(250ms)) return;
    }
  }
}

std::int64_t StreamIngest::missing_before(std::int64_t reached,
                                          std::int64_t sequence) {
  const std::optional<std::uint64_t> next = next_matching(
      client_, stream_, filter_, static_cast<std::uint64_t>(reached) + 1);
  if (!next || static_cast<std::int64_t>(*next) >= sequence) return 0;
  return static_cast<std::int64_t>(*next);
}

MsgPtr StreamIngest::read_message(std::int64_t sequence) {
  natsMsg* raw = nullptr;
  jsErrCode code{};
  check(js_GetMsg(&raw, client_.jetstream(), stream_.c_str(),
                  static_cast<std::uint64_t>(sequence), nullptr, &code),
        fmt::format("reading message {} of stream {}", sequence, stream_));
  return MsgPtr(raw);
}

void StreamIngest::ingest_batch() {
  ListGuard batch;
  jsErrCode code{};
  const natsStatus status = natsSubscription_Fetch(
      &batch.list, subscription_, kFetchBatch, kFetchWaitMs, &code);
  if (status == NATS_TIMEOUT) return;
  check(status, fmt::format("fetching from consumer {}", consumer_));
  const auto count = static_cast<std::size_t>(batch.list.Count);
  std::vector<std::int64_t> sequences;  // of the batch's messages
  sequences.reserve(count);
  // What is appended, in stream order: deliveries of the batch and
  // messages read from the stream itself (`filled`, with their sequences).
  std::vector<natsMsg*> fresh;
  std::vector<std::int64_t> fresh_sequences;
  std::vector<std::pair<MsgPtr, std::int64_t>> filled;
  std::int64_t reached = ingested_;
  // The first message held back (this one and the ones after it come
  // again later); `count` when none is.
  std::size_t held = count;
  for (std::size_t i = 0; i < count; ++i) {
    natsMsg* msg = batch.list.Msgs[i];
    const DeliveryMeta d = delivery_of(msg);
    sequences.push_back(d.stream);
    // A delivery count that does not follow the last one: deliveries were
    // lost on the way (a server between the consumer and this node died),
    // or a new consumer leader counts from what it was told.
    if (last_delivery_ != 0 && d.consumer != last_delivery_ + 1) unsure_ = true;
    last_delivery_ = d.consumer;
    if (d.stream <= reached) continue;  // in the store (or this batch)
    if (held == count && (unsure_ || d.delivered > 1)) {
      // The messages of the consumer's subject the store lacks before this
      // one are read from the stream itself: the consumer would send them
      // again only after their ack wait, behind newer ones, or never when
      // the store lost what it had acknowledged.
      while (const std::int64_t missing = missing_before(reached, d.stream)) {
        if (filled.size() == kFillCap) {
          held = i;
          break;
        }
        filled.emplace_back(read_message(missing), missing);
        fresh.push_back(filled.back().first.get());
        fresh_sequences.push_back(missing);
        reached = missing;
      }
      // A first delivery with nothing missing before it: the consumer hands
      // out first deliveries in stream order, so every delivery lost before
      // it was of an earlier message, now in the store.
      if (held == count && d.delivered == 1) unsure_ = false;
    }
    if (held < count) continue;
    fresh.push_back(msg);
    fresh_sequences.push_back(d.stream);
    reached = d.stream;
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
        const auto kept = static_cast<std::size_t>(
            std::find(fresh.begin(), fresh.end(), e.message()) - fresh.begin());
        reached = kept > 0 ? fresh_sequences[kept - 1] : ingested_;
        fresh.resize(kept);
        if (!fresh.empty()) rejected = sink_->append(fresh, mark_, reached);
      }
      ingested_ = reached;
    }
  } catch (...) {
    // Not in the store: delivered again (first) once the ack wait passed.
    for (std::size_t i = 0; i < count; ++i)
      natsMsg_Nak(batch.list.Msgs[i], nullptr);
    throw;
  }
  if (!fresh.empty()) sink_->appended();
  const auto rejection_of = [&](natsMsg* msg) {
    return std::find_if(rejected.begin(), rejected.end(),
                        [msg](const Rejection& r) { return r.message == msg; });
  };
  // Committed: acknowledged (an acknowledgement lost brings the message
  // back, and the mark drops it); a rejected message is terminated, so the
  // server does not deliver it again either, and reported. What a refused
  // message held back is delivered again at once, what waits behind the
  // messages read from the stream after a pause.
  for (std::size_t i = 0; i < count; ++i) {
    natsMsg* msg = batch.list.Msgs[i];
    const auto rejection = rejection_of(msg);
    const std::int64_t sequence = sequences[i];
    if (sequence > ingested_) {
      if (i >= held)
        natsMsg_NakWithDelay(msg, kHoldMs, nullptr);
      else
        natsMsg_Nak(msg, nullptr);
    } else if (rejection == rejected.end()) {
      natsMsg_Ack(msg, nullptr);
    } else {
      natsMsg_Term(msg, nullptr);
      faults_.rejected(static_cast<std::uint64_t>(sequence), rejection->why);
    }
  }
  // A message read from the stream and rejected is reported too (its
  // delivery, when it comes, is at or below the mark: acknowledged).
  for (const auto& [message, sequence] : filled) {
    const auto rejection = rejection_of(message.get());
    if (rejection != rejected.end() && sequence <= ingested_)
      faults_.rejected(static_cast<std::uint64_t>(sequence), rejection->why);
  }
  if (refused) throw *refused;
}

}  // namespace herald::nats_detail
