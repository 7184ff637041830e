#include "herald/invocation.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "context_runtime.hpp"
#include "herald/agent_kind.hpp"
#include "herald/errors.hpp"
#include "herald/id_source.hpp"
#include "herald/log.hpp"
#include "herald/wire.hpp"
#include "runtime_impl.hpp"

namespace herald {

namespace detail {
namespace {
// Larger vectors (a handler that emitted a huge burst) are freed rather than
// kept for the thread's lifetime.
constexpr std::size_t kSpareOutboxCapacity = 4096;
thread_local std::vector<OutboxEvent> t_spare_outbox;
}  // namespace

void take_spare_outbox(std::vector<OutboxEvent>& out) {
  out.swap(t_spare_outbox);
}

void recycle_outbox(std::vector<OutboxEvent>& used) {
  used.clear();
  if (used.capacity() > t_spare_outbox.capacity() &&
      used.capacity() <= kSpareOutboxCapacity) {
    used.swap(t_spare_outbox);
  }
}
}  // namespace detail

// A handler runs on the thread that constructed its invocation, from start
// to commit or abort: host calls look here to refuse being made from inside
// one.
constinit thread_local Invocation* detail::t_running = nullptr;

void Invocation::release_reservations() noexcept {
  runtime_.impl().release_reservations(*this);
}

void Invocation::end_staged() noexcept {
  RuntimeImpl& rt = runtime_.impl();
  for (const OutboxEvent& e : events_)
    rt.event_metrics(*e.entry->type).emitted.add();
  if (staged_ && !staged_->reserved.empty()) release_reservations();
}

void Invocation::count_refused_emit(const EventType& type) noexcept {
  runtime_.impl().event_metrics(type).emitted.add();
}

const Invocation* detail::running_invocation() { return t_running; }

void detail::refuse_host_call(std::string_view called) {
  throw ReentrantCallError(
      fmt::format("{} is a host call, made from inside handler {}; a handler "
                  "reaches an agent with a one-way message "
                  "and never waits for a host call, which could wait for an "
                  "agent that waits for it",
                  called, detail::t_running->handler_name()));
}

void Invocation::send(const AgentKindBase& kind, std::string key,
                      std::string_view handler, nlohmann::json args) {
  const auto& targets = site_.context_runtime->message_targets;
  const auto& carried = site_.context_runtime->carried_targets;
  if (std::find(targets.begin(), targets.end(), &kind) == targets.end() &&
      std::find(carried.begin(), carried.end(), kind.qualified()) ==
          carried.end()) {
    throw RegistrationError(
        fmt::format("{} sends {} to agent {}, which context {} neither owns "
                    "nor declares (Context::uses_agent)",
                    handler_name(), handler, kind.qualified(), site_.context));
  }
  // Checked here, so that a bad String fails the handler that made it and
  // never the commit it would share with others.
  std::optional<std::string> bad;
  if (invalid_utf8_at(key) != std::string::npos) {
    bad = "the key";
  } else if (auto at = wire::invalid_text(args)) {
    bad = "the String at " + *at;
  }
  if (bad) {
    throw InvalidText(fmt::format(
        "{} sends {} to agent {} {}: {} is not valid UTF-8", handler_name(),
        handler, kind.qualified(), fault_text(key), *bad));
  }
  AgentMessage& m = staged().messages.emplace_back();
  m.id = runtime_.impl().mint_id();
  m.agent_kind = kind.qualified();
  m.key = std::move(key);
  m.handler = std::string(handler);
  m.args = std::move(args);
  m.cause = cause_;
}

void* Invocation::capability_implementation(std::string_view qualified,
                                            const std::type_info& type) const {
  const auto& capabilities = site_.context_runtime->capabilities;
  auto it = capabilities.find(qualified);
  if (it == capabilities.end()) {
    throw RegistrationError(
        fmt::format("{} uses capability {}, which context {} does not declare",
                    handler_name(), qualified, site_.context));
  }
  if (*it->second.type != type) {
    throw RegistrationError(fmt::format(
        "{} uses capability {} as {}, but context {} declared it as {}",
        handler_name(), qualified, type.name(), site_.context,
        it->second.type->name()));
  }
  return it->second.implementation;
}

void Invocation::fail(const std::string& message) {
  throw HandlerFailure(message);
}

std::string Invocation::handler_name() const {
  if (handler_.empty()) return std::string(site_.owner);
  return fmt::format("{}.{}", site_.owner, handler_);
}

void Invocation::stage_event(AnyEvent event) {
  const EventType& type = event.type();
  RuntimeImpl& rt = runtime_.impl();
  ContextRuntime* owner = rt.owner_of(type);
  if (owner == nullptr) {
    throw OwnershipError(
        fmt::format("{} emitted {}, but no installed context owns that event "
                    "type (its owner is {})",
                    handler_name(), type.name(), type.owner()));
  }
  // From here on a refused emission is counted as emitted here; a staged
  // one when the invocation commits or aborts (RuntimeImpl::commit, abort).
  if (owner != site_.context_runtime) {
    count_refused_emit(type);
    throw OwnershipError(
        fmt::format("{} cannot emit {}: the event type is owned by {}, not {}",
                    handler_name(), type.name(), owner->name, site_.context));
  }
  const auto& cfg = rt.config();
  if (static_cast<std::int64_t>(events_.size()) >=
      cfg.limit_emits_per_invocation) {
    count_refused_emit(type);
    throw LimitError(
        fmt::format("{} emitted more than limits.emits_per_invocation = {} "
                    "events in one invocation",
                    handler_name(), cfg.limit_emits_per_invocation));
  }
  if (cause_.depth > cfg.limit_cascade_depth) {
    count_refused_emit(type);
    throw LimitError(fmt::format(
        "{} emitted {} at cascade depth {}, past limits.cascade_depth = {} "
        "(correlationId {}, causationId {})",
        handler_name(), type.name(), cause_.depth, cfg.limit_cascade_depth,
        cause_.correlation,
        cause_.causation ? cause_.causation->str() : std::string("none")));
  }
  try {
    rt.check_emit_limits(type, event.entry->payload, site_.owner);
  } catch (...) {
    count_refused_emit(type);
    throw;
  }
  if (events_.capacity() == 0) detail::take_spare_outbox(events_);
  // The invocation's emissions share the clock read of its first one.
  const EventId id =
      events_.empty()
          ? rt.mint_id()
          : EventIdMinter(event_id_unix_ms(events_.front().event_id)).next();
  events_.push_back(OutboxEvent{id, std::move(event.entry), site_.publisher_id,
                                cause_.causation, cause_.correlation,
                                cause_.depth});
  stages_ = true;
}

Instant Clock::now() const { return tx_.runtime_.executor().now(); }

namespace {
void log_from_handler(Invocation& tx, Runtime& rt, LogLevel level,
                      std::string_view message) {
  rt.write_log(level, {{"event", "handler.log"},
                       {"handler", tx.handler_name()},
                       {"message", fault_text(message)}});
}
}  // namespace

void Logger::info(std::string_view message) const {
  log_from_handler(tx_, tx_.runtime_, LogLevel::info, message);
}
void Logger::warn(std::string_view message) const {
  log_from_handler(tx_, tx_.runtime_, LogLevel::warn, message);
}
void Logger::error(std::string_view message) const {
  log_from_handler(tx_, tx_.runtime_, LogLevel::error, message);
}

bool Idempotency::seen(std::string_view key) const {
  const Instant now = tx_.runtime_.executor().now();
  if (tx_.staged_) {
    for (const auto& w : tx_.staged_->remembered) {
      if (w.key == key && w.expires_at > now) return true;
    }
  }
  if (tx_.runtime_.store().idempotency_seen(tx_.site_.idempotency_scope, key,
                                            now))
    return true;
  // Check-then-act across instances: until this invocation ends, another
  // one asking for the same key faults (and retries) instead of acting too.
  if (!tx_.runtime_.impl().reserve_idempotency(tx_, std::string(key))) {
    throw IdempotencyConflict(fmt::format(
        "Idempotency key '{}' of {} is being handled by another invocation",
        key, tx_.site_.idempotency_scope));
  }
  // A commit of another invocation may have landed between the check and
  // the reservation.
  return tx_.runtime_.store().idempotency_seen(tx_.site_.idempotency_scope, key,
                                               now);
}

void Idempotency::remember(std::string key, Duration ttl) {
  tx_.staged().remembered.push_back(CommitRecord::IdempotencyWrite{
      std::move(key), tx_.runtime_.executor().now() + ttl});
}

std::int64_t Random::next_int(std::int64_t lo, std::int64_t hi) const {
  if (hi < lo) tx_.fail(fmt::format("Random.int: empty range {}..{}", lo, hi));
  const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
  const std::uint64_t r = tx_.runtime_.executor().random();
  return lo + static_cast<std::int64_t>(span == 0 ? r : r % span);
}

EventId Random::uuid() const {
  Executor& ex = tx_.runtime_.executor();
  const std::uint64_t a = ex.random();
  const std::uint64_t b = ex.random();
  return EventId::from_random(a, b);
}

}  // namespace herald
