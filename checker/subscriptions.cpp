// Events services: `from Events(E pattern?) via ...`. Resolves the event
// (unknown-subscription, with the `consumes` line that would make a hidden
// event visible), checks `via` and the pattern, fills
// ServiceInfo::subscription, and checks handler shapes (event_handlers.cpp)
// and the number of subscriptions per event.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/Support/Casting.h>

#include "checker/consumes_hint.h"
#include "checker/lookup.h"
#include "checker/record_use.h"
#include "checker/sema.h"
#include "checker/subscription_check.h"

namespace herald::check {

namespace {

std::string written(const ast::QualifiedName& n) {
  std::string out;
  for (const ast::Ident& part : n.parts) {
    if (!out.empty()) out += '.';
    out += part.name.str();
  }
  return out;
}

// Names of the events visible bare from `ctx`, and of aliases of events,
// for "did you mean".
std::vector<std::string> visibleEvents(const ContextInfo& ctx) {
  std::vector<std::string> names;
  auto addFrom = [&](const ContextInfo& c, const ConsumesInfo* through) {
    for (const auto& d : c.decls) {
      const auto* alias = llvm::dyn_cast<TypeInfo>(d.get());
      const bool eventAlias =
          alias != nullptr && alias->def == TypeDefKind::Alias &&
          alias->type != nullptr && alias->type->kind == TypeKind::Event;
      if (!llvm::isa<EventInfo>(d.get()) && !eventAlias) continue;
      if (through != nullptr && through->restricted) {
        bool listed = false;
        for (const std::string& n : through->only) listed |= n == d->name;
        if (!listed) continue;
      }
      names.push_back(d->name);
    }
  };
  addFrom(ctx, nullptr);
  for (const ConsumesInfo& c : ctx.consumes)
    if (c.target != nullptr) addFrom(*c.target, &c);
  return names;
}

class SubscriptionChecker {
 public:
  SubscriptionChecker(Sema& sema, const ContextInfo& ctx)
      : sema_(sema), ctx_(ctx) {}

  void service(ServiceInfo& service, const ast::ServiceDecl& decl) {
    const ast::Subscription& from = *decl.from;
    SubscriptionInfo info;
    info.syntax = &from;
    if (!from.source.empty() && from.source.name != "Events") {
      // `Events` is the one subscription source; anything else is a word
      // the grammar only accepts so this message can name the fix.
      sema_.diags
          .report<diag::UnexpectedToken>(
              from.source.range, "'Events'",
              fmt::format("identifier '{}'", from.source.name.str()))
          .note("a service subscribes to events with 'from Events(E)'")
          .fixit(from.source.range, "Events");
    }
    std::string eventWritten;
    SourceRange eventRange = from.range;
    if (from.eventType != nullptr) {
      eventWritten = std::string(sema_.sources.textOf(from.eventType->range));
      eventRange = from.eventType->range;
      info.event = resolveEvent(*from.eventType);
    }
    if (from.via != nullptr) info.via = checkVia(sema_, *from.via);
    if (from.pattern != nullptr) {
      info.patternText = patternText(sema_.sources, from.pattern);
      if (info.event != nullptr)
        info.predicate = checkSubscriptionPattern(sema_, ctx_, *info.event,
                                                  *from.pattern, eventRange);
    }
    const EventInfo* event = info.event;
    service.subscription = std::move(info);
    checkEventServiceHandlers(sema_, service, decl, event, eventWritten);
  }

 private:
  const EventInfo* resolveEvent(const ast::TypeExpr& type) {
    if (type.kind != ast::TypeExprKind::Path || type.path.parts.empty())
      return nullptr;
    for (const ast::Ident& part : type.path.parts)
      if (part.empty()) return nullptr;
    if (!type.args.empty()) {
      sema_.diags.report<diag::TypeArgumentCount>(
          SourceRange::join(type.args.front()->range, type.args.back()->range),
          written(type.path), 0U, static_cast<std::uint32_t>(type.args.size()));
    }
    LookupResult found = lookupDecl(sema_.program, ctx_, type.path.parts);
    switch (found.status) {
      case LookupResult::Status::Ambiguous:
        // Reports the candidates.
        (void)resolveDecl(sema_, ctx_, type.path, "event");
        return nullptr;
      case LookupResult::Status::Found:
        if (found.partsUsed == type.path.parts.size())
          if (const EventInfo* event = eventOf(*found.decl)) {
            recordDeclUse(sema_.program, type.path.parts, found.decl);
            return event;
          }
        notAnEvent(type.path, *found.decl);
        return nullptr;
      case LookupResult::Status::NotFound:
        notFound(type.path);
        return nullptr;
    }
    return nullptr;
  }

