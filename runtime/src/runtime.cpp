#include "herald/runtime.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "context_runtime.hpp"
#include "fanout_actor.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/errors.hpp"
#include "herald/fault_injector.hpp"
#include "subscription_actor.hpp"

namespace herald {

Runtime::Runtime(RuntimeConfig config, Executor& executor,
                 std::unique_ptr<Backend> backend, LogSink* log_sink)
    : config_(std::move(config)),
      executor_(executor),
      backend_(std::move(backend)),
      owned_sink_(log_sink == nullptr ? std::make_unique<StderrLogSink>()
                                      : nullptr),
      log_(log_sink == nullptr ? *owned_sink_ : *log_sink,
           parse_log_level(config_.log_level)) {
  if (!backend_) {
    // load_config admits only the backends this build has.
    backend_ = make_memory_backend(MemoryBackendOptions{
        executor_.concurrent(),
        static_cast<std::size_t>(config_.backend_memory_event_id_window)});
  }
  if (auto* det = dynamic_cast<DeterministicExecutor*>(&executor_)) {
    det->on_crash([this] { restart_after_crash(); });
  }
}

Runtime::~Runtime() { executor_.detach(); }

void Runtime::write_log(LogLevel level, nlohmann::json fields) {
  if (!log_.enabled(level)) return;
  log_.write(level, std::move(fields), format_instant(executor_.now()));
}

ContextRuntime& Runtime::context(std::string_view name) {
  auto it = contexts_.find(name);
  if (it == contexts_.end())
    throw RegistrationError(
        fmt::format("no context named '{}' is installed", name));
  return *it->second;
}

PublisherIndex Runtime::intern_publisher(std::string_view publisher_id,
                                         std::string_view* stable) {
  std::lock_guard lock(publishers_mutex_);
  auto [it, inserted] =
      publisher_index_.try_emplace(std::string(publisher_id), 0);
  if (inserted) {
    it->second = static_cast<PublisherIndex>(publisher_names_.size());
    publisher_names_.emplace_back(publisher_id);
  }
  *stable = publisher_names_[it->second];
  return it->second;
}

void Runtime::check_emit_limits(const EventType& type, const void* payload,
                                std::string_view emitter) {
  const auto limit = static_cast<std::size_t>(config_.limit_payload_bytes);
  if (auto bound = type.max_encoded_bytes(); bound && *bound <= limit) return;
  const std::size_t bytes = type.codec().encoded_size(payload);
  if (bytes > limit) {
    throw LimitError(fmt::format(
        "{} emitted {} with a {}-byte payload, past limits.payload_bytes = {}",
        emitter, type.name(), bytes, limit));
  }
}

EventId Runtime::publish(std::string_view context_name,
                         std::string_view publisher_id, AnyEvent event,
                         std::optional<EventId> event_id) {
  if (detail::running_invocation() != nullptr) {
    detail::refuse_host_call(
        fmt::format("Runtime::publish of {}", event.type().name()));
  }
  sealed_.store(true);
  ContextRuntime& cr = context(context_name);
  const EventType& type = event.type();
  ContextRuntime* owner =
      type.index() < owners_.size() ? owners_[type.index()] : nullptr;
  if (owner != &cr) {
    throw OwnershipError(fmt::format(
        "context '{}' cannot release {}: the event type is owned by '{}'",
        cr.name, type.name(), owner != nullptr ? owner->name : type.owner()));
  }
  event_metrics_[type.index()]->emitted.add();
  check_emit_limits(type, event.entry->payload, publisher_id);
  OutboxEvent out;
  out.event_id =
      event_id ? *event_id
               : EventId::from_random(executor_.random(), executor_.random());
  out.entry = std::move(event.entry);
  out.publisher = intern_publisher(publisher_id, &out.publisher_id);
  out.emitted_at = executor_.now();
  out.supplied_id = event_id.has_value();
  const EventId id = out.event_id;
  CommitRecord record;
  record.outbox_log = cr.log;
  detail::take_spare_outbox(record.outbox);
  record.outbox.push_back(std::move(out));
  backend_->commit(record);
  detail::recycle_outbox(record.outbox);
  cr.fanout->wake();
  return id;
}

void Runtime::commit(Invocation& tx, CommitRecord& record) {
  // Most deliveries stage nothing but their dedup record: the empty parts
  // are skipped rather than moved, which is most of the cost of a commit.
  const bool releases = !tx.events_.empty();
  record.outbox_log = tx.site_.log;
  record.idempotency_scope = tx.site_.idempotency_scope;
  if (releases) {
    const Instant now = executor_.now();
    for (OutboxEvent& e : tx.events_) e.emitted_at = now;
    record.outbox = std::move(tx.events_);
  }
  if (!tx.remembered_.empty()) record.idempotency = std::move(tx.remembered_);
  if (!tx.messages_.empty()) record.messages = std::move(tx.messages_);
  backend_->commit(record);
  if (releases) {
    detail::recycle_outbox(record.outbox);
    // D2: released at commit, in emission order, to the publishing context's
    // fan-out actor.
    tx.site_.context_runtime->fanout->wake();
  }
  if (!record.messages.empty()) post_messages(record.messages);
  tx.messages_.clear();
  tx.events_.clear();
  tx.remembered_.clear();
}

void Runtime::post_messages(std::vector<AgentMessage>& messages) {
  for (AgentMessage& m : messages) {
    // Invocation::send admits only kinds that an installed context owns.
    const AgentKindBase& kind = *agent_kinds_.find(m.agent_kind)->second;
    detail::find_agent(*this, kind, m.key).post(std::move(m));
  }
}

void Runtime::abort(Invocation& tx, nlohmann::json fault_line) {
  for (const OutboxEvent& e : tx.events_)
    event_metrics_[e.entry->type->index()]->aborted.add();
  tx.events_.clear();
  tx.messages_.clear();
  tx.remembered_.clear();
  write_log(LogLevel::warn, std::move(fault_line));
}

std::vector<DeadLetter> Runtime::dead_letters(std::string_view subscription) {
  auto it = subscriptions_.find(subscription);
  if (it == subscriptions_.end())
    throw RegistrationError(
        fmt::format("no subscription named '{}'", subscription));
  return it->second->store().dead_letters();
}

std::vector<DeadLetter> Runtime::dead_letters() {
  std::vector<DeadLetter> all;
  for (auto& [name, sub] : subscriptions_) {
    auto letters = sub->store().dead_letters();
    all.insert(all.end(), std::make_move_iterator(letters.begin()),
               std::make_move_iterator(letters.end()));
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const DeadLetter& a, const DeadLetter& b) {
                     return a.dead_lettered_at < b.dead_lettered_at;
                   });
  return all;
}

