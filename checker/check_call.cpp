// Calls: fns (context-level, static, agent- and service-local), variant
// constructors, `Some`, opaque/refined constructors, capability operations,
// agent addresses `Rooms(key)` and one-way messages `Rooms(key).h(...)`,
// and the built-in operations on String, List, Option and Map.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"
#include "checker/eval.h"
#include "checker/record_use.h"
#include "checker/resolve.h"

namespace herald::check {

namespace {

struct MethodSig {
  BuiltinMethod method = BuiltinMethod::StringLen;
  llvm::SmallVector<ParamView, 2> params;
  const Type* result = nullptr;
};

// The built-in operations (the language decisions list exactly these).
bool methodSig(TypeTable& tt, const Type* t, llvm::StringRef name,
               MethodSig& sig) {
  auto set = [&](BuiltinMethod m, std::initializer_list<ParamView> ps,
                 const Type* result) {
    sig.method = m;
    sig.params.assign(ps.begin(), ps.end());
    sig.result = result;
    return true;
  };
  using M = BuiltinMethod;
  switch (t->kind) {
    case TypeKind::String:
      if (name == "len") return set(M::StringLen, {}, tt.intType());
      if (name == "concat") return set(M::StringConcat, {{"s", t}}, t);
      if (name == "contains")
        return set(M::StringContains, {{"s", t}}, tt.boolType());
      if (name == "startsWith")
        return set(M::StringStartsWith, {{"s", t}}, tt.boolType());
      if (name == "upper") return set(M::StringUpper, {}, t);
      if (name == "lower") return set(M::StringLower, {}, t);
      return false;
    case TypeKind::List:
      if (name == "len") return set(M::ListLen, {}, tt.intType());
      if (name == "append") return set(M::ListAppend, {{"x", t->arg0}}, t);
      if (name == "contains")
        return set(M::ListContains, {{"x", t->arg0}}, tt.boolType());
      return false;
    case TypeKind::Option:
      if (name == "getOr")
        return set(M::OptionGetOr, {{"x", t->arg0}}, t->arg0);
      if (name == "isSome") return set(M::OptionIsSome, {}, tt.boolType());
      return false;
    case TypeKind::Map:
      if (name == "get")
        return set(M::MapGet, {{"k", t->arg0}}, tt.option(t->arg1));
      if (name == "put")
        return set(M::MapPut, {{"k", t->arg0}, {"v", t->arg1}}, t);
      if (name == "remove") return set(M::MapRemove, {{"k", t->arg0}}, t);
      if (name == "len") return set(M::MapLen, {}, tt.intType());
      return false;
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Unit:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::Instant:
    case TypeKind::Duration:
    case TypeKind::Envelope:
    case TypeKind::Ref:
    case TypeKind::Named:
    case TypeKind::Event:
    case TypeKind::Capability:
    case TypeKind::Actor:
      return false;
  }
  return false;
}

}  // namespace

std::vector<std::string> builtinMethodNames(TypeTable& tt, const Type* t) {
  // Every name methodSig knows, sorted; the ones it accepts for `t`.
  static constexpr llvm::StringLiteral kAll[] = {
      "append", "concat", "contains", "get",    "getOr",      "isSome",
      "len",    "lower",  "put",      "remove", "startsWith", "upper"};
  std::vector<std::string> names;
  MethodSig sig;
  for (llvm::StringRef name : kAll)
    if (methodSig(tt, t, name, sig)) names.push_back(name.str());
  return names;
}

InstId BodyChecker::callFn(const ast::CallExpr* e, const FnInfo* fn) {
  llvm::SmallVector<InstId, 4> args;
  checkArgs(fn->name, fn->sig.params, e, args);
  const Type* result = fn->sig.result ? fn->sig.result : types().error();
  if (fn->agent != nullptr) callAgentFn(fn, e->range);
  return emit(InstKind::CallFn, result, e->range, ir().fns.intern(fn).index(),
              list(args));
}

InstId BodyChecker::callVariant(const ast::CallExpr* e, const Type* sum,
                                const VariantInfo* variant) {
  llvm::SmallVector<InstId, 4> args;
  checkArgs(variant->name, variant->fields, e, args);
  return emit(InstKind::Variant, sum, e->range,
              ir().variants.intern({sum->named, variant}).index(), list(args));
}

InstId BodyChecker::callSome(const ast::CallExpr* e, const Type* expected) {
  TypeTable& tt = types();
  const Type* element =
      expected != nullptr && expected->kind == TypeKind::Option ? expected->arg0
                                                                : nullptr;
  if (e->args.size() != 1) {
    sema().diags.report<diag::ArgumentCount>(
        e->range, "Some", 1u, static_cast<std::uint32_t>(e->args.size()));
    return checkArgsQuietly(e);
  }
  const ast::Arg& arg = e->args[0];
  if (!arg.label.empty())
    sema().diags.report<diag::ArgumentLabel>(
        arg.label.range, "'Some' takes one unlabelled argument");
  InstId v = element != nullptr ? checkAgainst(arg.value, element)
                                : checkUsed(arg.value, nullptr);
  if (element != nullptr)
    return emit(InstKind::OptionSome, expected, e->range, v.index());
  const Type* t = typeOf(v);
  if (quiet(t)) return invalid(e->range);
  // `Some(fail(...))` never makes a value.
  if (t->kind == TypeKind::Never) return v;
  return emit(InstKind::OptionSome, tt.option(t), e->range, v.index());
}

InstId BodyChecker::callOpaque(const ast::CallExpr* e, const TypeInfo* type) {
  TypeTable& tt = types();
  const Type* result = tt.named(type);
  if (type->def == TypeDefKind::Opaque && type->context != &context_) {
    std::string owner = type->context != nullptr ? type->context->name : "";
    sema()
        .diags
        .report<diag::OpaqueOutsideOwner>(e->callee->range, type->name, "built",
                                          owner)
        .note(type->nameRange,
              "'{}' is declared opaque in context '{}'; "
              "ask that context for a value (for example through a fn it "
              "declares)",
              type->name, owner);
    return checkArgsQuietly(e);
  }
  const Type* base = type->base != nullptr ? type->base : tt.error();
  if (e->args.size() != 1) {
    sema().diags.report<diag::ArgumentCount>(
        e->range, type->name, 1u, static_cast<std::uint32_t>(e->args.size()));
    return checkArgsQuietly(e, result);
  }
  const ast::Expr* arg = e->args[0].value;
  InstId v = checkAgainst(arg, base);
  {
    const Type* t = typeOf(v);
    if (!quiet(t) && type->refinement != nullptr) {
      std::optional<ConstValue> value = constantOf(sema().program, v);
      if (value && checkRefinement(*type, *value) == RefinementResult::Violated)
        sema()
            .diags
            .report<diag::RefinementViolated>(
                arg->range, "'" + render(*value) + "'", type->name)
            .note(type->nameRange, "'{}' requires {}", type->name,
                  refinementText(sema().sources, *type));
    }
  }
  // A refined type built by name is its base value checked against the
  // refinement: the same as the coercion.
  if (type->def == TypeDefKind::Refined)
    return emit(InstKind::RefineCheck, result, e->range, v.index());
  return emit(InstKind::OpaqueBuild, result, e->range, v.index());
}

InstId BodyChecker::callAgentRef(const ast::CallExpr* e,
                                 const Resolution& hit) {
  TypeTable& tt = types();
  const AgentInfo* target = hit.type->agent;
  InstId dependency = scopedValue(hit, e->callee->range);
  const Type* key = target != nullptr && target->key && target->key->type
                        ? target->key->type
                        : tt.error();
  llvm::SmallVector<InstId, 1> args;
  checkArgs(target != nullptr ? llvm::StringRef(target->name) : "",
            llvm::ArrayRef<ParamView>(ParamView{"key", key}), e, args);
  if (args.size() != 1) return invalid(e->range);
  return emit(InstKind::AgentRef, hit.type, e->range, dependency.index(),
              args[0].index());
}

InstId BodyChecker::callMessage(const ast::CallExpr* e,
                                const ast::FieldExpr* callee, InstId refValue) {
  TypeTable& tt = types();
  const Type* ref = typeOf(refValue);
  const AgentInfo* target = ref->agent;
  if (target == nullptr) return checkArgsQuietly(e);
  const HandlerInfo* h = target->handler(callee->name.name);
  if (h == nullptr) {
    std::vector<std::string> names;
    for (const HandlerInfo& other : target->handlers)
      names.push_back(other.name);
    auto report = sema().diags.report<diag::UnknownMethod>(
        callee->name.range, displayName(ref), callee->name.name);
    report.note("agent '{}' has {} {}", target->name,
                names.size() == 1 ? "handler" : "handlers",
                names.empty() ? std::string("no handlers") : quotedList(names));
    std::string best = closestName(callee->name.name, names);
    if (!best.empty()) {
      report.note("did you mean '{}'?", best);
      report.fixit(callee->name.range, best);
    }
    return checkArgsQuietly(e);
  }
  sema().program.uses.record(callee->name.range, h->nameRange);
  llvm::SmallVector<InstId, 4> args{refValue};
  checkArgs(h->name, h->params, e, args);
  if (h->result != nullptr && h->result != tt.unit() && !quiet(h->result))
    sema()
        .diags.report<diag::CallToValueHandler>(callee->name.range, h->name)
        .note(h->nameRange,
              "'{}' returns '{}'; a message cannot wait for a "
              "result",
              h->name, displayName(h->result));
  // A message presents no actor, so a guarded handler is for the host.
  if (h->by != nullptr && h->decl != nullptr && h->decl->by != nullptr)
    sema()
        .diags
        .report<diag::MessageToGuardedHandler>(callee->name.range, h->name,
                                               h->by->name)
        .note(h->decl->by->range,
              "only the host can call '{}', presenting actor '{}'; a message "
              "can reach only a handler without 'by'",
              h->name, h->by->name);
  if (role_ == BodyRole::Invariant)
    sema().diags.report<diag::ImpureInvariant>(e->range, ownerName_,
                                               "it sends a message");
  effects_.sends.push_back(CommitShape::Message{target, h, e->range});
  return emit(InstKind::Message, tt.unit(), e->range,
              ir().handlers.intern({target, h}).index(), list(args));
}

InstId BodyChecker::callMethod(const ast::CallExpr* e,
                               const ast::FieldExpr* callee, InstId receiver) {
  TypeTable& tt = types();
  const Type* base = typeOf(receiver);
  if (quiet(base)) return checkArgsQuietly(e);
  // `fail(...).len()` never calls: the failure is the value, as for a field
  // of it. The arguments are still checked for their own mistakes; their
  // instructions are no operand of anything, since they never run.
  if (base->kind == TypeKind::Never) {
    for (const ast::Arg& arg : e->args) check(arg.value, nullptr);
    return receiver;
  }
  const Type* t = stripRefined(base);
  MethodSig sig;
  if (!methodSig(tt, t, callee->name.name, sig)) {
    auto report = sema().diags.report<diag::UnknownMethod>(
        callee->name.range, displayName(base), callee->name.name);
    std::vector<std::string> names = builtinMethodNames(tt, t);
    if (names.empty() && t->kind == TypeKind::Named &&
        t->named->def == TypeDefKind::Opaque)
      report.note(
          "an opaque value has no operations outside '.raw' in its "
          "own context");
    else if (names.empty())
      report.note("'{}' has no operations", displayName(base));
    std::string best = closestName(callee->name.name, names);
    if (!best.empty()) {
      report.note("did you mean '{}'?", best);
      report.fixit(callee->name.range, best);
    }
    return checkArgsQuietly(e);
  }
  if (t != base)
    receiver =
        emit(InstKind::Unrefine, t, callee->base->range, receiver.index());
  llvm::SmallVector<InstId, 3> args{receiver};
  checkArgs(callee->name.name, sig.params, e, args);
  return emit(InstKind::Method, sig.result, e->range, list(args), 0,
              static_cast<std::uint8_t>(sig.method));
}

InstId BodyChecker::checkPathCall(const ast::CallExpr* e, const Type* expected,
                                  llvm::ArrayRef<ast::Ident> parts,
                                  const Resolution& r, bool& handled) {
  handled = true;
  // Otherwise the callee is a member of a value: `handled` false.
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
      break;
    case NameKind::Fn:
    case NameKind::AgentFn:
    case NameKind::StaticFn:
      if (!whole) break;
      return callFn(e, r.fn);
    case NameKind::Constructor:
      if (!whole) break;
      return callOpaque(e, r.typeInfo);
    case NameKind::Variant:
      if (!whole) break;
      return callVariant(e, types().named(r.typeInfo), r.variant);
    case NameKind::CapabilityOp: {
      if (!whole) break;
      const auto* callee = llvm::cast<ast::FieldExpr>(e->callee);
      InstId reach =
          r.viaDependency ? scopedValue(r, callee->base->range) : InstId{};
      return capabilityOp(e, e, r.cap, parts.back(), reach,
                          callee->base->range);
    }
    case NameKind::UnknownMember:
      if (!whole) break;
      reportUnknownMember(parts.back(), r.typeInfo);
      return checkArgsQuietly(e);
    case NameKind::Type:
    case NameKind::RecordType:
    case NameKind::Event:
    case NameKind::Capability:
    case NameKind::Agent:
    case NameKind::Actor:
    case NameKind::Service: {
      if (!whole) break;
      auto report = sema().diags.report<diag::NotCallable>(
          e->callee->range,
          describeKind(r.decl->kind).str() + " '" +
              std::string(sema().sources.textOf(e->callee->range)) + "'");
      if (r.decl->kind == DeclInfoKind::Type ||
          r.decl->kind == DeclInfoKind::Event)
        report.note("build a value with '{} {{ ... }}'", r.decl->name);
      return checkArgsQuietly(e);
    }
    case NameKind::Ambiguous:
      reportAmbiguous(parts, r);
      return checkArgsQuietly(e);
    case NameKind::ContextPrefix:
      reportContextPrefix(e->callee, parts, r, true);
      return checkArgsQuietly(e);
    case NameKind::NotFound:
      if (parts.size() == 1 && isSum(expected)) {
        check(e->callee, expected);  // reports the unknown variant
      } else if (std::vector<std::string> sums =
                     parts.size() == 1 ? sumsWithVariant(parts[0].name)
                                       : std::vector<std::string>();
                 !sums.empty()) {
        sema()
            .diags
            .report<diag::CannotInfer>(e->callee->range,
                                       "'" + parts[0].name.str() + "'")
            .note("no sum type is expected here; name the type: '{}'",
                  sums.front())
            .fixit(e->callee->range, sums.front());
      } else {
        reportUnknownName(parts[0]);
      }
      return checkArgsQuietly(e);
  }
  handled = false;
  return InstId{};
}