  // The event `decl` names: an event, or an alias of one (aliases are
  // transparent, so `type Paid = PaymentConfirmed` subscribes to
  // PaymentConfirmed). Null for anything else, and for an alias whose
  // target did not resolve (reported where the alias is declared).
  static const EventInfo* eventOf(const DeclInfo& decl) {
    if (const auto* event = llvm::dyn_cast<EventInfo>(&decl)) return event;
    const auto* alias = llvm::dyn_cast<TypeInfo>(&decl);
    if (alias == nullptr || alias->def != TypeDefKind::Alias) return nullptr;
    if (alias->type == nullptr || alias->type->kind != TypeKind::Event)
      return nullptr;
    return alias->type->event;
  }

  // An alias whose target is unresolved has been reported already.
  static bool brokenAlias(const DeclInfo& decl) {
    const auto* alias = llvm::dyn_cast<TypeInfo>(&decl);
    return alias != nullptr && alias->def == TypeDefKind::Alias &&
           (alias->type == nullptr || !isWellFormed(alias->type));
  }

  void notAnEvent(const ast::QualifiedName& name, const DeclInfo& decl) {
    if (brokenAlias(decl)) return;
    auto report = sema_.diags.report<diag::UnknownSubscription>(name.range,
                                                                written(name));
    report.note(decl.nameRange, "'{}' is {}, not an event", decl.name,
                withArticle(describeKind(decl.kind)));
    std::string closest = suggestEvent(name.parts.back().name);
    if (!closest.empty()) report.note("did you mean '{}'?", closest);
  }

  // The `consumes` line of `ctx_` that targets `other`, or null.
  const ConsumesInfo* consumesLineFor(const ContextInfo* other) const {
    const ConsumesInfo* consumed = nullptr;
    for (const ConsumesInfo& c : ctx_.consumes)
      if (c.target == other) consumed = &c;
    return consumed;
  }

  void notFound(const ast::QualifiedName& name) {
    const ast::Ident& last = name.parts.back();
    // Only a bare name can be hidden: a qualified one names its context
    // whether or not it is consumed. declsNamed holds just the contexts
    // declaring the name, so this does not scan every context.
    auto named = sema_.program.declsNamed.find(last.name);
    llvm::ArrayRef<DeclInfo*> sameName;
    if (name.parts.size() == 1 && named != sema_.program.declsNamed.end())
      sameName = named->second;
    for (const DeclInfo* d : sameName)
      if (llvm::isa<EventInfo>(d) && d->context != nullptr &&
          d->context != &ctx_ && consumesLineFor(d->context) == nullptr &&
          missingConsumesReported(sema_, ctx_, *d->context))
        return;
    auto report = sema_.diags.report<diag::UnknownSubscription>(name.range,
                                                                written(name));
    bool hinted = false;
    // An event declared in many contexts would otherwise get notes for
    // each.
    constexpr std::size_t kMaxContextsNoted = 3;
    std::size_t noted = 0;
    for (const DeclInfo* d : sameName) {
      const auto* event = llvm::dyn_cast<EventInfo>(d);
      const ContextInfo* other = d->context;
      if (event == nullptr || other == nullptr || other == &ctx_) continue;
      if (++noted > kMaxContextsNoted) break;
      const ConsumesInfo* consumed = consumesLineFor(other);
      if (consumed == nullptr) {
        report.note(event->nameRange,
                    "event '{}' is declared in context '{}', which '{}' does "
                    "not consume",
                    event->name, other->name, ctx_.name);
        report.note("add 'consumes {}' to make it visible, or write '{}'",
                    other->name, event->qualified);
        if (!hinted) {
          if (auto fix = consumesFixIt(sema_, ctx_, name.range, other->name))
            report.fixit(fix->range, fix->replacement);
          recordMissingConsumes(sema_, ctx_, *other);
        }
        hinted = true;
      } else if (consumed->restricted && consumed->decl != nullptr) {
        report.note(event->nameRange, "event '{}' is declared in context '{}'",
                    event->name, other->name);
        report.note(consumed->decl->range,
                    "this 'consumes' line lists the names it makes visible; "
                    "add '{}' to it",
                    event->name);
        if (!hinted && !consumed->decl->only.empty()) {
          std::uint32_t end = consumed->decl->only.back().range.end;
          report.fixit(SourceRange{consumed->decl->range.file, end, end},
                       fmt::format(", {}", event->name));
        }
        hinted = true;
      }
    }
    std::string closest = suggestEvent(last.name);
    if (!closest.empty()) {
      report.note("did you mean '{}'?", closest);
      if (!hinted) report.fixit(last.range, closest);
    }
  }