bool Runtime::redrive(std::string_view subscription, const EventId& event_id) {
  auto it = subscriptions_.find(subscription);
  if (it == subscriptions_.end())
    throw RegistrationError(
        fmt::format("no subscription named '{}'", subscription));
  auto letter = it->second->store().take_dead_letter(event_id);
  if (!letter) return false;
  write_log(LogLevel::info, {{"event", "delivery.redrive"},
                             {"subscription", std::string(subscription)},
                             {"eventId", event_id.str()},
                             {"attempt", letter->attempts}});
  it->second->redrive(std::move(*letter));
  return true;
}

std::size_t Runtime::redrive_all(std::string_view subscription) {
  std::size_t n = 0;
  for (const DeadLetter& letter : dead_letters(subscription)) {
    if (redrive(subscription, letter.event->envelope.eventId)) ++n;
  }
  return n;
}

nlohmann::json Runtime::dead_letter_json(const DeadLetter& letter) const {
  return {
      {"subscription", letter.subscription},
      {"envelope", envelope_to_json(letter.event->envelope)},
      {"payload", letter.event->type->codec().encode(letter.event->payload)},
      {"attempts", letter.attempts},
      {"lastError", letter.last_error},
      {"firstAttemptAt", format_instant(letter.first_attempt_at)},
      {"lastAttemptAt", format_instant(letter.last_attempt_at)},
      {"deadLetteredAt", format_instant(letter.dead_lettered_at)}};
}

std::vector<std::string> Runtime::subscriptions_of(
    const EventType& type) const {
  std::vector<std::string> names;
  if (type.index() >= routes_.size()) return names;
  for (const SubscriptionActor* s : routes_[type.index()])
    names.push_back(s->spec().service);
  return names;
}

nlohmann::json Runtime::metrics_json() const {
  return metrics_.snapshot_json();
}
std::string Runtime::metrics_prometheus() const {
  return metrics_.snapshot_prometheus();
}

