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

void RuntimeImpl::contain_message_fault(const AgentMessage& message,
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
    if (outcome->newer_state) {
      dead(outcome->message, store_->message_attempts(message.id) + 1);
      return;
    }
    if (outcome->malformed) {
      dead_malformed(outcome->message,
                     store_->message_attempts(message.id) + 1);
      return;
    }
    std::string& fault = outcome->message;
    const std::uint32_t attempts = store_->message_attempts(message.id) + 1;
    const auto max_attempts =
        static_cast<std::uint32_t>(config_.retry_max_attempts);
    if (attempts < max_attempts) {
      store_->record_message_attempt(message.id, attempts);
      const Duration delay = retry_delay(attempts);
      write_log(LogLevel::warn, {{"event", "message.retry"},
                                 {"messageId", message.id.str()},
                                 {"agent", message.agent_kind},
                                 {"key", message.key},
                                 {"handler", message.handler},
                                 {"attempt", attempts},
                                 {"nextAttempt", attempts + 1},
                                 {"delay", format_duration(delay)},
                                 {"message", fault}});
      executor_.schedule_at(
          executor_.now() + delay,
          [this, m = message]() mutable { post_message_or_keep(m); });
      return;
    }
    dead(std::move(fault), attempts);
  } catch (const SimulatedCrash&) {
    throw;
  } catch (const std::exception& e) {
    // The store failed around the message: it is still pending there, so a
    // later attempt (or the next recovery) runs it.
    contain_message_fault(message, e.what());
  }
}
}  // namespace herald
