// Names, qualified paths and field accesses: locals, parameters, the key,
// stores, the actor binder, dependencies, then declarations; variants
// (qualified, or bare where the expected type is a sum); record, event,
// actor, envelope and opaque (`.raw`) fields.
#include <string>
#include <vector>

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"

namespace herald::check {

using llvm::dyn_cast;
using llvm::dyn_cast_or_null;

namespace {

struct EnvelopeField {
  llvm::StringRef name;
  TypeKind kind;
};

// language.md section 5; causationId is Option[String].
constexpr EnvelopeField kEnvelopeFields[] = {
    {"eventId", TypeKind::String},     {"eventType", TypeKind::String},
    {"publisherId", TypeKind::String}, {"sequence", TypeKind::Int},
    {"emittedAt", TypeKind::Instant},  {"schemaVersion", TypeKind::Int},
    {"causationId", TypeKind::Option}, {"correlationId", TypeKind::String},
    {"depth", TypeKind::Int},
};

}  // namespace

bool BodyChecker::lookupScoped(llvm::StringRef name, ScopeHit& hit) const {
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
    if (it->name == name) {
      hit = {RefKind::Local, it->type, 0, it->range};
      return true;
    }
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name) {
      hit = {RefKind::Param, params[i].type, static_cast<std::uint32_t>(i),
             params[i].nameRange};
      return true;
    }
  bool agentScope = agent != nullptr &&
                    (role_ == BodyRole::AgentFn || role_ == BodyRole::Handler ||
                     role_ == BodyRole::Invariant);
  if (agentScope) {
    if (agent->key && agent->key->name == name) {
      hit = {RefKind::Key, agent->key->type, 0, agent->key->nameRange};
      return true;
    }
    for (std::size_t i = 0; i < agent->stores.size(); ++i)
      if (agent->stores[i].field.name == name) {
        const FieldInfo& f = agent->stores[i].field;
        hit = {RefKind::Store, f.type, static_cast<std::uint32_t>(i),
               f.nameRange};
        return true;
      }
  }
  if (role_ != BodyRole::Handler || handler == nullptr) return false;
  if (handler->by != nullptr && !handler->byBinder.empty() &&
      handler->byBinder == name) {
    hit = {RefKind::ActorBinder, pass_.sema.program.types.actor(handler->by), 0,
           handler->decl != nullptr && handler->decl->by != nullptr
               ? handler->decl->by->binder.range
               : handler->nameRange};
    return true;
  }
  for (std::size_t i = 0; i < handler->given.size(); ++i)
    if (handler->given[i].named && handler->given[i].name == name) {
      hit = {RefKind::Dependency, handler->given[i].type,
             static_cast<std::uint32_t>(i), handler->given[i].range};
      return true;
    }
  if (service != nullptr)
    for (std::size_t i = 0; i < service->given.size(); ++i)
      if (service->given[i].named && service->given[i].name == name) {
        hit = {RefKind::Dependency, service->given[i].type,
               static_cast<std::uint32_t>(i), service->given[i].range};
        return true;
      }
  return false;
}

PathHit BodyChecker::lookupPath(llvm::ArrayRef<ast::Ident> parts) const {
  PathHit hit;
  if (parts.empty()) return hit;
  LookupResult r = lookupDecl(pass_.sema.program, context_, parts);
  hit.status = r.status;
  hit.decl = r.decl;
  hit.partsUsed = r.partsUsed;
  hit.candidates = std::move(r.candidates);
  if (hit.status == LookupResult::Status::NotFound)
    for (const auto& cap : pass_.sema.program.firstParty)
      if (cap->name == parts[0].name) {
        hit.status = LookupResult::Status::Found;
        hit.decl = cap.get();
        hit.partsUsed = 1;
        break;
      }
  return hit;
}

bool BodyChecker::pathOf(const ast::Expr* e,
                         llvm::SmallVectorImpl<ast::Ident>& parts) {
  if (e == nullptr) return false;
  if (const auto* name = dyn_cast<ast::NameExpr>(e)) {
    parts.push_back(name->name);
    return !name->name.empty();
  }
  if (const auto* field = dyn_cast<ast::FieldExpr>(e)) {
    if (!pathOf(field->base, parts)) return false;
    parts.push_back(field->name);
    return !field->name.empty();
  }
  return false;
}