void Runtime::shutdown() {
  executor_.drain();
  if (config_.metrics_output.empty()) return;
  const std::string text = config_.metrics_format == "prometheus"
                               ? metrics_prometheus()
                               : metrics_json().dump(2) + "\n";
  if (config_.metrics_output == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  std::ofstream out(config_.metrics_output);
  out << text;
  if (!out)
    throw Error(fmt::format("cannot write metrics to '{}' (metrics.output)",
                            config_.metrics_output));
}

// A simulated crash (deterministic executor): everything volatile is gone,
// the backend stands in for durable storage, and the restart re-drives what
// the backend says is unfinished.
void Runtime::restart_after_crash() {
  ++recovery_.crashes;
  for (auto& [index, table] : agents_) {
    for (auto& [key, agent] : table->instances)
      recovery_.agent_messages_lost += agent->drop_mailbox();
    table->instances.clear();
  }
  for (auto& [name, sub] : subscriptions_) sub->reset();
  for (auto& [name, cr] : contexts_) {
    cr->fanout->reset();
    const std::size_t pending = cr->log->outbox_size();
    recovery_.outbox_events_pending += pending;
    if (pending > 0) cr->fanout->wake();
  }
  for (auto& [name, cr] : contexts_) {
    for (const LogEntryPtr& entry : cr->log->entries()) {
      std::int32_t matched = 0;
      std::vector<SubscriptionActor*> targets;
      for (SubscriptionActor* sub : routes_[entry->type->index()]) {
        if (!sub->accepts(*entry)) continue;
        if (entry->envelope.sequence <= sub->store().cursor(entry->publisher))
          continue;
        targets.push_back(sub);
        ++matched;
      }
      entry->pending.store(matched);
      for (SubscriptionActor* sub : targets) {
        sub->enqueue(entry);
        ++recovery_.deliveries_redriven;
      }
    }
  }
  write_log(
      LogLevel::warn,
      {{"event", "runtime.restart"},
       {"message",
        "simulated crash: volatile state dropped, unfinished work re-driven"},
       {"agentMessagesLost", recovery_.agent_messages_lost},
       {"deliveriesRedriven", recovery_.deliveries_redriven}});
}

namespace detail {

AgentInstanceBase& find_agent(Runtime& rt, const AgentKindBase& kind,
                              std::string_view key) {
  rt.sealed_.store(true, std::memory_order_relaxed);
  auto table_it = rt.agents_.find(kind.index());
  if (table_it == rt.agents_.end()) {
    throw RegistrationError(
        fmt::format("agent {} is not installed (install context '{}')",
                    kind.qualified(), kind.context()));
  }
  Runtime::AgentTable& table = *table_it->second;
  std::lock_guard lock(table.mutex);
  auto it = table.instances.find(std::string(key));
  if (it != table.instances.end()) return *it->second;
  ContextRuntime& cr = rt.context(kind.context());
  InvocationSite site;
  site.context = cr.name;
  site.context_runtime = &cr;
  site.log = cr.log;
  site.publisher = rt.intern_publisher(
      fmt::format("{}/{}", kind.qualified(), key), &site.publisher_id);
  site.owner = kind.qualified();
  site.idempotency_scope = kind.qualified();
  auto [slot, inserted] = table.instances.emplace(
      std::string(key),
      kind.make_instance(rt, rt.executor_, std::string(key), site));
  return *slot->second;
}

std::shared_ptr<const void> load_agent_state(Runtime& rt,
                                             const AgentInstanceBase& agent) {
  return rt.backend_->load_agent_state(agent.kind(), agent.key());
}

void commit_agent(Runtime& rt, Invocation& tx, AgentInstanceBase& agent,
                  std::shared_ptr<const void> state) {
  CommitRecord record;
  record.state = CommitRecord::StateWrite{
      &agent.kind(), agent.kind().qualified(), agent.key(), std::move(state)};
  rt.commit(tx, record);
}

void abort_invocation(Runtime& rt, Invocation& tx, std::string_view message) {
  nlohmann::json line{{"event", "handler.fault"},
                      {"handler", tx.handler_name()},
                      {"message", std::string(message)}};
  // A one-way message run on behalf of a delivery names the event behind it.
  if (const auto& cause = tx.cause(); cause.causation) {
    line["eventId"] = cause.causation->str();
    line["correlationId"] = cause.correlation.str();
  }
  rt.abort(tx, std::move(line));
}

void report_unknown_handler(Runtime& rt, const AgentInstanceBase& agent,
                            const AgentMessage& message) {
  Invocation tx(rt, agent.site(), message.handler, message.cause);
  abort_invocation(rt, tx,
                   fmt::format("agent {} has no message handler '{}'",
                               agent.kind().qualified(), message.handler));
}

void check_handler_fault_injection(Runtime& rt, Invocation& tx) {
  FaultInjector* faults = rt.executor_.faults();
  if (faults == nullptr) return;
  if (auto injected = faults->on_handler_exit(tx.handler_name()))
    throw HandlerFailure(*injected);
}

void note_host_call(Runtime& rt) {
  rt.sealed_.store(true, std::memory_order_relaxed);
}

const InvocationSite& service_site(Runtime& rt, std::string_view service) {
  rt.sealed_.store(true, std::memory_order_relaxed);
  auto it = rt.services_.find(service);
  if (it == rt.services_.end()) {
    throw RegistrationError(fmt::format(
        "no host-callable service named '{}' is installed", service));
  }
  return *it->second;
}

void commit_service(Runtime& rt, Invocation& tx) {
  CommitRecord record;
  rt.commit(tx, record);
}

}  // namespace detail
}  // namespace herald
