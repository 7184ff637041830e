#include "checker/const_eval.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "checker/const_eval_detail.h"
#include "checker/lookup.h"
#include "checker/resolve.h"

namespace herald::check {

namespace {

using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

constexpr std::uint64_t kMaxInt =
    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

const ast::Expr* stripParens(const ast::Expr* e) {
  while (e != nullptr) {
    const auto* paren = dyn_cast<ast::ParenExpr>(e);
    if (paren == nullptr) break;
    e = paren->inner;
  }
  return e;
}

// `None` or `Some(...)`, as written.
bool isOptionSpelling(const ast::Expr& e) {
  if (const auto* name = dyn_cast<ast::NameExpr>(&e))
    return name->name.name == "None";
  if (const auto* call = dyn_cast<ast::CallExpr>(&e))
    if (const auto* callee = dyn_cast_or_null<ast::NameExpr>(call->callee))
      return callee->name.name == "Some";
  return false;
}

}  // namespace

std::optional<ConstValue> ConstEvaluator::eval(const ast::Expr* expr,
                                               const Type* expected) {
  const ast::Expr* e = stripParens(expr);
  if (e == nullptr || isa<ast::ErrorExpr>(e) || !isWellFormed(expected))
    return quiet();
  if (expected->kind == TypeKind::Named &&
      expected->named->def == TypeDefKind::Refined) {
    // `Quantity(3)` names the refined type itself; anything else must be a
    // constant of the base, which a refined type accepts as it is.
    if (const auto* call = dyn_cast<ast::CallExpr>(e)) {
      llvm::SmallVector<ast::Ident, 4> parts;
      if (namePath(call->callee, parts))
        if (const TypeInfo* type =
                constructedType(resolve(parts, nullptr), parts))
          return evalConstructor(*call, *type, expected);
    }
    const TypeInfo& refined = *expected->named;
    std::optional<ConstValue> inner = eval(e, refined.base);
    if (!inner) return std::nullopt;
    ConstValue value;
    value.kind = ConstValue::Kind::Opaque;
    value.type = expected;
    value.children.push_back(std::move(*inner));
    return value;
  }
  if (expected->kind == TypeKind::Option && why_ != nullptr &&
      !isOptionSpelling(*e)) {
    // A plain value where an Option is expected: suggest wrapping it, but
    // only when the value would fit.
    ConstEvaluator probe(sema_, from_, nullptr);
    if (probe.eval(e, expected->arg0))
      return fail(e->range, [&] {
        return fmt::format("this is not of type '{}'; write 'Some({})'",
                           displayName(expected),
                           sema_.sources.textOf(e->range));
      });
  }
  switch (e->kind) {
    case ast::ExprKind::IntLit:
    case ast::ExprKind::FloatLit:
    case ast::ExprKind::BoolLit:
    case ast::ExprKind::StringLit:
    case ast::ExprKind::UnitLit:
    case ast::ExprKind::DurationLit:
      return evalLiteral(*e, expected);
    case ast::ExprKind::Unary: {
      const auto& unary = cast<ast::UnaryExpr>(*e);
      switch (unary.op) {
        case ast::UnaryOp::Neg:
          return evalNegation(unary, expected);
        case ast::UnaryOp::Not:
          break;
      }
      break;
    }
    case ast::ExprKind::Name:
    case ast::ExprKind::Field:
      return evalName(*e, expected);
    case ast::ExprKind::Call:
      return evalCall(cast<ast::CallExpr>(*e), expected);
    case ast::ExprKind::RecordLit:
      return evalRecord(cast<ast::RecordLitExpr>(*e), expected);
    case ast::ExprKind::ListLit:
      return evalList(cast<ast::ListLitExpr>(*e), expected);
    case ast::ExprKind::Binary:
      return evalOperators(cast<ast::BinaryExpr>(*e), expected);
    case ast::ExprKind::MapLit:
      return evalMapLiteral(
          cast<ast::MapLitExpr>(*e), expected,
          [this](const ast::Expr* x, const Type* t) { return eval(x, t); },
          why_);
    case ast::ExprKind::Error:
      return quiet();
    case ast::ExprKind::TypeApply:
    case ast::ExprKind::If:
    case ast::ExprKind::Match:
    case ast::ExprKind::Block:
    case ast::ExprKind::Paren:
    case ast::ExprKind::Fail:
      break;
  }
  return fail(e->range, [&] {
    return fmt::format(
        "{} is not a constant; a constant is a literal, a variant, 'None', "
        "'Some(...)', a record literal or a constructor applied to a "
        "constant",
        describeExpr(*e));
  });
}

std::nullopt_t ConstEvaluator::mismatch(const ast::Expr& described,
                                        SourceRange range,
                                        const Type* expected) {
  return fail(range, [&] {
    std::string text =
        fmt::format("{} is not of type '{}'", describeExpr(described),
                    displayName(expected));
    if (isa<ast::IntLitExpr>(described) && expected->kind == TypeKind::Float)
      text += "; write it with a decimal point, e.g. '1.0'";
    return text;
  });
}

std::optional<ConstValue> ConstEvaluator::evalLiteral(const ast::Expr& e,
                                                      const Type* expected) {
  ConstValue value;
  value.type = expected;
  switch (e.kind) {
    case ast::ExprKind::IntLit: {
      std::uint64_t magnitude = cast<ast::IntLitExpr>(e).value;
      if (expected->kind != TypeKind::Int)
        return mismatch(e, e.range, expected);
      if (magnitude > kMaxInt)
        return fail(e.range, [] {
          return std::string("this Int literal does not fit in 64 bits");
        });
      value.kind = ConstValue::Kind::Int;
      value.integer = static_cast<std::int64_t>(magnitude);
      return value;
    }
    case ast::ExprKind::FloatLit:
      if (expected->kind != TypeKind::Float)
        return mismatch(e, e.range, expected);
      value.kind = ConstValue::Kind::Float;
      value.real = cast<ast::FloatLitExpr>(e).value;
      return value;
    case ast::ExprKind::BoolLit:
      if (expected->kind != TypeKind::Bool)
        return mismatch(e, e.range, expected);
      value.kind = ConstValue::Kind::Bool;
      value.boolean = cast<ast::BoolLitExpr>(e).value;
      return value;
    case ast::ExprKind::StringLit: {
      if (expected->kind != TypeKind::String)
        return mismatch(e, e.range, expected);
      value.kind = ConstValue::Kind::String;
      for (const ast::StringPart& part : cast<ast::StringLitExpr>(e).parts) {
        if (part.expr != nullptr)
          return fail(part.range, [] {
            return std::string(
                "an interpolated string is not a constant; write the text "
                "without '\\(...)'");
          });
        value.text += part.text;
      }
      return value;
    }
    case ast::ExprKind::UnitLit:
      if (expected->kind != TypeKind::Unit)
        return mismatch(e, e.range, expected);
      value.kind = ConstValue::Kind::Unit;
      return value;
    case ast::ExprKind::DurationLit: {
      if (expected->kind != TypeKind::Duration)
        return mismatch(e, e.range, expected);
      const auto& lit = cast<ast::DurationLitExpr>(e);
      std::optional<std::int64_t> millis = durationMillis(lit.value, lit.unit);
      if (!millis)
        return fail(e.range, [] {
          return std::string(
              "this Duration does not fit in 64 bits of "
              "milliseconds");
        });
      value.kind = ConstValue::Kind::Duration;
      value.integer = *millis;
      return value;
    }
    case ast::ExprKind::Name:
    case ast::ExprKind::Field:
    case ast::ExprKind::Call:
    case ast::ExprKind::TypeApply:
    case ast::ExprKind::RecordLit:
    case ast::ExprKind::ListLit:
    case ast::ExprKind::MapLit:
    case ast::ExprKind::If:
    case ast::ExprKind::Match:
    case ast::ExprKind::Block:
    case ast::ExprKind::Unary:
    case ast::ExprKind::Binary:
    case ast::ExprKind::Paren:
    case ast::ExprKind::Fail:
    case ast::ExprKind::Error:
      break;
  }
  return quiet();
}

namespace {

// What evalArithmetic checks of an operator before it evaluates the left
// operand: whether `e` is arithmetic a constant of `expected` may use.
bool foldsBeforeOperands(const ast::BinaryExpr& e, const Type* expected) {
  std::optional<FoldDomain> domain = foldDomain(expected);
  switch (e.op) {
    case ast::BinaryOp::Add:
    case ast::BinaryOp::Sub:
      return domain.has_value();
    case ast::BinaryOp::Mul:
    case ast::BinaryOp::Div:
    case ast::BinaryOp::Rem:
      return domain == FoldDomain::Int;
    case ast::BinaryOp::Or:
    case ast::BinaryOp::And:
    case ast::BinaryOp::Eq:
    case ast::BinaryOp::Ne:
    case ast::BinaryOp::Lt:
    case ast::BinaryOp::Le:
    case ast::BinaryOp::Gt:
    case ast::BinaryOp::Ge:
      return false;
  }
  return false;
}

}  // namespace

// A left-deep chain (`1 + 2 + ...`) is walked down in a loop and folded
// from its innermost operator out, each taking the value below it as its
// left operand; an operator that fails before its operands (not arithmetic
// of this type) ends the walk, so the first failure recorded is the one a
// recursive walk would record.
std::optional<ConstValue> ConstEvaluator::evalOperators(
    const ast::BinaryExpr& top, const Type* expected) {
  auto operand = [this](const ast::Expr* x, const Type* t) {
    return eval(x, t);
  };
  llvm::SmallVector<const ast::BinaryExpr*, 8> spine{&top};
  while (foldsBeforeOperands(*spine.back(), expected)) {
    const auto* lhs =
        dyn_cast_or_null<ast::BinaryExpr>(stripParens(spine.back()->lhs));
    if (lhs == nullptr) break;
    spine.push_back(lhs);
  }
  std::optional<ConstValue> value =
      evalArithmetic(sema_.sources, *spine.back(), expected, operand, why_);
  for (std::size_t i = spine.size() - 1; i-- > 0;) {
    const ast::BinaryExpr& e = *spine[i];
    std::optional<ConstValue> below = std::move(value);
    value = evalArithmetic(
        sema_.sources, e, expected,
        [&](const ast::Expr* x, const Type* t) {
          return x == e.lhs ? std::move(below) : eval(x, t);
        },
        why_);
  }
  return value;
}

// A run of `-` (`- - -1`) is evaluated from its innermost operator out, as
// evalOperators folds a chain.
std::optional<ConstValue> ConstEvaluator::evalNegation(
    const ast::UnaryExpr& top, const Type* expected) {
  llvm::SmallVector<const ast::UnaryExpr*, 8> run{&top};
  // Without a domain the outermost `-` fails before its operand.
  if (foldDomain(expected))
    while (const auto* inner = dyn_cast_or_null<ast::UnaryExpr>(
               stripParens(run.back()->operand))) {
      if (inner->op != ast::UnaryOp::Neg) break;
      run.push_back(inner);
    }
  std::optional<ConstValue> value = negate(*run.back(), expected);
  for (std::size_t i = run.size() - 1; i-- > 0;) {
    std::optional<ConstValue> below = std::move(value);
    value = evalNegated(
        sema_.sources, *run[i], expected,
        [&](const ast::Expr*, const Type*) { return std::move(below); }, why_);
  }
  return value;
}

std::optional<ConstValue> ConstEvaluator::negate(const ast::UnaryExpr& e,
                                                 const Type* expected) {
  const ast::Expr* operand = stripParens(e.operand);
  if (operand == nullptr || isa<ast::ErrorExpr>(operand)) return quiet();
  if (const auto* lit = dyn_cast<ast::IntLitExpr>(operand)) {
    if (expected->kind != TypeKind::Int)
      return mismatch(*operand, e.range, expected);
    // The magnitude of the most negative Int is one more than the largest.
    if (lit->value > kMaxInt + 1)
      return fail(e.range, [] {
        return std::string("this Int literal does not fit in 64 bits");
      });
    ConstValue value;
    value.kind = ConstValue::Kind::Int;
    value.type = expected;
    value.integer = lit->value == kMaxInt + 1
                        ? std::numeric_limits<std::int64_t>::min()
                        : -static_cast<std::int64_t>(lit->value);
    return value;
  }
  if (const auto* lit = dyn_cast<ast::FloatLitExpr>(operand)) {
    if (expected->kind != TypeKind::Float)
      return mismatch(*operand, e.range, expected);
    ConstValue value;
    value.kind = ConstValue::Kind::Float;
    value.type = expected;
    value.real = -lit->value;
    return value;
  }
  return evalNegated(
      sema_.sources, e, expected,
      [this](const ast::Expr* x, const Type* t) { return eval(x, t); }, why_);
}

// `OrderId("a-1")`, `Quantity(3)`: the type's constructor applied to a
// constant of its base.
std::optional<ConstValue> ConstEvaluator::evalConstructor(
    const ast::CallExpr& e, const TypeInfo& type, const Type* expected) {
  if (type.def != TypeDefKind::Opaque && type.def != TypeDefKind::Refined)
    return fail(e.callee->range, [&] {
      return fmt::format(
          "'{}' is not an opaque or refined type, so it has "
          "no constructor",
          type.name);
    });
  if (!isWellFormed(type.type) || !isWellFormed(type.base)) return quiet();
  // The constructor's result must be the expected type, or (a refined value
  // being usable as its base) a refined type whose chain of bases leads to
  // it.
  std::size_t unwrap = 0;
  for (const Type* t = type.type; t != expected; ++unwrap) {
    if (t == nullptr || t->kind != TypeKind::Named ||
        t->named->def != TypeDefKind::Refined || unwrap > 64)
      return fail(e.range, [&] {
        return fmt::format("'{}(...)' is of type '{}', not '{}'", type.name,
                           type.name, displayName(expected));
      });
    t = t->named->base;
  }
  if (type.def == TypeDefKind::Opaque && type.context != &from_)
    return fail(e.callee->range, [&] {
      return fmt::format(
          "opaque type '{}' can only be built inside its context '{}'",
          type.name, type.context != nullptr ? type.context->name : "");
    });
  if (e.args.size() != 1 || !e.args[0].label.empty())
    return fail(e.range, [&] {
      return fmt::format("'{}' takes one unlabelled argument of type '{}'",
                         type.name, displayName(type.base));
    });
  std::optional<ConstValue> inner = eval(e.args[0].value, type.base);
  if (!inner) return std::nullopt;
  ConstValue value;
  value.kind = ConstValue::Kind::Opaque;
  value.type = type.type;
  value.children.push_back(std::move(*inner));
  if (unwrap != 0) {
    // Used as its base, the value would lose the type whose refinement it
    // must satisfy, so check it here.
    RefinementViolation violated = findViolatedRefinement(value);
    if (violated.type != nullptr)
      return fail(e.range, [&] {
        return fmt::format("{} does not satisfy the refinement of '{}'",
                           render(*violated.value), violated.type->name);
      });
  }
  for (; unwrap != 0; --unwrap) {
    ConstValue child = std::move(value.children[0]);
    value = std::move(child);
  }
  return value;
}

std::optional<ConstValue> ConstEvaluator::evalVariant(
    const ast::Expr& e, const TypeInfo& sum, const VariantInfo& variant,
    llvm::ArrayRef<ast::Arg> args, bool called) {
  if (!called && !variant.fields.empty())
    return fail(e.range, [&] {
      return fmt::format(
          "variant '{}' carries fields; write '{}(...)' with "
          "a constant for each",
          variant.name, variant.name);
    });
  if (called && variant.fields.empty())
    return fail(e.range, [&] {
      return fmt::format(
          "variant '{}' carries no fields; write '{}' "
          "without parentheses",
          variant.name, variant.name);
    });
  if (args.size() != variant.fields.size())
    return fail(e.range, [&] {
      return fmt::format("variant '{}' has {} field(s) but {} were given",
                         variant.name, variant.fields.size(), args.size());
    });
  ConstValue value;
  value.kind = ConstValue::Kind::Variant;
  value.type = sum.type;
  value.variant = variant.name;
  value.names.reserve(args.size());
  value.children.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const FieldInfo& field = variant.fields[i];
    if (!args[i].label.empty() && args[i].label.name != field.name)
      return fail(args[i].label.range, [&] {
        return fmt::format("field {} of variant '{}' is '{}', not '{}'", i + 1,
                           variant.name, field.name, args[i].label.name);
      });
    std::optional<ConstValue> child = eval(args[i].value, field.type);
    if (!child) return std::nullopt;
    value.names.push_back(field.name);
    value.children.push_back(std::move(*child));
  }
  return value;
}