const FnInfo* BodyChecker::localFn(llvm::StringRef name) const {
  if (agent != nullptr &&
      (role_ == BodyRole::AgentFn || role_ == BodyRole::Handler ||
       role_ == BodyRole::Invariant))
    if (const FnInfo* f = agent->fn(name)) return f;
  if (service != nullptr)
    if (const FnInfo* f = service->fn(name)) return f;
  return nullptr;
}

void BodyChecker::reportUnknownName(const ast::Ident& name) {
  if (sawBrokenStmt_) return;
  std::vector<std::string> candidates;
  for (const Local& l : locals_) candidates.push_back(l.name.str());
  for (const FieldInfo& p : params) candidates.push_back(p.name);
  if (agent != nullptr && role_ != BodyRole::PureFn &&
      role_ != BodyRole::StoreInit) {
    if (agent->key) candidates.push_back(agent->key->name);
    for (const StoreInfo& s : agent->stores) candidates.push_back(s.field.name);
    for (const auto& f : agent->fns) candidates.push_back(f->name);
  }
  if (service != nullptr)
    for (const auto& f : service->fns) candidates.push_back(f->name);
  if (handler != nullptr) {
    if (!handler->byBinder.empty()) candidates.push_back(handler->byBinder);
    for (const DependencyInfo& d : handler->given) candidates.push_back(d.name);
    if (service != nullptr)
      for (const DependencyInfo& d : service->given)
        candidates.push_back(d.name);
  }
  for (std::string& n : visibleNames(pass_.sema.program, context_))
    candidates.push_back(std::move(n));
  auto report = sema().diags.report<diag::UnknownName>(name.range, name.name);
  std::string best = closestName(name.name, candidates);
  if (!best.empty()) {
    report.note("did you mean '{}'?", best);
    report.fixit(name.range, best);
  }
}

void BodyChecker::reportAmbiguous(const ast::Ident& name, const PathHit& hit) {
  std::vector<std::string> where;
  for (const DeclInfo* d : hit.candidates)
    if (d->context != nullptr) where.push_back(d->context->name);
  auto report = sema().diags.report<diag::AmbiguousName>(name.range, name.name,
                                                         quotedList(where));
  for (const DeclInfo* d : hit.candidates)
    report.note(d->nameRange, "'{}' is declared here; write '{}' to use it",
                d->name, d->qualified);
}

void BodyChecker::reportNotAValue(const ast::Expr* e, llvm::StringRef name,
                                  const DeclInfo* decl) {
  std::string what = "a " + describeKind(decl->kind).str();
  if (decl->kind == DeclInfoKind::Agent || decl->kind == DeclInfoKind::Actor)
    what = "an " + describeKind(decl->kind).str();
  auto report = sema().diags.report<diag::NotAValue>(e->range, name, what);
  switch (decl->kind) {
    case DeclInfoKind::Type:
    case DeclInfoKind::Event:
      report.note("build a value with '{} {{ ... }}'", name.str());
      break;
    case DeclInfoKind::Capability:
      report.note("call one of its operations, e.g. '{}.{}'", name.str(),
                  llvm::cast<CapabilityInfo>(decl)->ops.empty()
                      ? std::string("op")
                      : llvm::cast<CapabilityInfo>(decl)->ops.front().name);
      break;
    case DeclInfoKind::Fn:
      report.note("call it: '{}(...)'", name.str());
      break;
    case DeclInfoKind::Actor:
    case DeclInfoKind::Agent:
    case DeclInfoKind::Service:
      break;
  }
}

