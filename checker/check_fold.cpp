// Constant arithmetic in bodies. Each unary `-` and arithmetic operator on
// Int or Duration values is folded as it is lowered, when its operands are
// literals or folded themselves, with the checked operations of
// const_fold.cpp: an overflow is constant-overflow and a division by a
// constant zero constant-division-by-zero, so no constant expression wraps
// at run time. The instruction is kept as it is; the folded values only
// decide what is reported. Each value is computed once from its operands'
// values, so a chain of any length costs one step per operator.
#include <cstdint>
#include <limits>
#include <optional>

#include "checker/body_checker.h"
#include "checker/eval.h"
#include "ir/inst_views.h"

namespace herald::check {

namespace {

constexpr std::uint64_t kMaxInt =
    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

// The payload of an IntLit or DurationLit.
std::uint64_t bits(const Inst& inst) {
  return inst.is<IntLit>() ? inst.as<IntLit>().value
                           : inst.as<DurationLit>().ms;
}

}  // namespace

std::optional<std::int64_t> BodyChecker::foldedValue(InstId id) const {
  const Inst& inst = pass_.sema.program.bodies[id];
  if (inst.kind == InstKind::IntLit || inst.kind == InstKind::DurationLit) {
    // A magnitude past the largest Int is the literal of the most negative
    // one, a value only under its `-`.
    if (bits(inst) > kMaxInt) return std::nullopt;
    return static_cast<std::int64_t>(bits(inst));
  }
  auto it = folded_.find(id.index());
  if (it == folded_.end()) return std::nullopt;
  return it->second;
}

void BodyChecker::foldConstant(InstId id, SourceRange at) {
  const Inst& inst = pass_.sema.program.bodies[id];
  std::optional<FoldDomain> domain = foldDomain(typeOf(id));
  if (!domain) return;
  Folded folded;
  if (inst.is<Unary>() && inst.as<Unary>().op == ast::UnaryOp::Neg) {
    InstId operandId = inst.as<Unary>().operand;
    const Inst& operand = pass_.sema.program.bodies[operandId];
    if (operand.is<IntLit>() && bits(operand) == kMaxInt + 1) {
      folded_[id.index()] = std::numeric_limits<std::int64_t>::min();
      return;
    }
    std::optional<std::int64_t> v = foldedValue(operandId);
    if (!v) return;
    folded = foldNegation(*v);
  } else if (inst.is<Binary>()) {
    Binary binary = inst.as<Binary>();
    ast::BinaryOp op = binary.op;
    std::optional<std::int64_t> rhs = foldedValue(binary.rhs);
    // `x / 0` faults whatever `x` is.
    if (rhs && *rhs == 0 && *domain == FoldDomain::Int &&
        (op == ast::BinaryOp::Div || op == ast::BinaryOp::Rem)) {
      folded.status = Folded::Status::DivisionByZero;
    } else {
      std::optional<std::int64_t> lhs = foldedValue(binary.lhs);
      if (!lhs || !rhs) return;
      folded = foldBinary(op, *domain, *lhs, *rhs);
    }
  } else {
    return;
  }
  if (folded.status == Folded::Status::Value) {
    folded_[id.index()] = folded.value;
    return;
  }
  reportConstFold(sema().diags, sema().sources, folded.status, at, typeOf(id));
}

}  // namespace herald::check
