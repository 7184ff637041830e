// The resolver: the body's own names, then the language's, then local fns,
// bare variants, declarations and first-party capabilities, then one
// member of a type or capability.
#include "checker/resolve.h"

#include <algorithm>
#include <memory>
#include <string>

#include <llvm/Support/Casting.h>

#include "checker/lookup.h"

namespace herald::check {

namespace {

using llvm::dyn_cast;
using llvm::dyn_cast_or_null;

Resolution scoped(NameKind kind, const Type* type, std::uint32_t index,
                  SourceRange declRange) {
  Resolution r;
  r.kind = kind;
  r.partsUsed = 1;
  r.type = type;
  r.index = index;
  r.declRange = declRange;
  return r;
}

Resolution dependency(const DependencyInfo& d, DepRef ref) {
  bool agentRef = d.type != nullptr && d.type->kind == TypeKind::Ref;
  return scoped(agentRef ? NameKind::AgentRefDependency : NameKind::Dependency,
                d.type, ref.encode(), d.range);
}

// Names in scope are short and many share a length, so the first byte
// settles most comparisons without a call to memcmp.
bool same(llvm::StringRef a, llvm::StringRef b) {
  return a.size() == b.size() &&
         (a.empty() || (a.front() == b.front() && a == b));
}

bool lookupScope(const BodyScope& scope, llvm::StringRef name,
                 Resolution& out) {
  for (auto it = scope.locals.rbegin(); it != scope.locals.rend(); ++it)
    if (same(it->name, name)) {
      out = scoped(NameKind::Local, it->type, it->slot.index(), it->range);
      return true;
    }
  for (std::size_t i = 0; i < scope.params.size(); ++i)
    if (same(scope.params[i].name, name)) {
      out = scoped(NameKind::Param, scope.params[i].type,
                   static_cast<std::uint32_t>(i), scope.params[i].nameRange);
      return true;
    }
  if (const AgentInfo* agent = scope.agent) {
    if (agent->key && same(agent->key->name, name)) {
      out = scoped(NameKind::Key, agent->key->type, 0, agent->key->nameRange);
      return true;
    }
    for (std::size_t i = 0; i < agent->stores.size(); ++i)
      if (same(agent->stores[i].field.name, name)) {
        const FieldInfo& f = agent->stores[i].field;
        out = scoped(NameKind::Store, f.type, static_cast<std::uint32_t>(i),
                     f.nameRange);
        return true;
      }
  }
  if (const FnInfo* fn = scope.fn)
    for (std::size_t i = 0; i < fn->given.size(); ++i)
      if (fn->given[i].named && same(fn->given[i].name, name)) {
        out = dependency(fn->given[i], DepRef{DepRef::List::Fn,
                                              static_cast<std::uint32_t>(i)});
        return true;
      }
  const HandlerInfo* handler = scope.handler;
  if (handler == nullptr) return false;
  if (handler->by != nullptr && !handler->byBinder.empty() &&
      same(handler->byBinder, name)) {
    out = scoped(NameKind::ActorBinder, nullptr, 0,
                 handler->decl != nullptr && handler->decl->by != nullptr
                     ? handler->decl->by->binder.range
                     : handler->nameRange);
    out.decl = handler->by;
    return true;
  }
  for (std::size_t i = 0; i < handler->given.size(); ++i)
    if (handler->given[i].named && same(handler->given[i].name, name)) {
      out = dependency(
          handler->given[i],
          DepRef{DepRef::List::Handler, static_cast<std::uint32_t>(i)});
      return true;
    }
  if (scope.service != nullptr)
    for (std::size_t i = 0; i < scope.service->given.size(); ++i)
      if (scope.service->given[i].named &&
          same(scope.service->given[i].name, name)) {
        out = dependency(
            scope.service->given[i],
            DepRef{DepRef::List::Service, static_cast<std::uint32_t>(i)});
        return true;
      }
  return false;
}

const FnInfo* localFn(const BodyScope& scope, llvm::StringRef name) {
  if (scope.agent != nullptr)
    if (const FnInfo* f = scope.agent->fn(name)) return f;
  if (scope.service != nullptr)
    if (const FnInfo* f = scope.service->fn(name)) return f;
  return nullptr;
}

const TypeInfo* sumOf(const Type* t) {
  if (t == nullptr || t->kind != TypeKind::Named) return nullptr;
  return t->named->def == TypeDefKind::Sum ? t->named : nullptr;
}

// `op` of a capability, reached by name or through a dependency.
void capabilityMember(Resolution& r, const CapabilityInfo* cap,
                      llvm::StringRef op) {
  r.kind = NameKind::CapabilityOp;
  r.cap = cap;
  r.op = cap != nullptr ? cap->op(op) : nullptr;
  ++r.partsUsed;
}

// A type named by a declaration: what it builds, aliases seen through.
void typeDecl(Resolution& r, const TypeInfo* type) {
  r.typeInfo = type;
  r.kind = NameKind::Type;
  const Type* t = type->type;
  const TypeInfo* target =
      t != nullptr && t->kind == TypeKind::Named ? t->named : type;
  switch (target->def) {
    case TypeDefKind::Opaque:
    case TypeDefKind::Refined:
      r.kind = NameKind::Constructor;
      r.typeInfo = target;
      return;
    case TypeDefKind::Record:
      r.kind = NameKind::RecordType;
      r.typeInfo = target;
      return;
    case TypeDefKind::Sum:
    case TypeDefKind::Alias:
      return;
  }
}

// `T.x`: a variant of a sum (an alias of one seen through), else a static
// fn of the type as written.
void typeMember(Resolution& r, const TypeInfo* type, llvm::StringRef member) {
  ++r.partsUsed;
  if (const TypeInfo* sum = sumOf(type->type))
    if (const VariantInfo* v = sum->variant(member)) {
      r.kind = NameKind::Variant;
      r.typeInfo = sum;
      r.variant = v;
      return;
    }
  for (const FnInfo* f : type->staticFns)
    if (f != nullptr && f->name == member) {
      r.kind = NameKind::StaticFn;
      r.typeInfo = type;
      r.fn = f;
      return;
    }
  r.kind = NameKind::UnknownMember;
  r.typeInfo = type;
}

void declaration(Resolution& r, const DeclInfo* decl,
                 llvm::ArrayRef<ast::Ident> parts) {
  r.decl = decl;
  bool member = r.partsUsed < parts.size();
  switch (decl->kind) {
    case DeclInfoKind::Fn:
      r.kind = NameKind::Fn;
      r.fn = llvm::cast<FnInfo>(decl);
      return;
    case DeclInfoKind::Type: {
      const auto* type = llvm::cast<TypeInfo>(decl);
      typeDecl(r, type);
      if (member) typeMember(r, type, parts[r.partsUsed].name);
      return;
    }
    case DeclInfoKind::Event:
      r.kind = NameKind::Event;
      return;
    case DeclInfoKind::Capability: {
      r.kind = NameKind::Capability;
      r.cap = llvm::cast<CapabilityInfo>(decl);
      if (member) capabilityMember(r, r.cap, parts[r.partsUsed].name);
      return;
    }
    case DeclInfoKind::Agent:
      r.kind = NameKind::Agent;
      return;
    case DeclInfoKind::Actor:
      r.kind = NameKind::Actor;
      return;
    case DeclInfoKind::Service:
      r.kind = NameKind::Service;
      return;
  }
}

// The longest leading parts that spell a context's name: a binary search
// of the sorted contexts per prefix, so the cost does not grow with their
// number.
const ContextInfo* contextPrefix(const Program& program,
                                 llvm::ArrayRef<ast::Ident> parts,
                                 std::size_t& used) {
  const ContextInfo* best = nullptr;
  std::string joined;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k != 0) joined += '.';
    joined += parts[k].name.str();
    auto it = std::lower_bound(
        program.contexts.begin(), program.contexts.end(), joined,
        [](const std::unique_ptr<ContextInfo>& ctx, const std::string& name) {
          return ctx->name < name;
        });
    if (it == program.contexts.end()) break;
    if ((*it)->name == joined) {
      best = it->get();
      used = k + 1;
    } else if (!llvm::StringRef((*it)->name).startswith(joined + ".")) {
      break;
    }
  }
  return best;
}

}  // namespace

