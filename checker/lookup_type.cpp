// Resolution of type expressions: built-ins and their generics, declared
// types (aliases seen through, resolved on first use so declaration order
// does not matter), events, `Ref` of agents, capabilities; and the cycles
// that aliases and the bases of opaque and refined types can form.
#include <algorithm>
#include <cstdint>
#include <string>

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "checker/lookup.h"
#include "checker/names_util.h"
#include "checker/record_use.h"

namespace herald::check {

namespace {

// Marks an alias target or base being resolved, so that meeting it again
// is recognised as a cycle; never escapes this file.
const Type kResolving{TypeKind::Error};

using Stack = llvm::SmallVector<TypeInfo*, 8>;

// A TypeInfo reached through a Type is owned, mutable, by its context.
TypeInfo& owned(const TypeInfo* info) { return const_cast<TypeInfo&>(*info); }

// Reports the cycle made of `stack` from `info` on, once, at its first
// member in source order, and settles every member on the error type
// (through `slot`: the alias target or the base).
void reportCycle(Sema& sema, const TypeInfo& info, Stack& stack,
                 const Type* TypeInfo::*slot) {
  auto from = std::find(stack.begin(), stack.end(), &info);
  if (from == stack.end()) return;
  llvm::SmallVector<TypeInfo*, 8> members(from, stack.end());
  const TypeInfo* first = *std::min_element(
      members.begin(), members.end(), [](const TypeInfo* a, const TypeInfo* b) {
        return sourceBefore(a->nameRange, b->nameRange);
      });
  // The cycle as a path starting and ending at its first member.
  auto at = std::find(members.begin(), members.end(), first);
  std::rotate(members.begin(), at, members.end());
  std::string path;
  for (const TypeInfo* m : members) path += m->name + " -> ";
  path += first->name;
  auto report =
      sema.diags.report<diag::TypeAliasCycle>(first->nameRange, first->name);
  if (members.size() > 1) report.note("the cycle: {}", path);
  for (TypeInfo* m : members) m->*slot = sema.program.types.error();
}

// Int, Float, ...: the built-in types that take no arguments.
const Type* simpleBuiltin(llvm::StringRef name, const TypeTable& types) {
  if (name == "Int") return types.intType();
  if (name == "Float") return types.floatType();
  if (name == "Bool") return types.boolType();
  if (name == "String") return types.string();
  if (name == "Instant") return types.instant();
  if (name == "Duration") return types.duration();
  if (name == "EventEnvelope") return types.envelope();
  return nullptr;
}

bool isBuiltinName(llvm::StringRef name, const TypeTable& types) {
  return simpleBuiltin(name, types) != nullptr || name == "Option" ||
         name == "List" || name == "Map" || name == "Ref";
}

class TypeResolver {
 public:
  TypeResolver(Sema& sema, const ContextInfo& from, Stack& aliases)
      : sema_(sema), from_(from), aliases_(aliases) {}

  const Type* resolve(const ast::TypeExpr* t) {
    TypeTable& types = sema_.program.types;
    if (t == nullptr) return types.error();
    switch (t->kind) {
      case ast::TypeExprKind::Unit:
        return types.unit();
      case ast::TypeExprKind::Error:
        return types.error();
      case ast::TypeExprKind::Path:
        break;
    }
    llvm::ArrayRef<ast::Ident> parts = t->path.parts;
    if (parts.empty()) return types.error();
    for (const ast::Ident& part : parts)
      if (part.empty()) return types.error();
    if (parts.size() == 1)
      if (const Type* builtin = resolveBuiltin(*t, parts.front().name))
        return builtin;
    return resolveDeclared(*t);
  }

  const Type* aliasTarget(TypeInfo& info) {
    if (info.type == &kResolving) {
      reportCycle(sema_, info, aliases_, &TypeInfo::type);
      return sema_.program.types.error();
    }
    if (info.type != nullptr) return info.type;
    const auto* decl = llvm::dyn_cast_or_null<ast::TypeDecl>(info.decl);
    if (decl == nullptr || info.context == nullptr) {
      info.type = info.base = sema_.program.types.error();
      return info.type;
    }
    info.type = &kResolving;
    aliases_.push_back(&info);
    const Type* target =
        TypeResolver(sema_, *info.context, aliases_).resolve(decl->base);
    aliases_.pop_back();
    // A cycle found below has already settled this alias on the error type.
    if (info.type == &kResolving) info.type = target;
    info.base = info.type;
    return info.type;
  }

