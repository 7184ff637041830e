// Binary operators: arithmetic on Int/Int and Float/Float, `+` on strings,
// Instant/Duration arithmetic, ordering comparisons, equality on any two
// values of one type (capabilities excepted), and the Bool connectives.
// Refined operands take part through their base type.
#include <optional>
#include <string>

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"

namespace herald::check {

namespace {

bool orderable(TypeKind k) {
  return k == TypeKind::Int || k == TypeKind::Float || k == TypeKind::String ||
         k == TypeKind::Instant || k == TypeKind::Duration;
}

bool isOrdering(ast::BinaryOp op) {
  return op == ast::BinaryOp::Lt || op == ast::BinaryOp::Le ||
         op == ast::BinaryOp::Gt || op == ast::BinaryOp::Ge;
}

// `a < b` on two values of a type without an order: say which operators it
// has, and for an opaque type how its values can still be ordered.
void noteUnordered(DiagnosticBuilder& report, const Type* t) {
  const std::string name = displayName(t);
  if (t->kind != TypeKind::Named || t->named->def != TypeDefKind::Opaque) {
    report.note(
        "values of '{}' have no order: only '==' and '!=' are defined for "
        "them",
        name);
    return;
  }
  const TypeInfo& info = *t->named;
  const std::string owner = info.context != nullptr ? info.context->name : "";
  report.note(info.nameRange,
              "'{}' is opaque: only '==' and '!=' are defined for its values",
              info.name);
  report.note(
      "to order them, compare their base values with '.raw' in context "
      "'{}', e.g. in a function it offers",
      owner);
}

}  // namespace

namespace {

bool isComparison(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::Eq:
    case ast::BinaryOp::Ne:
    case ast::BinaryOp::Lt:
    case ast::BinaryOp::Le:
    case ast::BinaryOp::Gt:
    case ast::BinaryOp::Ge:
      return true;
    case ast::BinaryOp::Or:
    case ast::BinaryOp::And:
    case ast::BinaryOp::Add:
    case ast::BinaryOp::Sub:
    case ast::BinaryOp::Mul:
    case ast::BinaryOp::Div:
    case ast::BinaryOp::Rem:
      return false;
  }
  return false;
}

bool isEquality(ast::BinaryOp op) {
  return op == ast::BinaryOp::Eq || op == ast::BinaryOp::Ne;
}

// `a < b < c` without parentheses: the parser has reported the chain.
bool chained(const ast::BinaryExpr* e) {
  if (!isComparison(e->op)) return false;
  for (const ast::Expr* side : {e->lhs, e->rhs})
    if (const auto* b = llvm::dyn_cast_or_null<ast::BinaryExpr>(side))
      if (isComparison(b->op)) return true;
  return false;
}

}  // namespace