  std::string suggestEvent(llvm::StringRef name) {
    if (!sema_.speller.admit()) return {};
    return sema_.speller.closest(name, visibleEvents(ctx_));
  }

  static std::string withArticle(llvm::StringRef noun) {
    bool vowel = !noun.empty() && llvm::StringRef("aeiou").contains(noun[0]);
    return fmt::format("{} {}", vowel ? "an" : "a", noun.str());
  }

  Sema& sema_;
  const ContextInfo& ctx_;
};

// The runtime's limit on subscriptions per event type (runtime D10).
constexpr std::uint32_t kMaxSubscriptionsPerEvent = 512;

// too-many-subscriptions: reported once per event, at the first
// subscription past the limit in the runtime's serving order (qualified
// service name), so the program is rejected before the runtime refuses it.
void checkSubscriptionCounts(Sema& sema) {
  llvm::DenseMap<const EventInfo*, std::vector<const ServiceInfo*>> byEvent;
  for (const auto& ctx : sema.program.contexts)
    for (const auto& d : ctx->decls)
      if (const auto* service = llvm::dyn_cast<ServiceInfo>(d.get()))
        if (service->subscription && service->subscription->event != nullptr)
          byEvent[service->subscription->event].push_back(service);
  std::vector<const EventInfo*> over;
  for (const auto& [event, services] : byEvent)
    if (services.size() > kMaxSubscriptionsPerEvent) over.push_back(event);
  // DenseMap order is not deterministic; diagnostics are sorted anyway, but
  // each report must pick the same subscription every run.
  for (const EventInfo* event : over) {
    std::vector<const ServiceInfo*>& services = byEvent[event];
    std::sort(services.begin(), services.end(),
              [](const ServiceInfo* a, const ServiceInfo* b) {
                return a->qualified < b->qualified;
              });
    const ServiceInfo* first = services[kMaxSubscriptionsPerEvent];
    const ast::Subscription* syntax = first->subscription->syntax;
    SourceRange at = syntax != nullptr && syntax->eventType != nullptr
                         ? syntax->eventType->range
                         : first->nameRange;
    sema.diags
        .report<diag::TooManySubscriptions>(
            at, event->qualified, static_cast<std::uint32_t>(services.size()),
            kMaxSubscriptionsPerEvent)
        .note(event->nameRange, "event '{}' is declared here", event->name)
        .note(
            "service '{}' is the first past the limit; merge subscribers "
            "that do the same work, or subscribe to narrower events",
            first->qualified);
  }
}

}  // namespace

void checkSubscriptions(Sema& sema) {
  for (const auto& ctx : sema.program.contexts) {
    SubscriptionChecker checker(sema, *ctx);
    for (const auto& d : ctx->decls) {
      if (auto* service = llvm::dyn_cast<ServiceInfo>(d.get())) {
        const auto* decl =
            llvm::dyn_cast_or_null<ast::ServiceDecl>(service->decl);
        if (decl == nullptr) continue;
        if (decl->from != nullptr) {
          checker.service(*service, *decl);
        } else {
          rejectEventHandlers(sema, *service, *decl);
        }
      } else if (const auto* agent = llvm::dyn_cast<AgentInfo>(d.get())) {
        if (const auto* decl =
                llvm::dyn_cast_or_null<ast::AgentDecl>(agent->decl))
          rejectEventHandlers(sema, *agent, *decl);
      }
    }
  }
  checkSubscriptionCounts(sema);
}

}  // namespace herald::check