 private:
  // The name is spelled only when there is something to report, so a
  // well-formed type costs no allocation. The arguments of a wrong count
  // are still checked, except Ref's, which name agents, not types.
  bool countIs(const ast::TypeExpr& t, std::uint32_t want,
               bool checkArgs = true) {
    if (t.args.size() == want) return true;
    sema_.diags.report<diag::TypeArgumentCount>(
        t.range, joinName(t.path.parts), want,
        static_cast<std::uint32_t>(t.args.size()));
    if (checkArgs)
      for (const ast::TypeExpr* arg : t.args) resolve(arg);
    return false;
  }

  const Type* resolveBuiltin(const ast::TypeExpr& t, llvm::StringRef name) {
    TypeTable& types = sema_.program.types;
    const Type* simple = simpleBuiltin(name, types);
    if (simple != nullptr) {
      countIs(t, 0);
      return simple;
    }
    if (name == "Option" || name == "List") {
      if (!countIs(t, 1)) return types.error();
      const Type* element = resolve(t.args[0]);
      return name == "Option" ? types.option(element) : types.list(element);
    }
    if (name == "Map") {
      if (!countIs(t, 2)) return types.error();
      const Type* key = resolve(t.args[0]);
      return types.map(key, resolve(t.args[1]));
    }
    if (name == "Ref") {
      if (!countIs(t, 1, false)) return types.error();
      return resolveRef(t.args[0]);
    }
    return nullptr;
  }

  const Type* resolveRef(const ast::TypeExpr* arg) {
    TypeTable& types = sema_.program.types;
    llvm::ArrayRef<ast::Ident> parts = plainPath(arg);
    if (!parts.empty() &&
        !(parts.size() == 1 && isBuiltinName(parts[0].name, types))) {
      LookupResult r = lookupDecl(sema_.program, from_, parts);
      if (r.status != LookupResult::Status::Found ||
          r.partsUsed != parts.size()) {
        reportUnresolved(sema_, from_, r, parts, arg->range, "agent");
        return types.error();
      }
      recordDeclUse(sema_.program, parts, r.decl);
      if (const auto* agent = llvm::dyn_cast<AgentInfo>(r.decl))
        return types.ref(agent);
      sema_.diags
          .report<diag::TypeMismatch>(arg->range, "an agent", joinName(parts))
          .note(r.decl->nameRange, "'{}' is {}; 'Ref[...]' addresses an agent",
                r.decl->name, describeWithArticle(r.decl->kind));
      return types.error();
    }
    const Type* written = resolve(arg);
    if (isWellFormed(written))
      sema_.diags.report<diag::TypeMismatch>(arg->range, "an agent",
                                             displayName(written));
    return types.error();
  }

  const Type* resolveDeclared(const ast::TypeExpr& t) {
    TypeTable& types = sema_.program.types;
    llvm::ArrayRef<ast::Ident> parts = t.path.parts;
    LookupResult r = lookupDecl(sema_.program, from_, parts);
    if (r.status != LookupResult::Status::Found ||
        r.partsUsed != parts.size()) {
      reportUnresolved(sema_, from_, r, parts, t.path.range, "type");
      for (const ast::TypeExpr* arg : t.args) resolve(arg);
      return types.error();
    }
    recordDeclUse(sema_.program, parts, r.decl);
    switch (r.decl->kind) {
      case DeclInfoKind::Type: {
        countIs(t, 0);
        auto& info = llvm::cast<TypeInfo>(*r.decl);
        if (info.def == TypeDefKind::Alias) return aliasTarget(info);
        return info.type != nullptr ? info.type : types.named(&info);
      }
      case DeclInfoKind::Event: {
        countIs(t, 0);
        const auto& event = llvm::cast<EventInfo>(*r.decl);
        return event.type != nullptr ? event.type : types.event(&event);
      }
      case DeclInfoKind::Capability: {
        countIs(t, 0);
        const auto& cap = llvm::cast<CapabilityInfo>(*r.decl);
        return cap.type != nullptr ? cap.type : types.capability(&cap);
      }
      case DeclInfoKind::Agent: {
        const std::string name = joinName(parts);
        sema_.diags.report<diag::NotAType>(t.path.range, name, "an agent")
            .note("write 'Ref[{}]' for the address of an agent", name);
        return types.error();
      }
      case DeclInfoKind::Actor:
      case DeclInfoKind::Fn:
      case DeclInfoKind::Service: {
        const std::string name = joinName(parts);
        sema_.diags
            .report<diag::NotAType>(t.path.range, name,
                                    describeWithArticle(r.decl->kind))
            .note(r.decl->nameRange, "'{}' is declared here", name);
        return types.error();
      }
    }
    return types.error();
  }

