// RuntimeImpl::recover_from_store: everything volatile is rebuilt from the
// store.
#include <algorithm>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "context_runtime.hpp"
#include "herald/dead_message.hpp"
#include "runtime_impl.hpp"
#include "subscription_actor.hpp"

namespace herald {

// A restart is a new Runtime over the same backend, and this is its first
// step.
void RuntimeImpl::recover_from_store() {
  sealed_.store(true);
  {
    std::vector<std::string> names;
    for (auto& [name, sub] : subscriptions_) names.emplace_back(name);
    check_subscription_names(config_, names);
  }
  // Nothing queued below runs before recovery is done: a message or
  // delivery that ran now would commit to a log this loop is still reading
  // and wake a fan-out not yet positioned, and what it committed would
  // never be routed. Released when this returns or throws, in the order it
  // was queued.
  const Executor::Hold hold(executor_);
  attach_mirrors();
  // A time written to the store never goes backwards across restarts,
  // whatever the executor's clock says (the deterministic one starts at
  // the same instant in every process).
  executor_.floor_clock(store_->latest_time());
  RecoveryReport report;
  report.ran = true;
  // Messages first: each agent's mailbox then holds them ahead of any
  // message a redelivered event sends (per-agent order of one sender's
  // messages).
  for (AgentMessage& m : store_->pending_messages()) {
    if (!agent_kinds_.contains(m.agent_kind) &&
        transport_->carries_messages_to(agent_context(m.agent_kind))) {
      // For an agent another process hosts: the transport carries it
      // there.
      continue;
    }
    if (!agent_kinds_.contains(m.agent_kind)) {
      // Sent by a build that has the kind (a rolled-back deployment): no
      // attempt can run it here, and the messages behind it must still
      // run. A dead message keeps it for an operator to re-drive once a
      // build with the kind runs again.
      std::string error = fmt::format(
          "unknown agent kind {}: this build does not have it", m.agent_kind);
      write_log(LogLevel::error, {{"event", "message.dead_letter"},
                                  {"messageId", m.id.str()},
                                  {"agent", m.agent_kind},
                                  {"key", m.key},
                                  {"handler", m.handler},
                                  {"attempt", 0},
                                  {"message", error}});
      store_->dead_message(
          DeadMessage{std::move(m), 0, std::move(error), executor_.now()});
      continue;
    }
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
  {
    std::vector<std::string> with_agents;
    for (const auto& entry : contexts_) {
      const std::string& context = entry.first;
      if (entry.second->mirror) continue;
      const bool has_agents = std::any_of(
          agent_kinds_.begin(), agent_kinds_.end(),
          [&](const auto& kind) { return kind.second->context() == context; });
      if (has_agents) with_agents.push_back(context);
    }
    // Messages other processes send to these agents, from here on (they
    // are queued behind the pending ones posted above).
    intake_ =
        transport_->receive_messages(with_agents, *this, publication_options());
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

// Subscriptions whose publisher context is not installed here take its
// events from the transport, if it brings them from the process hosting
// it: that context becomes a mirror (its log in this store, its fan-out
// routing what the transport appended), recovered below like any other.
void RuntimeImpl::attach_mirrors() {
  std::map<std::string, std::vector<const EventType*>, std::less<>> remote;
  for (auto& [name, sub] : subscriptions_) {
    const EventType* type = sub->spec().type;
    if (owner_of(*type) != nullptr) continue;
    auto& types = remote[type->owner()];
    if (std::find(types.begin(), types.end(), type) == types.end())
      types.push_back(type);
  }
  for (auto& [context, types] : remote) {
    auto owned = std::make_unique<ContextRuntime>();
    ContextRuntime& cr = *owned;
    cr.name = context;
    cr.mirror = true;
    cr.log = &store_->context_log(cr.name);
    cr.router = std::make_unique<ContextRouter>(*this, cr);
    std::vector<std::string> names;
    names.reserve(types.size());
    for (const EventType* type : types) names.emplace_back(type->name());
    cr.publication = transport_->attach_mirror(
        cr.name, names, *cr.log, *cr.router, publication_options());
    if (!cr.publication) continue;
    for (const EventType* type : types) {
      owners_[type->index()] = &cr;
      event_metrics_[type->index()] = &metrics_.event_type(type->name());
      cr.owned.push_back(type);
    }
    contexts_.emplace(cr.name, std::move(owned));
  }
}

}  // namespace herald
