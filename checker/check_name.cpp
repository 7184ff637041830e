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

struct EnvelopeFieldType {
  EnvelopeField field;
  TypeKind kind;
};

// language.md section 5; causationId is Option[String].
constexpr EnvelopeFieldType kEnvelopeFields[] = {
    {EnvelopeField::EventId, TypeKind::String},
    {EnvelopeField::EventType, TypeKind::String},
    {EnvelopeField::PublisherId, TypeKind::String},
    {EnvelopeField::Sequence, TypeKind::Int},
    {EnvelopeField::EmittedAt, TypeKind::Instant},
    {EnvelopeField::SchemaVersion, TypeKind::Int},
    {EnvelopeField::CausationId, TypeKind::Option},
    {EnvelopeField::CorrelationId, TypeKind::String},
    {EnvelopeField::Depth, TypeKind::Int},
};
static_assert(std::size(kEnvelopeFields) == kEnvelopeFieldCount);

}  // namespace

bool BodyChecker::lookupScoped(llvm::StringRef name, ScopeHit& hit) const {
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
    if (it->name == name) {
      hit = {ScopeKind::Local, it->type, it->slot.index, it->range};
      return true;
    }
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name) {
      hit = {ScopeKind::Param, params[i].type, static_cast<std::uint32_t>(i),
             params[i].nameRange};
      return true;
    }
  bool agentScope = agent != nullptr &&
                    (role_ == BodyRole::AgentFn || role_ == BodyRole::Handler ||
                     role_ == BodyRole::Invariant);
  if (agentScope) {
    if (agent->key && agent->key->name == name) {
      hit = {ScopeKind::Key, agent->key->type, 0, agent->key->nameRange};
      return true;
    }
    for (std::size_t i = 0; i < agent->stores.size(); ++i)
      if (agent->stores[i].field.name == name) {
        const FieldInfo& f = agent->stores[i].field;
        hit = {ScopeKind::Store, f.type, static_cast<std::uint32_t>(i),
               f.nameRange};
        return true;
      }
  }
  if (role_ != BodyRole::Handler || handler == nullptr) return false;
  if (handler->by != nullptr && !handler->byBinder.empty() &&
      handler->byBinder == name) {
    hit = {ScopeKind::ActorBinder, pass_.sema.program.types.actor(handler->by),
           0,
           handler->decl != nullptr && handler->decl->by != nullptr
               ? handler->decl->by->binder.range
               : handler->nameRange};
    return true;
  }
  for (std::size_t i = 0; i < handler->given.size(); ++i)
    if (handler->given[i].named && handler->given[i].name == name) {
      hit = {
          ScopeKind::Dependency, handler->given[i].type,
          DepRef{DepRef::List::Handler, static_cast<std::uint32_t>(i)}.encode(),
          handler->given[i].range};
      return true;
    }
  if (service != nullptr)
    for (std::size_t i = 0; i < service->given.size(); ++i)
      if (service->given[i].named && service->given[i].name == name) {
        hit = {ScopeKind::Dependency, service->given[i].type,
               DepRef{DepRef::List::Service, static_cast<std::uint32_t>(i)}
                   .encode(),
               service->given[i].range};
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
  // Past the program's budget of suggestions, no candidate list is built.
  if (!pass_.sema.speller.admit()) {
    sema().diags.report<diag::UnknownName>(name.range, name.name);
    return;
  }
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
  std::string best = pass_.sema.speller.closest(name.name, candidates);
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

InstId BodyChecker::bareVariant(const ast::Expr* e, const ast::Ident& name,
                                const Type* expected, bool called) {
  if (!isSum(expected)) return InstId{};
  const VariantInfo* v = expected->named->variant(name.name);
  if (v == nullptr) return InstId{};
  if (!called && !v->fields.empty()) {
    sema()
        .diags
        .report<diag::ArgumentCount>(
            e->range, name.name, static_cast<std::uint32_t>(v->fields.size()),
            0u)
        .note("build it with '{}(...)'", name.name.str());
    return invalid(e->range, expected);
  }
  return emit(InstKind::Variant, expected, e->range,
              ir().variants.intern({expected->named, v}), list({}));
}

InstId BodyChecker::scopedValue(const ScopeHit& hit, SourceRange at) {
  switch (hit.kind) {
    case ScopeKind::Local:
      return emit(InstKind::LocalRef, hit.type, at, hit.index);
    case ScopeKind::Param:
      return emit(InstKind::ParamRef, hit.type, at, hit.index);
    case ScopeKind::Key:
      return emit(InstKind::KeyRef, hit.type, at);
    case ScopeKind::Store:
      return emit(InstKind::StoreRef, hit.type, at, hit.index);
    case ScopeKind::ActorBinder:
      return emit(InstKind::ActorRef, hit.type, at);
    case ScopeKind::Dependency:
      return emit(InstKind::Dependency, hit.type, at, hit.index);
  }
  return invalid(at);
}

InstId BodyChecker::checkName(const ast::NameExpr* e, const Type* expected) {
  llvm::StringRef name = e->name.name;
  if (name.empty()) return invalid(e->range);
  ScopeHit hit;
  if (lookupScoped(name, hit)) {
    if (hit.kind == ScopeKind::Dependency) {
      // A dependency whose type did not resolve was reported at its `given`.
      if (quiet(hit.type)) return invalid(e->range);
      sema()
          .diags.report<diag::NotAValue>(e->range, name, "a 'given' dependency")
          .note(hit.declRange, "'{}' is given here", name.str());
      return invalid(e->range);
    }
    if (quiet(hit.type)) return invalid(e->range);
    return scopedValue(hit, e->range);
  }
  if (name == "None") {
    const Type* opt = expected;
    if (opt != nullptr && opt->kind == TypeKind::Option)
      return emit(InstKind::OptionNone, opt, e->range);
    if (quiet(expected) && expected != nullptr) return invalid(e->range);
    sema()
        .diags.report<diag::CannotInfer>(e->range, "'None'")
        .note("give the binding a type, e.g. 'let x: Option[String] = None'");
    return invalid(e->range);
  }
  if (const FnInfo* f = localFn(name)) {
    reportNotAValue(e, name, f);
    return invalid(e->range);
  }
  if (InstId v = bareVariant(e, e->name, expected, false); v.valid()) return v;
  ast::Ident part = e->name;
  PathHit path = lookupPath(llvm::ArrayRef<ast::Ident>(part));
  switch (path.status) {
    case LookupResult::Status::Found:
      reportNotAValue(e, name, path.decl);
      return invalid(e->range);
    case LookupResult::Status::Ambiguous:
      reportAmbiguous(e->name, path);
      return invalid(e->range);
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
    return invalid(e->range);
  }
  std::vector<std::string> sums = sumsWithVariant(name);
  if (!sums.empty()) {
    if (quiet(expected) && expected != nullptr) return invalid(e->range);
    auto report = sema().diags.report<diag::CannotInfer>(
        e->range, "'" + name.str() + "'");
    report.note("no sum type is expected here; name the type: '{}'",
                sums.front());
    report.fixit(e->range, sums.front());
    return invalid(e->range);
  }
  reportUnknownName(e->name);
  return invalid(e->range);
}

InstId BodyChecker::checkField(const ast::FieldExpr* e,
                               const Type* /*expected*/) {
  TypeTable& tt = types();
  if (e->name.empty()) {
    check(e->base, nullptr);
    return invalid(e->range);
  }
  // A named capability dependency: `Fx.convert`, `Clock.now`.
  if (const auto* baseName = dyn_cast_or_null<ast::NameExpr>(e->base)) {
    ScopeHit hit;
    if (lookupScoped(baseName->name.name, hit) &&
        hit.kind == ScopeKind::Dependency && hit.type != nullptr &&
        hit.type->kind == TypeKind::Capability) {
      InstId reach = scopedValue(hit, e->base->range);
      return capabilityOp(e, nullptr, hit.type->capability, e->name, reach,
                          e->base->range);
    }
  }
  llvm::SmallVector<ast::Ident, 4> parts;
  ScopeHit first;
  if (pathOf(e, parts) && !lookupScoped(parts[0].name, first) &&
      localFn(parts[0].name) == nullptr && parts[0].name != "None") {
    PathHit path = lookupPath(parts);
    if (path.status == LookupResult::Status::Ambiguous) {
      reportAmbiguous(parts[0], path);
      return invalid(e->range);
    }
    if (path.status == LookupResult::Status::NotFound) {
      reportUnknownName(parts[0]);
      return invalid(e->range);
    }
    std::size_t remaining = parts.size() - path.partsUsed;
    DeclInfo* decl = path.decl;
    if (decl == nullptr) return invalid(e->range);
    if (remaining == 0) {
      reportNotAValue(e, sema().sources.textOf(e->range), decl);
      return invalid(e->range);
    }
    if (remaining == 1) {
      const ast::Ident& member = parts.back();
      if (auto* cap = dyn_cast<CapabilityInfo>(decl))
        return capabilityOp(e, nullptr, cap, member, InstId{}, e->base->range);
      if (auto* type = dyn_cast<TypeInfo>(decl)) {
        if (type->def == TypeDefKind::Sum)
          if (const VariantInfo* v = type->variant(member.name)) {
            const Type* sum = tt.named(type);
            if (!v->fields.empty()) {
              sema()
                  .diags
                  .report<diag::ArgumentCount>(
                      e->range, member.name,
                      static_cast<std::uint32_t>(v->fields.size()), 0u)
                  .note("build it with '{}(...)'", member.name.str());
              return invalid(e->range, sum);
            }
            return emit(InstKind::Variant, sum, e->range,
                        ir().variants.intern({type, v}), list({}));
          }
        for (const FnInfo* f : type->staticFns)
          if (f != nullptr && f->name == member.name) {
            reportNotAValue(e, sema().sources.textOf(e->range), f);
            return invalid(e->range);
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
        return invalid(e->range);
      }
      if (e->base != nullptr)
        reportNotAValue(e->base, sema().sources.textOf(e->base->range), decl);
      return invalid(e->range);
    }
    // Longer paths: the prefix is resolved by the recursion on the base.
  }
  InstId base = check(e->base, nullptr);
  return checkValueField(e, base, typeOf(base));
}

InstId BodyChecker::checkValueField(const ast::FieldExpr* e, InstId value,
                                    const Type* base) {
  TypeTable& tt = types();
  llvm::StringRef name = e->name.name;
  if (quiet(base) || base->kind == TypeKind::Never) return invalid(e->range);
  llvm::ArrayRef<FieldInfo> fields;
  std::string typeName = displayName(base);
  bool hasFields = false;
  switch (base->kind) {
    case TypeKind::Named: {
      const TypeInfo* type = base->named;
      if (type->def == TypeDefKind::Refined && type->base != nullptr)
        return checkValueField(
            e,
            emit(InstKind::Unrefine, type->base, e->base->range, value.index),
            type->base);
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
          return invalid(e->range);
        }
        if (quiet(type->base)) return invalid(e->range);
        return emit(InstKind::OpaqueRaw, type->base, e->range, value.index);
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
      for (const EnvelopeFieldType& f : kEnvelopeFields)
        if (name == llvm::StringRef(envelopeSpelling(f.field))) {
          const Type* t = f.kind == TypeKind::String ? tt.string()
                          : f.kind == TypeKind::Int  ? tt.intType()
                          : f.kind == TypeKind::Instant
                              ? tt.instant()
                              : tt.option(tt.string());
          return emit(InstKind::EnvelopeGet, t, e->range, value.index, 0,
                      static_cast<std::uint8_t>(f.field));
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
      if (quiet(fields[i].type)) return invalid(e->range);
      return emit(InstKind::FieldGet, fields[i].type, e->range, value.index,
                  static_cast<std::uint32_t>(i));
    }
  if (llvm::is_contained(builtinMethodNames(tt, base), name)) {
    sema()
        .diags
        .report<diag::NotAValue>(e->name.range, name,
                                 "an operation of '" + typeName + "'")
        .note("call it: '{}()'", name.str())
        .fixit(SourceRange{e->range.file, e->range.end, e->range.end}, "()");
    return invalid(e->range);
  }
  std::vector<std::string> names;
  for (const FieldInfo& f : fields) names.push_back(f.name);
  if (base->kind == TypeKind::Envelope)
    for (const EnvelopeFieldType& f : kEnvelopeFields)
      names.push_back(std::string(envelopeSpelling(f.field)));
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
  return invalid(e->range);
}

}  // namespace herald::check
