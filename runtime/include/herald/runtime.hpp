#pragma once
// herald::Runtime: the host's entry point.
//
//   herald::DeterministicExecutor executor(/*seed=*/42);
//   herald::Runtime rt(config, executor);
//   rt.install(commerce::order::context());
//   rt.install(commerce::notifications::context(notifier));
//   rt.recover();  // re-drives what the store says is unfinished
//   commerce::order::Order::at(rt, id).markPaid(InternalCaller{}, authId);
//   executor.run_until_idle();
//
// A restart is a new Runtime over the same backend: install the same
// contexts, then recover().
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "herald/agent.hpp"
#include "herald/backend.hpp"
#include "herald/config.hpp"
#include "herald/context.hpp"
#include "herald/executor.hpp"
#include "herald/invocation.hpp"
#include "herald/log.hpp"
#include "herald/metrics.hpp"
#include "herald/service.hpp"
#include "herald/version.hpp"

namespace herald {

class ContextRouter;
class SubscriptionActor;
struct ContextRuntime;

// What Runtime::recover() found in the store and re-drove.
struct RecoveryReport {
  bool ran = false;
  // Log entries a subscription had not acknowledged, queued again.
  std::size_t deliveries_redriven = 0;
  // Of those, deliveries that had faulted: their stored attempt count goes
  // on, and their retry timer is set again.
  std::size_t retries_resumed = 0;
  // Dead letters whose re-drive had not committed.
  std::size_t redrives_resumed = 0;
  // Committed agent messages not yet consumed, posted again.
  std::size_t messages_reposted = 0;
};

class Runtime {
 public:
  // `backend` (a local store and a transport in one) defaults to the one
  // named by config.backend_kind; `log_sink` to stderr. The executor and the
  // sink must outlive the runtime; the backend may outlive it (a restart is
  // a new Runtime over the same backend).
  Runtime(RuntimeConfig config, Executor& executor,
          std::shared_ptr<Backend> backend = nullptr,
          LogSink* log_sink = nullptr);
  // A local store and a transport apart (both, or neither for the
  // configured backend). Throws RegistrationError when only one is given.
  Runtime(RuntimeConfig config, Executor& executor,
          std::shared_ptr<LocalStore> store,
          std::shared_ptr<Transport> transport, LogSink* log_sink);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Installs a context. All contexts are installed before the first host
  // call or publish; afterwards the routing table is fixed. Throws
  // RegistrationError, among others when the context uses an agent kind
  // that no installed context owns, or lacks a capability implementation.
  void install(Context context);
  // Installs contexts that may send messages to each other's agents: their
  // agent dependencies are checked against the batch and what is installed.
  void install(std::vector<Context> contexts);

  // Rebuilds from the store, once every context is installed: the fan-out
  // positions, every delivery a subscription has not acknowledged (with its
  // attempt count and retry time), every re-drive that had not committed
  // and every agent message not yet consumed. The first host call or
  // publish runs it if the host did not. Throws RegistrationError if the
  // store has work for a subscription or agent kind that is not installed.
  void recover();

  template <class State>
  AgentRef<State> agent(const AgentKind<State>& kind, std::string key) {
    return AgentRef<State>(*this, kind, std::move(key));
  }

  // Releases an event from the host on behalf of `context` (an outbox relay,
  // a bridge, a test). Refused with OwnershipError unless `context` owns the
  // event type (D10). With `event_id` set, a second publish of the same id is
  // stored once (D6). Returns the eventId.
  EventId publish(std::string_view context, std::string_view publisher_id,
                  AnyEvent event,
                  std::optional<EventId> event_id = std::nullopt);
  template <class E>
  EventId publish(std::string_view context, std::string_view publisher_id,
                  E event, std::optional<EventId> event_id = std::nullopt) {
    return publish(context, publisher_id, AnyEvent::of<E>(std::move(event)),
                   event_id);
  }

  // D8: dead letters, oldest first.
  std::vector<DeadLetter> dead_letters(std::string_view subscription);
  std::vector<DeadLetter> dead_letters();
  // Delivers the dead-lettered event to its subscription again, with a fresh
  // set of attempts. The letter stays (marked) until the re-driven delivery
  // commits. False if there is no such dead letter or it is being re-driven.
  bool redrive(std::string_view subscription, const EventId& event_id);
  std::size_t redrive_all(std::string_view subscription);
  // Agent messages that faulted on every attempt, oldest first.
  std::vector<DeadMessage> dead_messages();
  nlohmann::json dead_letter_json(const DeadLetter& letter) const;

  // Subscription names of an event type in delivery order (D11).
  std::vector<std::string> subscriptions_of(const EventType& type) const;

  // Agent instances held in the runtime's cache (agents.max_cached bounds
  // it per kind).
  std::size_t cached_agents();

  nlohmann::json metrics_json() const;
  std::string metrics_prometheus() const;

  // Drains in-flight work on the threaded executor and writes the metrics
  // snapshot to metrics.output if configured. Afterwards host calls and
  // publishes throw herald::Error: nothing is accepted that will not run.
  void shutdown();
  bool stopped() const { return stopped_.load(); }

