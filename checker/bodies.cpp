// The bodies pass: every fn, handler, store initialiser, invariant and
// event field default of every context, each lowered to one body of the
// body IR. Agent fns go first so that their effects (closed over the agent
// fns they call, terminating on recursion) are known when a handler calls
// them; each handler's commit shape then merges them.
#include <llvm/ADT/DenseSet.h>
#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"
#include "checker/event_defaults.h"

namespace herald::check {

namespace {

void checkAgentFn(BodyPass& pass, const ContextInfo& ctx,
                  const AgentInfo& agent, FnInfo& fn) {
  Effects effects;
  if (fn.fn != nullptr) {
    BodyChecker body(pass, ctx, BodySite{BodyOwner(fn), &agent});
    fn.body = body.checkFn(fn.fn->body, fn.sig.result, fn.fn->range.file);
    effects = body.takeEffects();
  }
  for (const DependencyInfo& item : fn.given) effects.addRequired(&item, &fn);
  pass.fnEffects[&fn] = std::move(effects);
}

// Agent fns may call each other (even recursively): iterate to a fixpoint.
// Each round only adds, and the sets are bounded, so this terminates.
void closeAgentFns(BodyPass& pass, llvm::ArrayRef<FnInfo*> fns) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (FnInfo* fn : fns) {
      Effects& mine = pass.fnEffects[fn];
      for (std::size_t i = 0; i < mine.callees.size(); ++i) {
        const FnInfo* callee = mine.callees[i];
        if (callee == fn) continue;
        auto it = pass.fnEffects.find(callee);
        if (it == pass.fnEffects.end()) continue;
        Effects theirs = it->second;
        changed |= pass.fnEffects[fn].merge(theirs);
      }
    }
  }
  for (FnInfo* fn : fns)
    finishShape(pass.fnEffects[fn], fn->commit, fn->capabilitiesUsed);
}

void checkPureFn(BodyPass& pass, const ContextInfo& ctx, FnInfo& fn,
                 const ServiceInfo* service) {
  if (fn.fn == nullptr) return;
  BodyChecker body(pass, ctx, BodySite{BodyOwner(fn), nullptr, service});
  fn.body = body.checkFn(fn.fn->body, fn.sig.result, fn.fn->range.file);
}

void checkHandler(BodyPass& pass, const ContextInfo& ctx,
                  const AgentInfo* agent, const ServiceInfo* service,
                  HandlerInfo& handler) {
  Effects effects;
  if (handler.decl != nullptr) {
    BodyChecker body(pass, ctx, BodySite{BodyOwner(handler), agent, service});
    handler.body = body.checkFn(handler.decl->body, handler.result,
                                handler.decl->range.file);
    effects = body.takeEffects();
  }
  for (std::size_t i = 0; i < effects.callees.size(); ++i) {
    auto it = pass.fnEffects.find(effects.callees[i]);
    if (it == pass.fnEffects.end()) continue;
    Effects theirs = it->second;
    effects.merge(theirs);
  }
  finishShape(effects, handler.commit, handler.capabilitiesUsed);
}

void checkAgent(BodyPass& pass, const ContextInfo& ctx, AgentInfo& agent) {
  for (StoreInfo& store : agent.stores) {
    if (store.init == nullptr) continue;
    BodyChecker body(pass, ctx, BodySite{BodyOwner(store), &agent});
    store.body = body.checkValue(store.init,
                                 store.field.type != nullptr
                                     ? store.field.type
                                     : pass.sema.program.types.error(),
                                 store.init->range.file);
  }
  for (InvariantInfo& inv : agent.invariants) {
    if (inv.condition == nullptr) continue;
    BodyChecker body(pass, ctx, BodySite{BodyOwner(inv), &agent});
    inv.body = body.checkInvariant(inv.condition, inv.condition->range.file);
  }
  for (HandlerInfo& handler : agent.handlers)
    checkHandler(pass, ctx, &agent, nullptr, handler);
}

// Each default is checked as an expression of the field's type, then
// settled from its lowered body (event_defaults.cpp).
void checkEventDefaults(BodyPass& pass, const ContextInfo& ctx,
                        EventInfo& event) {
  for (FieldInfo& field : event.fields) {
    if (field.defaultExpr == nullptr || !isWellFormed(field.type)) continue;
    const std::size_t mark = pass.sema.diags.diagnostics().size();
    BodyChecker body(pass, ctx,
                     BodySite{BodyOwner(field), nullptr, nullptr, &event});
    field.defaultBody = body.checkValue(field.defaultExpr, field.type,
                                        field.defaultExpr->range.file);
    const InstId root = pass.sema.program.bodies[field.defaultBody].root;
    settleEventDefault(pass.sema, event, field, root, mark);
  }
}

}  // namespace

void checkBodies(Sema& sema) {
  BodyPass pass{sema, llvm::DenseMap<const FnInfo*, Effects>()};
  // About one instruction per expression, and as many operand words.
  std::size_t exprs = 0;
  for (const ast::File* file : sema.files)
    if (file != nullptr) exprs += file->exprCount;
  BodyIr& ir = sema.program.bodies;
  ir.insts.reserve(exprs + exprs / 8);
  ir.locs.reserve(exprs + exprs / 8);
  ir.operands.reserve(exprs);
  // Agent fns first, per agent (an agent fn only calls its own agent's).
  for (const auto& ctx : sema.program.contexts)
    for (const auto& decl : ctx->decls)
      if (auto* agent = llvm::dyn_cast<AgentInfo>(decl.get())) {
        llvm::SmallVector<FnInfo*, 8> fns;
        for (const auto& fn : agent->fns) {
          checkAgentFn(pass, *ctx, *agent, *fn);
          fns.push_back(fn.get());
        }
        closeAgentFns(pass, fns);
      }
  llvm::DenseSet<const FnInfo*> checked;
  for (const auto& ctx : sema.program.contexts)
    for (const auto& decl : ctx->decls) {
      DeclInfo* d = decl.get();
      switch (d->kind) {
        case DeclInfoKind::Fn: {
          auto* fn = llvm::cast<FnInfo>(d);
          if (fn->agent == nullptr && checked.insert(fn).second)
            checkPureFn(pass, *ctx, *fn, fn->service);
          break;
        }
        // A static fn `fn T.x` is a declaration of its context (outside its
        // namespace), checked as the Fn case above.
        case DeclInfoKind::Type:
          break;
        case DeclInfoKind::Agent:
          checkAgent(pass, *ctx, *llvm::cast<AgentInfo>(d));
          break;
        case DeclInfoKind::Service: {
          auto* service = llvm::cast<ServiceInfo>(d);
          for (const auto& fn : service->fns)
            if (checked.insert(fn.get()).second)
              checkPureFn(pass, *ctx, *fn, service);
          for (HandlerInfo& handler : service->handlers)
            checkHandler(pass, *ctx, nullptr, service, handler);
          break;
        }
        case DeclInfoKind::Event:
          checkEventDefaults(pass, *ctx, *llvm::cast<EventInfo>(d));
          break;
        case DeclInfoKind::Actor:
        case DeclInfoKind::Capability:
          break;
      }
    }
}

}  // namespace herald::check
