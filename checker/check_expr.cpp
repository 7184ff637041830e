// Expression dispatch, blocks, `if`, unary operators, `fail`, and the
// expected-type machinery (coercion of refined types, refinement of
// constants, joining branch types).
#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"
#include "checker/const_eval.h"

namespace herald::check {

using llvm::cast;
using llvm::dyn_cast;

BodyChecker::BodyChecker(BodyPass& pass, const ContextInfo& context,
                         BodyRole role)
    : pass_(pass), context_(context), role_(role) {}

ExprInfo& BodyChecker::record(const ast::Expr* e, const Type* type,
                              RefKind ref) {
  ExprInfo& info = pass_.sema.program.bodies.at(e);
  info.type = type;
  info.ref = ref;
  return info;
}

bool BodyChecker::quiet(const Type* t) {
  return t == nullptr || !isWellFormed(t);
}

const Type* BodyChecker::stripRefined(const Type* t) {
  // Bounded: alias cycles are broken by the signatures pass, but a
  // malformed tree must never make this loop.
  for (int depth = 0; depth < 64 && t != nullptr &&
                      t->kind == TypeKind::Named && t->named != nullptr &&
                      t->named->def == TypeDefKind::Refined && t->named->base;
       ++depth)
    t = t->named->base;
  return t;
}

bool BodyChecker::isSum(const Type* t) {
  return t != nullptr && t->kind == TypeKind::Named && t->named != nullptr &&
         t->named->def == TypeDefKind::Sum;
}

const ast::Expr* BodyChecker::stripParens(const ast::Expr* e) {
  while (e != nullptr) {
    const auto* p = dyn_cast<ast::ParenExpr>(e);
    if (p == nullptr) break;
    e = p->inner;
  }
  return e;
}

std::string BodyChecker::quotedList(llvm::ArrayRef<std::string> names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += "'" + names[i] + "'";
  }
  return out;
}

const Type* BodyChecker::check(const ast::Expr* e, const Type* expected) {
  TypeTable& tt = types();
  bool discard = discard_;
  discard_ = false;
  if (e == nullptr) return tt.error();
  switch (e->kind) {
    case ast::ExprKind::IntLit:
      return record(e, tt.intType()).type;
    case ast::ExprKind::FloatLit:
      return record(e, tt.floatType()).type;
    case ast::ExprKind::BoolLit:
      return record(e, tt.boolType()).type;
    case ast::ExprKind::StringLit:
      return checkString(cast<ast::StringLitExpr>(e));
    case ast::ExprKind::UnitLit:
      return record(e, tt.unit()).type;
    case ast::ExprKind::DurationLit:
      return record(e, tt.duration()).type;
    case ast::ExprKind::Name:
      return checkName(cast<ast::NameExpr>(e), expected);
    case ast::ExprKind::Field:
      return checkField(cast<ast::FieldExpr>(e), expected);
    case ast::ExprKind::Call:
      return checkCall(cast<ast::CallExpr>(e), expected);
    case ast::ExprKind::TypeApply: {
      // `Events.emit[E]` is only meaningful as a callee.
      const auto* apply = cast<ast::TypeApplyExpr>(e);
      sema().diags.report<diag::NotAValue>(e->range,
                                           sema().sources.textOf(apply->range),
                                           "a capability operation");
      return record(e, tt.error()).type;
    }
    case ast::ExprKind::RecordLit:
      return checkRecordLit(cast<ast::RecordLitExpr>(e));
    case ast::ExprKind::ListLit:
      return checkListLit(cast<ast::ListLitExpr>(e), expected);
    case ast::ExprKind::If:
      return checkIf(cast<ast::IfExpr>(e), expected, discard);
    case ast::ExprKind::Match:
      return checkMatch(cast<ast::MatchExpr>(e), expected, discard);
    case ast::ExprKind::Block:
      return checkBlock(cast<ast::BlockExpr>(e), expected, !discard);
    case ast::ExprKind::Unary:
      return checkUnary(cast<ast::UnaryExpr>(e));
    case ast::ExprKind::Binary:
      return checkBinary(cast<ast::BinaryExpr>(e));
    case ast::ExprKind::Paren: {
      const Type* inner = check(cast<ast::ParenExpr>(e)->inner, expected);
      return record(e, inner).type;
    }
    case ast::ExprKind::Fail:
      return checkFail(cast<ast::FailExpr>(e));
    case ast::ExprKind::Error:
      return record(e, tt.error()).type;
  }
  return record(e, tt.error()).type;
}

