// The bodies pass: every fn, handler, store initialiser and invariant of
// every context. Agent fns go first so that their effects (closed over the
// agent fns they call, terminating on recursion) are known when a handler
// calls them; each handler's commit shape then merges them.
#include <llvm/ADT/DenseSet.h>
#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"

namespace herald::check {

namespace {

void checkAgentFn(BodyPass& pass, const ContextInfo& ctx,
                  const AgentInfo& agent, FnInfo& fn) {
  BodyChecker body(pass, ctx, BodyRole::AgentFn);
  body.agent = &agent;
  body.fn = &fn;
  body.ownerName = fn.name;
  body.params = fn.sig.params;
  if (fn.fn != nullptr) body.checkFnBody(fn.fn->body, fn.sig.result);
  pass.fnEffects[&fn] = std::move(body.effects);
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

void checkPureFn(BodyPass& pass, const ContextInfo& ctx, const FnInfo& fn,
                 const ServiceInfo* service) {
  if (fn.fn == nullptr) return;
  BodyChecker body(pass, ctx, BodyRole::PureFn);
  body.service = service;
  body.fn = &fn;
  body.ownerName = fn.name;
  body.params = fn.sig.params;
  body.checkFnBody(fn.fn->body, fn.sig.result);
}

void checkHandler(BodyPass& pass, const ContextInfo& ctx,
                  const AgentInfo* agent, const ServiceInfo* service,
                  HandlerInfo& handler) {
  BodyChecker body(pass, ctx, BodyRole::Handler);
  body.agent = agent;
  body.service = service;
  body.handler = &handler;
  body.ownerName = handler.name;
  body.params = handler.params;
  if (handler.decl != nullptr)
    body.checkFnBody(handler.decl->body, handler.result);
  Effects effects = std::move(body.effects);
  for (std::size_t i = 0; i < effects.callees.size(); ++i) {
    auto it = pass.fnEffects.find(effects.callees[i]);
    if (it == pass.fnEffects.end()) continue;
    Effects theirs = it->second;
    effects.merge(theirs);
  }
  finishShape(effects, handler.commit, handler.capabilitiesUsed);
}

void checkAgent(BodyPass& pass, const ContextInfo& ctx, AgentInfo& agent) {
  for (const StoreInfo& store : agent.stores) {
    if (store.init == nullptr) continue;
    BodyChecker body(pass, ctx, BodyRole::StoreInit);
    body.agent = &agent;
    body.ownerName = store.field.name;
    body.checkValueAgainst(store.init, store.field.type != nullptr
                                           ? store.field.type
                                           : pass.sema.program.types.error());
  }
  for (const InvariantInfo& inv : agent.invariants) {
    if (inv.condition == nullptr) continue;
    BodyChecker body(pass, ctx, BodyRole::Invariant);
    body.agent = &agent;
    body.ownerName = inv.name;
    TypeTable& tt = pass.sema.program.types;
    const Type* t = body.checkUsed(inv.condition, tt.boolType());
    if (!BodyChecker::quiet(t) && t->kind != TypeKind::Never &&
        BodyChecker::stripRefined(t) != tt.boolType())
      pass.sema.diags.report<diag::ImpureInvariant>(
          inv.condition->range, inv.name,
          "it has type '" + displayName(t) + "', not 'Bool'");
  }
  for (HandlerInfo& handler : agent.handlers)
    checkHandler(pass, ctx, &agent, nullptr, handler);
}

}  // namespace

void checkBodies(Sema& sema) {
  BodyPass pass{sema, llvm::DenseMap<const FnInfo*, Effects>()};
  for (const ast::File* file : sema.files)
    if (file != nullptr)
      sema.program.bodies.reserveFile(file->file, file->exprCount);
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
          const auto* fn = llvm::cast<FnInfo>(d);
          if (fn->agent == nullptr && checked.insert(fn).second)
            checkPureFn(pass, *ctx, *fn, fn->service);
          break;
        }
        case DeclInfoKind::Type:
          for (const FnInfo* fn : llvm::cast<TypeInfo>(d)->staticFns)
            if (fn != nullptr && checked.insert(fn).second)
              checkPureFn(pass, *ctx, *fn, nullptr);
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
        case DeclInfoKind::Actor:
        case DeclInfoKind::Capability:
          break;
      }
    }
}

}  // namespace herald::check
