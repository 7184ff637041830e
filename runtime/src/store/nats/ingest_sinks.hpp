#pragma once
// Internal to the nats backend: what the ingests (stream_ingest.hpp) do
// with a batch. MirrorSink appends events to this node's mirror of another
// node's context log and wakes the mirror's fan-out; ReceivedMessages adds
// the agent messages other nodes sent to this node's agents to its pending
// messages (a message received before is left out, by id) and hands them
// to the runtime to run.
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "herald/agent_message.hpp"
#include "herald/local_store.hpp"
#include "herald/sqlite_backend.hpp"
#include "herald/transport.hpp"
#include "stream_ingest.hpp"

namespace herald::nats_detail {

class MirrorSink final : public IngestSink {
 public:
  MirrorSink(SqliteTransportStore& store, ContextLog& mirror,
             std::function<void()> wake)
      : store_(store), mirror_(mirror), wake_(std::move(wake)) {}
  std::vector<Rejection> append(const std::vector<natsMsg*>& messages,
                                std::string_view mark,
                                std::int64_t reached) override;
  void appended() noexcept override { wake_(); }

 private:
  SqliteTransportStore& store_;
  ContextLog& mirror_;
  std::function<void()> wake_;
};

class ReceivedMessages final : public IngestSink {
 public:
  // `remember`: how long a received message's id is kept, so that a copy
  // the sender publishes again later is left out.
  ReceivedMessages(SqliteTransportStore& store, MessageSink& runtime,
                   Duration remember)
      : store_(store), runtime_(runtime), remember_(remember) {}
  std::vector<Rejection> append(const std::vector<natsMsg*>& messages,
                                std::string_view mark,
                                std::int64_t reached) override;
  void appended() noexcept override;

 private:
  SqliteTransportStore& store_;
  MessageSink& runtime_;
  Duration remember_;
  std::vector<AgentMessage> added_;  // by the last append
};

}  // namespace herald::nats_detail
