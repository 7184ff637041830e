// RuntimeImpl: construction, commits, publishing from the host, dead letters,
// metrics and shutdown. Installing is in install.cpp, recovery in
// recover.cpp, agents and their messages in runtime_agents.cpp.
#include "runtime_impl.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "context_runtime.hpp"
#include "herald/backend_registry.hpp"
#include "herald/dead_message.hpp"
#include "herald/errors.hpp"
#include "herald/id_source.hpp"
#include "herald/publisher_ids.hpp"
#include "release_tally.hpp"
#include "subscription_actor.hpp"

namespace herald {

RuntimeImpl::RuntimeImpl(Runtime& runtime, RuntimeConfig config,
                         Executor& executor, std::shared_ptr<LocalStore> store,
                         std::shared_ptr<Transport> transport,
                         LogSink* log_sink)
    : runtime_(runtime),
      config_(std::move(config)),
      executor_(executor),
      store_(std::move(store)),
      transport_(std::move(transport)),
      owned_sink_(log_sink == nullptr ? std::make_unique<StderrLogSink>()
                                      : nullptr),
      log_(log_sink == nullptr ? *owned_sink_ : *log_sink,
           parse_log_level(config_.log_level)),
      node_id_(node_id(config_)),
      transport_faults_(log_, node_id_) {
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

RuntimeImpl::~RuntimeImpl() = default;

void RuntimeImpl::write_log(LogLevel level, nlohmann::json fields) {
  if (!log_.enabled(level)) return;
  fields["node"] = node_id_;
  log_.write(level, std::move(fields), format_instant(executor_.now()));
}

ContextRuntime& RuntimeImpl::context(std::string_view name) {
  auto it = contexts_.find(name);
  if (it == contexts_.end())
    throw RegistrationError(
        fmt::format("no context named '{}' is installed", name));
  return *it->second;
}

std::string_view RuntimeImpl::intern_publisher(std::string_view publisher_id) {
  return intern_publisher_id(publisher_id);
}

PublicationOptions RuntimeImpl::publication_options() {
  return PublicationOptions{&executor_, config_.backend_log_retention,
                            transport_faults_.shared()};
}

MessageId RuntimeImpl::mint_id() { return new_event_id(); }

void RuntimeImpl::check_open(std::string_view call) const {
  if (stopped_.load()) {
    throw ShutdownError(fmt::format(
        "{} after Runtime::shutdown: the runtime accepts no more work", call));
  }
}

void RuntimeImpl::ensure_recovered() {
  std::call_once(recovered_, [this] { recover_from_store(); });
}

void RuntimeImpl::recover() { ensure_recovered(); }

const RecoveryReport& RuntimeImpl::recovery() {
  ensure_recovered();
  return recovery_;
}

Duration RuntimeImpl::retry_delay(std::uint32_t attempt) {
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

Duration RuntimeImpl::unavailable_delay(std::uint32_t waits) {
  return std::min<Duration>(retry_delay(waits), std::chrono::seconds(1));
}

bool RuntimeImpl::reserve_idempotency(Invocation& tx, const std::string& key) {
  std::string k = fmt::format("{}/{}", tx.site_.idempotency_scope, key);
  std::lock_guard lock(reservations_mutex_);
  auto [it, inserted] = reservations_.try_emplace(k, &tx);
  if (!inserted) return it->second == &tx;
  tx.staged().reserved.push_back(std::move(k));
  return true;
}

void RuntimeImpl::release_reservations(const Invocation& tx) noexcept {
  std::lock_guard lock(reservations_mutex_);
  if (!tx.staged_) return;
  for (const std::string& k : tx.staged_->reserved) reservations_.erase(k);
}

std::string_view purge_failure_name(PurgeFailure reason) {
  switch (reason) {
    case PurgeFailure::store_error:
      return "store_error";
    case PurgeFailure::unknown_exception:
      return "unknown_exception";
  }
  return "unknown_exception";
}

void RuntimeImpl::purge() noexcept {
  // The purge is a write transaction of its own, after a commit that stands
  // whatever happens here: a failure is the purge's alone. Expired records
  // stay until the next purge (they are ignored when read: an expired key
  // is not seen), so it is logged and left to that one.
  PurgeFailure reason = PurgeFailure::store_error;
  std::string message;
  try {
    store_->purge_expired(executor_.now());
    return;
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
    reason = PurgeFailure::unknown_exception;
    message = "a purge threw something not a std::exception";
  }
  try {
    write_log(LogLevel::warn,
              {{"event", "store.purge_failed"},
               {"reason", purge_failure_name(reason)},
               {"message", message},
               {"retry", "at the next purge, 4096 commits on"}});
  } catch (...) {  // NOLINT(bugprone-empty-catch): the log is best effort
  }
}

void RuntimeImpl::check_payload_bytes(const EventType& type,
                                      const void* payload,
                                      std::string_view emitter) {
  const auto limit = static_cast<std::size_t>(config_.limit_payload_bytes);
  const std::size_t bytes = type.codec().encoded_size(payload);
  if (bytes > limit) {
    throw LimitError(fmt::format(
        "{} emitted {} with a {}-byte payload, past limits.payload_bytes = {}",
        emitter, type.name(), bytes, limit));
  }
}

EventId RuntimeImpl::publish(std::string_view context_name,
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
  ContextRuntime* owner = owner_of(type);
  if (cr.mirror) {
    throw OwnershipError(fmt::format(
        "context '{}' cannot release {}: the context is hosted by another "
        "process, whose events this one only receives",
        cr.name, type.name()));
  }
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
    // D2: released at commit, counted when it is in the log.
    event_metrics_[type.index()]->released.add();
    cr.publication->wake();
  }
  return id;
}

void RuntimeImpl::commit(Invocation& tx, CommitRecord& record) {
  // Most deliveries stage nothing but their dedup record: the empty parts
  // are skipped rather than moved, which is most of the cost of a commit.
  const bool releases = !tx.events_.empty();
  record.log = tx.site_.log;
  record.idempotency_scope = tx.site_.idempotency_scope;
  record.consumed_message = tx.consumed_;
  record.now = executor_.now();
  if (releases) record.events = std::move(tx.events_);
  if (tx.staged_) {
    Invocation::Staged& staged = *tx.staged_;
    if (!staged.remembered.empty())
      record.idempotency = std::move(staged.remembered);
    if (!staged.messages.empty()) record.messages = std::move(staged.messages);
  }
  // The store takes the entries: their types are read before.
  ReleaseTally released;
  for (const OutboxEvent& ev : record.events) released.add(*ev.entry->type);
  try {
    store_->commit(record);
  } catch (const InvalidText&) {
    // A value of this invocation that cannot be stored: nothing is applied,
    // and the fault is the handler's own (deterministic, not retried).
    count_aborted(record.events);
    throw;
  } catch (const std::exception& e) {
    // Nothing is applied: the invocation aborts (its caller reports it) and
    // a delivery or message is retried.
    count_aborted(record.events);
    rethrow_commit_failure(e);
  }
  // Committed. What follows only schedules work; it cannot undo or fail the
  // commit (the caller updates its agent's cached state once this returns),
  // and a message it cannot post stays pending in the store.
  maybe_purge();
  if (releases) {
    // D2: in the log now, so released now (an invocation supplies no
    // eventIds, so none of its emissions is a duplicate).
    released.count(event_metrics_);
    detail::recycle_outbox(record.events);
    // D2: released at commit, in emission order, to the publishing context's
    // fan-out actor.
    tx.site_.context_runtime->publication->wake();
  }
  if (!record.messages.empty()) post_messages(record.messages);
  tx.events_.clear();
  if (tx.staged_) {
    tx.staged_->messages.clear();
    tx.staged_->remembered.clear();
  }
}

Instant RuntimeImpl::commit_staged_delivery(
    Invocation& tx, const CommitRecord::DedupRecord& dedup) {
  CommitRecord record;
  record.dedup = dedup;
  commit(tx, record);
  return record.now;
}

void RuntimeImpl::rethrow_commit_failure(const std::exception& e) {
  if (dynamic_cast<const InvalidText*>(&e) != nullptr) throw;
  // A node that cannot commit now keeps that class: its work waits rather
  // than spending attempts.
  if (dynamic_cast<const Unavailable*>(&e) != nullptr)
    throw Unavailable(fmt::format("commit failed: {}", e.what()));
  throw CommitError(fmt::format("commit failed: {}", e.what()));
}

void RuntimeImpl::count_aborted(
    const std::vector<OutboxEvent>& events) noexcept {
  for (const OutboxEvent& e : events) {
    EventTypeMetrics& m = *event_metrics_[e.entry->type->index()];
    m.emitted.add();
    m.aborted.add();
  }
}

void RuntimeImpl::abort(Invocation& tx, nlohmann::json fault_line,
                        LogLevel level) noexcept {
  count_aborted(tx.events_);
  tx.events_.clear();
  if (tx.staged_) {
    tx.staged_->messages.clear();
    tx.staged_->remembered.clear();
  }
  try {
    write_log(level, std::move(fault_line));
  } catch (...) {  // NOLINT(bugprone-empty-catch): the log is best effort
  }
}

std::vector<DeadLetter> RuntimeImpl::dead_letters(std::string_view name) {
  return subscription(name).store().dead_letters();
}

std::vector<DeadLetter> RuntimeImpl::dead_letters() {
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

SubscriptionActor& RuntimeImpl::subscription(std::string_view name) {
  auto it = subscriptions_.find(name);
  if (it == subscriptions_.end())
    throw RegistrationError(fmt::format("no subscription named '{}'", name));
  return *it->second;
}

bool RuntimeImpl::redrive(std::string_view subscription_name,
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

bool RuntimeImpl::skip_dead_letter(std::string_view subscription_name,
                                   const EventId& event_id) {
  check_open("Runtime::skip_dead_letter");
  ensure_recovered();
  SubscriptionActor& sub = subscription(subscription_name);
  auto letter = sub.store().find_dead_letter(event_id);
  if (!letter || letter->policy != DeadLetterPolicy::halt) return false;
  letter->policy = DeadLetterPolicy::skip;
  sub.store().update_dead_letter(*letter);
  write_log(LogLevel::info, {{"event", "delivery.skip"},
                             {"subscription", std::string(subscription_name)},
                             {"eventId", event_id.str()}});
  sub.skip(std::move(*letter));
  return true;
}

std::size_t RuntimeImpl::redrive_all(std::string_view subscription_name) {
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

std::vector<DeadMessage> RuntimeImpl::dead_messages() {
  return store_->dead_messages();
}

nlohmann::json RuntimeImpl::dead_letter_json(const DeadLetter& letter) const {
  return {{"subscription", letter.subscription},
          {"envelope", envelope_to_json(letter.event->envelope)},
          {"payload",
           letter.event->malformed != nullptr
               ? nlohmann::json(letter.event->malformed->raw)
               : letter.event->type->codec().encode(letter.event->payload)},
          {"attempts", letter.attempts},
          {"lastError", letter.last_error},
          {"policy", std::string(dead_letter_policy_name(letter.policy))},
          {"firstAttemptAt", format_instant(letter.first_attempt_at)},
          {"lastAttemptAt", format_instant(letter.last_attempt_at)},
          {"deadLetteredAt", format_instant(letter.dead_lettered_at)}};
}

std::vector<std::string> RuntimeImpl::subscriptions_of(
    const EventType& type) const {
  std::vector<std::string> names;
  if (type.index() >= routes_.size()) return names;
  for (const SubscriptionActor* s : routes_[type.index()])
    names.push_back(s->spec().service);
  return names;
}

nlohmann::json RuntimeImpl::metrics_json() const {
  return metrics_.snapshot_json();
}

std::string RuntimeImpl::metrics_prometheus() const {
  return metrics_.snapshot_prometheus();
}

void RuntimeImpl::shutdown() {
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

ContextRuntime* RuntimeImpl::owner_of(const EventType& type) const {
  return type.index() < owners_.size() ? owners_[type.index()] : nullptr;
}

const std::vector<SubscriptionActor*>* RuntimeImpl::unrouted(
    const LogEntry& entry) {
  const EventType* type = entry.type;
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

const InvocationSite& RuntimeImpl::service_site(std::string_view service) {
  sealed_.store(true, std::memory_order_relaxed);
  auto it = services_.find(service);
  if (it == services_.end()) {
    throw RegistrationError(fmt::format(
        "no host-callable service named '{}' is installed", service));
  }
  return *it->second;
}

}  // namespace herald
