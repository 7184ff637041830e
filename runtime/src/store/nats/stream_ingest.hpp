#pragma once
// Internal to the nats backend: the ingest of one durable pull consumer
// (stream_layout.hpp) into this node's store: of one event type of a
// context another node hosts, into this node's mirror of that context's log
// (MirrorSink), or of the agent messages other nodes send to a hosted
// context's agents, into the pending messages (MessageSink). The consumer
// is created or checked at construction; a thread fetches batches, hands
// each to its sink, which appends it in one local transaction together with
// the stream sequence it reached (a transport mark), and acknowledges the
// batch only after that commit. A message at or below the mark is already
// in the mirror (its acknowledgement was lost): it is acknowledged again
// and dropped. So the mark must never pass a message the mirror lacks:
// when a delivery may have been lost on the way (the consumer's delivery
// count skips; or at start, or after a failure, with deliveries of an
// earlier fetch unacknowledged), the server would send it again only after
// its ack wait, behind newer ones. Until a first delivery is seen with
// nothing missing before it, each new message is checked against the
// stream (stream_lookup.hpp), and the messages of the consumer's subject
// between the mark and it are read from the stream itself and appended
// before it, in the same transaction (at most kFetchBatch a batch; the
// rest of the batch comes again): the mirror keeps the stream's order and
// nothing is skipped, also when the store lost messages its consumer
// counts acknowledged (a lost disk, an older copy of the database). A
// message that is no Herald message is rejected (below) rather than
// stopping the ingest; a Herald event of a format this build does not read
// (UnknownFormat, stream_message.hpp) stops it there: the messages before
// it are appended and acknowledged, it and the ones after it are not (nak),
// and the failure, naming it, is reported and retried until a build that
// reads it takes over. Failures are reported (fault_reporter.hpp) and retried.
// The node's fan-out, queues, dedup, retries and dead letters then work on the
// mirror as on any log.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "fault_reporter.hpp"
#include "herald/local_store.hpp"
#include "herald/sqlite_backend.hpp"
#include "herald/transport.hpp"
#include "stream_message.hpp"
#include <nats/nats.h>

namespace herald::nats_detail {

class NatsClient;
struct ConsumerSpec;

// A message of a batch that is no Herald message (its headers do not
// decode): left out of the append, terminated on the consumer (never
// delivered again, kept in the stream) and reported.
struct Rejection {
  natsMsg* message = nullptr;
  std::string why;
};

// Where an ingest puts a batch.
class IngestSink {
 public:
  virtual ~IngestSink() = default;
  // Appends `messages` (above the mark, in stream order) but the ones it
  // returns as rejected, and writes the mark `mark` = `reached`, in one
  // local transaction; throws when it did not commit (UnknownFormat, naming
  // the message, when one of them is of an event format this build does not
  // read). Nothing may be assumed to be done until it returns.
  virtual std::vector<Rejection> append(const std::vector<natsMsg*>& messages,
                                        std::string_view mark,
                                        std::int64_t reached) = 0;
  // After append committed (and before the batch is acknowledged).
  virtual void appended() noexcept = 0;
};

class StreamIngest {
 public:
  // Creates or checks the consumer (ConfigError on a mismatch; its stream
  // exists) and binds to it. `mark`: the transport mark of the sequence
  // the store holds.
  // `faults`: where failures and rejected messages are reported, as of
  // `context`.
  StreamIngest(NatsClient& client, SqliteTransportStore& store,
               const ConsumerSpec& consumer, std::string mark,
               std::unique_ptr<IngestSink> sink,
               std::shared_ptr<TransportFaults> faults, std::string context);
  ~StreamIngest();
  StreamIngest(const StreamIngest&) = delete;
  StreamIngest& operator=(const StreamIngest&) = delete;

  // Starts the thread (once, at recovery).
  void start();

 private:
  void run();
  // One fetch, append and acknowledgement; throws when it failed.
  void ingest_batch();
  // The stream sequence of a message of the consumer's subject after
  // `reached` and before `sequence`; 0 when there is none.
  std::int64_t missing_before(std::int64_t reached, std::int64_t sequence);
  // The stream's message `sequence`, read directly (not a delivery).
  MsgPtr read_message(std::int64_t sequence);
  bool sleep(std::chrono::milliseconds duration);

  NatsClient& client_;
  std::string stream_;
  std::string consumer_;
  std::string filter_;
  std::string mark_;
  std::unique_ptr<IngestSink> sink_;
  FaultReporter faults_;  // the thread's
  natsSubscription* subscription_ = nullptr;
  std::int64_t ingested_ = 0;  // the stream sequence the mirror holds
  // The thread's: the consumer sequence of the last delivery (0: none yet),
  // and whether a delivery may be missing below what comes next.
  std::uint64_t last_delivery_ = 0;
  bool unsure_ = true;

  std::mutex mutex_;
  std::condition_variable wakeup_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace herald::nats_detail
