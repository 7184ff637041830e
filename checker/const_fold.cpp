// Constant arithmetic: Int and Duration operations folded with checked
// operations, so that a constant never holds a wrapped value. An overflow
// and a division by a constant zero are errors (constant-overflow,
// constant-division-by-zero) wherever a constant is evaluated: in event
// field defaults here, in bodies by the body checker (check_fold.cpp).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/const_eval_detail.h"
#include "frontend/diagnostic.h"

namespace herald::check {

namespace {

bool isArithmetic(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::Add:
    case ast::BinaryOp::Sub:
    case ast::BinaryOp::Mul:
    case ast::BinaryOp::Div:
    case ast::BinaryOp::Rem:
      return true;
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

Folded value(std::int64_t v) { return {Folded::Status::Value, v}; }

template <typename F>
std::nullopt_t fail(ConstFailure* why, SourceRange range, F&& message) {
  if (why != nullptr && !why->set) {
    why->set = true;
    why->range = range;
    why->message = message();
  }
  return std::nullopt;
}

std::nullopt_t failFold(ConstFailure* why, const SourceManager& sources,
                        const Folded& folded, SourceRange range,
                        const Type* type) {
  if (why != nullptr && !why->set) {
    why->set = true;
    why->cause = folded.status == Folded::Status::Overflow
                     ? ConstFailure::Cause::Overflow
                     : ConstFailure::Cause::DivisionByZero;
    why->range = range;
    why->message = exprText(sources, range);
    why->type = type;
  }
  return std::nullopt;
}

// The integer of an Int or Duration constant (a refined one through its
// layers), if it is one.
std::optional<std::int64_t> integerOf(const ConstValue& v) {
  const ConstValue* c = &v;
  while (c->kind == ConstValue::Kind::Opaque && !c->children.empty())
    c = &c->children[0];
  if (c->kind == ConstValue::Kind::Int || c->kind == ConstValue::Kind::Duration)
    return c->integer;
  return std::nullopt;
}

ConstValue integerConstant(FoldDomain domain, const Type* type,
                           std::int64_t v) {
  ConstValue out;
  out.kind = domain == FoldDomain::Int ? ConstValue::Kind::Int
                                       : ConstValue::Kind::Duration;
  out.type = type;
  out.integer = v;
  return out;
}

}  // namespace

Folded foldBinary(ast::BinaryOp op, FoldDomain domain, std::int64_t lhs,
                  std::int64_t rhs) {
  std::int64_t out = 0;
  bool overflow = false;
  switch (op) {
    case ast::BinaryOp::Add:
      overflow = __builtin_add_overflow(lhs, rhs, &out);
      break;
    case ast::BinaryOp::Sub:
      overflow = __builtin_sub_overflow(lhs, rhs, &out);
      break;
    case ast::BinaryOp::Mul:
    case ast::BinaryOp::Div:
    case ast::BinaryOp::Rem:
      // The reference has no Duration product or quotient.
      if (domain == FoldDomain::Duration) return {};
      if (op == ast::BinaryOp::Mul) {
        overflow = __builtin_mul_overflow(lhs, rhs, &out);
        break;
      }
      if (rhs == 0) return {Folded::Status::DivisionByZero, 0};
      // The one quotient that does not fit; its remainder is 0, but the
      // runtime's `%` traps on it as its `/` does, so neither is folded.
      if (lhs == std::numeric_limits<std::int64_t>::min() && rhs == -1)
        return {Folded::Status::Overflow, 0};
      out = op == ast::BinaryOp::Div ? lhs / rhs : lhs % rhs;
      break;
    case ast::BinaryOp::Or:
    case ast::BinaryOp::And:
    case ast::BinaryOp::Eq:
    case ast::BinaryOp::Ne:
    case ast::BinaryOp::Lt:
    case ast::BinaryOp::Le:
    case ast::BinaryOp::Gt:
    case ast::BinaryOp::Ge:
      return {};
  }
  if (overflow) return {Folded::Status::Overflow, 0};
  return value(out);
}

Folded foldNegation(std::int64_t operand) {
  if (operand == std::numeric_limits<std::int64_t>::min())
    return {Folded::Status::Overflow, 0};
  return value(-operand);
}

std::optional<FoldDomain> foldDomain(const Type* type) {
  if (type == nullptr) return std::nullopt;
  if (type->kind == TypeKind::Int) return FoldDomain::Int;
  if (type->kind == TypeKind::Duration) return FoldDomain::Duration;
  return std::nullopt;
}

std::optional<ConstValue> evalArithmetic(const SourceManager& sources,
                                         const ast::BinaryExpr& e,
                                         const Type* expected,
                                         EvalOperand operand,
                                         ConstFailure* why) {
  if (!isArithmetic(e.op))
    return fail(why, e.range, [&] {
      return fmt::format(
          "'{}' is not a constant operator; a constant may use '+ - * / %' "
          "on Int values and '+ -' on Durations",
          ast::spelling(e.op));
    });
  std::optional<FoldDomain> domain = foldDomain(expected);
  bool durationOp = e.op == ast::BinaryOp::Add || e.op == ast::BinaryOp::Sub;
  if (!domain || (*domain == FoldDomain::Duration && !durationOp))
    return fail(why, e.range, [&] {
      return fmt::format(
          "arithmetic of type '{}' is not a constant; a constant may use "
          "'+ - * / %' on Int values and '+ -' on Durations",
          displayName(expected));
    });
  std::optional<ConstValue> lhs = operand(e.lhs, expected);
  if (!lhs) return std::nullopt;
  std::optional<ConstValue> rhs = operand(e.rhs, expected);
  if (!rhs) return std::nullopt;
  std::optional<std::int64_t> a = integerOf(*lhs);
  std::optional<std::int64_t> b = integerOf(*rhs);
  if (!a || !b) return std::nullopt;
  Folded folded = foldBinary(e.op, *domain, *a, *b);
  switch (folded.status) {
    case Folded::Status::Value:
      return integerConstant(*domain, expected, folded.value);
    case Folded::Status::Overflow:
    case Folded::Status::DivisionByZero:
      return failFold(why, sources, folded, e.range, expected);
    case Folded::Status::NotFolded:
      break;
  }
  return std::nullopt;
}

std::optional<ConstValue> evalNegated(const SourceManager& sources,
                                      const ast::UnaryExpr& e,
                                      const Type* expected, EvalOperand operand,
                                      ConstFailure* why) {
  std::optional<FoldDomain> domain = foldDomain(expected);
  if (!domain)
    return fail(why, e.range, [&] {
      return fmt::format(
          "negating a value of type '{}' is not a constant; a constant may "
          "negate an Int literal, a Float literal or Int and Duration "
          "arithmetic",
          displayName(expected));
    });
  std::optional<ConstValue> inner = operand(e.operand, expected);
  if (!inner) return std::nullopt;
  std::optional<std::int64_t> v = integerOf(*inner);
  if (!v) return std::nullopt;
  Folded folded = foldNegation(*v);
  if (folded.status != Folded::Status::Value)
    return failFold(why, sources, folded, e.range, expected);
  return integerConstant(*domain, expected, folded.value);
}

bool reportConstFold(DiagnosticEngine& diags, const ConstFailure& why) {
  switch (why.cause) {
    case ConstFailure::Cause::NotConstant:
      return false;
    case ConstFailure::Cause::Overflow:
      diags
          .report<diag::ConstantOverflow>(why.range, why.message,
                                          displayName(why.type))
          .note(
              "constant arithmetic is checked: its value must fit in 64 "
              "bits{}",
              why.type != nullptr && why.type->kind == TypeKind::Duration
                  ? " of milliseconds"
                  : "");
      return true;
    case ConstFailure::Cause::DivisionByZero:
      diags.report<diag::ConstantDivisionByZero>(why.range, why.message);
      return true;
  }
  return false;
}

}  // namespace herald::check