std::vector<std::string> BodyChecker::sumsWithVariant(
    llvm::StringRef variant) const {
  std::vector<std::string> out;
  for (const std::string& n : visibleNames(pass_.sema.program, context_)) {
    ast::Ident part{llvm::StringRef(n), {}};
    PathHit hit = lookupPath(llvm::ArrayRef<ast::Ident>(part));
    if (hit.status != LookupResult::Status::Found || hit.partsUsed != 1)
      continue;
    const auto* type = llvm::dyn_cast_or_null<TypeInfo>(hit.decl);
    if (type != nullptr && type->def == TypeDefKind::Sum &&
        type->variant(variant) != nullptr)
      out.push_back(n + "." + variant.str());
  }
  return out;
}

const Type* BodyChecker::bareVariant(const ast::Expr* e, const ast::Ident& name,
                                     const Type* expected, bool called) {
  if (!isSum(expected)) return nullptr;
  const VariantInfo* v = expected->named->variant(name.name);
  if (v == nullptr) return nullptr;
  ExprInfo& info = record(e, expected, RefKind::Variant);
  info.decl = expected->named;
  info.setTarget(v);
  if (!called && !v->fields.empty())
    sema()
        .diags
        .report<diag::ArgumentCount>(
            e->range, name.name, static_cast<std::uint32_t>(v->fields.size()),
            0u)
        .note("build it with '{}(...)'", name.name.str());
  return expected;
}

const Type* BodyChecker::checkName(const ast::NameExpr* e,
                                   const Type* expected) {
  TypeTable& tt = types();
  llvm::StringRef name = e->name.name;
  if (name.empty()) return record(e, tt.error()).type;
  ScopeHit hit;
  if (lookupScoped(name, hit)) {
    if (hit.ref == RefKind::Dependency) {
      sema()
          .diags.report<diag::NotAValue>(e->range, name, "a 'given' dependency")
          .note(hit.declRange, "'{}' is given here", name.str());
      return record(e, tt.error(), RefKind::Dependency).type;
    }
    ExprInfo& info = record(e, hit.type ? hit.type : tt.error(), hit.ref);
    info.index = hit.index;
    return info.type;
  }
  if (name == "None") {
    const Type* opt = expected;
    if (opt != nullptr && opt->kind == TypeKind::Option)
      return record(e, opt, RefKind::OptionNone).type;
    if (quiet(expected) && expected != nullptr)
      return record(e, tt.error(), RefKind::OptionNone).type;
    sema()
        .diags.report<diag::CannotInfer>(e->range, "'None'")
        .note("give the binding a type, e.g. 'let x: Option[String] = None'");
    return record(e, tt.error(), RefKind::OptionNone).type;
  }
  if (const FnInfo* f = localFn(name)) {
    reportNotAValue(e, name, f);
    return record(e, tt.error(), RefKind::Function).type;
  }
  if (const Type* t = bareVariant(e, e->name, expected, false)) return t;
  ast::Ident part = e->name;
  PathHit path = lookupPath(llvm::ArrayRef<ast::Ident>(part));
  switch (path.status) {
    case LookupResult::Status::Found:
      reportNotAValue(e, name, path.decl);
      return record(e, tt.error(), RefKind::TypeName).type;
    case LookupResult::Status::Ambiguous:
      reportAmbiguous(e->name, path);
      return record(e, tt.error()).type;
    case LookupResult::Status::NotFound:
      break;
  }
  if (isSum(expected)) {
    std::vector<std::string> variants;
    for (const VariantInfo& v : expected->named->variants)
      variants.push_back(v.name);
    auto report = sema().diags.report<diag::UnknownVariant>(
        e->range, expected->named->name, name);
    std::string best = closestName(name, variants);
    if (!best.empty()) {
      report.note("did you mean '{}'?", best);
      report.fixit(e->range, best);
    }
    return record(e, tt.error()).type;
  }
  std::vector<std::string> sums = sumsWithVariant(name);
  if (!sums.empty()) {
    if (quiet(expected) && expected != nullptr)
      return record(e, tt.error()).type;
    auto report = sema().diags.report<diag::CannotInfer>(
        e->range, "'" + name.str() + "'");
    report.note("no sum type is expected here; name the type: '{}'",
                sums.front());
    report.fixit(e->range, sums.front());
    return record(e, tt.error()).type;
  }
  reportUnknownName(e->name);
  return record(e, tt.error()).type;
}

