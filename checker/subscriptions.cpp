// Events services: `from Events(E pattern?) via ...`. Resolves the event
// (unknown-subscription, with the `consumes` line that would make a hidden
// event visible), checks `via` and the pattern, fills
// ServiceInfo::subscription, and checks handler shapes (event_handlers.cpp).
#include <string>
#include <vector>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/lookup.h"
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

bool contains(SourceRange outer, SourceRange inner) {
  return outer.file == inner.file && outer.begin <= inner.begin &&
         inner.end <= outer.end;
}

// Where a new `consumes` line goes in the part of `ctx` that holds `at`:
// after its last `consumes` line, else after the context's opening line.
std::optional<FixIt> consumesFixIt(const Sema& sema, const ContextInfo& ctx,
                                   SourceRange at, llvm::StringRef target) {
  for (const ast::ContextDecl* part : ctx.parts) {
    if (part == nullptr || !contains(part->range, at)) continue;
    const ast::Decl* last = nullptr;
    for (const ast::Decl* d : part->decls)
      if (d != nullptr && d->kind == ast::DeclKind::Consumes) last = d;
    std::string line = fmt::format("consumes {}", target.str());
    if (last != nullptr)
      return FixIt{SourceRange{at.file, last->range.end, last->range.end},
                   "\n" + line};
    std::uint32_t nameEnd = part->name.range.end;
    if (!part->blockForm)
      return FixIt{SourceRange{at.file, nameEnd, nameEnd}, "\n\n" + line};
    std::string_view text = sema.sources.file(at.file).text();
    std::size_t brace = text.find('{', nameEnd);
    if (brace == std::string_view::npos || brace >= at.begin) return {};
    auto after = static_cast<std::uint32_t>(brace + 1);
    return FixIt{SourceRange{at.file, after, after}, "\n  " + line};
  }
  return {};
}

// Names of the events visible bare from `ctx`, for "did you mean".
std::vector<std::string> visibleEvents(const ContextInfo& ctx) {
  std::vector<std::string> names;
  auto addFrom = [&](const ContextInfo& c, const ConsumesInfo* through) {
    for (const auto& d : c.decls) {
      if (!llvm::isa<EventInfo>(d.get())) continue;
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
          if (const auto* event = llvm::dyn_cast<EventInfo>(found.decl))
            return event;
        notAnEvent(type.path, *found.decl);
        return nullptr;
      case LookupResult::Status::NotFound:
        notFound(type.path);
        return nullptr;
    }
    return nullptr;
  }

  void notAnEvent(const ast::QualifiedName& name, const DeclInfo& decl) {
    auto report = sema_.diags.report<diag::UnknownSubscription>(name.range,
                                                                written(name));
    report.note(decl.nameRange, "'{}' is {}, not an event", decl.name,
                withArticle(describeKind(decl.kind)));
    std::string closest =
        closestName(name.parts.back().name, visibleEvents(ctx_));
    if (!closest.empty()) report.note("did you mean '{}'?", closest);
  }

  void notFound(const ast::QualifiedName& name) {
    const ast::Ident& last = name.parts.back();
    auto report = sema_.diags.report<diag::UnknownSubscription>(name.range,
                                                                written(name));
    bool hinted = false;
    for (const auto& other : sema_.program.contexts) {
      if (other.get() == &ctx_) continue;
      const auto* event =
          llvm::dyn_cast_or_null<EventInfo>(other->lookup(last.name));
      if (event == nullptr) continue;
      const ConsumesInfo* consumed = nullptr;
      for (const ConsumesInfo& c : ctx_.consumes)
        if (c.target == other.get()) consumed = &c;
      if (consumed == nullptr) {
        report.note(event->nameRange,
                    "event '{}' is declared in context '{}', which '{}' does "
                    "not consume",
                    event->name, other->name, ctx_.name);
        report.note("add 'consumes {}' to make it visible", other->name);
        if (!hinted) {
          if (auto fix = consumesFixIt(sema_, ctx_, name.range, other->name))
            report.fixit(fix->range, fix->replacement);
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
    std::string closest = closestName(last.name, visibleEvents(ctx_));
    if (!closest.empty()) {
      report.note("did you mean '{}'?", closest);
      if (!hinted) report.fixit(last.range, closest);
    }
  }

  static std::string withArticle(llvm::StringRef noun) {
    bool vowel = !noun.empty() && llvm::StringRef("aeiou").contains(noun[0]);
    return fmt::format("{} {}", vowel ? "an" : "a", noun.str());
  }

  Sema& sema_;
  const ContextInfo& ctx_;
};

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
}

}  // namespace herald::check
