#include "nats_backend.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "herald/executor.hpp"
#include "herald/nearest_name.hpp"
#include "ingest_sinks.hpp"
#include "message_intake.hpp"
#include "outbox_relay.hpp"
#include "stream_ingest.hpp"

namespace herald::nats_detail {
namespace {

NatsClientOptions client_options(const NatsBackendOptions& o) {
  return NatsClientOptions{o.servers, fmt::format("herald {}", o.node),
                           o.timeout, o.credentials,
                           o.tls_ca,  o.tls_cert,
                           o.tls_key};
}

// The publication of a hosted context: the local store's in-process one
// (its events go to the node's own subscriptions) and the context's outbox
// relay (to its stream, for the other nodes); the first resume, at
// recovery, checks that every hosted context was installed.
class HostedPublication final : public Publication {
 public:
  HostedPublication(NatsBackend& backend, std::unique_ptr<Publication> local,
                    std::unique_ptr<OutboxRelay> relay)
      : backend_(backend), local_(std::move(local)), relay_(std::move(relay)) {}
  void wake() override {
    local_->wake();
    relay_->wake();
  }
  void resume(std::int64_t position,
              const std::vector<LogEntryPtr>& unsettled) override {
    backend_.check_hosted_installed();
    local_->resume(position, unsettled);
    relay_->start();
  }

 private:
  NatsBackend& backend_;
  std::unique_ptr<Publication> local_;
  std::unique_ptr<OutboxRelay> relay_;
};

// The publication of a context hosted elsewhere: the local store's
// in-process one over this node's mirror of its log, which the ingests
// append to (and wake) once recovery resumed it.
class MirrorPublication final : public Publication {
 public:
  explicit MirrorPublication(std::unique_ptr<Publication> local)
      : local_(std::move(local)) {}
  ~MirrorPublication() override {
    // The ingests wake local_: they stop first.
    ingests_.clear();
  }
  MirrorPublication(const MirrorPublication&) = delete;
  MirrorPublication& operator=(const MirrorPublication&) = delete;
  void add(std::unique_ptr<StreamIngest> ingest) {
    ingests_.push_back(std::move(ingest));
  }
  Publication& local() { return *local_; }
  void wake() override { local_->wake(); }
  void resume(std::int64_t position,
              const std::vector<LogEntryPtr>& unsettled) override {
    local_->resume(position, unsettled);
    for (auto& ingest : ingests_) ingest->start();
  }

