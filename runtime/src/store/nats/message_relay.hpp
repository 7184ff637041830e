#pragma once
// Internal to the nats backend: the relay of this node's agent messages to
// agents of contexts other nodes host. A commit leaves such a message
// pending in the local store, as any message; a thread reads the pending
// messages whose agent's context this node does not host and publishes
// them, in the order they were committed, to the message stream of that
// context, on this node's subject (stream_layout.hpp, stream_message.hpp).
// Each publish waits for its acknowledgement and expects the subject's last
// sequence to be the one the previous publish got, so nothing reorders;
// once acknowledged, the messages are removed from the local store. After
// any error, and at start, it reads the subject's last message: every
// pending message up to the one it carries was published already (the
// relay stopped between a publish and the removal) and is removed without
// publishing it again. The hosting node's ingest then adds them to its own
// pending messages (ingest_sinks.hpp), dropping a message it received
// before by id.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "fault_reporter.hpp"
#include "herald/agent_message.hpp"
#include "herald/local_store.hpp"
#include "herald/nats_backend.hpp"
#include "herald/sqlite_backend.hpp"
#include "herald/transport.hpp"
#include "stream_layout.hpp"
#include <nats/nats.h>

namespace herald::nats_detail {

class NatsClient;

class MessageRelay {
 public:
  // `carried(context)`: whether this node relays messages to `context`'s
  // agents (it does not host the context). `hook`: told of each batch
  // published and each resync that removed messages (RelayPoint).
  MessageRelay(NatsClient& client, LocalStore& local,
               SqliteTransportStore& store, std::string node,
               std::function<bool(std::string_view)> carried,
               StreamSettings settings, Duration timeout,
               std::function<void(const RelayPoint&)> hook,
               std::shared_ptr<TransportFaults> faults);
  // Stops the thread (what it published and did not remove is found on the
  // subject by the next relay).
  ~MessageRelay();
  MessageRelay(const MessageRelay&) = delete;
  MessageRelay& operator=(const MessageRelay&) = delete;

  // Starts the thread (once, at recovery).
  void start();
  // Messages for other nodes were committed.
  void wake();

 private:
  // Where this node's subject of one context's message stream ends.
  struct Subject {
    bool stream_ready = false;  // the stream was created or checked
    bool known = false;         // `last` is the subject's last sequence
    std::uint64_t last = 0;     // 0: the subject holds nothing
  };

  void run();
  // Relays what is pending; false when nothing was.
  bool relay_pending();
  // Relays the pending `messages` of one context, oldest first.
  void relay(const std::string& context, std::vector<AgentMessage>& messages);
  // Reads the subject's last message; removes the pending messages up to
  // the one it carries from `messages` and the store.
  void resync(const std::string& context, Subject& subject,
              std::vector<AgentMessage>& messages);
  void wait(std::chrono::milliseconds at_most);

  NatsClient& client_;
  LocalStore& local_;
  SqliteTransportStore& store_;
  std::string node_;
  std::function<bool(std::string_view)> carried_;
  StreamSettings settings_;
  Duration timeout_;
  std::function<void(const RelayPoint&)> hook_;
  FaultReporter faults_;                                  // the thread's
  std::map<std::string, Subject, std::less<>> subjects_;  // the thread's

  std::mutex mutex_;
  std::condition_variable wakeup_;
  bool woken_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace herald::nats_detail