const Type* BodyChecker::checkField(const ast::FieldExpr* e,
                                    const Type* /*expected*/) {
  TypeTable& tt = types();
  if (e->name.empty()) {
    check(e->base, nullptr);
    return record(e, tt.error()).type;
  }
  // A named capability dependency: `Fx.convert`, `Clock.now`.
  if (const auto* baseName = dyn_cast_or_null<ast::NameExpr>(e->base)) {
    ScopeHit hit;
    if (lookupScoped(baseName->name.name, hit) &&
        hit.ref == RefKind::Dependency && hit.type != nullptr &&
        hit.type->kind == TypeKind::Capability) {
      record(e->base, hit.type, RefKind::Dependency).index = hit.index;
      return capabilityOp(e, nullptr, hit.type->capability, e->name, true);
    }
  }
  llvm::SmallVector<ast::Ident, 4> parts;
  ScopeHit first;
  if (pathOf(e, parts) && !lookupScoped(parts[0].name, first) &&
      localFn(parts[0].name) == nullptr && parts[0].name != "None") {
    PathHit path = lookupPath(parts);
    if (path.status == LookupResult::Status::Ambiguous) {
      reportAmbiguous(parts[0], path);
      return record(e, tt.error()).type;
    }
    if (path.status == LookupResult::Status::NotFound) {
      reportUnknownName(parts[0]);
      return record(e, tt.error()).type;
    }
    std::size_t remaining = parts.size() - path.partsUsed;
    DeclInfo* decl = path.decl;
    if (decl == nullptr) return record(e, tt.error()).type;
    if (remaining == 0) {
      reportNotAValue(e, sema().sources.textOf(e->range), decl);
      return record(e, tt.error(), RefKind::TypeName).type;
    }
    if (remaining == 1) {
      const ast::Ident& member = parts.back();
      record(e->base, tt.error(), RefKind::TypeName).decl = decl;
      if (auto* cap = dyn_cast<CapabilityInfo>(decl))
        return capabilityOp(e, nullptr, cap, member, false);
      if (auto* type = dyn_cast<TypeInfo>(decl)) {
        if (type->def == TypeDefKind::Sum)
          if (const VariantInfo* v = type->variant(member.name)) {
            const Type* sum = tt.named(type);
            ExprInfo& info = record(e, sum, RefKind::Variant);
            info.decl = type;
            info.setTarget(v);
            if (!v->fields.empty())
              sema()
                  .diags
                  .report<diag::ArgumentCount>(
                      e->range, member.name,
                      static_cast<std::uint32_t>(v->fields.size()), 0u)
                  .note("build it with '{}(...)'", member.name.str());
            return sum;
          }
        for (const FnInfo* f : type->staticFns)
          if (f != nullptr && f->name == member.name) {
            reportNotAValue(e, sema().sources.textOf(e->range), f);
            return record(e, tt.error(), RefKind::Function).type;
          }
        std::vector<std::string> names;
        for (const VariantInfo& v : type->variants) names.push_back(v.name);
        for (const FnInfo* f : type->staticFns)
          if (f != nullptr) names.push_back(f->name);
        std::string best = closestName(member.name, names);
        if (type->def == TypeDefKind::Sum) {
          auto report = sema().diags.report<diag::UnknownVariant>(
              member.range, type->name, member.name);
          if (!best.empty()) {
            report.note("did you mean '{}'?", best);
            report.fixit(member.range, best);
          }
        } else {
          auto report = sema().diags.report<diag::UnknownMethod>(
              member.range, type->name, member.name);
          if (!best.empty()) {
            report.note("did you mean '{}'?", best);
            report.fixit(member.range, best);
          }
        }
        return record(e, tt.error()).type;
      }
      if (e->base != nullptr)
        reportNotAValue(e->base, sema().sources.textOf(e->base->range), decl);
      return record(e, tt.error()).type;
    }
    // Longer paths: the prefix is resolved by the recursion on the base.
  }
  const Type* base = check(e->base, nullptr);
  return checkValueField(e, base);
}

