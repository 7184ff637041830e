#include "outbox_relay.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "nats_client.hpp"
#include "stream_layout.hpp"
#include "stream_message.hpp"

namespace herald::nats_detail {
namespace {

using namespace std::chrono_literals;

// Entries per pipelined batch, each batch's acknowledgements awaited
// before the next: as many as a sqlite log keeps in memory (its tail).
constexpr std::size_t kPublishBatch = 1024;
// Messages read back from the stream's end to find the last one a relay
// published.
constexpr std::uint64_t kResyncScan = 1000;

}  // namespace

OutboxRelay::OutboxRelay(NatsClient& client, SqliteTransportStore& store,
                         RelayedLog& log, std::string context, Duration timeout,
                         std::function<void(const RelayPoint&)> hook,
                         std::shared_ptr<TransportFaults> faults)
    : store_(store),
      log_(log),
      context_(std::move(context)),
      stream_(stream_name(context_)),
      mark_(fmt::format("relay.{}", context_)),
      timeout_(timeout),
      hook_(std::move(hook)),
      faults_(std::move(faults), TransportFaultKind::relay_failed, context_,
              stream_) {
  jsOptions options;
  jsOptions_Init(&options);
  options.Wait = to_millis(timeout_);
  options.PublishAsync.AckHandler = &OutboxRelay::on_ack;
  options.PublishAsync.AckHandlerClosure = this;
  options.PublishAsync.MaxPending = static_cast<int64_t>(kPublishBatch);
  check(natsConnection_JetStream(&js_, client.connection(), &options),
        fmt::format("the relay of context '{}'", context_));
}

OutboxRelay::~OutboxRelay() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wakeup_.notify_all();
  if (thread_.joinable()) thread_.join();
  jsCtx_Destroy(js_);
}

void OutboxRelay::start() {
  thread_ = std::thread([this] { run(); });
}

void OutboxRelay::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wakeup_.notify_one();
}

void OutboxRelay::wait(std::chrono::milliseconds at_most) {
  std::unique_lock lock(mutex_);
  wakeup_.wait_for(lock, at_most, [this] { return woken_ || stopping_; });
  woken_ = false;
}

void OutboxRelay::run() {
  std::vector<OutboxEntry> entries;  // reused: their strings keep buffers
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    try {
      if (position_ < 0) resync();
      const std::size_t read =
          store_.read_outbox(log_.local(), position_, kPublishBatch, entries);
      if (read == 0) {
        faults_.succeeded();
        wait(1000ms);
        continue;
      }
      const std::int64_t published = publish(entries, read);
      position_ = entries[read - 1].position;
      // The entries in memory are not held beyond their batch.
      for (std::size_t i = 0; i < read; ++i) entries[i].entry.reset();
      if (hook_) {
        hook_(RelayPoint{RelayPoint::Kind::events_published, context_,
                         position_, published});
      }
      store_.write_transport_mark(mark_, position_);
      log_.set_relayed(position_);
      faults_.succeeded();
    } catch (const std::exception& e) {
      // The servers, the stream or the local store failed: nothing after
      // the stream's last message is assumed sent. Read it again.
      faults_.failed(e);
      position_ = -1;
      wait(250ms);
    }
  }
}

