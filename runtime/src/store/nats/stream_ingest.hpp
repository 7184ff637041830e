#pragma once
// Internal to the nats backend: the ingest of one event type of a context
// another node hosts, into this node's mirror of that context's log. One
// durable pull consumer per (node, event type) (stream_layout.hpp), created
// or checked at construction; a thread fetches batches, appends each to the
// mirror in one local transaction together with the stream sequence it
// reached (SqliteTransportStore, 'ingest.<consumer>'), and acknowledges the
// batch only after that commit. A message at or below the mark is already
// in the mirror (its acknowledgement was lost): it is acknowledged again
// and dropped. When a fetch failed, or a node starts with deliveries its
// earlier process did not acknowledge, the ingest waits for them to be
// redelivered (the consumer's ack wait) before it fetches anything newer,
// so the mirror keeps the stream's order. The node's fan-out, queues,
// dedup, retries and dead letters then work on the mirror as on any log.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "herald/local_store.hpp"
#include "herald/sqlite_backend.hpp"
#include <nats/nats.h>

namespace herald::nats_detail {

class NatsClient;
struct StreamSettings;

class StreamIngest {
 public:
  // Creates or checks the context's stream and this node's consumer
  // (ConfigError on a mismatch) and binds to the consumer.
  StreamIngest(NatsClient& client, SqliteTransportStore& store,
               ContextLog& mirror, const StreamSettings& settings,
               std::string context, const std::string& node,
               const std::string& event_type, std::function<void()> appended);
  ~StreamIngest();
  StreamIngest(const StreamIngest&) = delete;
  StreamIngest& operator=(const StreamIngest&) = delete;

  // Starts the thread (once, at recovery).
  void start();

 private:
  void run();
  // One fetch, append and acknowledgement; false when it failed.
  bool ingest_batch();
  // Whether the consumer has deliveries not acknowledged.
  bool unacknowledged();
  bool sleep(std::chrono::milliseconds duration);

  NatsClient& client_;
  SqliteTransportStore& store_;
  ContextLog& mirror_;
  std::string context_;
  std::string stream_;
  std::string consumer_;
  std::string mark_;
  std::function<void()> appended_;
  natsSubscription* subscription_ = nullptr;
  std::int64_t ingested_ = 0;  // the stream sequence the mirror holds

  std::mutex mutex_;
  std::condition_variable wakeup_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace herald::nats_detail