Resolution resolveName(const Program& program, const ContextInfo& from,
                       const BodyScope& scope, llvm::ArrayRef<ast::Ident> parts,
                       const Type* expected) {
  Resolution r;
  if (parts.empty()) return r;
  llvm::StringRef first = parts[0].name;
  if (lookupScope(scope, first, r)) {
    if (r.kind == NameKind::Dependency && parts.size() > 1 &&
        r.type != nullptr && r.type->kind == TypeKind::Capability) {
      r.viaDependency = true;
      capabilityMember(r, r.type->capability, parts[1].name);
    }
    return r;
  }
  if (first == "Some" || first == "None") {
    r.kind = first == "Some" ? NameKind::Some : NameKind::None;
    r.partsUsed = 1;
    return r;
  }
  if (const FnInfo* f = localFn(scope, first)) {
    r.kind = f->agent != nullptr ? NameKind::AgentFn : NameKind::Fn;
    r.partsUsed = 1;
    r.fn = f;
    return r;
  }
  if (parts.size() == 1)
    if (const TypeInfo* sum = sumOf(expected))
      if (const VariantInfo* v = sum->variant(first)) {
        r.kind = NameKind::Variant;
        r.partsUsed = 1;
        r.typeInfo = sum;
        r.variant = v;
        return r;
      }
  LookupResult found = lookupDecl(program, from, parts);
  r.partsUsed = found.partsUsed;
  switch (found.status) {
    case LookupResult::Status::Found:
      declaration(r, found.decl, parts);
      return r;
    case LookupResult::Status::Ambiguous:
      r.kind = NameKind::Ambiguous;
      return r;
    case LookupResult::Status::NotFound:
      break;
  }
  for (const auto& cap : program.firstParty)
    if (cap->name == first) {
      r.partsUsed = 1;
      declaration(r, cap.get(), parts);
      return r;
    }
  std::size_t used = 0;
  if (const ContextInfo* ctx = contextPrefix(program, parts, used)) {
    r.kind = NameKind::ContextPrefix;
    r.partsUsed = used;
    r.context = ctx;
    return r;
  }
  r.kind = NameKind::NotFound;
  r.partsUsed = 0;
  return r;
}

bool namePath(const ast::Expr* e, llvm::SmallVectorImpl<ast::Ident>& parts) {
  // Walked in a loop from the last name down to the first, then reversed:
  // a field chain may be as long as its source.
  std::size_t first = parts.size();
  while (const auto* field = dyn_cast_or_null<ast::FieldExpr>(e)) {
    if (field->name.empty()) return false;
    parts.push_back(field->name);
    e = field->base;
  }
  const auto* name = dyn_cast_or_null<ast::NameExpr>(e);
  if (name == nullptr || name->name.empty()) return false;
  parts.push_back(name->name);
  std::reverse(parts.begin() + static_cast<std::ptrdiff_t>(first), parts.end());
  return true;
}

}  // namespace herald::check
