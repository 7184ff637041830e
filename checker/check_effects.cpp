// Effects and roles: capability operations and whether the capability is
// given (or the body is pure), `Events.emit` and the emit rules, agent fns
// called from handlers, and the commit shapes built from a body's effects.
#include <algorithm>
#include <string>
#include <vector>

#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"

namespace herald::check {

using llvm::dyn_cast;

void Effects::addCap(const CapabilityInfo* cap, SourceRange at) {
  for (const auto& c : caps)
    if (c.first == cap) return;
  caps.emplace_back(cap, at);
}

void Effects::addEmit(const EventInfo* event) {
  if (std::find(emits.begin(), emits.end(), event) == emits.end())
    emits.push_back(event);
}

void Effects::addWrite(const StoreInfo* store) {
  if (std::find(writes.begin(), writes.end(), store) == writes.end())
    writes.push_back(store);
}

void Effects::addCallee(const FnInfo* fn) {
  if (std::find(callees.begin(), callees.end(), fn) == callees.end())
    callees.push_back(fn);
}

void Effects::addRequired(const DependencyInfo* item, const FnInfo* fn) {
  for (const auto& r : required)
    if (r.first == item) return;
  required.emplace_back(item, fn);
}

bool Effects::merge(const Effects& other) {
  std::size_t before = caps.size() + emits.size() + writes.size() +
                       sends.size() + callees.size() + required.size();
  for (const auto& c : other.caps) addCap(c.first, c.second);
  for (const auto& r : other.required) addRequired(r.first, r.second);
  for (const EventInfo* e : other.emits) addEmit(e);
  for (const StoreInfo* w : other.writes) addWrite(w);
  for (const FnInfo* f : other.callees) addCallee(f);
  for (const CommitShape::Message& m : other.sends) {
    bool seen = false;
    for (const CommitShape::Message& s : sends)
      if (s.range == m.range && s.handler == m.handler) seen = true;
    if (!seen) sends.push_back(m);
  }
  return caps.size() + emits.size() + writes.size() + sends.size() +
             callees.size() + required.size() !=
         before;
}

void finishShape(const Effects& effects, CommitShape& shape,
                 std::vector<const CapabilityInfo*>& caps) {
  shape.emits.assign(effects.emits.begin(), effects.emits.end());
  std::sort(shape.emits.begin(), shape.emits.end(),
            [](const EventInfo* a, const EventInfo* b) {
              return a->qualified < b->qualified;
            });
  shape.emits.erase(std::unique(shape.emits.begin(), shape.emits.end()),
                    shape.emits.end());
  shape.writes.assign(effects.writes.begin(), effects.writes.end());
  std::sort(shape.writes.begin(), shape.writes.end(),
            [](const StoreInfo* a, const StoreInfo* b) {
              return a->field.name < b->field.name;
            });
  shape.writes.erase(std::unique(shape.writes.begin(), shape.writes.end()),
                     shape.writes.end());
  shape.sends = effects.sends;
  // Source order: messages merged from agent fns sit where the fn is.
  std::stable_sort(
      shape.sends.begin(), shape.sends.end(),
      [](const CommitShape::Message& a, const CommitShape::Message& b) {
        if (a.range.file != b.range.file) return a.range.file < b.range.file;
        return a.range.begin < b.range.begin;
      });
  caps.clear();
  for (const auto& c : effects.caps) caps.push_back(c.first);
  std::sort(caps.begin(), caps.end(),
            [](const CapabilityInfo* a, const CapabilityInfo* b) {
              if (a->name != b->name) return a->name < b->name;
              return a->qualified < b->qualified;
            });
  caps.erase(std::unique(caps.begin(), caps.end()), caps.end());
}

bool BodyChecker::givenHere(const CapabilityInfo* cap) const {
  auto has = [cap](const std::vector<DependencyInfo>& given) {
    for (const DependencyInfo& d : given)
      if (d.type != nullptr && d.type->kind == TypeKind::Capability &&
          d.type->capability == cap)
        return true;
    return false;
  };
  return (handler_ != nullptr && has(handler_->given)) ||
         (service_ != nullptr && has(service_->given));
}

bool BodyChecker::givesNamed(const DependencyInfo& item) const {
  auto has = [&item](const std::vector<DependencyInfo>& given) {
    for (const DependencyInfo& d : given)
      if (d.named && d.name == item.name && d.type == item.type) return true;
    return false;
  };
  return (handler_ != nullptr && has(handler_->given)) ||
         (service_ != nullptr && has(service_->given));
}

void BodyChecker::reportNotGiven(const CapabilityInfo* cap, SourceRange at,
                                 const SourceRange* useInFn,
                                 const FnInfo* via) {
  if (std::find(reportedCaps_.begin(), reportedCaps_.end(), cap) !=
      reportedCaps_.end())
    return;
  reportedCaps_.push_back(cap);
  notGiven_.push_back(NotGiven{cap, nullptr, at,
                               useInFn != nullptr ? *useInFn : SourceRange{},
                               useInFn != nullptr ? via : nullptr, nullptr});
}

// Reported once the whole handler is checked, so that the fix-its of
// several missing capabilities are one edit of its `given` list: two
// insertions at the same place would conflict.
void BodyChecker::reportMissingCapabilities() {
  if (notGiven_.empty()) return;
  std::stable_sort(notGiven_.begin(), notGiven_.end(),
                   [](const NotGiven& a, const NotGiven& b) {
                     if (a.at.file != b.at.file) return a.at.file < b.at.file;
                     return a.at.begin < b.at.begin;
                   });
  auto spelling = [this](const CapabilityInfo* cap) {
    return cap->context == nullptr || cap->context == &context_
               ? cap->name
               : cap->qualified;
  };
  // What each adds to the handler's `given` list: a capability's name, or
  // an agent fn's named item as that fn writes it (same context).
  std::vector<std::string> names;
  for (const NotGiven& n : notGiven_)
    names.push_back(n.item != nullptr
                        ? std::string(sema().sources.textOf(n.item->range))
                        : spelling(n.cap));
  const ast::HandlerDecl* decl = handler_ != nullptr ? handler_->decl : nullptr;
  // A named item the handler gives under the same name but another type is
  // corrected in place; the others are inserted together.
  std::vector<const ast::GivenItem*> clash(notGiven_.size(), nullptr);
  std::vector<std::string> inserted;
  std::size_t carrier = notGiven_.size();
  for (std::size_t i = 0; i < notGiven_.size(); ++i) {
    if (notGiven_[i].item != nullptr && decl != nullptr)
      for (const ast::GivenItem& g : decl->given)
        if (!g.name.empty() && g.name.name == notGiven_[i].item->name)
          clash[i] = &g;
    if (clash[i] != nullptr) continue;
    inserted.push_back(names[i]);
    if (carrier == notGiven_.size()) carrier = i;
  }
  std::sort(inserted.begin(), inserted.end());
  std::string joined;
  for (const std::string& n : inserted)
    joined += (joined.empty() ? "" : ", ") + n;
  for (std::size_t i = 0; i < notGiven_.size(); ++i) {
    const NotGiven& n = notGiven_[i];
    auto report =
        n.item != nullptr
            ? sema().diags.report<diag::GivenNotPassed>(
                  n.at, handler_ != nullptr ? handler_->name : "",
                  n.callee->name, names[i])
            : sema().diags.report<diag::CapabilityNotGiven>(n.at, names[i]);
    if (n.item != nullptr)
      report.note(n.useInFn,
                  "'{}' declares it here; a handler that calls it must give "
                  "the same item",
                  n.via->name);
    else if (n.via != nullptr)
      report.note(n.useInFn,
                  "'{}' uses '{}' here; a handler that calls it must "
                  "give it",
                  n.via->name, names[i]);
    if (decl == nullptr) continue;
    const std::string& where = handler_->name;
    if (clash[i] != nullptr) {
      report.note(clash[i]->range, "'{}' gives '{}' with another type here",
                  where, n.item->name);
      report.fixit(clash[i]->range, names[i]);
      continue;
    }
    if (i != carrier) {
      report.note("the fix-it for '{}' adds it to the 'given' of '{}'",
                  names[carrier], where);
      continue;
    }
    bool several = inserted.size() > 1;
    if (!decl->given.empty()) {
      SourceRange last = decl->given.back().range;
      if (several)
        report.note("add them to the 'given' of '{}'", where);
      else
        report.note("add it to the 'given' of '{}'", where);
      report.fixit(SourceRange{last.file, last.end, last.end}, ", " + joined);
    } else if (decl->body != nullptr) {
      SourceRange body = decl->body->range;
      report.note("add 'given {}' to '{}'", joined, where);
      report.fixit(SourceRange{body.file, body.begin, body.begin},
                   "given " + joined + " ");
    }
  }
  notGiven_.clear();
}

void BodyChecker::useCapability(const CapabilityInfo* cap, SourceRange at,
                                bool viaDependency) {
  if (cap == nullptr) return;
  bool once = std::find(reportedCaps_.begin(), reportedCaps_.end(), cap) ==
              reportedCaps_.end();
  switch (role_) {
    case BodyRole::PureFn:
    case BodyRole::StoreInit:
    case BodyRole::FieldDefault:
      if (!once) return;
      reportedCaps_.push_back(cap);
      {
        auto report = sema().diags.report<diag::CapabilityInPureFn>(
            at, ownerName_, cap->name);
        if (role_ == BodyRole::StoreInit)
          report.note(
              "'{}' is a store's initial value, computed without "
              "capabilities; set it from a handler instead",
              ownerName_.str());
        else
          report.note(
              "context-level, static and service functions are "
              "pure; pass the value in as a parameter, or move this "
              "into a handler or an agent fn");
      }
      return;
    case BodyRole::Invariant:
      if (!once) return;
      reportedCaps_.push_back(cap);
      sema().diags.report<diag::ImpureInvariant>(
          at, ownerName_, "it uses capability '" + cap->name + "'");
      return;
    case BodyRole::AgentFn:
      effects_.addCap(cap, at);
      return;
    case BodyRole::Handler:
      effects_.addCap(cap, at);
      if (!viaDependency && !givenHere(cap))
        reportNotGiven(cap, at, nullptr, nullptr);
      return;
  }
}

void BodyChecker::callAgentFn(const FnInfo* callee, SourceRange at) {
  effects_.addCallee(callee);
  auto it = pass_.fnEffects.find(callee);
  if (it == pass_.fnEffects.end()) return;
  const Effects& summary = it->second;
  switch (role_) {
    case BodyRole::Handler: {
      // A capability reached through a named item is that item's to
      // report.
      auto throughItem = [&summary](const CapabilityInfo* cap) {
        for (const auto& r : summary.required)
          if (r.first->named && r.first->type != nullptr &&
              r.first->type->kind == TypeKind::Capability &&
              r.first->type->capability == cap)
            return true;
        return false;
      };
      for (const auto& [item, owner] : summary.required) {
        if (BodyChecker::quiet(item->type)) continue;
        if (item->named) {
          if (givesNamed(*item)) continue;
          bool seen = false;
          for (const NotGiven& n : notGiven_) seen |= n.item == item;
          if (!seen)
            notGiven_.push_back(
                NotGiven{nullptr, item, at, item->range, owner, callee});
        } else if (item->type->kind == TypeKind::Capability &&
                   !givenHere(item->type->capability)) {
          reportNotGiven(item->type->capability, at, &item->range, owner);
        }
      }
      for (const auto& c : summary.caps)
        if (!throughItem(c.first) && !givenHere(c.first))
          reportNotGiven(c.first, at, &c.second, callee);
      return;
    }
    case BodyRole::Invariant:
      if (!summary.caps.empty() || !summary.emits.empty() ||
          !summary.writes.empty() || !summary.sends.empty() ||
          !summary.required.empty())
        sema().diags.report<diag::ImpureInvariant>(
            at, ownerName_,
            "it calls '" + callee->name + "', which has effects");
      return;
    case BodyRole::PureFn:
    case BodyRole::StoreInit:
    case BodyRole::FieldDefault:
    case BodyRole::AgentFn:
      return;
  }
}

InstId BodyChecker::capabilityOp(const ast::Expr* e, const ast::CallExpr* call,
                                 const CapabilityInfo* cap,
                                 const ast::Ident& op, InstId reach,
                                 SourceRange capRange) {
  TypeTable& tt = types();
  bool viaDependency = reach.valid();
  if (cap == nullptr) {
    if (call != nullptr) return checkArgsQuietly(call);
    return invalid(e->range);
  }
  if (cap->firstParty == FirstParty::Events && op.name == "emit") {
    if (call != nullptr) return checkEmit(call, call->callee, nullptr);
    sema()
        .diags
        .report<diag::NotAValue>(e->range, "Events.emit",
                                 "a capability operation")
        .note("call it with the event to emit: 'Events.emit(E {{ ... }})'");
    return invalid(e->range);
  }
  const CapabilityOp* o = cap->op(op.name);
  if (o == nullptr) {
    std::vector<std::string> names;
    for (const CapabilityOp& other : cap->ops) names.push_back(other.name);
    auto report =
        sema().diags.report<diag::UnknownMethod>(op.range, cap->name, op.name);
    if (!names.empty())
      report.note("'{}' has {} {}", cap->name,
                  names.size() == 1 ? "operation" : "operations",
                  quotedList(names));
    std::string best = closestName(op.name, names);
    if (!best.empty()) {
      report.note("did you mean '{}'?", best);
      report.fixit(op.range, best);
    }
    if (call != nullptr) return checkArgsQuietly(call);
    return invalid(e->range);
  }
  useCapability(cap,
                call != nullptr && call->callee != nullptr ? call->callee->range
                                                           : e->range,
                viaDependency);
  const Type* result = o->sig.result != nullptr ? o->sig.result : tt.unit();
  if (!reach.valid())
    reach = emit(InstKind::CapabilityName, cap->type, capRange,
                 ir().capabilities.intern(cap).index());
  llvm::SmallVector<InstId, 4> args{reach};
  if (call != nullptr) {
    checkArgs(o->name, o->sig.params, call, args);
    return emit(InstKind::CapCall, result, call->range,
                ir().capOps.intern({cap, o}).index(), list(args));
  }
  if (!o->sig.params.empty()) {
    sema()
        .diags
        .report<diag::ArgumentCount>(
            e->range, o->name, static_cast<std::uint32_t>(o->sig.params.size()),
            0u)
        .note("only operations without parameters may omit '()'");
    return invalid(e->range, result);
  }
  return emit(InstKind::CapCall, result, e->range,
              ir().capOps.intern({cap, o}).index(), list(args));
}

InstId BodyChecker::checkEmit(const ast::CallExpr* call,
                              const ast::Expr* callee,
                              const ast::TypeApplyExpr* typeArg) {
  TypeTable& tt = types();
  const CapabilityInfo* events = nullptr;
  for (const auto& cap : pass_.sema.program.firstParty)
    if (cap->firstParty == FirstParty::Events) events = cap.get();
  useCapability(events, callee->range, false);
  const Type* explicitType = nullptr;
  if (typeArg != nullptr) {
    if (typeArg->typeArgs.size() != 1) {
      sema().diags.report<diag::TypeArgumentCount>(
          typeArg->range, "Events.emit", 1u,
          static_cast<std::uint32_t>(typeArg->typeArgs.size()));
      explicitType = tt.error();
    } else {
      explicitType = resolveType(sema(), context_, typeArg->typeArgs[0]);
      if (!quiet(explicitType) && explicitType->kind != TypeKind::Event) {
        sema()
            .diags
            .report<diag::EmitNotAnEvent>(typeArg->typeArgs[0]->range,
                                          displayName(explicitType))
            .note("only a type declared with 'event' can be emitted");
        explicitType = tt.error();
      }
    }
  }
  if (call->args.size() != 1) {
    sema().diags.report<diag::ArgumentCount>(
        call->range, "Events.emit", 1u,
        static_cast<std::uint32_t>(call->args.size()));
    return checkArgsQuietly(call, tt.unit());
  }
  const ast::Expr* value = call->args[0].value;
  InstId v = explicitType != nullptr && !quiet(explicitType)
                 ? checkAgainst(value, explicitType)
                 : checkUsed(value, nullptr);
  const Type* t = explicitType != nullptr ? explicitType  // reported if wrong
                                          : typeOf(v);
  if (quiet(t)) return invalid(call->range, tt.unit());
  // `Events.emit(fail(...))` emits nothing: the failure is the value.
  if (t->kind == TypeKind::Never) return v;
  // The most precise range: the event named by `[E]` or by the literal.
  SourceRange at = value->range;
  if (typeArg != nullptr)
    at = typeArg->typeArgs[0]->range;
  else if (const auto* lit =
               dyn_cast<ast::RecordLitExpr>(BodyChecker::stripParens(value)))
    if (lit->type != nullptr) at = lit->type->range;
  if (t->kind != TypeKind::Event) {
    auto report = sema().diags.report<diag::EmitNotAnEvent>(at, displayName(t));
    if (t->kind == TypeKind::Named && t->named->def == TypeDefKind::Record)
      report.note(t->named->nameRange,
                  "'{}' is a record type; declare it "
                  "with 'event {} = {{ ... }}' to emit it",
                  t->named->name, t->named->name);
    else
      report.note(
          "only a value of a type declared with 'event' can be "
          "emitted");
    return invalid(call->range, tt.unit());
  }
  const EventInfo* event = t->event;
  if (event->context != &context_) {
    std::string owner = event->context != nullptr ? event->context->name : "";
    sema()
        .diags.report<diag::EmitOutsideOwner>(at, event->name, owner)
        .note(event->nameRange,
              "'{}' is declared in context '{}'; only "
              "handlers of '{}' can emit it",
              event->name, owner, owner)
        .note(
            "emit an event declared in your own context '{}' instead, and "
            "subscribe to '{}' where you need to react to it",
            context_.name, event->name);
    return invalid(call->range, tt.unit());
  }
  effects_.addEmit(event);
  return emit(InstKind::Emit, tt.unit(), call->range,
              ir().events.intern(event).index(), v.index());
}

}  // namespace herald::check
