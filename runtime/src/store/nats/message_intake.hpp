#pragma once
// Internal to the nats backend: the ingests of the agent messages other
// nodes send to the agents of this node's hosted contexts (one StreamIngest
// with a ReceivedMessages sink per context, stream_layout.hpp). A context's
// message stream is created by the first node that sends a message to one
// of its agents (MessageRelay); until then there is nothing to ingest, and
// no consumer is made (on a cluster each is a replicated group the servers
// keep running). A thread looks for the streams not found yet every 2 s and
// starts a context's ingest once its stream exists: its consumer starts at
// the stream's first message, so nothing sent before is missed. A stream
// that exists but cannot be read or checked is reported (ingest_failed) and
// asked again at the next round.
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "fault_reporter.hpp"
#include "herald/sqlite_backend.hpp"
#include "herald/transport.hpp"
#include "stream_ingest.hpp"
#include "stream_layout.hpp"

namespace herald::nats_detail {

class NatsClient;

class MessageIngests final : public MessageIntake {
 public:
  // `remember`: how long a received message's id is kept (ReceivedMessages).
  MessageIngests(NatsClient& client, SqliteTransportStore& store,
                 std::string node, std::vector<std::string> contexts,
                 StreamSettings settings, MessageSink& sink, Duration remember,
                 std::shared_ptr<TransportFaults> faults);
  // Stops the thread, then the ingests.
  ~MessageIngests() override;
  MessageIngests(const MessageIngests&) = delete;
  MessageIngests& operator=(const MessageIngests&) = delete;

 private:
  void run();
  // Starts the ingest of `context` if its stream exists; false if not yet.
  bool start_ingest(const std::string& context);

  NatsClient& client_;
  SqliteTransportStore& store_;
  std::string node_;
  StreamSettings settings_;
  MessageSink& sink_;
  Duration remember_;
  std::shared_ptr<TransportFaults> faults_;
  // The thread's, until it stops.
  std::vector<std::string> waiting_;
  // Per waiting context: how a failure to start its ingest is reported.
  std::map<std::string, FaultReporter, std::less<>> reporters_;
  std::vector<std::unique_ptr<StreamIngest>> ingests_;

  std::mutex mutex_;
  std::condition_variable wakeup_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace herald::nats_detail