  Sema& sema_;
  const ContextInfo& from_;
  Stack& aliases_;
};

}  // namespace

const Type* resolveType(Sema& sema, const ContextInfo& from,
                        const ast::TypeExpr* type) {
  Stack aliases;
  return TypeResolver(sema, from, aliases).resolve(type);
}

void resolveAlias(Sema& sema, TypeInfo& info) {
  if (info.context == nullptr) return;
  Stack aliases;
  TypeResolver(sema, *info.context, aliases).aliasTarget(info);
}

namespace {

const Type* baseOf(Sema& sema, TypeInfo& info, Stack& stack) {
  if (info.base == &kResolving) {
    reportCycle(sema, info, stack, &TypeInfo::base);
    return sema.program.types.error();
  }
  if (info.base != nullptr) return info.base;
  const auto* decl = llvm::dyn_cast_or_null<ast::TypeDecl>(info.decl);
  if (decl == nullptr || info.context == nullptr) {
    info.base = sema.program.types.error();
    return info.base;
  }
  info.base = &kResolving;
  stack.push_back(&info);
  const Type* base = resolveType(sema, *info.context, decl->base);
  // Follow the chain of nominal bases: `type A = B where ...` with B
  // refined by A again would make refinement checks run forever.
  if (base->kind == TypeKind::Named && base->named != nullptr &&
      (base->named->def == TypeDefKind::Refined ||
       base->named->def == TypeDefKind::Opaque))
    baseOf(sema, owned(base->named), stack);
  stack.pop_back();
  if (info.base == &kResolving) info.base = base;
  return info.base;
}

}  // namespace

void resolveBase(Sema& sema, TypeInfo& info) {
  Stack stack;
  baseOf(sema, info, stack);
}

}  // namespace herald::check

namespace herald::check {

namespace {

// The capability a value type holds, directly or inside Option, List or Map.
const CapabilityInfo* heldCapability(const Type* type) {
  if (type == nullptr) return nullptr;
  switch (type->kind) {
    case TypeKind::Capability:
      return type->capability;
    case TypeKind::Option:
    case TypeKind::List:
      return heldCapability(type->arg0);
    case TypeKind::Map: {
      const CapabilityInfo* key = heldCapability(type->arg0);
      return key != nullptr ? key : heldCapability(type->arg1);
    }
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Unit:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::String:
    case TypeKind::Instant:
    case TypeKind::Duration:
    case TypeKind::Envelope:
    case TypeKind::Ref:
    case TypeKind::Named:
    case TypeKind::Event:
    case TypeKind::Actor:
      return nullptr;
  }
  return nullptr;
}

}  // namespace

const Type* resolveValueType(Sema& sema, const ContextInfo& from,
                             const ast::TypeExpr* type) {
  const Type* resolved = resolveType(sema, from, type);
  const CapabilityInfo* cap = heldCapability(resolved);
  if (cap == nullptr) return resolved;
  sema.diags.report<diag::NotAType>(type->range, cap->name, "a capability")
      .note(
          "capabilities are given to handlers ('given {}'), never passed "
          "or stored as values",
          cap->name);
  return sema.program.types.error();
}

}  // namespace herald::check
