#pragma once
// Internal: the implementation behind herald::Runtime, which holds one and
// forwards its host API here (herald/runtime.hpp declares the host API
// only). The runtime's own parts (invocations, agents, services, the
// context routers and subscription actors) reach it through
// Runtime::impl(). Defined in runtime_impl.cpp (commits, publishing, dead
// letters, metrics, shutdown), install.cpp, recover.cpp and
// runtime_agents.cpp (agent instances and their messages).
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "herald/agent_kind.hpp"
#include "herald/backend.hpp"
#include "herald/config.hpp"
#include "herald/context.hpp"
#include "herald/executor.hpp"
#include "herald/invocation.hpp"
#include "herald/log.hpp"
#include "herald/metrics.hpp"
#include "herald/runtime.hpp"
#include "transport_fault_log.hpp"

namespace herald {

class SubscriptionActor;
struct ContextRuntime;

// Why a purge of expired records failed; the next purge tries again.
enum class PurgeFailure {
  store_error,        // the store threw (the database locked, a disk error)
  unknown_exception,  // something not a std::exception was thrown
};
std::string_view purge_failure_name(PurgeFailure reason);

// The message targets of one context being installed.
struct MessageTargets {
  std::vector<const AgentKindBase*> installed;
  std::vector<std::string> carried;
};

class RuntimeImpl final : public MessageSink {
 public:
  // `runtime` is the handle that owns this implementation: invocations and
  // agent instances are given it, and reach back here through impl().
  RuntimeImpl(Runtime& runtime, RuntimeConfig config, Executor& executor,
              std::shared_ptr<LocalStore> store,
              std::shared_ptr<Transport> transport, LogSink* log_sink);
  ~RuntimeImpl() override;
  RuntimeImpl(const RuntimeImpl&) = delete;
  RuntimeImpl& operator=(const RuntimeImpl&) = delete;

  // The host API, as Runtime documents it.
  void install(std::vector<Context> contexts);
  void recover();
  EventId publish(std::string_view context_name, std::string_view publisher_id,
                  AnyEvent event, std::optional<EventId> event_id);
  std::vector<DeadLetter> dead_letters(std::string_view name);
  std::vector<DeadLetter> dead_letters();
  bool redrive(std::string_view subscription_name, const EventId& event_id);
  std::size_t redrive_all(std::string_view subscription_name);
  bool skip_dead_letter(std::string_view subscription_name,
                        const EventId& event_id);
  std::vector<DeadMessage> dead_messages();
  nlohmann::json dead_letter_json(const DeadLetter& letter) const;
  std::vector<std::string> subscriptions_of(const EventType& type) const;
  std::size_t cached_agents();
  nlohmann::json metrics_json() const;
  std::string metrics_prometheus() const;
  void shutdown();
  bool stopped() const { return stopped_.load(); }
  const RuntimeConfig& config() const { return config_; }
  Executor& executor() { return executor_; }
  LocalStore& store() { return *store_; }
  Transport& transport() { return *transport_; }
  // Recovery runs first if it has not (as on the first host call), so the
  // report is true from start-up on.
  const RecoveryReport& recovery();
  void write_log(LogLevel level, nlohmann::json fields);
  // What the transport is given with each publishing context, mirror and
  // intake.
  PublicationOptions publication_options();