void BodyChecker::reportMessageUse(const ast::Expr* e) {
  const ast::Expr* inner = stripParens(e);
  if (inner == nullptr || inner != lastMessage_) return;
  std::string text(sema().sources.textOf(inner->range));
  sema()
      .diags.report<diag::MessageResultUsed>(inner->range, text)
      .note(
          "a message is delivered after this handler commits, so it has no "
          "result here; send it as a statement of its own");
}

const Type* BodyChecker::checkUsed(const ast::Expr* e, const Type* expected) {
  const Type* t = check(e, expected);
  reportMessageUse(e);
  return t;
}

const Type* BodyChecker::checkAgainst(const ast::Expr* e,
                                      const Type* expected) {
  const Type* t = checkUsed(e, expected);
  coerce(e, t, expected);
  return expected != nullptr && !quiet(t) ? expected : t;
}

const Type* BodyChecker::checkValueAgainst(const ast::Expr* e,
                                           const Type* expected) {
  return checkAgainst(e, expected);
}

void BodyChecker::coerce(const ast::Expr* e, const Type* actual,
                         const Type* expected) {
  if (e == nullptr || expected == nullptr || actual == expected) return;
  if (quiet(actual) || quiet(expected)) return;
  if (actual->kind == TypeKind::Never) return;
  // A refined value is usable where its base is expected.
  if (stripRefined(actual) == stripRefined(expected) &&
      stripRefined(expected) == expected)
    return;
  // A base value is accepted where a refined type is expected: checked at
  // runtime, and now when it is a constant.
  if (expected->kind == TypeKind::Named &&
      expected->named->def == TypeDefKind::Refined &&
      stripRefined(expected) == stripRefined(actual)) {
    pass_.sema.program.bodies.at(e).coercion = Coercion::RefineCheck;
    std::optional<ConstValue> value =
        evalConstant(sema(), context_, stripParens(e), actual);
    if (value && checkRefinement(*expected->named, *value) ==
                     RefinementResult::Violated) {
      sema()
          .diags
          .report<diag::RefinementViolated>(
              e->range, "'" + render(*value) + "'", expected->named->name)
          .note(expected->named->nameRange, "'{}' requires {}",
                expected->named->name,
                refinementText(sema().sources, *expected->named));
    }
    return;
  }
  sema().diags.report<diag::TypeMismatch>(e->range, displayName(expected),
                                          displayName(actual));
}

const Type* BodyChecker::join(const Type* a, const Type* b) const {
  if (a == nullptr) return b;
  if (b == nullptr) return a;
  if (a->kind == TypeKind::Never) return b;
  if (b->kind == TypeKind::Never) return a;
  if (quiet(a)) return a;
  if (quiet(b)) return b;
  return a;
}

bool BodyChecker::needsExpected(const ast::Expr* e) {
  e = stripParens(e);
  if (e == nullptr) return false;
  if (const auto* list = dyn_cast<ast::ListLitExpr>(e))
    return list->elements.empty();
  if (const auto* call = dyn_cast<ast::CallExpr>(e)) {
    const auto* callee = llvm::dyn_cast_or_null<ast::NameExpr>(call->callee);
    return callee != nullptr && callee->name.name != "Some" &&
           needsExpected(callee);
  }
  const auto* name = dyn_cast<ast::NameExpr>(e);
  if (name == nullptr) return false;
  if (name->name.name == "None") return true;
  ScopeHit hit;
  if (lookupScoped(name->name.name, hit) || localFn(name->name.name))
    return false;
  ast::Ident part = name->name;
  return lookupPath(llvm::ArrayRef<ast::Ident>(part)).status ==
         LookupResult::Status::NotFound;
}

const Type* BodyChecker::checkBlock(const ast::BlockExpr* block,
                                    const Type* expected, bool used) {
  TypeTable& tt = types();
  if (block == nullptr) return tt.error();
  std::size_t mark = locals_.size();
  const Type* result = tt.unit();
  bool diverges = false;
  for (std::size_t i = 0; i < block->stmts.size(); ++i) {
    const ast::Stmt* stmt = block->stmts[i];
    if (stmt == nullptr) continue;
    bool last = i + 1 == block->stmts.size();
    switch (stmt->kind) {
      case ast::StmtKind::Let:
        checkLet(stmt);
        break;
      case ast::StmtKind::Assign:
        checkAssign(stmt);
        break;
      case ast::StmtKind::Expr: {
        const Type* t = nullptr;
        if (last && used) {
          t = checkUsed(stmt->value, expected);
        } else {
          discard_ = true;
          t = check(stmt->value, last ? expected : nullptr);
        }
        if (t != nullptr && t->kind == TypeKind::Never) diverges = true;
        if (last) result = t;
        break;
      }
      case ast::StmtKind::Error:
        sawBrokenStmt_ = true;
        result = tt.error();
        break;
    }
  }
  // A block whose statements end in `fail` has no value to agree on.
  if (diverges && result == tt.unit()) result = tt.never();
  locals_.resize(mark);
  return record(block, result).type;
}

