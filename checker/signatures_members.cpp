// Pass 3, agents and services: key and store types, handler parameters and
// results, `by` actors, `given` dependencies, member fn signatures.
#include <algorithm>
#include <string>
#include <vector>

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "checker/lookup.h"
#include "checker/names_util.h"
#include "checker/record_use.h"
#include "checker/signatures_util.h"

namespace herald::check {

namespace {

void resolveBy(Sema& sema, const ContextInfo& ctx, const ast::ByClause& by,
               HandlerInfo& handler) {
  handler.byBinder = by.binder.name.str();
  llvm::ArrayRef<ast::Ident> parts = by.actor.parts;
  if (parts.empty()) return;
  LookupResult r = lookupDecl(sema.program, ctx, parts);
  if (r.status != LookupResult::Status::Found || r.partsUsed != parts.size()) {
    reportUnresolved(sema, ctx, r, parts, by.actor.range, "actor");
    return;
  }
  recordDeclUse(sema.program, parts, r.decl);
  if (const auto* actor = llvm::dyn_cast<ActorInfo>(r.decl)) {
    handler.by = actor;
    return;
  }
  const std::string name = joinName(parts);
  sema.diags.report<diag::UnknownActor>(by.actor.range, name)
      .note(r.decl->nameRange, "'{}' is {}, not an actor", name,
            describeWithArticle(r.decl->kind));
}

const char* const kGivenForms =
    "`given` lists capabilities (`Logger`, `fx.Converter`) and named "
    "dependencies `Name: Ref[Agent]` or `Name: Capability`";

// A bare `given` item: a capability by name.
DependencyInfo givenCapability(Sema& sema, const ContextInfo& ctx,
                               const ast::GivenItem& item) {
  DependencyInfo dep;
  dep.range = item.range;
  dep.type = sema.program.types.error();
  llvm::ArrayRef<ast::Ident> parts = plainPath(item.type);
  if (parts.empty()) {
    if (item.type != nullptr && item.type->kind == ast::TypeExprKind::Path &&
        !item.type->path.parts.empty()) {
      dep.name = item.type->path.parts.back().name.str();
      sema.diags.report<diag::BadGiven>(
          item.type->range,
          fmt::format("'{}' is not a capability; {}",
                      sema.sources.textOf(item.type->range), kGivenForms));
    } else if (item.type != nullptr &&
               item.type->kind == ast::TypeExprKind::Unit) {
      sema.diags.report<diag::BadGiven>(
          item.type->range,
          fmt::format("'()' is not a capability; {}", kGivenForms));
    }
    return dep;
  }
  dep.name = parts.back().name.str();
  LookupResult r = lookupDecl(sema.program, ctx, parts);
  if (r.status != LookupResult::Status::Found || r.partsUsed != parts.size()) {
    reportUnresolved(sema, ctx, r, parts, item.type->range, "capability");
    return dep;
  }
  recordDeclUse(sema.program, parts, r.decl);
  if (const auto* cap = llvm::dyn_cast<CapabilityInfo>(r.decl)) {
    dep.name = cap->name;
    dep.type = sema.program.types.capability(cap);
    return dep;
  }
  auto report = sema.diags.report<diag::BadGiven>(
      item.type->range,
      fmt::format("'{}' is {}, not a capability; {}", joinName(parts),
                  describeWithArticle(r.decl->kind), kGivenForms));
  if (r.decl->kind == DeclInfoKind::Agent)
    report.note("to message '{}' agents, write 'Name: Ref[{}]'", r.decl->name,
                joinName(parts));
  return dep;
}

// `Name: Type`: the type must be a Ref[Agent] or a capability.
DependencyInfo givenNamed(Sema& sema, const ContextInfo& ctx,
                          const ast::GivenItem& item) {
  DependencyInfo dep;
  dep.name = item.name.name.str();
  dep.named = true;
  dep.range = item.range;
  const Type* type = resolveType(sema, ctx, item.type);
  if (type->kind == TypeKind::Ref || type->kind == TypeKind::Capability ||
      !isWellFormed(type)) {
    dep.type = type;
    return dep;
  }
  dep.type = sema.program.types.error();
  sema.diags.report<diag::BadGiven>(
      item.type != nullptr ? item.type->range : item.range,
      fmt::format("dependency '{}' has type '{}'; {}", dep.name,
                  displayName(type), kGivenForms));
  return dep;
}

std::vector<DependencyInfo> resolveGiven(Sema& sema, const ContextInfo& ctx,
                                         llvm::ArrayRef<ast::GivenItem> items) {
  std::vector<DependencyInfo> out;
  out.reserve(items.size());
  // Where each kept dependency's name is written, for duplicate notes.
  llvm::SmallVector<SourceRange, 8> written;
  for (const ast::GivenItem& item : items) {
    DependencyInfo dep = item.name.empty() ? givenCapability(sema, ctx, item)
                                           : givenNamed(sema, ctx, item);
    if (dep.name.empty()) continue;
    const SourceRange at = item.name.empty() && item.type != nullptr
                               ? item.type->range
                               : item.name.range;
    auto same = std::find_if(
        out.begin(), out.end(),
        [&](const DependencyInfo& d) { return d.name == dep.name; });
    if (same != out.end()) {
      reportDuplicateMember(
          sema, "dependency", dep.name, at,
          written[static_cast<std::size_t>(same - out.begin())]);
      continue;
    }
    out.push_back(std::move(dep));
    written.push_back(at);
  }
  return out;
}

void resolveHandler(Sema& sema, const ContextInfo& ctx, HandlerInfo& handler) {
  const ast::HandlerDecl* decl = handler.decl;
  if (decl == nullptr) {
    handler.result = sema.program.types.error();
    return;
  }
  handler.params = resolveParams(sema, ctx, decl->params);
  handler.result = decl->returnType != nullptr
                       ? resolveValueType(sema, ctx, decl->returnType)
                       : sema.program.types.unit();
  if (decl->by != nullptr) resolveBy(sema, ctx, *decl->by, handler);
  handler.given = resolveGiven(sema, ctx, decl->given);
}

void resolveMemberFn(Sema& sema, const ContextInfo& ctx, FnInfo& fn) {
  if (fn.fn == nullptr) {
    fn.sig.result = sema.program.types.error();
    return;
  }
  fn.sig = resolveSignature(sema, ctx, fn.fn->params, fn.fn->returnType);
  if (fn.agent != nullptr)
    fn.given = resolveGiven(sema, ctx, fn.fn->given);
  else
    reportGivenOnPureFn(sema, fn);
}

}  // namespace

void reportGivenOnPureFn(Sema& sema, const FnInfo& fn) {
  if (fn.fn == nullptr || fn.fn->given.empty()) return;
  const ast::GivenItem& first = fn.fn->given.front();
  SourceRange at = SourceRange::join(first.range, fn.fn->given.back().range);
  const char* where = fn.service != nullptr       ? "a service's fns"
                      : !fn.fn->ownerType.empty() ? "static fns"
                                                  : "context-level fns";
  sema.diags.report<diag::GivenOnPureFn>(at, fn.name)
      .note(
          "{} use no capabilities, stores or messages; pass what it needs as "
          "parameters, or make it an agent fn called from a handler that "
          "gives them",
          where);
}

void resolveAgentSignatures(Sema& sema, AgentInfo& agent) {
  const auto* decl = llvm::dyn_cast_or_null<ast::AgentDecl>(agent.decl);
  if (decl == nullptr || agent.context == nullptr) return;
  const ContextInfo& ctx = *agent.context;
  // Collect kept the first key and every named store, in member order.
  bool keyDone = false;
  std::size_t store = 0;
  for (const ast::Decl* m : decl->members) {
    if (const auto* k = llvm::dyn_cast_or_null<ast::KeyDecl>(m)) {
      if (k->name.empty() || keyDone || !agent.key) continue;
      keyDone = true;
      agent.key->type = resolveValueType(sema, ctx, k->type);
    } else if (const auto* s = llvm::dyn_cast_or_null<ast::StoreDecl>(m)) {
      if (s->name.empty() || store >= agent.stores.size()) continue;
      agent.stores[store++].field.type = resolveValueType(sema, ctx, s->type);
    }
  }
  // Every field type is set after this pass, even where the AST was cut.
  if (agent.key && agent.key->type == nullptr)
    agent.key->type = sema.program.types.error();
  for (StoreInfo& s : agent.stores)
    if (s.field.type == nullptr) s.field.type = sema.program.types.error();
  for (HandlerInfo& h : agent.handlers) resolveHandler(sema, ctx, h);
  for (const auto& fn : agent.fns) resolveMemberFn(sema, ctx, *fn);
}

void resolveServiceSignatures(Sema& sema, ServiceInfo& service) {
  const auto* decl = llvm::dyn_cast_or_null<ast::ServiceDecl>(service.decl);
  if (decl == nullptr || service.context == nullptr) return;
  const ContextInfo& ctx = *service.context;
  service.given = resolveGiven(sema, ctx, decl->given);
  for (HandlerInfo& h : service.handlers) resolveHandler(sema, ctx, h);
  for (const auto& fn : service.fns) resolveMemberFn(sema, ctx, *fn);
}

}  // namespace herald::check