std::optional<ConstValue> ConstEvaluator::evalRecord(
    const ast::RecordLitExpr& e, const Type* expected) {
  llvm::SmallVector<ast::Ident, 4> parts;
  if (!namePath(e.type, parts)) return quiet();
  Resolution found = resolve(parts, nullptr);
  const TypeInfo* type = nullptr;
  bool declared = found.partsUsed == parts.size();
  switch (found.kind) {
    case NameKind::Event:
      if (!declared) break;
      return fail(e.type->range, [&] {
        return fmt::format(
            "an event literal is not a constant; '{}' is an "
            "event",
            found.decl->name);
      });
    case NameKind::Type:
    case NameKind::Constructor:
    case NameKind::RecordType:
      type = cast<TypeInfo>(found.decl);
      break;
    case NameKind::Fn:
    case NameKind::AgentFn:
    case NameKind::Capability:
    case NameKind::Agent:
    case NameKind::Actor:
    case NameKind::Service:
      break;
    // Members, and what names no declaration.
    case NameKind::Local:
    case NameKind::Param:
    case NameKind::Key:
    case NameKind::Store:
    case NameKind::ActorBinder:
    case NameKind::Dependency:
    case NameKind::AgentRefDependency:
    case NameKind::Some:
    case NameKind::None:
    case NameKind::Variant:
    case NameKind::StaticFn:
    case NameKind::CapabilityOp:
    case NameKind::UnknownMember:
    case NameKind::ContextPrefix:
    case NameKind::NotFound:
    case NameKind::Ambiguous:
      declared = false;
      break;
  }
  if (!declared)
    return fail(e.type->range, [&] {
      return fmt::format("cannot find type '{}'",
                         sema_.sources.textOf(e.type->range));
    });
  const Type* built = type != nullptr ? type->type : nullptr;
  if (built == nullptr || built->kind != TypeKind::Named ||
      built->named->def != TypeDefKind::Record)
    return fail(e.type->range, [&] {
      return fmt::format("'{}' is not a record type",
                         sema_.sources.textOf(e.type->range));
    });
  if (built != expected)
    return fail(e.type->range, [&] {
      return fmt::format("a '{}' literal is not of type '{}'",
                         built->named->name, displayName(expected));
    });
  const TypeInfo& record = *built->named;
  for (std::size_t i = 0; i < e.fields.size(); ++i) {
    const ast::FieldInit& init = e.fields[i];
    if (record.field(init.name.name) == nullptr)
      return fail(init.name.range, [&] {
        return fmt::format("type '{}' has no field '{}'", record.name,
                           init.name.name);
      });
    for (std::size_t j = 0; j < i; ++j)
      if (e.fields[j].name.name == init.name.name)
        return fail(init.name.range, [&] {
          return fmt::format("field '{}' is given twice", init.name.name);
        });
  }
  ConstValue value;
  value.kind = ConstValue::Kind::Record;
  value.type = expected;
  value.names.reserve(record.fields.size());
  value.children.reserve(record.fields.size());
  for (const FieldInfo& field : record.fields) {
    const ast::FieldInit* init = nullptr;
    for (const ast::FieldInit& candidate : e.fields)
      if (candidate.name.name == field.name) init = &candidate;
    if (init == nullptr)
      return fail(e.range, [&] {
        return fmt::format("the '{}' literal is missing field '{}'",
                           record.name, field.name);
      });
    std::optional<ConstValue> child = eval(init->value, field.type);
    if (!child) return std::nullopt;
    value.names.push_back(field.name);
    value.children.push_back(std::move(*child));
  }
  return value;
}