void BodyChecker::checkFnBody(const ast::BlockExpr* body, const Type* result) {
  TypeTable& tt = types();
  if (body == nullptr) return;
  if (result == nullptr || result == tt.unit() || quiet(result)) {
    checkBlock(body, nullptr, false);
    return;
  }
  const Type* t = checkBlock(body, result, true);
  // Point at the expression that produced the value, not the whole body.
  const ast::Expr* at = body;
  if (!body->stmts.empty() && body->stmts.back() != nullptr &&
      body->stmts.back()->kind == ast::StmtKind::Expr &&
      body->stmts.back()->value != nullptr)
    at = body->stmts.back()->value;
  // A message there was reported as message-result-used already.
  if (stripParens(at) == lastMessage_ && at != nullptr) return;
  coerce(at, t, result);
}

namespace {

// The expression that gives a branch its value, for precise ranges.
const ast::Expr* valueOf(const ast::Expr* e) {
  const auto* block = llvm::dyn_cast_or_null<ast::BlockExpr>(e);
  if (block == nullptr || block->stmts.empty()) return e;
  const ast::Stmt* last = block->stmts.back();
  if (last == nullptr || last->kind != ast::StmtKind::Expr ||
      last->value == nullptr)
    return e;
  return valueOf(last->value);
}

}  // namespace

const Type* BodyChecker::checkIf(const ast::IfExpr* e, const Type* expected,
                                 bool discard) {
  TypeTable& tt = types();
  checkAgainst(e->cond, tt.boolType());
  if (e->elseExpr == nullptr) {
    checkBlock(e->thenBlock, nullptr, false);
    return record(e, tt.unit()).type;
  }
  const Type* thenT = checkBlock(e->thenBlock, expected, !discard);
  if (expected != nullptr) {
    coerce(valueOf(e->thenBlock), thenT, expected);
    discard_ = discard;
    const Type* elseT = check(e->elseExpr, expected);
    coerce(valueOf(e->elseExpr), elseT, expected);
    const Type* joined = join(thenT, elseT);
    return record(e, joined != nullptr && joined->kind == TypeKind::Never
                         ? joined
                         : expected)
        .type;
  }
  const Type* want =
      thenT != nullptr && thenT->kind != TypeKind::Never ? thenT : nullptr;
  discard_ = discard;
  const Type* elseT = check(e->elseExpr, want);
  const Type* result = join(thenT, elseT);
  if (want != nullptr && elseT != nullptr && elseT->kind != TypeKind::Never &&
      !quiet(elseT) && !quiet(want) &&
      stripRefined(elseT) != stripRefined(want)) {
    sema()
        .diags
        .report<diag::TypeMismatch>(valueOf(e->elseExpr)->range,
                                    displayName(want), displayName(elseT))
        .note(valueOf(e->thenBlock)->range,
              "the 'if' branch has type '{}'; both branches must agree",
              displayName(want));
    result = tt.error();
  }
  return record(e, result).type;
}

const Type* BodyChecker::checkUnary(const ast::UnaryExpr* e) {
  TypeTable& tt = types();
  const Type* t = checkUsed(e->operand, nullptr);
  const Type* base = stripRefined(t);
  const Type* result = tt.error();
  if (quiet(t)) return record(e, t).type;
  switch (e->op) {
    case ast::UnaryOp::Not:
      if (base == tt.boolType() || t->kind == TypeKind::Never)
        result = tt.boolType();
      break;
    case ast::UnaryOp::Neg:
      if (base == tt.intType() || base == tt.floatType() ||
          base == tt.duration())
        result = base;
      else if (t->kind == TypeKind::Never)
        result = t;
      break;
  }
  if (result == tt.error())
    sema().diags.report<diag::InvalidOperands>(e->range, ast::spelling(e->op),
                                               "'" + displayName(t) + "'");
  return record(e, result).type;
}

const Type* BodyChecker::checkFail(const ast::FailExpr* e) {
  checkAgainst(e->message, types().string());
  return record(e, types().never()).type;
}

}  // namespace herald::check
