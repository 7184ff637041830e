// Installing contexts: everything is checked at install time, before any
// handler runs, so that a missing dependency is a start-up error rather than
// a fault in the middle of a cascade.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "context_runtime.hpp"
#include "herald/errors.hpp"
#include "runtime_impl.hpp"
#include "subscription_actor.hpp"

namespace herald {

void RuntimeImpl::install(std::vector<Context> contexts) {
  auto targets = check_batch(contexts);
  for (std::size_t i = 0; i < contexts.size(); ++i)
    install_one(contexts[i], std::move(targets[i]));
}

std::string_view agent_context(std::string_view agent_kind) {
  const auto dot = agent_kind.rfind('.');
  return dot == std::string_view::npos ? agent_kind : agent_kind.substr(0, dot);
}

std::vector<MessageTargets> RuntimeImpl::check_batch(
    const std::vector<Context>& batch) const {
  std::set<std::string_view> names;
  std::map<std::string_view, const AgentKindBase*> batch_kinds;
  for (const Context& ctx : batch) {
    if (sealed_.load()) {
      throw RegistrationError(
          fmt::format("cannot install context '{}': contexts are installed "
                      "before the first call",
                      ctx.name()));
    }
    if (contexts_.contains(ctx.name()) || !names.insert(ctx.name()).second) {
      throw RegistrationError(
          fmt::format("context '{}' is installed twice", ctx.name()));
    }
    for (const AgentKindBase* kind : ctx.agents()) {
      if (agent_kinds_.contains(kind->qualified()) ||
          !batch_kinds.emplace(kind->qualified(), kind).second) {
        throw RegistrationError(
            fmt::format("agent {} is registered twice", kind->qualified()));
      }
    }
    std::set<std::string_view> capabilities;
    for (const CapabilitySpec& c : ctx.capabilities()) {
      if (c.implementation == nullptr) {
        throw RegistrationError(
            fmt::format("context {} needs an implementation of capability {}",
                        ctx.name(), c.name));
      }
      if (!capabilities.insert(c.name).second) {
        throw RegistrationError(fmt::format(
            "context {} declares capability {} twice", ctx.name(), c.name));
      }
    }
  }
  std::vector<MessageTargets> targets;
  targets.reserve(batch.size());
  for (const Context& ctx : batch) {
    MessageTargets& context_targets = targets.emplace_back();
    std::vector<const AgentKindBase*>& own = context_targets.installed;
    own = ctx.agents();
    for (const std::string& used : ctx.used_agents()) {
      const AgentKindBase* kind = nullptr;
      if (auto it = agent_kinds_.find(used); it != agent_kinds_.end()) {
        kind = it->second;
      } else if (auto in_batch = batch_kinds.find(used);
                 in_batch != batch_kinds.end()) {
        kind = in_batch->second;
      } else if (transport_->carries_messages_to(agent_context(used))) {
        // Hosted by another process: its messages go there.
        context_targets.carried.push_back(used);
        continue;
      } else {
        throw RegistrationError(
            fmt::format("context {} sends messages to agent {}, which no "
                        "installed context declares; install {} first",
                        ctx.name(), used, agent_context(used)));
      }
      if (std::find(own.begin(), own.end(), kind) == own.end())
        own.push_back(kind);
    }
  }
  return targets;
}

void RuntimeImpl::install_one(Context& ctx, MessageTargets message_targets) {
  auto owned = std::make_unique<ContextRuntime>();
  ContextRuntime& cr = *owned;
  cr.name = ctx.name();
  cr.message_targets = std::move(message_targets.installed);
  cr.carried_targets = std::move(message_targets.carried);
  for (const CapabilitySpec& c : ctx.capabilities())
    cr.capabilities.emplace(c.name, c);
  cr.log = &store_->context_log(cr.name);
  cr.router = std::make_unique<ContextRouter>(*this, cr);
  cr.publication =
      transport_->attach(cr.name, *cr.log, *cr.router, publication_options());

  auto grow = [this](std::uint32_t index) {
    if (owners_.size() <= index) {
      owners_.resize(index + 1, nullptr);
      event_metrics_.resize(index + 1, nullptr);
      routes_.resize(index + 1);
    }
  };

  for (const EventType* type : ctx.owned()) {
    if (type->owner() != cr.name) {
      throw RegistrationError(
          fmt::format("context '{}' registers {} as its own, but the event "
                      "type belongs to '{}'",
                      cr.name, type->name(), type->owner()));
    }
    grow(type->index());
    if (owners_[type->index()] != nullptr) {
      throw RegistrationError(
          fmt::format("event type {} is registered twice", type->name()));
    }
    owners_[type->index()] = &cr;
    event_metrics_[type->index()] = &metrics_.event_type(type->name());
    cr.owned.push_back(type);
  }

  for (const AgentKindBase* kind : ctx.agents()) {
    if (kind->context() != cr.name) {
      throw RegistrationError(
          fmt::format("context '{}' registers agent {}, which belongs to '{}'",
                      cr.name, kind->qualified(), kind->context()));
    }
    if (!agent_kinds_.emplace(kind->qualified(), kind).second) {
      throw RegistrationError(
          fmt::format("agent {} is registered twice", kind->qualified()));
    }
    agents_.emplace(kind->index(), std::make_unique<AgentTable>());
  }

  // Validate every service and subscription before changing the routing
  // table, so a refused context leaves nothing behind.
  std::set<std::string, std::less<>> names;
  auto check_name = [&](const std::string& service) {
    if (!service.starts_with(cr.name + ".")) {
      throw RegistrationError(fmt::format(
          "service '{}' of context '{}' must be named '{}.<Service>'", service,
          cr.name, cr.name));
    }
    if (subscriptions_.contains(service) || services_.contains(service) ||
        !names.insert(service).second) {
      throw RegistrationError(
          fmt::format("service '{}' is registered twice", service));
    }
  };
  for (const std::string& service : ctx.services()) check_name(service);
  std::map<std::uint32_t, std::size_t> added;
  for (const SubscriptionSpec& spec : ctx.subscriptions()) {
    check_name(spec.service);
    if (!spec.handler)
      throw RegistrationError(
          fmt::format("subscription '{}' has no handler", spec.service));
    const std::uint32_t index = spec.type->index();
    const std::size_t existing =
        index < routes_.size() ? routes_[index].size() : 0;
    const std::size_t total = existing + ++added[index];
    if (static_cast<std::int64_t>(total) >
        config_.limit_subscriptions_per_event_type) {
      throw RegistrationError(
          fmt::format("{} would have {} subscriptions, past "
                      "limits.subscriptions_per_event_type = {}",
                      spec.type->name(), total,
                      config_.limit_subscriptions_per_event_type));
    }
  }

  auto make_site = [&](const std::string& service) -> InvocationSite& {
    InvocationSite& site = cr.service_sites[service];
    site.context = cr.name;
    site.context_runtime = &cr;
    site.log = cr.log;
    site.publisher_id = intern_publisher(service);
    site.owner = site.publisher_id;
    site.idempotency_scope = site.publisher_id;
    return site;
  };
  for (const std::string& service : ctx.services())
    services_.emplace(service, &make_site(service));
  for (SubscriptionSpec& spec : ctx.subscriptions()) {
    const EventType* type = spec.type;
    grow(type->index());
    InvocationSite& site = make_site(spec.service);
    auto& store = transport_->subscription_store(spec.service);
    auto& metrics = metrics_.subscription(spec.service, type->name());
    std::string name = spec.service;
    auto actor = std::make_unique<SubscriptionActor>(*this, std::move(spec),
                                                     site, store, metrics);
    auto& route = routes_[type->index()];
    // D11: delivery order is the qualified service name.
    auto at = std::lower_bound(route.begin(), route.end(), name,
                               [](SubscriptionActor* s, const std::string& n) {
                                 return s->spec().service < n;
                               });
    route.insert(at, actor.get());
    subscriptions_.emplace(std::move(name), std::move(actor));
  }
  contexts_.emplace(cr.name, std::move(owned));
}

}  // namespace herald
