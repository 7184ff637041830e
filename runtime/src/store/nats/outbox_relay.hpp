#pragma once
// Internal to the nats backend: the outbox relay of one hosted context. A
// thread reads the context's committed log entries (those behind the
// log's in-memory tail as stored, their payloads' JSON text published as
// the commit wrote it: SqliteTransportStore::read_outbox) and publishes
// them, in log order, to the context's stream (stream_layout.hpp,
// stream_message.hpp), pipelined: each publish expects the stream's last
// sequence to be the one before it, so a publish that fails makes every later
// one fail too and nothing reorders. After any error it reads the stream's last
// message and goes on from the log position that message carries: the stream
// itself is the "sent" mark, so a relay stopped between a publish and its local
// mark publishes nothing twice and loses nothing. The relayed position is also
// committed to the local store (SqliteTransportStore, 'relay.<context>'):
// the log keeps every entry the relay has not published (RelayedLog), and
// when the stream no longer holds its last message (aged out) the relay
// goes on from there. A stream at its size cap refuses new publishes
// (discard-new): the relay retries, and the outbox keeps the entries.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "fault_reporter.hpp"
#include "herald/local_store.hpp"
#include "herald/nats_backend.hpp"
#include "herald/sqlite_backend.hpp"
#include "herald/transport.hpp"
#include "relayed_log.hpp"
#include "stream_message.hpp"
#include <nats/nats.h>

namespace herald::nats_detail {

class NatsClient;

class OutboxRelay {
 public:
  OutboxRelay(NatsClient& client, SqliteTransportStore& store, RelayedLog& log,
              std::string context, Duration timeout,
              std::function<void(const RelayPoint&)> hook,
              std::shared_ptr<TransportFaults> faults);
  // Stops the thread (what it published and did not mark is found in the
  // stream by the next relay).
  ~OutboxRelay();
  OutboxRelay(const OutboxRelay&) = delete;
  OutboxRelay& operator=(const OutboxRelay&) = delete;

  // Starts the thread (once, at recovery).
  void start();
  // New entries were committed.
  void wake();

 private:
  void run();
  // The log position of the stream's last message and the stream's last
  // sequence.
  void resync();
  // Publishes the publishable of entries[0, count) after the stream's last
  // sequence; returns how many; throws on any failure (the stream then
  // holds a prefix of them).
  std::int64_t publish(const std::vector<OutboxEntry>& entries,
                       std::size_t count);
  static void on_ack(jsCtx* js, natsMsg* msg, jsPubAck* ack, jsPubAckErr* err,
                     void* closure);
  void wait(std::chrono::milliseconds at_most);

  SqliteTransportStore& store_;
  RelayedLog& log_;
  std::string context_;
  std::string stream_;
  std::string mark_;
  Duration timeout_;
  std::function<void(const RelayPoint&)> hook_;
  FaultReporter faults_;  // the relay thread's
  jsCtx* js_ = nullptr;
  // The relay thread's: where the stream ends (position < 0: unknown).
  std::int64_t position_ = -1;
  std::uint64_t last_sequence_ = 0;
  EventScratch scratch_;  // the relay thread's

  std::mutex mutex_;
  std::condition_variable wakeup_;
  bool woken_ = false;
  bool stopping_ = false;
  // Publish results of the batch in flight (under mutex_).
  std::string failure_;
  std::thread thread_;
};

}  // namespace herald::nats_detail