  // The runtime's own parts.
  Runtime& runtime() { return runtime_; }
  // Commits what tx staged with `record`; throws (nothing committed) if the
  // backend fails. After it returns nothing throws.
  void commit(Invocation& tx, CommitRecord& record);
  // A delivery's commit: what tx staged and `dedup` (D6). When tx staged
  // nothing, the store commits the dedup record alone
  // (LocalStore::commit_dedup). Throws as commit() does; returns the time
  // the commit was stamped with.
  Instant commit_delivery(Invocation& tx,
                          const CommitRecord::DedupRecord& dedup) {
    // Staged: events, messages or Idempotency keys (perhaps only reserved
    // ones), or a consumed message (Invocation::stages_).
    if (tx.stages_) return commit_staged_delivery(tx, dedup);
    return commit_dedup_records(
        [&](Instant now) { store_->commit_dedup(dedup, now); });
  }
  // True if tx staged nothing but what its delivery's dedup record holds:
  // commit_delivery() would commit that record alone.
  static bool staged_nothing(const Invocation& tx) { return !tx.stages_; }
  // A subscription's group commit: the dedup records of deliveries whose
  // handlers staged nothing, in one transaction (LocalStore::commit_dedups).
  // Throws as commit() does, nothing of them committed; returns the time
  // they were stamped with.
  Instant commit_deliveries(std::span<const CommitRecord::DedupRecord> dedups) {
    return commit_dedup_records(
        [&](Instant now) { store_->commit_dedups(dedups, now); });
  }
  // Dedup records alone, written by `write` at the time it is given: a
  // store failure is rethrown as commit() rethrows it; returns that time.
  template <class Write>
  Instant commit_dedup_records(const Write& write) {
    const Instant now = executor_.now();
    try {
      write(now);
    } catch (const std::exception& e) {
      rethrow_commit_failure(e);
    }
    maybe_purge();
    return now;
  }
  // Discards what tx staged and writes `fault_line` (at warn, unless
  // `level` says otherwise).
  void abort(Invocation& tx, nlohmann::json fault_line,
             LogLevel level = LogLevel::warn) noexcept;
  // Emissions discarded with their invocation: counted as emitted and as
  // aborted (staged emissions are counted at commit or abort).
  void count_aborted(const std::vector<OutboxEvent>& events) noexcept;
  void check_emit_limits(const EventType& type, const void* payload,
                         std::string_view emitter) {
    // A type whose bound is within the limit needs no encoding.
    if (auto bound = type.max_encoded_bytes();
        bound &&
        *bound <= static_cast<std::size_t>(config_.limit_payload_bytes))
      return;
    check_payload_bytes(type, payload, emitter);
  }
  void ensure_recovered();
  void check_open(std::string_view call) const;
  // Capped exponential backoff with jitter for the next attempt.
  Duration retry_delay(std::uint32_t attempt);
  // The wait before a run that met a node unable to commit runs again: the
  // D8 backoff of the waits so far, at most a second, so that work goes on
  // within a second of the node committing again (its lease renewed).
  Duration unavailable_delay(std::uint32_t waits);
  MessageId mint_id();
  // Idempotency reservations of running invocations (scope/key -> owner).
  bool reserve_idempotency(Invocation& tx, const std::string& key);
  void release_reservations(const Invocation& tx) noexcept;
  // The installed context that owns `type`, or nullptr.
  ContextRuntime* owner_of(const EventType& type) const;
  // The counters of an event type an installed context owns.
  Metrics& metrics() { return metrics_; }
  EventTypeMetrics& event_metrics(const EventType& type) {
    return *event_metrics_[type.index()];
  }
  // The subscriptions an entry read from a log may go to; nullptr (logged
  // once per event type, at warn) for an entry whose event type this build
  // does not know or no installed context owns: it is not routed.
  const std::vector<SubscriptionActor*>* routes_of(const LogEntry& entry) {
    const EventType* type = entry.type;
    if (type != nullptr && type->index() < routes_.size() &&
        owners_[type->index()] != nullptr)
      return &routes_[type->index()];
    return unrouted(entry);
  }
  // Host taps (tap.cpp): registered before the routing is fixed, called by
  // the router for each entry of a tapped type.
  void tap(const EventType& type, EventTap tap);
  void run_taps(const LogEntry& entry) noexcept {
    if (!taps_.empty()) call_taps(entry);
  }

  // Agents (runtime_agents.cpp): what agent_kind.hpp's detail functions do.
  std::shared_ptr<AgentInstanceBase> find_agent(const AgentKindBase& kind,
                                                std::string_view key);
  std::shared_ptr<const void> load_agent_state(const AgentInstanceBase& agent);
  void run_message(AgentInstanceBase& agent, AgentMessage& message);
  // Host-callable services: the site a ServiceRef runs its calls at.
  const InvocationSite& service_site(std::string_view service);

 private:
  struct AgentTable {
    std::mutex mutex;
    std::unordered_map<std::string, std::shared_ptr<AgentInstanceBase>>
        instances;
    std::size_t sweep_at = 0;  // see evict_idle
  };

