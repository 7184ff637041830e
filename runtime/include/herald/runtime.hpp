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
//
// This header declares the host API only; the implementation (RuntimeImpl,
// runtime/src/core/runtime_impl.hpp) stays behind it, and nlohmann's JSON
// is only declared. A host includes what else it uses: herald/backend.hpp
// to build a backend, herald/log.hpp for LogLevel's values and the sinks,
// herald/dead_message.hpp for dead_messages(), herald/agent_kind.hpp for
// agent(...).call(...).
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "herald/agent.hpp"
#include "herald/config.hpp"
#include "herald/context.hpp"
#include "herald/errors.hpp"
#include "herald/event_id.hpp"
#include "herald/event_type.hpp"
#include "herald/executor.hpp"
#include "herald/log_entry.hpp"
#include "herald/log_fwd.hpp"
#include "herald/transport.hpp"
#include "herald/version.hpp"

namespace herald {

class Backend;
class LocalStore;
class RuntimeImpl;
struct DeadMessage;

// Called with every entry of a tapped event type that its publishing
// context's fan-out routes (Runtime::tap). The entry holds the full
// envelope and the typed payload; it is valid for the call only (copy what
// is kept, or hold the entry through a copy of nothing else). Called on the
// fan-out's thread, one publishing context at a time per call site.
using EventTap = std::function<void(const LogEntry& entry)>;

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

  // Observes every committed emission of `type`, with its envelope, as the
  // publishing context's fan-out routes it (in log order per context): for
  // tests and monitors (herald/testing.hpp builds on it). Subscriptions,
  // patterns and `via` do not apply; the tap delivers nothing and
  // acknowledges nothing. Like install, before the first host call or
  // publish; throws RegistrationError afterwards or when no installed
  // context owns `type`. A tap that throws is logged (`tap.fault`) and the
  // routing goes on.
  void tap(const EventType& type, EventTap tap);

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
  // A dead letter written under `halt` (subscriptions.halt_on_dead_letter)
  // holds its publisher's lane on the subscription: skipping it lets the
  // lane go on with the next event, and the letter stays, as if written
  // under skip (it can still be re-driven). False if there is no such letter
  // or it holds no lane.
  bool skip_dead_letter(std::string_view subscription, const EventId& event_id);
  // Agent messages that faulted on every attempt, oldest first
  // (herald/dead_message.hpp).
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
  bool stopped() const;

  const RuntimeConfig& config() const;
  Executor& executor();
  LocalStore& store();
  Transport& transport();
  // What recovery found; runs recover() first if it has not run, so call it
  // once every context is installed.
  const RecoveryReport& recovery() const;

  // Writes one structured log line (adds "level" and "ts").
  void write_log(LogLevel level, nlohmann::json fields);

  // The runtime's own: how its invocations, agents, services and
  // subscriptions reach the implementation. RuntimeImpl is declared only
  // in the runtime's sources; a host has no use for it.
  RuntimeImpl& impl() { return *impl_; }
  const RuntimeImpl& impl() const { return *impl_; }

 private:
  std::unique_ptr<RuntimeImpl> impl_;
};

}  // namespace herald