// A left-deep chain (`1 + 1 + ...`) is checked in a loop from its innermost
// operator out, each taking the value below it as its left operand, so
// that the chain's length costs no stack.
InstId BodyChecker::checkBinary(const ast::BinaryExpr* top) {
  llvm::SmallVector<const ast::BinaryExpr*, 8> spine{top};
  for (;;) {
    const ast::BinaryExpr* e = spine.back();
    if (chained(e) || (needsExpected(e->lhs) && !needsExpected(e->rhs))) break;
    const auto* lhs = llvm::dyn_cast_or_null<ast::BinaryExpr>(e->lhs);
    if (lhs == nullptr) break;
    spine.push_back(lhs);
  }
  // `left`: the value of e->lhs, when the loop has checked it.
  auto link = [&](const ast::BinaryExpr* e,
                  std::optional<InstId> left) -> InstId {
    TypeTable& tt = types();
    if (chained(e)) {
      checkUsed(e->lhs, nullptr);
      checkUsed(e->rhs, nullptr);
      return invalid(e->range, tt.boolType());
    }
    InstId lv;
    InstId rv;
    // What one side tells the other to expect: a refined type takes part
    // through its base type, so the other side is not held to the
    // refinement (`q - (if c { 1000 } else { 1 })` is checked as `q - 1000`
    // is), and `fail(...)` expects nothing, since it fits any operand.
    auto expectation = [](const Type* t) -> const Type* {
      if (t == nullptr || t->kind == TypeKind::Never) return nullptr;
      return stripRefined(t);
    };
    // `status != Paid`, `None == x`: the side that knows its type goes first
    // and tells the other what is expected.
    if (left) {
      lv = *left;
      reportMessageUse(e->lhs, lv);
      rv = checkUsed(e->rhs, expectation(typeOf(lv)));
    } else if (needsExpected(e->lhs) && !needsExpected(e->rhs)) {
      rv = checkUsed(e->rhs, nullptr);
      lv = checkUsed(e->lhs, expectation(typeOf(rv)));
    } else {
      lv = checkUsed(e->lhs, nullptr);
      rv = checkUsed(e->rhs, expectation(typeOf(lv)));
    }
    const Type* lt = typeOf(lv);
    const Type* rt = typeOf(rv);
    bool isCompare = e->op == ast::BinaryOp::Eq || e->op == ast::BinaryOp::Ne ||
                     e->op == ast::BinaryOp::Lt || e->op == ast::BinaryOp::Le ||
                     e->op == ast::BinaryOp::Gt || e->op == ast::BinaryOp::Ge ||
                     e->op == ast::BinaryOp::And || e->op == ast::BinaryOp::Or;
    if (quiet(lt) || quiet(rt))
      return invalid(e->range, isCompare ? tt.boolType() : nullptr);
    // Neither operand yields a value (`fail("a") + fail("b")`): the left
    // one fails first and the operator never runs, so the result is
    // `Never` (a comparison's is still a Bool).
    if (lt->kind == TypeKind::Never && rt->kind == TypeKind::Never)
      return emitOperator(
          InstKind::Binary, isCompare ? tt.boolType() : tt.never(), e->range,
          lv.index(), rv.index(), static_cast<std::uint8_t>(e->op));
    // `fail(...)` fits any operand.
    if (lt->kind == TypeKind::Never) lt = rt;
    if (rt->kind == TypeKind::Never) rt = lt;
    const Type* l = stripRefined(lt);
    const Type* r = stripRefined(rt);
    const Type* result = nullptr;
    switch (e->op) {
      case ast::BinaryOp::Or:
      case ast::BinaryOp::And:
        if (l == tt.boolType() && r == tt.boolType()) result = tt.boolType();
        break;
      case ast::BinaryOp::Eq:
      case ast::BinaryOp::Ne:
        // Refined values take part through their base type, as they do
        // in `<`: two refined types of one base compare as that base.
        if (l == r && l->kind != TypeKind::Capability) result = tt.boolType();
        break;
      case ast::BinaryOp::Lt:
      case ast::BinaryOp::Le:
      case ast::BinaryOp::Gt:
      case ast::BinaryOp::Ge:
        if (l == r && orderable(l->kind)) result = tt.boolType();
        break;
      case ast::BinaryOp::Add:
        if (l == r &&
            (l->kind == TypeKind::Int || l->kind == TypeKind::Float ||
             l->kind == TypeKind::String || l->kind == TypeKind::Duration))
          result = l;
        else if ((l->kind == TypeKind::Instant &&
                  r->kind == TypeKind::Duration) ||
                 (l->kind == TypeKind::Duration &&
                  r->kind == TypeKind::Instant))
          result = tt.instant();
        break;
      case ast::BinaryOp::Sub:
        if (l == r && (l->kind == TypeKind::Int || l->kind == TypeKind::Float ||
                       l->kind == TypeKind::Duration))
          result = l;
        else if (l->kind == TypeKind::Instant && r->kind == TypeKind::Duration)
          result = tt.instant();
        else if (l->kind == TypeKind::Instant && r->kind == TypeKind::Instant)
          result = tt.duration();
        break;
      case ast::BinaryOp::Mul:
      case ast::BinaryOp::Div:
      case ast::BinaryOp::Rem:
        if (l == r && (l->kind == TypeKind::Int || l->kind == TypeKind::Float))
          result = l;
        break;
    }
    if (result == nullptr) {
      std::string operands =
          lt == rt ? "two values of type '" + displayName(lt) + "'"
                   : "'" + displayName(lt) + "' and '" + displayName(rt) + "'";
      auto report = sema().diags.report<diag::InvalidOperands>(
          e->range, ast::spelling(e->op), operands);
      if (e->op == ast::BinaryOp::Add &&
          (l->kind == TypeKind::String || r->kind == TypeKind::String))
        report.note("interpolate instead: \"\\(a)\\(b)\"");
      else if (l != r &&
               (l->kind == TypeKind::Int || l->kind == TypeKind::Float) &&
               (r->kind == TypeKind::Int || r->kind == TypeKind::Float))
        report.note(
            "Int and Float do not mix; write both sides as the same "
            "type");
      else if (l == r && isOrdering(e->op) && l->kind != TypeKind::Capability)
        noteUnordered(report, l);
      return invalid(e->range, isCompare ? tt.boolType() : nullptr);
    }
    // Operands of a refined type take part as their base: the operation is
    // the base type's.
    // Equality of two values of one refined type compares them as they are.
    bool same = lt == rt && isEquality(e->op);
    if (typeOf(lv) == lt && lt != l && !same)
      lv = emit(InstKind::Unrefine, l, e->lhs->range, lv.index());
    if (typeOf(rv) == rt && rt != r && !same)
      rv = emit(InstKind::Unrefine, r, e->rhs->range, rv.index());
    return emitOperator(InstKind::Binary, result, e->range, lv.index(),
                        rv.index(), static_cast<std::uint8_t>(e->op));
  };
  std::optional<InstId> below;
  for (auto it = spine.rbegin(); it != spine.rend(); ++it)
    below = typed(*it, link(*it, below));
  return *below;
}

}  // namespace herald::check