const Type* BodyChecker::checkValueField(const ast::FieldExpr* e,
                                         const Type* base) {
  TypeTable& tt = types();
  llvm::StringRef name = e->name.name;
  if (quiet(base) || base->kind == TypeKind::Never)
    return record(e, tt.error()).type;
  llvm::ArrayRef<FieldInfo> fields;
  std::string typeName = displayName(base);
  bool hasFields = false;
  switch (base->kind) {
    case TypeKind::Named: {
      const TypeInfo* type = base->named;
      if (type->def == TypeDefKind::Refined && type->base != nullptr)
        return checkValueField(e, type->base);
      if (type->def == TypeDefKind::Opaque && name == "raw") {
        if (type->context != &context_) {
          sema()
              .diags
              .report<diag::OpaqueOutsideOwner>(
                  e->name.range, type->name, "opened with '.raw'",
                  type->context != nullptr ? type->context->name : "")
              .note(type->nameRange,
                    "'{}' is declared opaque in context "
                    "'{}'; only code there can see its representation",
                    type->name,
                    type->context != nullptr ? type->context->name : "");
          return record(e, tt.error(), RefKind::OpaqueRaw).type;
        }
        ExprInfo& info =
            record(e, type->base != nullptr ? type->base : tt.error(),
                   RefKind::OpaqueRaw);
        info.decl = type;
        return info.type;
      }
      if (type->def == TypeDefKind::Record) {
        fields = type->fields;
        hasFields = true;
      }
      break;
    }
    case TypeKind::Event:
      fields = base->event->fields;
      hasFields = true;
      break;
    case TypeKind::Actor:
      fields = base->actor->params;
      hasFields = true;
      break;
    case TypeKind::Envelope:
      for (const EnvelopeField& f : kEnvelopeFields)
        if (f.name == name) {
          const Type* t = f.kind == TypeKind::String ? tt.string()
                          : f.kind == TypeKind::Int  ? tt.intType()
                          : f.kind == TypeKind::Instant
                              ? tt.instant()
                              : tt.option(tt.string());
          return record(e, t, RefKind::EnvelopeField).type;
        }
      break;
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Unit:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::String:
    case TypeKind::Instant:
    case TypeKind::Duration:
    case TypeKind::Option:
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Ref:
    case TypeKind::Capability:
      break;
  }
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == name) {
      ExprInfo& info = record(e, fields[i].type ? fields[i].type : tt.error(),
                              RefKind::FieldAccess);
      info.index = static_cast<std::uint32_t>(i);
      return info.type;
    }
  if (llvm::is_contained(builtinMethodNames(tt, base), name)) {
    sema()
        .diags
        .report<diag::NotAValue>(e->name.range, name,
                                 "an operation of '" + typeName + "'")
        .note("call it: '{}()'", name.str())
        .fixit(SourceRange{e->range.file, e->range.end, e->range.end}, "()");
    return record(e, tt.error(), RefKind::Method).type;
  }
  std::vector<std::string> names;
  for (const FieldInfo& f : fields) names.push_back(f.name);
  if (base->kind == TypeKind::Envelope)
    for (const EnvelopeField& f : kEnvelopeFields)
      names.push_back(f.name.str());
  auto report =
      sema().diags.report<diag::UnknownField>(e->name.range, typeName, name);
  if (base->kind == TypeKind::Int &&
      llvm::isa<ast::IntLitExpr>(stripParens(e->base)))
    report.note(
        "a duration is written with one of the units 'ms', "
        "'seconds', 'minutes', 'hours' or 'days', as in '5.days'");
  if (hasFields || base->kind == TypeKind::Envelope) {
    if (names.empty())
      report.note("'{}' has no fields", typeName);
    else
      report.note("'{}' has {} {}", typeName,
                  names.size() == 1 ? "field" : "fields", quotedList(names));
  }
  std::string best = closestName(name, names);
  if (!best.empty()) {
    report.note("did you mean '{}'?", best);
    report.fixit(e->name.range, best);
  }
  return record(e, tt.error()).type;
}

}  // namespace herald::check
