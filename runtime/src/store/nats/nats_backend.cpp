#include "nats_backend.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "herald/nearest_name.hpp"

namespace herald::nats_detail {
namespace {

NatsClientOptions client_options(const NatsBackendOptions& o) {
  return NatsClientOptions{o.servers, fmt::format("herald {}", o.node),
                           o.timeout, o.credentials,
                           o.tls_ca,  o.tls_cert,
                           o.tls_key};
}

// The publication of a hosted context: the local store's in-process one
// (its events go to the node's own subscriptions); the first resume, at
// recovery, checks that every hosted context was installed.
class HostedPublication final : public Publication {
 public:
  HostedPublication(NatsBackend& backend, std::unique_ptr<Publication> local)
      : backend_(backend), local_(std::move(local)) {}
  void wake() override { local_->wake(); }
  void resume(std::int64_t position,
              const std::vector<LogEntryPtr>& unsettled) override {
    backend_.check_hosted_installed();
    local_->resume(position, unsettled);
  }

 private:
  NatsBackend& backend_;
  std::unique_ptr<Publication> local_;
};

}  // namespace

NatsBackend::NatsBackend(NatsBackendOptions nats, SqliteBackendOptions local)
    : options_(std::move(nats)),
      client_(client_options(options_)),
      leases_(client_, LeaseOptions{"HERALD_LEASES", options_.node,
                                    options_.replicas, options_.lease_ttl}) {
  for (const std::string& context : options_.contexts) leases_.acquire(context);
  leases_.start_renewal();
  local_ = make_sqlite_backend(std::move(local));
}

NatsBackend::~NatsBackend() = default;

ContextLog& NatsBackend::context_log(std::string_view context) {
  return local_->context_log(context);
}

std::shared_ptr<const void> NatsBackend::load_agent_state(
    const AgentKindBase& kind, std::string_view key) {
  return local_->load_agent_state(kind, key);
}

bool NatsBackend::idempotency_seen(std::string_view scope, std::string_view key,
                                   Instant now) {
  return local_->idempotency_seen(scope, key, now);
}

void NatsBackend::commit(CommitRecord& record) {
  // A node that may no longer hold a context's lease commits nothing: the
  // work stays where it is (retried, or re-driven by the next process).
  leases_.check_held();
  local_->commit(record);
}

std::vector<AgentMessage> NatsBackend::pending_messages() {
  return local_->pending_messages();
}

bool NatsBackend::message_pending(const MessageId& id) {
  return local_->message_pending(id);
}

std::uint32_t NatsBackend::message_attempts(const MessageId& id) {
  return local_->message_attempts(id);
}

void NatsBackend::record_message_attempt(const MessageId& id,
                                         std::uint32_t attempts) {
  local_->record_message_attempt(id, attempts);
}

void NatsBackend::dead_message(DeadMessage message) {
  local_->dead_message(std::move(message));
}

std::vector<DeadMessage> NatsBackend::dead_messages() {
  return local_->dead_messages();
}

std::size_t NatsBackend::purge_expired(Instant now) {
  return local_->purge_expired(now);
}

Instant NatsBackend::latest_time() { return local_->latest_time(); }

std::unique_ptr<Publication> NatsBackend::attach(std::string_view context,
                                                 ContextLog& log,
                                                 Router& router,
                                                 PublicationOptions options) {
  const auto& hosted = options_.contexts;
  if (std::find(hosted.begin(), hosted.end(), context) == hosted.end()) {
    throw ConfigError(fmt::format(
        "context '{}' is installed on node '{}', whose backend.nats.contexts "
        "does not name it: a node installs only the contexts it hosts (events "
        "between nodes are not relayed yet)",
        context, options_.node));
  }
  {
    std::lock_guard lock(attached_mutex_);
    attached_.emplace(context);
  }
  return std::make_unique<HostedPublication>(
      *this, local_->attach(context, log, router, options));
}

SubscriptionStore& NatsBackend::subscription_store(
    std::string_view subscription) {
  return local_->subscription_store(subscription);
}

void NatsBackend::check_hosted_installed() {
  std::lock_guard lock(attached_mutex_);
  const std::vector<std::string> installed(attached_.begin(), attached_.end());
  for (const std::string& context : options_.contexts) {
    if (attached_.contains(context)) continue;
    const auto near = nearest_name(context, installed);
    throw ConfigError(fmt::format(
        "configuration key 'backend.nats.contexts' names '{}', which is not "
        "an installed context{}",
        context,
        near ? fmt::format("; did you mean '{}'?", *near) : std::string()));
  }
}

}  // namespace herald::nats_detail

namespace herald {

std::unique_ptr<Backend> make_nats_backend(NatsBackendOptions nats,
                                           SqliteBackendOptions local) {
  return std::make_unique<nats_detail::NatsBackend>(std::move(nats),
                                                    std::move(local));
}

}  // namespace herald
