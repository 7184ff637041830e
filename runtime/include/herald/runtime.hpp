#pragma once
// herald::Runtime: the host's entry point.
//
//   herald::DeterministicExecutor executor(/*seed=*/42);
//   herald::Runtime rt(config, executor);
//   rt.install(commerce::order::context());
//   rt.install(commerce::notifications::context(notifier));
//   commerce::order::Order::at(rt, id).markPaid(InternalCaller{}, authId);
//   executor.run_until_idle();
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
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

class FanoutActor;
class SubscriptionActor;
struct ContextRuntime;

// What a simulated crash and restart did (deterministic executor only).
struct RecoveryReport {
  std::size_t crashes = 0;
  // Lost: one-way agent messages waiting in mailboxes (volatile, not in the
  // outbox of the memory backend).
  std::size_t agent_messages_lost = 0;
  // Kept and re-driven: log entries past a subscription's cursor.
  std::size_t deliveries_redriven = 0;
  // Kept: committed events still in an outbox, released after the restart.
  std::size_t outbox_events_pending = 0;
};

class Runtime {
 public:
  // `backend` defaults to the one named by config.backend_kind; `log_sink` to
  // stderr. The executor and the sink must outlive the runtime.
  Runtime(RuntimeConfig config, Executor& executor,
          std::unique_ptr<Backend> backend = nullptr,
          LogSink* log_sink = nullptr);
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
  // set of attempts. False if there is no such dead letter.
  bool redrive(std::string_view subscription, const EventId& event_id);
  std::size_t redrive_all(std::string_view subscription);
  nlohmann::json dead_letter_json(const DeadLetter& letter) const;

  // Subscription names of an event type in delivery order (D11).
  std::vector<std::string> subscriptions_of(const EventType& type) const;

  nlohmann::json metrics_json() const;
  std::string metrics_prometheus() const;

  // Drains in-flight work on the threaded executor and writes the metrics
  // snapshot to metrics.output if configured.
  void shutdown();

  const RuntimeConfig& config() const { return config_; }
  Executor& executor() { return executor_; }
  Backend& backend() { return *backend_; }
  const RecoveryReport& recovery() const { return recovery_; }

  // Writes one structured log line (adds "level" and "ts").
  void write_log(LogLevel level, nlohmann::json fields);

 private:
  friend class Invocation;
  friend class Clock;
  friend class Logger;
  friend class Idempotency;
  friend class Random;
  friend class FanoutActor;
  friend class SubscriptionActor;
  friend AgentInstanceBase& detail::find_agent(Runtime&, const AgentKindBase&,
                                               std::string_view);
  friend std::shared_ptr<const void> detail::load_agent_state(
      Runtime&, const AgentInstanceBase&);
  friend void detail::commit_agent(Runtime&, Invocation&, AgentInstanceBase&,
                                   std::shared_ptr<const void>);
  friend void detail::abort_invocation(Runtime&, Invocation&, std::string_view);
  friend void detail::check_handler_fault_injection(Runtime&, Invocation&);
  friend void detail::note_host_call(Runtime&);
  friend const InvocationSite& detail::service_site(Runtime&, std::string_view);
  friend void detail::commit_service(Runtime&, Invocation&);

  struct AgentTable {
    std::mutex mutex;
    std::unordered_map<std::string, std::unique_ptr<AgentInstanceBase>>
        instances;
  };

  // Checks what install must refuse before anything of `batch` is
  // installed; returns, per context, the agent kinds its handlers may send
  // messages to.
  std::vector<std::vector<const AgentKindBase*>> check_batch(
      const std::vector<Context>& batch) const;
  void install_one(Context& ctx,
                   std::vector<const AgentKindBase*> message_targets);
  void post_messages(std::vector<AgentMessage>& messages);
  ContextRuntime& context(std::string_view name);
  PublisherIndex intern_publisher(std::string_view publisher_id,
                                  std::string_view* stable);
  void commit(Invocation& tx, CommitRecord& record);
  // Discards what tx staged and writes `fault_line` (at warn).
  void abort(Invocation& tx, nlohmann::json fault_line);
  void check_emit_limits(const EventType& type, const void* payload,
                         std::string_view emitter);
  void restart_after_crash();

  RuntimeConfig config_;
  Executor& executor_;
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<LogSink> owned_sink_;
  RuntimeLog log_;
  Metrics metrics_;
  std::atomic<bool> sealed_{false};

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
  std::unordered_map<std::string, PublisherIndex> publisher_index_;
  std::deque<std::string> publisher_names_;  // deque: interned names never move

  RecoveryReport recovery_;
};

}  // namespace herald
