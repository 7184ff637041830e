#pragma once
// Internal to the nats backend: the Backend a node runs on. Its local store
// is a sqlite backend, to which every LocalStore and Transport call goes;
// around it, the node's connection and its context leases: construction
// takes every hosted context's lease, each commit first checks that the
// node still holds them all, and attach refuses a context the node does not
// host.
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "context_leases.hpp"
#include "herald/nats_backend.hpp"
#include "nats_client.hpp"

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

  // At recovery (the first Publication::resume): every hosted context must
  // have been installed. Throws ConfigError naming the first that was not.
  void check_hosted_installed();

 private:
  NatsBackendOptions options_;
  NatsClient client_;
  ContextLeases leases_;
  std::unique_ptr<Backend> local_;
  std::mutex attached_mutex_;
  std::set<std::string, std::less<>> attached_;
};

}  // namespace herald::nats_detail