void OutboxRelay::resync() {
  jsStreamInfo* raw = nullptr;
  jsErrCode code{};
  check(js_GetStreamInfo(&raw, js_, stream_.c_str(), nullptr, &code),
        fmt::format("stream {}", stream_));
  const std::unique_ptr<jsStreamInfo, StreamInfoDeleter> info(raw);
  const std::uint64_t last = info->State.LastSeq;
  const std::int64_t marked = store_.transport_mark(mark_);
  std::int64_t position = marked;
  // The last message a relay of Herald published: messages something else
  // published to the stream's subjects carry no position and are passed
  // over, kResyncScan at most.
  const std::uint64_t first = info->State.FirstSeq;
  std::uint64_t scanned = 0;
  for (std::uint64_t seq = last; seq > 0 && seq >= first; --seq) {
    if (++scanned > kResyncScan) {
      throw Error(fmt::format(
          "the last {} messages of stream {} carry no Herald log position "
          "(something else publishes to its subjects)",
          kResyncScan, stream_));
    }
    natsMsg* msg = nullptr;
    code = jsErrCode{};
    const natsStatus status =
        js_GetMsg(&msg, js_, stream_.c_str(), seq, nullptr, &code);
    if (status == NATS_OK) {
      const MsgPtr owned(msg);
      try {
        // Never behind the mark (written only after a publish).
        position = std::max(marked, message_position(msg));
        break;
      } catch (const MalformedMessage&) {
        continue;  // not Herald's
      }
    }
    if (status != NATS_NOT_FOUND && code != JSNoMessageFoundErr)
      check(status, fmt::format("message {} of stream {}", seq, stream_));
    // Not found: deleted, or aged out of the stream, which then held
    // everything up to the local mark.
  }
  last_sequence_ = last;
  position_ = position;
  log_.set_relayed(std::max(position, log_.relayed()));
}

std::int64_t OutboxRelay::publish(const std::vector<OutboxEntry>& entries,
                                  std::size_t count) {
  {
    std::lock_guard lock(mutex_);
    failure_.clear();
  }
  std::uint64_t expected = last_sequence_;
  for (std::size_t i = 0; i < count; ++i) {
    const OutboxEntry& entry = entries[i];
    // An entry of a type this build does not know (a rolled-back
    // deployment's), or in memory with a payload that did not decode, stays
    // in this node's log only.
    if (!entry.publishable) continue;
    MsgPtr msg = entry.entry != nullptr
                     ? event_message(*entry.entry, scratch_)
                     : event_message(entry.stored, entry.position, scratch_);
    jsPubOptions options;
    jsPubOptions_Init(&options);
    options.MaxWait = to_millis(timeout_);
    // 0 expects nothing: only the first message of an empty stream.
    options.ExpectLastSeq = expected;
    natsMsg* raw = msg.release();
    const natsStatus status = js_PublishMsgAsync(js_, &raw, &options);
    if (status != NATS_OK) {
      natsMsg_Destroy(raw);
      // Wait for what is in flight before the next resync reads the stream.
      jsPubOptions done;
      jsPubOptions_Init(&done);
      done.MaxWait = to_millis(timeout_);
      js_PublishAsyncComplete(js_, &done);
      check(status, fmt::format("publishing to stream {}", stream_));
    }
    ++expected;
  }
  jsPubOptions done;
  jsPubOptions_Init(&done);
  done.MaxWait = to_millis(timeout_);
  check(js_PublishAsyncComplete(js_, &done),
        fmt::format("the acknowledgements of stream {}", stream_));
  std::lock_guard lock(mutex_);
  if (!failure_.empty()) throw Error(failure_);
  const auto published = static_cast<std::int64_t>(expected - last_sequence_);
  last_sequence_ = expected;
  return published;
}

void OutboxRelay::on_ack(jsCtx* /*js*/, natsMsg* msg, jsPubAck* ack,
                         jsPubAckErr* err, void* closure) {
  auto* relay = static_cast<OutboxRelay*>(closure);
  natsMsg_Destroy(msg);
  std::string failure;
  if (err != nullptr) {
    failure = fmt::format(
        "publishing to stream {}: {}", relay->stream_,
        err->ErrText != nullptr ? err->ErrText : natsStatus_GetText(err->Err));
  } else if (ack != nullptr && ack->Duplicate) {
    // Already in the stream: the stream's sequence did not move, so what
    // follows expects the wrong one. Resync.
    failure =
        fmt::format("stream {} already held a relayed event", relay->stream_);
  }
  if (failure.empty()) return;
  std::lock_guard lock(relay->mutex_);
  if (relay->failure_.empty()) relay->failure_ = std::move(failure);
}

}  // namespace herald::nats_detail
