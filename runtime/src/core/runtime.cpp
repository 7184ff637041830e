#include "herald/runtime.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "context_runtime.hpp"
#include "herald/backend_registry.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/errors.hpp"
#include "herald/fault_injector.hpp"
#include "herald/id_source.hpp"
#include "subscription_actor.hpp"

namespace herald {

Runtime::Runtime(RuntimeConfig config, Executor& executor,
                 std::shared_ptr<Backend> backend, LogSink* log_sink)
    : Runtime(std::move(config), executor, std::shared_ptr<LocalStore>(backend),
              std::shared_ptr<Transport>(backend), log_sink) {}

Runtime::Runtime(RuntimeConfig config, Executor& executor,
                 std::shared_ptr<LocalStore> store,
                 std::shared_ptr<Transport> transport, LogSink* log_sink)
    : config_(std::move(config)),
      executor_(executor),
      store_(std::move(store)),
      transport_(std::move(transport)),
      owned_sink_(log_sink == nullptr ? std::make_unique<StderrLogSink>()
                                      : nullptr),
      log_(log_sink == nullptr ? *owned_sink_ : *log_sink,
           parse_log_level(config_.log_level)),
      node_id_(node_id(config_)) {
  if (!store_ != !transport_) {
    throw RegistrationError(
        "a runtime needs both a local store and a transport, or neither (then "
        "backend.kind names the backend that is both)");
  }
  if (!store_) {
    std::shared_ptr<Backend> backend =
        make_backend(config_, executor_.concurrent());
    store_ = backend;
    transport_ = std::move(backend);
  }
}

Runtime::~Runtime() { executor_.detach(); }

void Runtime::write_log(LogLevel level, nlohmann::json fields) {
  if (!log_.enabled(level)) return;
  fields["node"] = node_id_;
  log_.write(level, std::move(fields), format_instant(executor_.now()));
}

ContextRuntime& Runtime::context(std::string_view name) {
  auto it = contexts_.find(name);
  if (it == contexts_.end())
    throw RegistrationError(
        fmt::format("no context named '{}' is installed", name));
  return *it->second;
}

std::string_view Runtime::intern_publisher(std::string_view publisher_id) {
  std::lock_guard lock(publishers_mutex_);
  auto it = publisher_names_.find(publisher_id);
  if (it == publisher_names_.end())
    it = publisher_names_.emplace(std::string(publisher_id), 0).first;
  return it->first;
}

MessageId Runtime::mint_id() { return new_event_id(); }

void Runtime::check_open(std::string_view call) const {
  if (stopped_.load()) {
    throw ShutdownError(fmt::format(
        "{} after Runtime::shutdown: the runtime accepts no more work", call));
  }
}

void Runtime::ensure_recovered() {
  std::call_once(recovered_, [this] { recover_from_store(); });
}

void Runtime::recover() { ensure_recovered(); }

Duration Runtime::retry_delay(std::uint32_t attempt) {
  // Capped exponential: base * 2^(attempt-1), at most cap; then `jitter` of
  // it is randomised downwards so retries of many subscribers spread out.
  const double exp = std::ldexp(static_cast<double>(config_.retry_base.count()),
                                static_cast<int>(attempt) - 1);
  const double capped =
      std::min(exp, static_cast<double>(config_.retry_cap.count()));
  const double unit = static_cast<double>(executor_.random() >> 11) * 0x1.0p-53;
  return Duration(
      static_cast<Duration::rep>(capped * (1.0 - config_.retry_jitter * unit)));
}

bool Runtime::reserve_idempotency(Invocation& tx, const std::string& key) {
  std::string k = fmt::format("{}/{}", tx.site_.idempotency_scope, key);
  std::lock_guard lock(reservations_mutex_);
  auto [it, inserted] = reservations_.try_emplace(k, &tx);
  if (!inserted) return it->second == &tx;
  tx.reserved_.push_back(std::move(k));
  return true;
}

void Runtime::release_reservations(const Invocation& tx) noexcept {
  std::lock_guard lock(reservations_mutex_);
  for (const std::string& k : tx.reserved_) reservations_.erase(k);
}

void Runtime::maybe_purge() {
  // Every 4096 commits: the scan is linear in what is stored, so this keeps
  // its cost per commit constant.
  if ((commits_.fetch_add(1, std::memory_order_relaxed) & 4095) != 4095) return;
  store_->purge_expired(executor_.now());
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
  check_open("Runtime::publish");
  ensure_recovered();
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
  out.event_id = event_id ? *event_id : mint_id();
  out.entry = std::move(event.entry);
  out.publisher_id = intern_publisher(publisher_id);
  out.supplied_id = event_id.has_value();
  const EventId id = out.event_id;
  CommitRecord record;
  record.log = cr.log;
  record.now = executor_.now();
  detail::take_spare_outbox(record.events);
  record.events.push_back(std::move(out));
  store_->commit(record);
  detail::recycle_outbox(record.events);
  // D6: the same eventId published again is stored once.
  if (record.duplicates > 0) {
    event_metrics_[type.index()]->duplicate_publishes.add(record.duplicates);
  } else {
    cr.publication->wake();
  }
  return id;
}

void Runtime::commit(Invocation& tx, CommitRecord& record) {
  // Most deliveries stage nothing but their dedup record: the empty parts
  // are skipped rather than moved, which is most of the cost of a commit.
  const bool releases = !tx.events_.empty();
  record.log = tx.site_.log;
  record.idempotency_scope = tx.site_.idempotency_scope;
  record.consumed_message = tx.consumed_;
  record.now = executor_.now();
  if (releases) record.events = std::move(tx.events_);
  if (!tx.remembered_.empty()) record.idempotency = std::move(tx.remembered_);
  if (!tx.messages_.empty()) record.messages = std::move(tx.messages_);
  try {
    store_->commit(record);
  } catch (const std::exception& e) {
    // Nothing is applied: the invocation aborts (its caller reports it) and
    // a delivery or message is retried.
    for (const OutboxEvent& ev : record.events)
      event_metrics_[ev.entry->type->index()]->aborted.add();
    throw CommitError(fmt::format("commit failed: {}", e.what()));
  }
  // Committed. What follows only schedules work; it cannot undo or fail the
  // commit, and a message it cannot post stays pending in the store.
  maybe_purge();
  if (releases) {
    detail::recycle_outbox(record.events);
    // D2: released at commit, in emission order, to the publishing context's
    // fan-out actor.
    tx.site_.context_runtime->publication->wake();
  }
  if (!record.messages.empty()) post_messages(record.messages);
  tx.messages_.clear();
  tx.events_.clear();
  tx.remembered_.clear();
}

void Runtime::post_message(AgentMessage message) {
  auto it = agent_kinds_.find(message.agent_kind);
  if (it == agent_kinds_.end()) {
    throw RegistrationError(fmt::format(
        "message {} to agent {} {}: the agent kind is not installed",
        message.id, message.agent_kind, message.key));
  }
  detail::find_agent(*this, *it->second, message.key)->post(std::move(message));
}

void Runtime::post_messages(std::vector<AgentMessage>& messages) noexcept {
  for (AgentMessage& m : messages) post_message_or_keep(m);
}

void Runtime::post_message_or_keep(AgentMessage& message) noexcept {
  try {
    post_message(std::move(message));
  } catch (const std::exception& e) {
    try {
      write_log(LogLevel::error,
                {{"event", "message.post_failed"},
                 {"messageId", message.id.str()},
                 {"agent", message.agent_kind},
                 {"message", fmt::format("{}; it stays pending and is posted "
                                         "by the next recovery",
                                         e.what())}});
    } catch (...) {  // NOLINT(bugprone-empty-catch): the log is best effort
    }
  }
}

void Runtime::contain_message_fault(const AgentMessage& message,
                                    std::string_view what) noexcept {
  try {
    write_log(LogLevel::error,
              {{"event", "message.fault"},
               {"messageId", message.id.str()},
               {"agent", message.agent_kind},
               {"message", fmt::format("{}; the message stays pending and is "
                                       "posted again after a backoff",
                                       what)}});
    executor_.schedule_at(
        executor_.now() + retry_delay(1),
        [this, m = message]() mutable { post_message_or_keep(m); });
  } catch (...) {  // NOLINT(bugprone-empty-catch): the next recovery posts it
  }
}

void Runtime::abort(Invocation& tx, nlohmann::json fault_line) noexcept {
  for (const OutboxEvent& e : tx.events_)
    event_metrics_[e.entry->type->index()]->aborted.add();
  tx.events_.clear();
  tx.messages_.clear();
  tx.remembered_.clear();
  try {
    write_log(LogLevel::warn, std::move(fault_line));
  } catch (...) {  // NOLINT(bugprone-empty-catch): the log is best effort
  }
}

std::vector<DeadLetter> Runtime::dead_letters(std::string_view name) {
  return subscription(name).store().dead_letters();
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

SubscriptionActor& Runtime::subscription(std::string_view name) {
  auto it = subscriptions_.find(name);
  if (it == subscriptions_.end())
    throw RegistrationError(fmt::format("no subscription named '{}'", name));
  return *it->second;
}

bool Runtime::redrive(std::string_view subscription_name,
                      const EventId& event_id) {
  check_open("Runtime::redrive");
  ensure_recovered();
  SubscriptionActor& sub = subscription(subscription_name);
  if (!sub.store().mark_redriving(event_id)) return false;
  auto letter = sub.store().find_dead_letter(event_id);
  if (!letter) return false;
  write_log(LogLevel::info, {{"event", "delivery.redrive"},
                             {"subscription", std::string(subscription_name)},
                             {"eventId", event_id.str()},
                             {"attempt", letter->attempts}});
  sub.redrive(std::move(*letter));
  return true;
}

std::size_t Runtime::redrive_all(std::string_view subscription_name) {
  check_open("Runtime::redrive_all");
  ensure_recovered();
  SubscriptionActor& sub = subscription(subscription_name);
  std::size_t n = 0;
  // One pass over the letters; each mark and re-drive is a lookup by id.
  for (DeadLetter& letter : sub.store().dead_letters()) {
    if (letter.redriving) continue;
    if (!sub.store().mark_redriving(letter.event->envelope.eventId)) continue;
    letter.redriving = true;
    sub.redrive(std::move(letter));
    ++n;
  }
  if (n > 0) {
    write_log(LogLevel::info, {{"event", "delivery.redrive_all"},
                               {"subscription", std::string(subscription_name)},
                               {"count", n}});
  }
  return n;
}

std::vector<DeadMessage> Runtime::dead_messages() {
  return store_->dead_messages();
}

nlohmann::json Runtime::dead_letter_json(const DeadLetter& letter) const {
  return {{"subscription", letter.subscription},
          {"envelope", envelope_to_json(letter.event->envelope)},
          {"payload",
           letter.event->malformed != nullptr
               ? nlohmann::json(letter.event->malformed->raw)
               : letter.event->type->codec().encode(letter.event->payload)},
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

std::size_t Runtime::cached_agents() {
  std::size_t n = 0;
  for (auto& [index, table] : agents_) {
    std::lock_guard lock(table->mutex);
    n += table->instances.size();
  }
  return n;
}

nlohmann::json Runtime::metrics_json() const {
  return metrics_.snapshot_json();
}
std::string Runtime::metrics_prometheus() const {
  return metrics_.snapshot_prometheus();
}

void Runtime::shutdown() {
  // From here on host calls and publishes are refused; what is in flight
  // finishes.
  stopped_.store(true);
  const Executor::StopReport left =
      executor_.stop(config_.executor_shutdown_timeout);
  if (!left.complete()) {
    // Dropped here, not lost: what they would have done is unacknowledged
    // in the store, and the next process's recovery re-drives it.
    write_log(
        LogLevel::warn,
        {{"event", "runtime.shutdown"},
         {"message",
          fmt::format("executor.shutdown_timeout = {} passed "
                      "with work left; the next recovery "
                      "re-drives it",
                      format_duration(config_.executor_shutdown_timeout))},
         {"actorsDropped", left.actors},
         {"timersDropped", left.timers}});
  }
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

// Everything volatile is rebuilt from the store: a restart is a new Runtime
// over the same backend, and this is its first step.
void Runtime::recover_from_store() {
  sealed_.store(true);
  RecoveryReport report;
  report.ran = true;
  // Messages first: a delivery queued below may run at once on a threaded
  // executor, and the message it sends must reach its agent after the ones
  // earlier deliveries committed (per-agent order of one sender's messages).
  for (AgentMessage& m : store_->pending_messages()) {
    post_message(std::move(m));
    ++report.messages_reposted;
  }
  std::vector<LogEntryPtr> entries;
  std::vector<SubscriptionActor*> targets;
  // A subscription new to the store starts at its log's head (now) or
  // before its oldest retained entry (oldest); a known one where it was.
  const bool from_oldest = config_.subscriptions_start == "oldest";
  for (auto& [name, sub] : subscriptions_) {
    const std::string& publisher_context = sub->spec().type->owner();
    auto cr = contexts_.find(publisher_context);
    const std::int64_t head =
        cr == contexts_.end() ? 0 : cr->second->log->head();
    sub->set_start(sub->store().start_position(
        publisher_context, from_oldest ? 0 : head, executor_.now()));
  }
  for (auto& [name, cr] : contexts_) {
    entries.clear();
    cr->log->read(0, std::numeric_limits<std::size_t>::max(), entries);
    for (const LogEntryPtr& entry : entries) {
      targets.clear();
      const EventEnvelope& env = entry->envelope;
      const auto* routes = routes_of(*entry);
      if (routes == nullptr) continue;
      for (SubscriptionActor* sub : *routes) {
        if (entry->position <= sub->start()) continue;
        if (!sub->accepts(*entry)) continue;
        if (env.sequence <= sub->store().acknowledged(env.publisherId))
          continue;
        targets.push_back(sub);
      }
      entry->pending.store(static_cast<std::int32_t>(targets.size()));
      for (SubscriptionActor* sub : targets) {
        if (sub->recover(entry)) ++report.retries_resumed;
        ++report.deliveries_redriven;
      }
    }
    // The fan-out routes what is committed from here on; what is older was
    // queued above.
    cr->publication->resume(cr->log->head(), entries);
  }
  for (auto& [name, sub] : subscriptions_) {
    for (DeadLetter& letter : sub->store().dead_letters()) {
      if (!letter.redriving) continue;
      sub->redrive(std::move(letter));
      ++report.redrives_resumed;
    }
  }
  recovery_ = report;
  const bool found = report.deliveries_redriven + report.redrives_resumed +
                         report.messages_reposted >
                     0;
  write_log(found ? LogLevel::info : LogLevel::debug,
            {{"event", "runtime.recover"},
             {"message", "rebuilt from the store"},
             {"deliveriesRedriven", report.deliveries_redriven},
             {"retriesResumed", report.retries_resumed},
             {"redrivesResumed", report.redrives_resumed},
             {"messagesReposted", report.messages_reposted}});
}

const std::vector<SubscriptionActor*>* Runtime::routes_of(
    const LogEntry& entry) {
  const EventType* type = entry.type;
  if (type != nullptr && type->index() < routes_.size() &&
      owners_[type->index()] != nullptr)
    return &routes_[type->index()];
  const std::string_view name = entry.envelope.eventType;
  {
    std::lock_guard lock(unrouted_mutex_);
    if (!unrouted_types_.emplace(name).second) return nullptr;
  }
  write_log(LogLevel::warn,
            {{"event", "log.unknown_event_type"},
             {"eventType", std::string(name)},
             {"eventId", entry.envelope.eventId.str()},
             {"position", entry.position},
             {"message", type == nullptr
                             ? "this build does not know the event type; "
                               "its entries are not routed"
                             : "no installed context owns the event type; "
                               "its entries are not routed"}});
  return nullptr;
}

void Runtime::evict_idle(AgentTable& table) {
  const auto cap = static_cast<std::size_t>(config_.agents_max_cached);
  if (table.instances.size() <= std::max(cap, table.sweep_at)) return;
  // The table's reference is the only one and nothing runs or waits: the
  // state is in the store, and the next call loads it again.
  std::erase_if(table.instances, [](const auto& kv) {
    return kv.second.use_count() == 1 && kv.second->idle();
  });
  // Sweep again only once the cache has grown by half of what is left, so
  // a cache of busy instances is not scanned on every insert.
  table.sweep_at = table.instances.size() + table.instances.size() / 2;
}

namespace detail {

std::shared_ptr<AgentInstanceBase> find_agent(Runtime& rt,
                                              const AgentKindBase& kind,
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
  if (it != table.instances.end()) return it->second;
  rt.evict_idle(table);
  ContextRuntime& cr = rt.context(kind.context());
  InvocationSite site;
  site.context = cr.name;
  site.context_runtime = &cr;
  site.log = cr.log;
  site.publisher_id =
      rt.intern_publisher(fmt::format("{}/{}", kind.qualified(), key));
  site.owner = kind.qualified();
  site.idempotency_scope = kind.qualified();
  auto [slot, inserted] = table.instances.emplace(
      std::string(key),
      kind.make_instance(rt, rt.executor_, std::string(key), site));
  return slot->second;
}

void run_message(Runtime& rt, AgentInstanceBase& agent, AgentMessage& message) {
  try {
    // A copy posted again by a recovery after its commit: already run.
    if (!rt.store_->message_pending(message.id)) return;
    // D9: a message whose stored arguments are not JSON, or whose key or
    // arguments do not decode through the handler's codec, never reaches a
    // handler and is not retried.
    auto dead_malformed = [&](const std::string& why, std::uint32_t attempt) {
      std::string error = "malformed: " + why;
      rt.write_log(LogLevel::error, {{"event", "message.dead_letter"},
                                     {"messageId", message.id.str()},
                                     {"agent", message.agent_kind},
                                     {"key", message.key},
                                     {"handler", message.handler},
                                     {"attempt", attempt},
                                     {"message", error}});
      rt.store_->dead_message(DeadMessage{
          std::move(message), attempt, std::move(error), rt.executor_.now()});
    };
    if (!message.malformed.empty()) {
      dead_malformed(message.malformed, 0);
      return;
    }
    std::optional<AgentKindBase::MessageFault> outcome =
        agent.kind().run_message(rt, agent, message);
    if (!outcome) return;
    if (outcome->malformed) {
      dead_malformed(outcome->message,
                     rt.store_->message_attempts(message.id) + 1);
      return;
    }
    std::string& fault = outcome->message;
    const std::uint32_t attempts = rt.store_->message_attempts(message.id) + 1;
    const auto max_attempts =
        static_cast<std::uint32_t>(rt.config_.retry_max_attempts);
    if (attempts < max_attempts) {
      rt.store_->record_message_attempt(message.id, attempts);
      const Duration delay = rt.retry_delay(attempts);
      rt.write_log(LogLevel::warn, {{"event", "message.retry"},
                                    {"messageId", message.id.str()},
                                    {"agent", message.agent_kind},
                                    {"key", message.key},
                                    {"handler", message.handler},
                                    {"attempt", attempts},
                                    {"nextAttempt", attempts + 1},
                                    {"delay", format_duration(delay)},
                                    {"message", fault}});
      rt.executor_.schedule_at(
          rt.executor_.now() + delay,
          [&rt, m = message]() mutable { rt.post_message_or_keep(m); });
      return;
    }
    rt.write_log(LogLevel::error, {{"event", "message.dead_letter"},
                                   {"messageId", message.id.str()},
                                   {"agent", message.agent_kind},
                                   {"key", message.key},
                                   {"handler", message.handler},
                                   {"attempt", attempts},
                                   {"message", fault}});
    rt.store_->dead_message(DeadMessage{std::move(message), attempts,
                                        std::move(fault), rt.executor_.now()});
  } catch (const SimulatedCrash&) {
    throw;
  } catch (const std::exception& e) {
    // The store failed around the message: it is still pending there, so a
    // later attempt (or the next recovery) runs it.
    rt.contain_message_fault(message, e.what());
  }
}

std::shared_ptr<const void> load_agent_state(Runtime& rt,
                                             const AgentInstanceBase& agent) {
  return rt.store_->load_agent_state(agent.kind(), agent.key());
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

void note_host_call(Runtime& rt, std::string_view call) {
  rt.check_open(call);
  rt.ensure_recovered();
}

void note_state_read(Runtime& rt) { rt.ensure_recovered(); }

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
