// Constant arithmetic: Int and Duration operations folded with checked
// operations, so that a constant never holds a wrapped value. An overflow
// and a division by a constant zero are errors (constant-overflow,
// constant-division-by-zero), reported by the body checker as it lowers
// each operator (check_fold.cpp); the evaluator of constants (eval.cpp)
// and of refinements (refinement_eval.cpp) find no value there.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "checker/eval.h"
#include "frontend/diagnostic.h"

namespace herald::check {

namespace {

Folded value(std::int64_t v) { return {Folded::Status::Value, v}; }

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
  constexpr auto kMaxInt =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (value > kMaxInt / scale) return std::nullopt;
  return static_cast<std::int64_t>(value * scale);
}

void reportConstFold(DiagnosticEngine& diags, const SourceManager& sources,
                     Folded::Status status, SourceRange range,
                     const Type* type) {
  switch (status) {
    case Folded::Status::Value:
    case Folded::Status::NotFolded:
      return;
    case Folded::Status::Overflow:
      diags
          .report<diag::ConstantOverflow>(range, exprText(sources, range),
                                          displayName(type))
          .note(
              "constant arithmetic is checked: its value must fit in 64 "
              "bits{}",
              type != nullptr && type->kind == TypeKind::Duration
                  ? " of milliseconds"
                  : "");
      return;
    case Folded::Status::DivisionByZero:
      diags.report<diag::ConstantDivisionByZero>(range,
                                                 exprText(sources, range));
      return;
  }
}

}  // namespace herald::check