 private:
  std::unique_ptr<Publication> local_;
  std::vector<std::unique_ptr<StreamIngest>> ingests_;
};

}  // namespace

NatsBackend::NatsBackend(NatsBackendOptions nats, SqliteBackendOptions local)
    : options_(std::move(nats)),
      client_(client_options(options_)),
      leases_(client_, LeaseOptions{"HERALD_LEASES", options_.node,
                                    options_.replicas, options_.lease_ttl}),
      stream_settings_{
          options_.replicas, options_.stream_max_age,
          options_.stream_max_bytes > 0 ? options_.stream_max_bytes : -1} {
  for (const std::string& context : options_.contexts) leases_.acquire(context);
  leases_.start_renewal();
  // The node holds its database alone (its lock file; `herald` reads a
  // stopped node): SQLite's file locks are taken once, not per transaction.
  local.exclusive = true;
  local_ = make_sqlite_backend(std::move(local));
  transport_store_ = &sqlite_transport_store(*local_);
}

NatsBackend::~NatsBackend() = default;

bool NatsBackend::hosts(std::string_view context) const {
  const auto& hosted = options_.contexts;
  return std::find(hosted.begin(), hosted.end(), context) != hosted.end();
}

ContextLog& NatsBackend::context_log(std::string_view context) {
  ContextLog& local = local_->context_log(context);
  if (!hosts(context)) return local;
  std::lock_guard lock(attached_mutex_);
  auto& slot = relayed_[std::string(context)];
  if (!slot) {
    slot = std::make_unique<RelayedLog>(
        local,
        transport_store_->transport_mark(fmt::format("relay.{}", context)));
  }
  return *slot;
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
  // The local store appends to its own log, not to the relayed view.
  ContextLog* const view = record.log;
  if (auto* relayed = dynamic_cast<RelayedLog*>(view))
    record.log = &relayed->local();
  try {
    local_->commit(record);
  } catch (...) {
    record.log = view;
    throw;
  }
  record.log = view;
}

bool NatsBackend::commits_dedups_together() const {
  return local_->commits_dedups_together();
}

void NatsBackend::commit_dedups(
    std::span<const CommitRecord::DedupRecord> dedups, Instant now) {
  // As commit(): nothing is committed without the lease.
  leases_.check_held();
  local_->commit_dedups(dedups, now);
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
  if (!hosts(context)) {
    throw ConfigError(fmt::format(
        "context '{}' is installed on node '{}', whose backend.nats.contexts "
        "does not name it: a node installs only the contexts it hosts (it "
        "receives the events of the others from their streams)",
        context, options_.node));
  }
  auto* relayed = dynamic_cast<RelayedLog*>(&log);
  if (relayed == nullptr) {
    throw Error(
        fmt::format("context '{}' is attached with a log this "
                    "backend did not give",
                    context));
  }
  ensure_stream(client_.jetstream(), event_stream(context), stream_settings_);
  {
    std::lock_guard lock(attached_mutex_);
    attached_.emplace(context);
  }
  return std::make_unique<HostedPublication>(
      *this, local_->attach(context, log, router, options),
      std::make_unique<OutboxRelay>(client_, *transport_store_, *relayed,
                                    std::string(context), options_.timeout,
                                    options_.relay_hook, options.faults));
}

std::unique_ptr<Publication> NatsBackend::attach_mirror(
    std::string_view context, const std::vector<std::string>& event_types,
    ContextLog& log, Router& router, PublicationOptions options) {
  if (options.executor == nullptr || !options.executor->concurrent()) {
    throw ConfigError(fmt::format(
        "node '{}' receives events of context '{}' from another node, which "
        "needs a concurrent executor (executor.kind = threaded)",
        options_.node, context));
  }
  auto mirror = std::make_unique<MirrorPublication>(
      local_->attach(context, log, router, options));
  Publication& local = mirror->local();
  ensure_stream(client_.jetstream(), event_stream(context), stream_settings_);
  for (const std::string& type : event_types) {
    const ConsumerSpec consumer = event_consumer(context, options_.node, type);
    mirror->add(std::make_unique<StreamIngest>(
        client_, *transport_store_, consumer,
        fmt::format("ingest.{}", consumer.name),
        std::make_unique<MirrorSink>(*transport_store_, log,
                                     [&local] { local.wake(); }),
        options.faults, std::string(context)));
  }
  return mirror;
}

bool NatsBackend::carries_messages_to(std::string_view context) {
  return !hosts(context);
}

void NatsBackend::messages_committed() {
  if (message_relay_) message_relay_->wake();
}

std::unique_ptr<MessageIntake> NatsBackend::receive_messages(
    const std::vector<std::string>& contexts, MessageSink& sink,
    PublicationOptions options) {
  if (!message_relay_) {
    message_relay_ = std::make_unique<MessageRelay>(
        client_, *local_, *transport_store_, options_.node,
        [this](std::string_view context) { return !hosts(context); },
        stream_settings_, options_.timeout, options_.relay_hook,
        options.faults);
    message_relay_->start();
  }
  if (contexts.empty() || options.executor == nullptr ||
      !options.executor->concurrent())
    return nullptr;
  // A received message's id is remembered for as long as the stream may
  // still hold an earlier copy of it, and at least a week.
  const Duration remember =
      std::max<Duration>(stream_settings_.max_age, std::chrono::hours(24 * 7));
  return std::make_unique<MessageIngests>(
      client_, *transport_store_, options_.node, contexts, stream_settings_,
      sink, remember, options.faults);
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
