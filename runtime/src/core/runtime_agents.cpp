// RuntimeImpl's agents: the instance cache per kind, and one-way messages
// (posting, running, retrying and dead-lettering them).
#include <algorithm>

#include <fmt/format.h>

#include "context_runtime.hpp"
#include "herald/dead_message.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/errors.hpp"
#include "runtime_impl.hpp"

namespace herald {

void RuntimeImpl::post_message(AgentMessage message) {
  auto it = agent_kinds_.find(message.agent_kind);
  if (it == agent_kinds_.end()) {
    throw RegistrationError(fmt::format(
        "message {} to agent {} {}: the agent kind is not installed",
        message.id, message.agent_kind, message.key));
  }
  std::shared_ptr<AgentInstanceBase> agent =
      find_agent(*it->second, message.key);
  agent->post(std::move(message));
}

void RuntimeImpl::post_messages(std::vector<AgentMessage>& messages) noexcept {
  bool carried = false;
  for (AgentMessage& m : messages) {
    if (!agent_kinds_.contains(m.agent_kind) &&
        transport_->carries_messages_to(agent_context(m.agent_kind))) {
      // Pending in the store until the transport has carried it to the
      // process hosting the agent.
      carried = true;
      continue;
    }
    post_message_or_keep(m);
  }
  if (carried) transport_->messages_committed();
}

void RuntimeImpl::received(std::vector<AgentMessage>& messages) noexcept {
  for (AgentMessage& m : messages) post_message_or_keep(m);
}

void RuntimeImpl::post_message_or_keep(AgentMessage& message) noexcept {
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

void RuntimeImpl::wait_unavailable(AgentInstanceBase& agent,
                                   const AgentMessage& message,
                                   const std::string& fault) {
  // Not the message's fault: nothing is recorded (its attempt count stays),
  // and it runs again after the D8 backoff of the waits so far, first in
  // its agent's mailbox: the agent's later messages wait behind it.
  const std::uint32_t waits = message.unavailable_waits + 1;
  const Duration delay = unavailable_delay(waits);
  write_log(
      LogLevel::warn,
      {{"event", "message.unavailable"},
       {"messageId", message.id.str()},
       {"agent", message.agent_kind},
       {"key", message.key},
       {"handler", message.handler},
       {"waits", waits},
       {"delay", format_duration(delay)},
       {"faultKind", std::string(fault_kind_name(FaultKind::unavailable))},
       {"message", fault}});
  AgentMessage again = message;
  again.store_faults = 0;
  again.unavailable_waits = waits;
  agent.hold(std::move(again));
  // The held agent is not idle, so the cache keeps it: the kind and key
  // find the same instance.
  executor_.schedule_at(
      executor_.now() + delay,
      [this, kind = &agent.kind(), key = agent.key()]() noexcept {
        try {
          find_agent(*kind, key)->resume();
        } catch (...) {  // NOLINT(bugprone-empty-catch): kept by the store
          // Not resumed: the message is still pending in the store, and
          // the next recovery posts it.
        }
      });
}

void RuntimeImpl::post_later(AgentMessage message, Duration delay) {
  executor_.schedule_at(
      executor_.now() + delay,
      [this, m = std::move(message)]() mutable { post_message_or_keep(m); });
}

void RuntimeImpl::contain_message_fault(const AgentMessage& message,
                                        std::string_view what) noexcept {
  try {
    // The store refused to write around the message (a full disk, an I/O
    // error): it is still pending there. It is tried again after a growing,
    // capped delay; once the store has refused retry.max_attempts times in a
    // row it is left pending and reported, so the process can finish and a
    // later one (once the store takes writes again) posts it at recovery.
    const std::uint32_t faults = message.store_faults + 1;
    const auto max_attempts =
        static_cast<std::uint32_t>(config_.retry_max_attempts);
    if (faults >= max_attempts) {
      metrics_.store_refused().add();
      write_log(LogLevel::error,
                {{"event", "message.store_refused"},
                 {"messageId", message.id.str()},
                 {"agent", message.agent_kind},
                 {"attempt", faults},
                 {"message", fmt::format("{}; the store refused {} attempts "
                                         "in a row: the message stays pending "
                                         "and is posted by the next recovery",
                                         what, faults)}});
      return;
    }
    const Duration delay = retry_delay(faults);
    write_log(LogLevel::error,
              {{"event", "message.fault"},
               {"messageId", message.id.str()},
               {"agent", message.agent_kind},
               {"attempt", faults},
               {"delay", format_duration(delay)},
               {"message", fmt::format("{}; the message stays pending and is "
                                       "posted again after a backoff",
                                       what)}});
    AgentMessage again = message;
    again.store_faults = faults;
    post_later(std::move(again), delay);
  } catch (...) {  // NOLINT(bugprone-empty-catch): the next recovery posts it
  }
}

std::size_t RuntimeImpl::cached_agents() {
  std::size_t n = 0;
  for (auto& [index, table] : agents_) {
    std::lock_guard lock(table->mutex);
    n += table->instances.size();
  }
  return n;
}

void RuntimeImpl::evict_idle(AgentTable& table) {
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

std::shared_ptr<AgentInstanceBase> RuntimeImpl::find_agent(
    const AgentKindBase& kind, std::string_view key) {
  sealed_.store(true, std::memory_order_relaxed);
  auto table_it = agents_.find(kind.index());
  if (table_it == agents_.end()) {
    throw RegistrationError(
        fmt::format("agent {} is not installed (install context '{}')",
                    kind.qualified(), kind.context()));
  }
  AgentTable& table = *table_it->second;
  std::lock_guard lock(table.mutex);
  auto it = table.instances.find(std::string(key));
  if (it != table.instances.end()) return it->second;
  evict_idle(table);
  ContextRuntime& cr = context(kind.context());
  InvocationSite site;
  site.context = cr.name;
  site.context_runtime = &cr;
  site.log = cr.log;
  site.publisher_id =
      intern_publisher(fmt::format("{}/{}", kind.qualified(), key));
  site.owner = kind.qualified();
  site.idempotency_scope = kind.qualified();
  auto [slot, inserted] = table.instances.emplace(
      std::string(key),
      kind.make_instance(runtime_, executor_, std::string(key), site));
  return slot->second;
}

std::shared_ptr<const void> RuntimeImpl::load_agent_state(
    const AgentInstanceBase& agent) {
  return store_->load_agent_state(agent.kind(), agent.key());
}

void RuntimeImpl::run_message(AgentInstanceBase& agent, AgentMessage& message) {
  try {
    // A copy posted again by a recovery after its commit: already run.
    if (!store_->message_pending(message.id)) return;
    // After its last attempt, or at once when malformed (D9: stored
    // arguments that are not JSON, or a key or arguments that do not decode
    // through the handler's codec, never reach a handler and are not
    // retried).
    auto dead = [&](std::string error, std::uint32_t attempt) {
      write_log(LogLevel::error, {{"event", "message.dead_letter"},
                                  {"messageId", message.id.str()},
                                  {"agent", message.agent_kind},
                                  {"key", message.key},
                                  {"handler", message.handler},
                                  {"attempt", attempt},
                                  {"message", error}});
      store_->dead_message(DeadMessage{std::move(message), attempt,
                                       std::move(error), executor_.now()});
    };
    auto dead_malformed = [&](const std::string& why, std::uint32_t attempt) {
      dead("malformed: " + why, attempt);
    };
    if (!message.malformed.empty()) {
      dead_malformed(message.malformed, 0);
      return;
    }
    std::optional<AgentKindBase::MessageFault> outcome =
        agent.kind().run_message(runtime_, agent, message);
    if (!outcome) return;
    // Made loggable and bounded where it enters the runtime: a host's
    // exception may carry any bytes.
    std::string fault = fault_text(outcome->message);
    if (outcome->malformed) {
      dead_malformed(fault, store_->message_attempts(message.id) + 1);
      return;
    }
    if (fault_class(outcome->kind) == FaultClass::unavailable) {
      wait_unavailable(agent, message, fault);
      return;
    }
    const std::uint32_t attempts = store_->message_attempts(message.id) + 1;
    const auto max_attempts =
        static_cast<std::uint32_t>(config_.retry_max_attempts);
    // A deterministic fault (a limit, an unknown handler, ...) would fail
    // the same way on every attempt: it is dead-lettered at once.
    if (fault_class(outcome->kind) == FaultClass::transient &&
        attempts < max_attempts) {
      store_->record_message_attempt(message.id, attempts);
      message.store_faults = 0;  // the store took the attempt
      message.unavailable_waits = 0;
      const Duration delay = retry_delay(attempts);
      write_log(LogLevel::warn,
                {{"event", "message.retry"},
                 {"messageId", message.id.str()},
                 {"agent", message.agent_kind},
                 {"key", message.key},
                 {"handler", message.handler},
                 {"attempt", attempts},
                 {"nextAttempt", attempts + 1},
                 {"delay", format_duration(delay)},
                 {"faultKind", std::string(fault_kind_name(outcome->kind))},
                 {"message", fault}});
      post_later(message, delay);
      return;
    }
    dead(std::move(fault), attempts);
  } catch (const SimulatedCrash&) {
    throw;
  } catch (const std::exception& e) {
    // The store failed around the message: it is still pending there, so a
    // later attempt (or the next recovery) runs it.
    contain_message_fault(message, fault_text(e.what()));
  }
}
}  // namespace herald
