// Pass 3: every signature. Type definitions (aliases seen through, cycles
// reported), fields, variants, actor parameters, capability operations,
// fn signatures and static fns attached to their types; agent and service
// members are in signatures_members.cpp.
#include <string>
#include <vector>

#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Casting.h>

#include "checker/lookup.h"
#include "checker/names_util.h"
#include "checker/sema.h"
#include "checker/signatures_util.h"

namespace herald::check {

std::vector<FieldInfo> resolveFields(Sema& sema, const ContextInfo& ctx,
                                     llvm::ArrayRef<ast::FieldDecl> fields,
                                     bool keepDefaults) {
  std::vector<FieldInfo> out;
  out.reserve(fields.size());
  FirstSeen seen;
  for (const ast::FieldDecl& f : fields) {
    if (f.name.empty()) continue;
    const SourceRange* first = seen.insert(f.name.name, f.name.range);
    if (first != nullptr) {
      reportDuplicateMember(sema, "field", f.name.name, f.name.range, *first);
      continue;
    }
    FieldInfo info;
    info.name = f.name.name.str();
    // Event fields keep a capability type so that
    // event-field-not-serialisable can say why it is wrong there.
    info.type = keepDefaults ? resolveType(sema, ctx, f.type)
                             : resolveValueType(sema, ctx, f.type);
    info.range = f.range;
    info.nameRange = f.name.range;
    if (keepDefaults) info.defaultExpr = f.defaultValue;
    out.push_back(std::move(info));
  }
  return out;
}

std::vector<FieldInfo> resolveParams(Sema& sema, const ContextInfo& ctx,
                                     llvm::ArrayRef<ast::Param> params) {
  std::vector<FieldInfo> out;
  out.reserve(params.size());
  FirstSeen seen;
  for (const ast::Param& p : params) {
    if (!p.name.empty()) {
      const SourceRange* first = seen.insert(p.name.name, p.name.range);
      if (first != nullptr)
        reportDuplicateMember(sema, "parameter", p.name.name, p.name.range,
                              *first);
    }
    FieldInfo info;
    info.name = p.name.name.str();
    info.type = resolveValueType(sema, ctx, p.type);
    info.range = p.range;
    info.nameRange = p.name.range;
    out.push_back(std::move(info));
  }
  return out;
}

FnSignature resolveSignature(Sema& sema, const ContextInfo& ctx,
                             llvm::ArrayRef<ast::Param> params,
                             const ast::TypeExpr* result) {
  FnSignature sig;
  sig.params = resolveParams(sema, ctx, params);
  sig.result = result != nullptr ? resolveValueType(sema, ctx, result)
                                 : sema.program.types.unit();
  return sig;
}

namespace {

void resolveTypeDecl(Sema& sema, const ContextInfo& ctx, TypeInfo& info) {
  const auto* decl = llvm::dyn_cast_or_null<ast::TypeDecl>(info.decl);
  if (decl == nullptr) return;
  switch (info.def) {
    case TypeDefKind::Record:
      info.fields = resolveFields(sema, ctx, decl->fields, false);
      return;
    case TypeDefKind::Sum: {
      FirstSeen seen;
      for (const ast::VariantDecl& v : decl->variants) {
        if (v.name.empty()) continue;
        const SourceRange* first = seen.insert(v.name.name, v.name.range);
        if (first != nullptr) {
          reportDuplicateMember(sema, "variant", v.name.name, v.name.range,
                                *first);
          continue;
        }
        VariantInfo variant;
        variant.name = v.name.name.str();
        variant.index = static_cast<std::uint32_t>(info.variants.size());
        variant.fields = resolveFields(sema, ctx, v.fields, false);
        variant.nameRange = v.name.range;
        info.variants.push_back(std::move(variant));
      }
      return;
    }
    case TypeDefKind::Opaque:
    case TypeDefKind::Refined:
      resolveBase(sema, info);
      return;
    case TypeDefKind::Alias:
      resolveAlias(sema, info);
      return;
  }
}

// `fn T.name`: T is a type of the same context; the fn joins its statics.
void attachStatic(Sema& sema, ContextInfo& ctx, FnInfo& fn) {
  const ast::Ident& owner = fn.fn->ownerType;
  DeclInfo* decl = ctx.lookup(owner.name);
  auto* type = llvm::dyn_cast_or_null<TypeInfo>(decl);
  if (type == nullptr) {
    if (decl != nullptr) {
      sema.diags
          .report<diag::NotAType>(owner.range, owner.name,
                                  describeWithArticle(decl->kind))
          .note(decl->nameRange, "'{}' is declared here", owner.name);
      return;
    }
    auto report = sema.diags.report<diag::UnknownType>(owner.range, owner.name);
    std::string close;
    if (sema.speller.admit()) {
      std::vector<std::string> names;
      for (const auto& entry : ctx.byName)
        if (entry.getValue()->kind == DeclInfoKind::Type)
          names.push_back(entry.getKey().str());
      std::sort(names.begin(), names.end());
      close = sema.speller.closest(owner.name, names);
    }
    if (!close.empty()) {
      report.note("did you mean '{}'?", close);
      report.fixit(owner.range, close);
    }
    LookupResult r = lookupDecl(sema.program, ctx, {owner});
    if (r.status == LookupResult::Status::Found && r.decl->context != &ctx &&
        r.decl->context != nullptr)
      report.note(
          "'{}' is declared in context '{}'; a static function must "
          "be declared in its type's context",
          owner.name, r.decl->context->name);
    return;
  }
  for (const FnInfo* other : type->staticFns)
    if (other->name == fn.name) {
      reportDuplicateMember(sema, "function", owner.name.str() + "." + fn.name,
                            fn.nameRange, other->nameRange);
      return;
    }
  if (const VariantInfo* v = type->variant(fn.name)) {
    reportDuplicateMember(sema, "variant or function",
                          owner.name.str() + "." + fn.name, fn.nameRange,
                          v->nameRange);
    return;
  }
  fn.ownerType = type;
  type->staticFns.push_back(&fn);
}

void resolveCapability(Sema& sema, const ContextInfo& ctx,
                       CapabilityInfo& cap) {
  const auto* decl = llvm::dyn_cast_or_null<ast::CapabilityDecl>(cap.decl);
  if (decl == nullptr) return;
  FirstSeen seen;
  for (const ast::FnDecl* op : decl->ops) {
    if (op == nullptr || op->name.empty()) continue;
    const SourceRange* first = seen.insert(op->name.name, op->name.range);
    if (first != nullptr) {
      reportDuplicateMember(sema, "operation", op->name.name, op->name.range,
                            *first);
      continue;
    }
    CapabilityOp info;
    info.name = op->name.name.str();
    info.sig = resolveSignature(sema, ctx, op->params, op->returnType);
    info.nameRange = op->name.range;
    cap.ops.push_back(std::move(info));
  }
}

void resolveDeclSignature(Sema& sema, ContextInfo& ctx, DeclInfo& d) {
  switch (d.kind) {
    case DeclInfoKind::Type:
      resolveTypeDecl(sema, ctx, llvm::cast<TypeInfo>(d));
      return;
    case DeclInfoKind::Event: {
      auto& event = llvm::cast<EventInfo>(d);
      if (const auto* decl = llvm::dyn_cast_or_null<ast::EventDecl>(d.decl))
        event.fields = resolveFields(sema, ctx, decl->fields, true);
      return;
    }
    case DeclInfoKind::Actor: {
      if (const auto* decl = llvm::dyn_cast_or_null<ast::ActorDecl>(d.decl))
        llvm::cast<ActorInfo>(d).params =
            resolveParams(sema, ctx, decl->params);
      return;
    }
    case DeclInfoKind::Capability:
      resolveCapability(sema, ctx, llvm::cast<CapabilityInfo>(d));
      return;
    case DeclInfoKind::Fn: {
      auto& fn = llvm::cast<FnInfo>(d);
      if (fn.fn != nullptr)
        fn.sig = resolveSignature(sema, ctx, fn.fn->params, fn.fn->returnType);
      else
        fn.sig.result = sema.program.types.error();
      reportGivenOnPureFn(sema, fn);
      return;
    }
    case DeclInfoKind::Agent:
      resolveAgentSignatures(sema, llvm::cast<AgentInfo>(d));
      return;
    case DeclInfoKind::Service:
      resolveServiceSignatures(sema, llvm::cast<ServiceInfo>(d));
      return;
  }
}

}  // namespace

void resolveSignatures(Sema& sema) {
  for (const auto& ctx : sema.program.contexts) {
    for (const auto& d : ctx->decls)
      if (auto* fn = llvm::dyn_cast<FnInfo>(d.get()))
        if (fn->fn != nullptr && !fn->fn->ownerType.empty())
          attachStatic(sema, *ctx, *fn);
  }
  for (const auto& ctx : sema.program.contexts)
    for (const auto& d : ctx->decls) resolveDeclSignature(sema, *ctx, *d);
}

}  // namespace herald::check