InstId BodyChecker::callMember(const ast::CallExpr* e,
                               const ast::FieldExpr* callee, InstId base) {
  if (typeOf(base)->kind == TypeKind::Ref) return callMessage(e, callee, base);
  return callMethod(e, callee, base);
}

InstId BodyChecker::callValue(const ast::CallExpr* e, InstId callee) {
  const Type* t = typeOf(callee);
  if (!quiet(t))
    sema().diags.report<diag::NotCallable>(
        e->callee->range, "a value of type '" + displayName(t) + "'");
  return checkArgsQuietly(e);
}

InstId BodyChecker::checkAppliedCall(const ast::CallExpr* e,
                                     const ast::TypeApplyExpr* apply) {
  llvm::SmallVector<ast::Ident, 4> parts;
  if (namePath(apply->base, parts) && parts.size() == 2) {
    Resolution r = resolve(parts, nullptr);
    recordResolution(sema().program, parts, r);
    if (r.kind == NameKind::CapabilityOp && !r.viaDependency &&
        r.cap->firstParty == FirstParty::Events && parts[1].name == "emit")
      return checkEmit(e, apply->base, apply);
  }
  sema().diags.report<diag::NotCallable>(
      apply->range,
      "'" + std::string(sema().sources.textOf(apply->range)) + "'");
  return checkArgsQuietly(e);
}