std::optional<ConstValue> ConstEvaluator::evalList(const ast::ListLitExpr& e,
                                                   const Type* expected) {
  if (expected->kind != TypeKind::List) return mismatch(e, e.range, expected);
  ConstValue value;
  value.kind = ConstValue::Kind::List;
  value.type = expected;
  value.children.reserve(e.elements.size());
  for (const ast::Expr* element : e.elements) {
    std::optional<ConstValue> child = eval(element, expected->arg0);
    if (!child) return std::nullopt;
    value.children.push_back(std::move(*child));
  }
  return value;
}

std::string_view describeExpr(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::IntLit:
      return "an Int literal";
    case ast::ExprKind::FloatLit:
      return "a Float literal";
    case ast::ExprKind::BoolLit:
      return "a Bool literal";
    case ast::ExprKind::StringLit:
      return "a String literal";
    case ast::ExprKind::UnitLit:
      return "'()'";
    case ast::ExprKind::DurationLit:
      return "a Duration literal";
    case ast::ExprKind::Name:
      return "a name";
    case ast::ExprKind::Field:
      return "a field access";
    case ast::ExprKind::Call:
      return "a call";
    case ast::ExprKind::TypeApply:
      return "a type application";
    case ast::ExprKind::RecordLit:
      return "a record literal";
    case ast::ExprKind::ListLit:
      return "a list literal";
    case ast::ExprKind::MapLit:
      return "a map literal";
    case ast::ExprKind::If:
      return "an 'if' expression";
    case ast::ExprKind::Match:
      return "a 'match' expression";
    case ast::ExprKind::Block:
      return "a block";
    case ast::ExprKind::Unary:
      return "an operator";
    case ast::ExprKind::Binary:
      return "an operator";
    case ast::ExprKind::Paren:
      return "a parenthesised expression";
    case ast::ExprKind::Fail:
      return "'fail'";
    case ast::ExprKind::Error:
      return "an invalid expression";
  }
  return "an expression";
}

std::optional<std::int64_t> durationMillis(std::uint64_t value,
                                           DurationUnit unit) {
  std::uint64_t scale = 1;
  switch (unit) {
    case DurationUnit::Milliseconds:
      scale = 1;
      break;
    case DurationUnit::Seconds:
      scale = 1000;
      break;
    case DurationUnit::Minutes:
      scale = 60'000;
      break;
    case DurationUnit::Hours:
      scale = 3'600'000;
      break;
    case DurationUnit::Days:
      scale = 86'400'000;
      break;
  }
  if (value > kMaxInt / scale) return std::nullopt;
  return static_cast<std::int64_t>(value * scale);
}

std::optional<ConstValue> evalConstant(const Sema& sema,
                                       const ContextInfo& from,
                                       const ast::Expr* expr,
                                       const Type* expected) {
  return ConstEvaluator(sema, from, nullptr).eval(expr, expected);
}

std::optional<ConstValue> evalConstantExplained(const Sema& sema,
                                                const ContextInfo& from,
                                                const ast::Expr* expr,
                                                const Type* expected,
                                                ConstFailure& why) {
  return ConstEvaluator(sema, from, &why).eval(expr, expected);
}

}  // namespace herald::check