  // Checks what install must refuse before anything of `batch` is
  // installed; returns, per context, the agent kinds its handlers may send
  // messages to.
  std::vector<MessageTargets> check_batch(
      const std::vector<Context>& batch) const;
  // Encodes the payload to check limits.payload_bytes.
  void check_payload_bytes(const EventType& type, const void* payload,
                           std::string_view emitter);
  // routes_of for an entry that is not routed (logged once per type).
  const std::vector<SubscriptionActor*>* unrouted(const LogEntry& entry);
  void call_taps(const LogEntry& entry) noexcept;
  void install_one(Context& ctx, MessageTargets message_targets);
  // After a commit: nothing here throws (a message that cannot be posted
  // stays pending in the store and is posted by the next recovery).
  void post_messages(std::vector<AgentMessage>& messages) noexcept;
  // MessageSink: messages other processes sent to agents installed here.
  void received(std::vector<AgentMessage>& messages) noexcept override;
  void post_message(AgentMessage message);
  // Posts one message; if that fails it stays pending in the store.
  void post_message_or_keep(AgentMessage& message) noexcept;
  // post_message_or_keep(message) after `delay` (a retry, a wait).
  void post_later(AgentMessage message, Duration delay);
  void contain_message_fault(const AgentMessage& message,
                             std::string_view what) noexcept;
  // The message's run could not commit because the node cannot commit now
  // (FaultClass::unavailable): held at the head of `agent`'s mailbox and run
  // again after a growing wait, its attempts untouched.
  void wait_unavailable(AgentInstanceBase& agent, const AgentMessage& message,
                        const std::string& fault);
  void recover_from_store();
  // At recovery: a mirror context per publisher context that is not
  // installed and whose events a subscription takes, when the transport
  // brings them (Transport::attach_mirror).
  void attach_mirrors();
  SubscriptionActor& subscription(std::string_view name);
  ContextRuntime& context(std::string_view name);
  // The process's copy of `publisher_id` (herald/publisher_ids.hpp).
  std::string_view intern_publisher(std::string_view publisher_id);
  // Bounded memory: drops idle agent instances past agents.max_cached.
  void evict_idle(AgentTable& table);
  // Amortised purge of expired Idempotency keys and dedup ids. Runs after a
  // commit, so it never throws: a purge that fails is logged
  // (store.purge_failed, with its PurgeFailure) and done by the next one.
  void maybe_purge() noexcept {
    // Every 4096 commits: the scan is linear in what is stored, so this
    // keeps its cost per commit constant. The count is a trigger, kept
    // without a locked instruction: commits on two threads at once may
    // lose an increment (the purge comes a little later) or both purge
    // (the stores purge under their own locks, and a second finds nothing).
    const std::uint64_t n = commits_.load(std::memory_order_relaxed) + 1;
    commits_.store(n, std::memory_order_relaxed);
    if ((n & 4095) == 0) purge();
  }
  void purge() noexcept;
  // commit_delivery() with something staged: the general commit.
  Instant commit_staged_delivery(Invocation& tx,
                                 const CommitRecord::DedupRecord& dedup);
  // A store failure of a commit as the CommitError it is (InvalidText
  // goes on as it is).
  [[noreturn]] static void rethrow_commit_failure(const std::exception& e);

  Runtime& runtime_;
  RuntimeConfig config_;
  Executor& executor_;
  std::shared_ptr<LocalStore> store_;
  std::shared_ptr<Transport> transport_;
  std::unique_ptr<LogSink> owned_sink_;
  RuntimeLog log_;
  std::string node_id_;  // on every log line
  // Declared after the log: detached before it goes, after every
  // publication and intake (declared later) stopped.
  TransportFaultsHandle transport_faults_;
  Metrics metrics_;
  std::atomic<bool> sealed_{false};
  std::atomic<bool> stopped_{false};
  std::once_flag recovered_;
  std::atomic<std::uint64_t> commits_{0};

  std::map<std::string, std::unique_ptr<ContextRuntime>, std::less<>> contexts_;
  // Event type index -> owning context (nullptr: not owned by an installed
  // context).
  std::vector<ContextRuntime*> owners_;
  std::vector<EventTypeMetrics*> event_metrics_;
  // Event type index -> subscriptions in delivery order (D11).
  std::vector<std::vector<SubscriptionActor*>> routes_;
  // Event type index -> host taps (Runtime::tap), fixed once sealed.
  std::vector<std::vector<EventTap>> taps_;
  std::map<std::string, std::unique_ptr<SubscriptionActor>, std::less<>>
      subscriptions_;
  std::map<std::string, const AgentKindBase*, std::less<>> agent_kinds_;
  // Host-callable services and subscriptions share the name space.
  std::map<std::string, const InvocationSite*, std::less<>> services_;
  std::unordered_map<std::uint32_t, std::unique_ptr<AgentTable>> agents_;
  std::mutex agents_mutex_;

  std::mutex reservations_mutex_;
  std::unordered_map<std::string, const Invocation*> reservations_;

  std::mutex unrouted_mutex_;
  std::set<std::string, std::less<>> unrouted_types_;  // warned about

  RecoveryReport recovery_;
  // Declared last, so stopped first: it hands messages to this runtime.
  std::unique_ptr<MessageIntake> intake_;
};

}  // namespace herald