InstId BodyChecker::checkNameCall(const ast::CallExpr* e,
                                  const ast::NameExpr* callee,
                                  const Type* expected) {
  llvm::StringRef n = callee->name.name;
  ast::Ident part = callee->name;
  llvm::ArrayRef<ast::Ident> parts(part);
  Resolution r = resolve(parts, expected);
  recordResolution(sema().program, parts, r);
  switch (r.kind) {
    case NameKind::AgentRefDependency:
      return callAgentRef(e, r);
    case NameKind::Local:
    case NameKind::Param:
    case NameKind::Key:
    case NameKind::Store:
    case NameKind::ActorBinder:
    case NameKind::Dependency: {
      const Type* t = scopedType(r);
      if (!quiet(t)) {
        auto report = sema().diags.report<diag::NotCallable>(
            callee->range,
            "'" + n.str() + "' of type '" + displayName(t) + "'");
        if (t->kind == TypeKind::Capability)
          report.note("call one of its operations: '{}.op(...)'", n.str());
      }
      return checkArgsQuietly(e);
    }
    case NameKind::Some:
      return callSome(e, expected);
    case NameKind::None:
      sema()
          .diags.report<diag::NotCallable>(callee->range, "'None'")
          .note("'None' carries no value; write it without '(...)'");
      return checkArgsQuietly(e);
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
    case NameKind::CapabilityOp:
    case NameKind::UnknownMember:
    case NameKind::ContextPrefix:
    case NameKind::NotFound:
    case NameKind::Ambiguous: {
      bool handled = false;
      InstId v = checkPathCall(e, expected, parts, r, handled);
      if (handled) return v;
      break;
    }
  }
  return callValue(e, check(callee, nullptr));
}

}  // namespace herald::check
