// The constant evaluator's names and calls: a name or path resolved as in a
// body with nothing in scope (variants, `None`), calls of `Some`, variants
// and constructors, and why a name is no constant.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "checker/const_eval_detail.h"
#include "checker/lookup.h"
#include "checker/resolve.h"

namespace herald::check {

namespace {

using llvm::cast;
using llvm::isa;

const TypeInfo* sumOf(const Type* type) {
  if (type == nullptr || type->kind != TypeKind::Named) return nullptr;
  return type->named->def == TypeDefKind::Sum ? type->named : nullptr;
}

}  // namespace

// The type a call `T(...)` names as a whole (its constructor is checked
// by evalConstructor); null when the callee is no type.
const TypeInfo* constructedType(const Resolution& r,
                                llvm::ArrayRef<ast::Ident> parts) {
  if (r.partsUsed != parts.size()) return nullptr;
  switch (r.kind) {
    case NameKind::Constructor:
      return r.typeInfo;  // an alias seen through
    case NameKind::Type:
    case NameKind::RecordType:
      return cast<TypeInfo>(r.decl);
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
    case NameKind::Ambiguous:
      break;
  }
  return nullptr;
}

std::optional<ConstValue> ConstEvaluator::evalName(const ast::Expr& e,
                                                   const Type* expected) {
  llvm::SmallVector<ast::Ident, 4> parts;
  if (!namePath(&e, parts)) return quiet();
  Resolution r = resolve(parts, expected);
  bool whole = r.partsUsed == parts.size();
  switch (r.kind) {
    case NameKind::None:
      if (!whole) break;
      if (expected->kind != TypeKind::Option)
        return noneWhereNotOptional(e.range, expected);
      {
        ConstValue value;
        value.kind = ConstValue::Kind::None;
        value.type = expected;
        return value;
      }
    case NameKind::Variant:
      if (!whole) break;
      if (r.typeInfo->type != expected)
        return fail(e.range, [&] {
          return fmt::format("'{}.{}' is of type '{}', not '{}'",
                             r.typeInfo->name, r.variant->name,
                             r.typeInfo->name, displayName(expected));
        });
      return evalVariant(e, *r.typeInfo, *r.variant, {}, false);
    case NameKind::StaticFn:
    case NameKind::UnknownMember: {
      if (!whole) break;
      const auto& type = cast<TypeInfo>(*r.decl);
      const TypeInfo* sum = sumOf(type.type);
      const ast::Ident& last = parts.back();
      if (sum == nullptr)
        return fail(e.range, [&] {
          return fmt::format(
              "'{}' is not a sum type, so '{}' is not a "
              "variant",
              type.name, last.name);
        });
      return fail(last.range, [&] {
        return fmt::format("type '{}' has no variant '{}'", sum->name,
                           last.name);
      });
    }
    case NameKind::Local:
    case NameKind::Param:
    case NameKind::Key:
    case NameKind::Store:
    case NameKind::ActorBinder:
    case NameKind::Dependency:
    case NameKind::AgentRefDependency:
    case NameKind::Some:
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
    case NameKind::CapabilityOp:
    case NameKind::ContextPrefix:
    case NameKind::NotFound:
    case NameKind::Ambiguous:
      break;
  }
  return fail(e.range, [&] { return unknownNameMessage(parts, r, expected); });
}

std::string ConstEvaluator::unknownNameMessage(llvm::ArrayRef<ast::Ident> parts,
                                               const Resolution& found,
                                               const Type* expected) const {
  auto suggest = [](llvm::StringRef name,
                    llvm::ArrayRef<std::string> candidates) {
    std::string closest = closestName(name, candidates);
    return closest.empty() ? std::string()
                           : fmt::format("; did you mean '{}'?", closest);
  };
  if (const TypeInfo* sum = sumOf(expected);
      sum != nullptr && parts.size() == 1) {
    std::vector<std::string> variants;
    variants.reserve(sum->variants.size());
    for (const VariantInfo& v : sum->variants) variants.push_back(v.name);
    return fmt::format("'{}' is not a variant of '{}'{}", parts[0].name,
                       sum->name, suggest(parts[0].name, variants));
  }
  switch (found.kind) {
    // `Some` and `None` of a type other than an Option name nothing here.
    case NameKind::Some:
    case NameKind::None:
    case NameKind::NotFound:
      return fmt::format(
          "cannot find '{}'{}", parts[0].name,
          suggest(parts[0].name, visibleNames(sema_.program, from_)));
    case NameKind::Ambiguous:
      return fmt::format(
          "'{}' is ambiguous here; qualify it with its "
          "context",
          parts[0].name);
    case NameKind::ContextPrefix:
      if (found.partsUsed == parts.size())
        return fmt::format("'{}' is a context, not a constant of type '{}'",
                           found.context->name, displayName(expected));
      return fmt::format("context '{}' declares no '{}'", found.context->name,
                         parts[found.partsUsed].name);
    case NameKind::Local:
    case NameKind::Param:
    case NameKind::Key:
    case NameKind::Store:
    case NameKind::ActorBinder:
    case NameKind::Dependency:
    case NameKind::AgentRefDependency:
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
      break;
  }
  // A constant has nothing in scope, so every other kind is a declaration.
  return fmt::format("'{}' ({}) is not a constant of type '{}'",
                     found.decl->name, describeKind(found.decl->kind),
                     displayName(expected));
}

std::optional<ConstValue> ConstEvaluator::evalCall(const ast::CallExpr& e,
                                                   const Type* expected) {
  if (e.callee == nullptr || isa<ast::ErrorExpr>(e.callee)) return quiet();
  llvm::SmallVector<ast::Ident, 4> parts;
  if (!namePath(e.callee, parts))
    return fail(e.range,
                [] { return std::string("a call is not a constant"); });
  Resolution r = resolve(parts, expected);
  bool whole = r.partsUsed == parts.size();
  bool function = false;
  switch (r.kind) {
    case NameKind::Some: {
      if (expected->kind != TypeKind::Option || !whole) break;
      if (e.args.size() != 1 || !e.args[0].label.empty())
        return fail(e.range, [] {
          return std::string("'Some' takes one unlabelled argument");
        });
      std::optional<ConstValue> inner = eval(e.args[0].value, expected->arg0);
      if (!inner) return std::nullopt;
      ConstValue value;
      value.kind = ConstValue::Kind::Some;
      value.type = expected;
      value.children.push_back(std::move(*inner));
      return value;
    }
    case NameKind::Variant:
      if (whole && r.typeInfo->type == expected)
        return evalVariant(e, *r.typeInfo, *r.variant, e.args, true);
      break;
    case NameKind::Type:
    case NameKind::Constructor:
    case NameKind::RecordType:
      if (const TypeInfo* type = constructedType(r, parts))
        return evalConstructor(e, *type, expected);
      break;
    case NameKind::Fn:
    case NameKind::AgentFn:
      function = whole;
      break;
    case NameKind::Local:
    case NameKind::Param:
    case NameKind::Key:
    case NameKind::Store:
    case NameKind::ActorBinder:
    case NameKind::Dependency:
    case NameKind::AgentRefDependency:
    case NameKind::None:
    case NameKind::Event:
    case NameKind::Capability:
    case NameKind::Agent:
    case NameKind::Actor:
    case NameKind::Service:
    case NameKind::StaticFn:
    case NameKind::CapabilityOp:
    case NameKind::UnknownMember:
    case NameKind::ContextPrefix:
    case NameKind::NotFound:
    case NameKind::Ambiguous:
      break;
  }
  return fail(e.callee->range, [&] {
    if (function)
      return fmt::format("'{}' is a function; calling it is not a constant",
                         sema_.sources.textOf(e.callee->range));
    if (const TypeInfo* sum = sumOf(expected))
      return fmt::format("'{}' is not a variant of '{}'",
                         sema_.sources.textOf(e.callee->range), sum->name);
    return fmt::format("'{}' does not build a constant of type '{}'",
                       sema_.sources.textOf(e.callee->range),
                       displayName(expected));
  });
}

}  // namespace herald::check
