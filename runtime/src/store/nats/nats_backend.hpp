#pragma once
// Internal to the nats backend: the Backend a node runs on. Its local store
// is a sqlite backend, to which every LocalStore and Transport call goes;
// around it, the node's connection and its context leases: construction
// takes every hosted context's lease, each commit first checks that the
// node still holds them all, and attach refuses a context the node does not
// host. A hosted context's log is relayed to its stream (OutboxRelay,
// through a RelayedLog); a context hosted elsewhere whose events this
// node's subscriptions take is mirrored from its stream (attach_mirror,
// one StreamIngest per event type). Agent messages to a context hosted
// elsewhere stay pending in the local store until the MessageRelay has
// published them to that context's message stream; those other nodes send
// to the agents of the hosted contexts come in through one StreamIngest per
// such context, once a sender has created its message stream
// (receive_messages, MessageIngests).
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "context_leases.hpp"
#include "herald/nats_backend.hpp"
#include "message_relay.hpp"
#include "nats_client.hpp"
#include "relayed_log.hpp"
#include "stream_layout.hpp"

namespace herald::nats_detail {

class NatsBackend final : public Backend {
 public:
  NatsBackend(NatsBackendOptions nats, SqliteBackendOptions local);
  ~NatsBackend() override;
  NatsBackend(const NatsBackend&) = delete;
  NatsBackend& operator=(const NatsBackend&) = delete;

  // LocalStore
  std::string_view name() const override { return "nats"; }
  ContextLog& context_log(std::string_view context) override;
  std::shared_ptr<const void> load_agent_state(const AgentKindBase& kind,
                                               std::string_view key) override;
  bool idempotency_seen(std::string_view scope, std::string_view key,
                        Instant now) override;
  void commit(CommitRecord& record) override;
  [[nodiscard]] bool commits_dedups_together() const override;
  void commit_dedups(std::span<const CommitRecord::DedupRecord> dedups,
                     Instant now) override;
  std::vector<AgentMessage> pending_messages() override;
  bool message_pending(const MessageId& id) override;
  std::uint32_t message_attempts(const MessageId& id) override;
  void record_message_attempt(const MessageId& id,
                              std::uint32_t attempts) override;
  void dead_message(DeadMessage message) override;
  std::vector<DeadMessage> dead_messages() override;
  std::size_t purge_expired(Instant now) override;
  Instant latest_time() override;

  // Transport
  std::unique_ptr<Publication> attach(std::string_view context, ContextLog& log,
                                      Router& router,
                                      PublicationOptions options) override;
  SubscriptionStore& subscription_store(std::string_view subscription) override;
  // Needs a concurrent executor (the ingest wakes the mirror's fan-out
  // from its own thread): ConfigError otherwise.
  std::unique_ptr<Publication> attach_mirror(
      std::string_view context, const std::vector<std::string>& event_types,
      ContextLog& log, Router& router, PublicationOptions options) override;
  // A context this node does not host.
  bool carries_messages_to(std::string_view context) override;
  void messages_committed() override;
  // Starts the message relay. The ingest of each hosted context's messages
  // needs a concurrent executor (it hands them to the runtime from its own
  // thread): with a deterministic one nothing is ingested and messages to
  // this node's agents wait in their streams for a threaded run.
  std::unique_ptr<MessageIntake> receive_messages(
      const std::vector<std::string>& contexts, MessageSink& sink,
      PublicationOptions options) override;

  // At recovery (the first Publication::resume): every hosted context must
  // have been installed. Throws ConfigError naming the first that was not.
  void check_hosted_installed();

 private:
  bool hosts(std::string_view context) const;

  NatsBackendOptions options_;
  NatsClient client_;
  ContextLeases leases_;
  StreamSettings stream_settings_;
  std::unique_ptr<Backend> local_;
  SqliteTransportStore* transport_store_ = nullptr;  // local_, as such
  std::mutex attached_mutex_;
  std::set<std::string, std::less<>> attached_;
  std::map<std::string, std::unique_ptr<RelayedLog>, std::less<>> relayed_;
  // Declared last, so stopped first: it reads local_.
  std::unique_ptr<MessageRelay> message_relay_;
};

}  // namespace herald::nats_detail
