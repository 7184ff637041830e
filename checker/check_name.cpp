// Names, qualified paths and field accesses: locals, parameters, the key,
// stores, the actor binder, dependencies, then declarations; variants
// (qualified, or bare where the expected type is a sum); record, event,
// actor, envelope and opaque (`.raw`) fields.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"
#include "checker/names_util.h"
#include "checker/record_use.h"
#include "checker/resolve.h"

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

BodyScope BodyChecker::scope() const {
  BodyScope scope;
  scope.locals = locals_;
  scope.params = params_;
  if (role_ == BodyRole::AgentFn || role_ == BodyRole::Handler ||
      role_ == BodyRole::Invariant)
    scope.agent = agent_;
  if (role_ == BodyRole::Handler) scope.handler = handler_;
  if (role_ == BodyRole::AgentFn) scope.fn = fn_;
  scope.service = service_;
  return scope;
}

Resolution BodyChecker::resolve(llvm::ArrayRef<ast::Ident> parts,
                                const Type* expected) const {
  return resolveName(pass_.sema.program, context_, scope(), parts, expected);
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
  for (const FieldInfo& p : params_) candidates.push_back(p.name);
  if (agent_ != nullptr && role_ != BodyRole::PureFn &&
      role_ != BodyRole::StoreInit) {
    if (agent_->key) candidates.push_back(agent_->key->name);
    for (const StoreInfo& s : agent_->stores)
      candidates.push_back(s.field.name);
    for (const auto& f : agent_->fns) candidates.push_back(f->name);
  }
  if (service_ != nullptr)
    for (const auto& f : service_->fns) candidates.push_back(f->name);
  if (role_ == BodyRole::AgentFn && fn_ != nullptr)
    for (const DependencyInfo& d : fn_->given)
      if (d.named) candidates.push_back(d.name);
  if (handler_ != nullptr) {
    if (!handler_->byBinder.empty()) candidates.push_back(handler_->byBinder);
    for (const DependencyInfo& d : handler_->given)
      candidates.push_back(d.name);
    if (service_ != nullptr)
      for (const DependencyInfo& d : service_->given)
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

void BodyChecker::reportAmbiguous(llvm::ArrayRef<ast::Ident> parts,
                                  const Resolution& hit) {
  LookupResult r;
  r.status = LookupResult::Status::Ambiguous;
  r.partsUsed = hit.partsUsed;
  const std::size_t used = std::max<std::size_t>(1, hit.partsUsed);
  SourceRange range = parts.front().range;
  range.end = parts[std::min(used, parts.size()) - 1].range.end;
  check::reportAmbiguous(sema(), context_, r, parts, range);
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
    Resolution r = resolveName(pass_.sema.program, context_, BodyScope{},
                               llvm::ArrayRef<ast::Ident>(part), nullptr);
    if (r.kind == NameKind::Type && r.typeInfo->def == TypeDefKind::Sum &&
        r.typeInfo->variant(variant) != nullptr)
      out.push_back(n + "." + variant.str());
  }
  return out;
}

const Type* BodyChecker::scopedType(const Resolution& r) {
  if (r.kind == NameKind::ActorBinder)
    return types().actor(llvm::cast<ActorInfo>(r.decl));
  return r.type;
}

InstId BodyChecker::scopedValue(const Resolution& r, SourceRange at) {
  const Type* t = scopedType(r);
  switch (r.kind) {
    case NameKind::Local:
      return emit(InstKind::LocalRef, t, at, r.index);
    case NameKind::Param:
      return emit(InstKind::ParamRef, t, at, r.index);
    case NameKind::Key:
      return emit(InstKind::KeyRef, t, at);
    case NameKind::Store:
      return emit(InstKind::StoreRef, t, at, r.index);
    case NameKind::ActorBinder:
      return emit(InstKind::ActorRef, t, at);
    case NameKind::Dependency:
    case NameKind::AgentRefDependency:
    case NameKind::CapabilityOp:  // reached through its dependency
      return emit(InstKind::Dependency, t, at, r.index);
    case NameKind::Some:
    case NameKind::None:
    case NameKind::Fn:
    case NameKind::AgentFn:
    case NameKind::Type:
    case NameKind::Constructor:
    case NameKind::RecordType:
    case NameKind::Event:
    case NameKind::Capability:
    case NameKind::Agent:
    case NameKind::Actor:
    case NameKind::Service:
    case NameKind::Variant:
    case NameKind::StaticFn:
    case NameKind::UnknownMember:
    case NameKind::ContextPrefix:
    case NameKind::NotFound:
    case NameKind::Ambiguous:
      break;
  }
  return invalid(at);
}

// A variant named without its payload: a value only when it has none.
InstId BodyChecker::variantValue(const ast::Expr* e, const ast::Ident& name,
                                 const Resolution& r) {
  const Type* sum = types().named(r.typeInfo);
  if (!r.variant->fields.empty()) {
    sema()
        .diags
        .report<diag::ArgumentCount>(
            e->range, name.name,
            static_cast<std::uint32_t>(r.variant->fields.size()), 0u)
        .note("build it with '{}(...)'", name.name.str());
    return invalid(e->range, sum);
  }
  return emit(InstKind::Variant, sum, e->range,
              ir().variants.intern({r.typeInfo, r.variant}).index(), list({}));
}

InstId BodyChecker::checkName(const ast::NameExpr* e, const Type* expected) {
  llvm::StringRef name = e->name.name;
  if (name.empty()) return invalid(e->range);
  ast::Ident part = e->name;
  Resolution r = resolve(llvm::ArrayRef<ast::Ident>(part), expected);
  recordResolution(sema().program, llvm::ArrayRef<ast::Ident>(part), r);
  switch (r.kind) {
    case NameKind::Local:
    case NameKind::Param:
    case NameKind::Key:
    case NameKind::Store:
    case NameKind::ActorBinder:
      if (quiet(scopedType(r))) return invalid(e->range);
      return scopedValue(r, e->range);
    case NameKind::Dependency:
    case NameKind::AgentRefDependency:
      // A dependency whose type did not resolve was reported at its `given`.
      if (quiet(r.type)) return invalid(e->range);
      sema()
          .diags.report<diag::NotAValue>(e->range, name, "a 'given' dependency")
          .note(r.declRange, "'{}' is given here", name.str());
      return invalid(e->range);
    case NameKind::None: {
      const Type* opt = expected;
      if (opt != nullptr && opt->kind == TypeKind::Option)
        return emit(InstKind::OptionNone, opt, e->range);
      if (quiet(expected) && expected != nullptr) return invalid(e->range);
      if (expected != nullptr) {
        // `None` where a value of another type is expected.
        sema().diags.report<diag::TypeMismatch>(e->range, displayName(expected),
                                                std::string("Option[_]"));
        return invalid(e->range);
      }
      sema()
          .diags.report<diag::CannotInfer>(e->range, "'None'")
          .note("give the binding a type, e.g. 'let x: Option[String] = None'");
      return invalid(e->range);
    }
    case NameKind::Some:
      sema()
          .diags
          .report<diag::NotAValue>(e->range, name,
                                   "the constructor of 'Option'")
          .note("call it with the value: 'Some(...)'");
      return invalid(e->range);
    case NameKind::Fn:
    case NameKind::AgentFn:
      reportNotAValue(e, name, r.fn);
      return invalid(e->range);
    case NameKind::Variant:  // bare, of the expected sum
      return variantValue(e, e->name, r);
    case NameKind::Type:
    case NameKind::Constructor:
    case NameKind::RecordType:
    case NameKind::Event:
    case NameKind::Capability:
    case NameKind::Agent:
    case NameKind::Actor:
    case NameKind::Service:
      reportNotAValue(e, name, r.decl);
      return invalid(e->range);
    case NameKind::StaticFn:
    case NameKind::CapabilityOp:
    case NameKind::UnknownMember:
      // A member takes two parts; one name never resolves to one.
      return invalid(e->range);
    case NameKind::Ambiguous:
      reportAmbiguous(llvm::ArrayRef<ast::Ident>(e->name), r);
      return invalid(e->range);
    case NameKind::ContextPrefix:
      reportContextPrefix(e, llvm::ArrayRef<ast::Ident>(part), r, false);
      return invalid(e->range);
    case NameKind::NotFound:
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

void BodyChecker::reportContextPrefix(const ast::Expr* e,
                                      llvm::ArrayRef<ast::Ident> parts,
                                      const Resolution& r, bool called) {
  const std::string& ctx = r.context->name;
  if (r.partsUsed == parts.size()) {
    if (called)
      sema().diags.report<diag::NotCallable>(e->range, "context '" + ctx + "'");
    else
      sema()
          .diags.report<diag::NotAValue>(e->range, ctx, "a context")
          .note("name one of its declarations: '{}.Name'", ctx);
    return;
  }
  const ast::Ident& member = parts[r.partsUsed];
  auto report =
      sema().diags.report<diag::UnknownName>(member.range, member.name);
  report.note("context '{}' declares no '{}'", ctx, member.name.str());
  if (!sema().speller.admit()) return;
  std::vector<std::string> names;
  for (const auto& entry : r.context->byName)
    names.push_back(entry.getKey().str());
  std::sort(names.begin(), names.end());
  std::string best = sema().speller.closest(member.name, names);
  if (!best.empty()) {
    report.note("did you mean '{}'?", best);
    report.fixit(member.range, best);
  }
}

void BodyChecker::reportUnknownMember(const ast::Ident& member,
                                      const TypeInfo* type) {
  std::vector<std::string> names;
  for (const VariantInfo& v : type->variants) names.push_back(v.name);
  for (const FnInfo* f : type->staticFns)
    if (f != nullptr) names.push_back(f->name);
  std::string best = closestName(member.name, names);
  auto report = type->def == TypeDefKind::Sum
                    ? sema().diags.report<diag::UnknownVariant>(
                          member.range, type->name, member.name)
                    : sema().diags.report<diag::UnknownMethod>(
                          member.range, type->name, member.name);
  if (!best.empty()) {
    report.note("did you mean '{}'?", best);
    report.fixit(member.range, best);
  }
}

std::optional<InstId> BodyChecker::pathLink(const ast::FieldExpr* e,
                                            llvm::ArrayRef<ast::Ident> parts,
                                            const Resolution& r) {
  bool whole = r.partsUsed == parts.size();
  switch (r.kind) {
    case NameKind::Local:
    case NameKind::Param:
    case NameKind::Key:
    case NameKind::Store:
    case NameKind::ActorBinder:
    case NameKind::Dependency:
    case NameKind::AgentRefDependency:
    case NameKind::Some:
    case NameKind::None:
    case NameKind::Fn:
    case NameKind::AgentFn:
      break;
    case NameKind::CapabilityOp:
      if (!whole) break;
      return capabilityOp(
          e, nullptr, r.cap, e->name,
          r.viaDependency ? scopedValue(r, e->base->range) : InstId{},
          e->base->range);
    case NameKind::Variant:
      if (!whole) break;
      return variantValue(e, e->name, r);
    case NameKind::StaticFn:
      if (!whole) break;
      reportNotAValue(e, sema().sources.textOf(e->range), r.fn);
      return invalid(e->range);
    case NameKind::UnknownMember:
      if (!whole) break;
      reportUnknownMember(e->name, r.typeInfo);
      return invalid(e->range);
    case NameKind::Type:
    case NameKind::Constructor:
    case NameKind::RecordType:
    case NameKind::Event:
    case NameKind::Capability:
    case NameKind::Agent:
    case NameKind::Actor:
    case NameKind::Service:
      if (!whole) break;
      reportNotAValue(e, sema().sources.textOf(e->range), r.decl);
      return invalid(e->range);
    case NameKind::Ambiguous:
      reportAmbiguous(parts, r);
      return invalid(e->range);
    case NameKind::ContextPrefix:
      reportContextPrefix(e, parts, r, false);
      return invalid(e->range);
    case NameKind::NotFound:
      reportUnknownName(parts[0]);
      return invalid(e->range);
  }
  return std::nullopt;
}

namespace {

// A link of a postfix chain whose value waits for the value below it.
struct PendingLink {
  enum class Kind : std::uint8_t {
    Field,         // `below.name`
    BrokenField,   // `below.` with its name missing
    Member,        // `below.name(...)`
    BrokenMember,  // `below.(...)`
    Value,         // `below(...)`, `below` no path
  };
  Kind kind;
  const ast::Expr* node;  // the FieldExpr or CallExpr
};

// Where the run of named field links from `e` down ends: a NameExpr when
// `e` is a path (`a.b.c`), else the first link or base that is no part of
// one.
const ast::Expr* pathEnd(const ast::Expr* e) {
  while (const auto* field = dyn_cast_or_null<ast::FieldExpr>(e)) {
    if (field->name.empty()) return e;
    e = field->base;
  }
  return e;
}

bool endsPath(const ast::Expr* end) {
  const auto* name = dyn_cast_or_null<ast::NameExpr>(end);
  return name != nullptr && !name->name.empty();
}

}  // namespace

// The chain is walked down once, from its top link to its base, each link
// left pending until the value below it is known; then the pending links
// are applied from the bottom up. Work and stack stay linear in the chain's
// length and the instructions come out in the order a recursive walk would
// emit them. A path (`a.b.c`, or `a.b.c(...)` as a callee) is resolved
// once, where the walk first reaches it: the path of each link below is a
// prefix of it, which the resolver reads the same way as far as the
// resolution reaches.
InstId BodyChecker::checkPostfix(const ast::Expr* top, const Type* expected) {
  llvm::SmallVector<PendingLink, 4> pending;
  const ast::Expr* e = top;
  // Only the top link sees the expected type; every link below is checked
  // as an operand.
  const Type* want = expected;
  // The end of the current run of field links, once it is known to be no
  // path, so that each run is scanned once.
  const ast::Expr* runEnd = nullptr;
  auto descend = [&](PendingLink::Kind kind, const ast::Expr* node,
                     const ast::Expr* below) {
    pending.push_back({kind, node});
    want = nullptr;
    e = below;
    if (e == runEnd) runEnd = nullptr;
  };
  // The links of the path `parts`, from `link` (which spells all of it)
  // down to its first name, resolved as `r`.
  auto walkPath = [&](const ast::Expr* link, llvm::ArrayRef<ast::Ident> parts,
                      const Resolution& r) -> InstId {
    for (; parts.size() > 1; parts = parts.drop_back()) {
      const auto* field = llvm::cast<ast::FieldExpr>(link);
      if (std::optional<InstId> v = pathLink(field, parts, r))
        return typed(field, *v);
      pending.push_back({PendingLink::Kind::Field, field});
      link = field->base;
    }
    return check(link, nullptr);
  };
  InstId value;
  for (;;) {
    if (const auto* field = dyn_cast_or_null<ast::FieldExpr>(e)) {
      if (field->name.empty()) {
        descend(PendingLink::Kind::BrokenField, field, field->base);
        continue;
      }
      if (runEnd == nullptr) {
        const ast::Expr* end = pathEnd(field);
        if (endsPath(end)) {
          llvm::SmallVector<ast::Ident, 4> parts;
          namePath(field, parts);
          Resolution r = resolve(parts, nullptr);
          recordResolution(sema().program, parts, r);
          value = walkPath(field, parts, r);
          break;
        }
        runEnd = end;
      }
      descend(PendingLink::Kind::Field, field, field->base);
      continue;
    }
    const auto* call = dyn_cast_or_null<ast::CallExpr>(e);
    if (call == nullptr) {
      value = check(e, nullptr);
      break;
    }
    const ast::Expr* callee = call->callee;
    if (callee == nullptr || llvm::isa<ast::ErrorExpr>(callee)) {
      value = typed(call, checkArgsQuietly(call));
      break;
    }
    if (const auto* apply = dyn_cast<ast::TypeApplyExpr>(callee)) {
      value = typed(call, checkAppliedCall(call, apply));
      break;
    }
    if (const auto* name = dyn_cast<ast::NameExpr>(callee)) {
      value = typed(call, checkNameCall(call, name, want));
      break;
    }
    const auto* member = dyn_cast<ast::FieldExpr>(callee);
    if (member == nullptr) {
      descend(PendingLink::Kind::Value, call, callee);
      continue;
    }
    if (member->name.empty()) {
      descend(PendingLink::Kind::BrokenMember, call, member->base);
      continue;
    }
    if (runEnd == nullptr) {
      const ast::Expr* end = pathEnd(member);
      if (endsPath(end)) {
        llvm::SmallVector<ast::Ident, 4> parts;
        namePath(member, parts);
        Resolution r = resolve(parts, nullptr);
        recordResolution(sema().program, parts, r);
        bool handled = false;
        InstId v = checkPathCall(call, want, parts, r, handled);
        if (handled) {
          value = typed(call, v);
          break;
        }
        // Not a declaration's call: a member of what the shorter path
        // names, which the same resolution covers.
        pending.push_back({PendingLink::Kind::Member, call});
        value = walkPath(member->base,
                         llvm::ArrayRef<ast::Ident>(parts).drop_back(), r);
        break;
      }
      runEnd = end;
    }
    descend(PendingLink::Kind::Member, call, member->base);
  }
  for (auto it = pending.rbegin(); it != pending.rend(); ++it) {
    switch (it->kind) {
      case PendingLink::Kind::Field: {
        const auto* field = llvm::cast<ast::FieldExpr>(it->node);
        value = typed(field, checkValueField(field, value, typeOf(value)));
        break;
      }
      case PendingLink::Kind::BrokenField:
        value = typed(it->node, invalid(it->node->range));
        break;
      case PendingLink::Kind::Member: {
        const auto* call = llvm::cast<ast::CallExpr>(it->node);
        value = typed(
            call,
            callMember(call, llvm::cast<ast::FieldExpr>(call->callee), value));
        break;
      }
      case PendingLink::Kind::BrokenMember:
        value = typed(it->node,
                      checkArgsQuietly(llvm::cast<ast::CallExpr>(it->node)));
        break;
      case PendingLink::Kind::Value:
        value = typed(it->node,
                      callValue(llvm::cast<ast::CallExpr>(it->node), value));
        break;
    }
  }
  return value;
}

InstId BodyChecker::checkValueField(const ast::FieldExpr* e, InstId value,
                                    const Type* base) {
  TypeTable& tt = types();
  llvm::StringRef name = e->name.name;
  if (quiet(base)) return invalid(e->range);
  // `fail(...).cents` never reads a field: the failure is the value, and
  // Never fits wherever the field's value was expected.
  if (base->kind == TypeKind::Never) return value;
  llvm::ArrayRef<FieldInfo> fields;
  bool hasFields = false;
  switch (base->kind) {
    case TypeKind::Named: {
      const TypeInfo* type = base->named;
      if (type->def == TypeDefKind::Refined && type->base != nullptr)
        return checkValueField(
            e,
            emit(InstKind::Unrefine, type->base, e->base->range, value.index()),
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
        return emit(InstKind::OpaqueRaw, type->base, e->range, value.index());
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
          return emit(InstKind::EnvelopeGet, t, e->range, value.index(), 0,
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
      sema().program.uses.record(e->name.range, fields[i].nameRange,
                                 fields[i].type);
      if (quiet(fields[i].type)) return invalid(e->range);
      return emit(InstKind::FieldGet, fields[i].type, e->range, value.index(),
                  static_cast<std::uint32_t>(i));
    }
  const std::string typeName = displayName(base);
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