  const RuntimeConfig& config() const { return config_; }
  Executor& executor() { return executor_; }
  LocalStore& store() { return *store_; }
  Transport& transport() { return *transport_; }
  const RecoveryReport& recovery() const { return recovery_; }

  // Writes one structured log line (adds "level" and "ts").
  void write_log(LogLevel level, nlohmann::json fields);

 private:
  friend class Invocation;
  friend class Clock;
  friend class Logger;
  friend class Idempotency;
  friend class Random;
  friend class ContextRouter;
  friend class SubscriptionActor;
  friend std::shared_ptr<AgentInstanceBase> detail::find_agent(
      Runtime&, const AgentKindBase&, std::string_view);
  friend std::shared_ptr<const void> detail::load_agent_state(
      Runtime&, const AgentInstanceBase&);
  friend void detail::commit_agent(Runtime&, Invocation&, AgentInstanceBase&,
                                   std::shared_ptr<const void>);
  friend void detail::abort_invocation(Runtime&, Invocation&, std::string_view);
  friend void detail::check_handler_fault_injection(Runtime&, Invocation&);
  friend void detail::note_host_call(Runtime&, std::string_view);
  friend void detail::note_state_read(Runtime&);
  friend void detail::run_message(Runtime&, AgentInstanceBase&, AgentMessage&);
  friend const InvocationSite& detail::service_site(Runtime&, std::string_view);
  friend void detail::commit_service(Runtime&, Invocation&);

  struct AgentTable {
    std::mutex mutex;
    std::unordered_map<std::string, std::shared_ptr<AgentInstanceBase>>
        instances;
    std::size_t sweep_at = 0;  // see evict_idle
  };

  // Checks what install must refuse before anything of `batch` is
  // installed; returns, per context, the agent kinds its handlers may send
  // messages to.
  std::vector<std::vector<const AgentKindBase*>> check_batch(
      const std::vector<Context>& batch) const;
  void install_one(Context& ctx,
                   std::vector<const AgentKindBase*> message_targets);
  // After a commit: nothing here throws (a message that cannot be posted
  // stays pending in the store and is posted by the next recovery).
  void post_messages(std::vector<AgentMessage>& messages) noexcept;
  void post_message(AgentMessage message);
  // Posts one message; if that fails it stays pending in the store.
  void post_message_or_keep(AgentMessage& message) noexcept;
  void contain_message_fault(const AgentMessage& message,
                             std::string_view what) noexcept;
  void recover_from_store();
  // The subscriptions an entry read from a log may go to; nullptr (logged
  // once per event type, at warn) for an entry whose event type this build
  // does not know or no installed context owns: it is not routed.
  const std::vector<SubscriptionActor*>* routes_of(const LogEntry& entry);
  SubscriptionActor& subscription(std::string_view name);
  ContextRuntime& context(std::string_view name);
  // A copy of `publisher_id` that lives as long as the runtime.
  std::string_view intern_publisher(std::string_view publisher_id);
  // Commits what tx staged with `record`; throws (nothing committed) if the
  // backend fails. After it returns nothing throws.
  void commit(Invocation& tx, CommitRecord& record);
  // Discards what tx staged and writes `fault_line` (at warn).
  void abort(Invocation& tx, nlohmann::json fault_line) noexcept;
  void check_emit_limits(const EventType& type, const void* payload,
                         std::string_view emitter);
  void ensure_recovered();
  void check_open(std::string_view call) const;
  // Capped exponential backoff with jitter for the next attempt.
  Duration retry_delay(std::uint32_t attempt);
  // Bounded memory: drops idle agent instances past agents.max_cached.
  void evict_idle(AgentTable& table);
  // Amortised purge of expired Idempotency keys and dedup ids.
  void maybe_purge();
  MessageId mint_id();
  // Idempotency reservations of running invocations (scope/key -> owner).
  bool reserve_idempotency(Invocation& tx, const std::string& key);
  void release_reservations(const Invocation& tx) noexcept;

  RuntimeConfig config_;
  Executor& executor_;
  std::shared_ptr<LocalStore> store_;
  std::shared_ptr<Transport> transport_;
  std::unique_ptr<LogSink> owned_sink_;
  RuntimeLog log_;
  std::string node_id_;  // on every log line
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
  std::map<std::string, std::unique_ptr<SubscriptionActor>, std::less<>>
      subscriptions_;
  std::map<std::string, const AgentKindBase*, std::less<>> agent_kinds_;
  // Host-callable services and subscriptions share the name space.
  std::map<std::string, const InvocationSite*, std::less<>> services_;
  std::unordered_map<std::uint32_t, std::unique_ptr<AgentTable>> agents_;
  std::mutex agents_mutex_;

  std::mutex publishers_mutex_;
  // Node-based: the interned names never move.
  std::map<std::string, int, std::less<>> publisher_names_;

  std::mutex reservations_mutex_;
  std::unordered_map<std::string, const Invocation*> reservations_;

  std::mutex unrouted_mutex_;
  std::set<std::string, std::less<>> unrouted_types_;  // warned about

  RecoveryReport recovery_;
};

}  // namespace herald
