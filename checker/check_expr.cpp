// Expression dispatch, blocks, `if`, unary operators, `fail`, and the
// expected-type machinery (coercion of refined types, refinement of
// constants, joining branch types).
#include <cstring>
#include <vector>

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"
#include "checker/eval.h"
#include "ir/inst_views.h"

namespace herald::check {

using llvm::cast;
using llvm::dyn_cast;

InstId BodyChecker::emit(InstKind kind, const Type* type, SourceRange at,
                         std::uint32_t a, std::uint32_t b, std::uint8_t sub) {
  BodyIr& body = ir();
  if (type == nullptr) type = types().error();
  InstId id{static_cast<std::uint32_t>(body.insts.size())};
  body.insts.push_back(Inst{kind, sub, type->id, a, b});
  body.locs.push_back(at.begin);
  return id;
}

InstId BodyChecker::emitOperator(InstKind kind, const Type* type,
                                 SourceRange at, std::uint32_t a,
                                 std::uint32_t b, std::uint8_t op) {
  InstId id = emit(kind, type, at, a, b, op);
  foldConstant(id, at);
  return id;
}

InstId BodyChecker::invalid(SourceRange at, const Type* type) {
  return emit(InstKind::Invalid, type != nullptr ? type : types().error(), at);
}

std::uint32_t BodyChecker::list(llvm::ArrayRef<InstId> ids) {
  BodyIr& b = ir();
  auto at = static_cast<std::uint32_t>(b.lists.size());
  b.lists.push_back(InstRange{static_cast<std::uint32_t>(b.operands.size()),
                              static_cast<std::uint32_t>(ids.size())});
  b.operands.append(ids.begin(), ids.end());
  return at;
}

const Type* BodyChecker::typeOf(InstId id) const {
  const BodyIr& body = pass_.sema.program.bodies;
  return pass_.sema.program.types.byId(body.insts[id.index()].type);
}

InstId BodyChecker::typed(const ast::Expr* e, InstId v) {
  ExprTypeTable& table = pass_.sema.program.exprTypes;
  if (e != nullptr && table.recording()) table.record(e->range, typeOf(v));
  return v;
}

SlotId BodyChecker::newSlot(llvm::StringRef name, const Type* type,
                            bool fromPattern) {
  std::vector<Slot>& slots = ir().slots;
  if (type == nullptr) type = types().error();
  slots.push_back(Slot{name, type->id, fromPattern});
  return SlotId{static_cast<std::uint32_t>(slots.size() - 1)};
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

namespace {

// The instruction that gives a block its value (through nested blocks), or
// `id` itself when it is no block with a value.
InstId blockValue(const Program& program, InstId id) {
  for (;;) {
    const Inst& inst = program.bodies[id];
    if (!inst.is<Block>()) return id;
    const Type* type = program.types.byId(inst.type);
    llvm::ArrayRef<InstId> stmts = program.bodies.list(inst.as<Block>().stmts);
    if (stmts.empty() || type == nullptr || type->kind == TypeKind::Unit ||
        type->kind == TypeKind::Never)
      return id;
    id = stmts.back();
  }
}

std::uint32_t low(std::uint64_t v) { return static_cast<std::uint32_t>(v); }
std::uint32_t high(std::uint64_t v) {
  return static_cast<std::uint32_t>(v >> 32);
}

}  // namespace

InstId BodyChecker::check(const ast::Expr* e, const Type* expected,
                          bool discard) {
  TypeTable& tt = types();
  if (e == nullptr) return invalid(SourceRange{});
  switch (e->kind) {
    case ast::ExprKind::IntLit: {
      std::uint64_t v = cast<ast::IntLitExpr>(e)->value;
      return typed(
          e, emit(InstKind::IntLit, tt.intType(), e->range, low(v), high(v)));
    }
    case ast::ExprKind::FloatLit: {
      std::uint64_t v = 0;
      double d = cast<ast::FloatLitExpr>(e)->value;
      static_assert(sizeof v == sizeof d);
      std::memcpy(&v, &d, sizeof v);
      return typed(e, emit(InstKind::FloatLit, tt.floatType(), e->range, low(v),
                           high(v)));
    }
    case ast::ExprKind::BoolLit:
      return typed(e, emit(InstKind::BoolLit, tt.boolType(), e->range, 0, 0,
                           cast<ast::BoolLitExpr>(e)->value ? 1 : 0));
    case ast::ExprKind::StringLit:
      return typed(e, checkString(cast<ast::StringLitExpr>(e)));
    case ast::ExprKind::UnitLit:
      return typed(e, emit(InstKind::UnitLit, tt.unit(), e->range));
    case ast::ExprKind::DurationLit: {
      const auto* lit = cast<ast::DurationLitExpr>(e);
      std::optional<std::int64_t> ms = durationMillis(lit->value, lit->unit);
      if (!ms) {
        // A constant that would wrap: the same error as constant arithmetic.
        reportConstFold(sema().diags, sema().sources, Folded::Status::Overflow,
                        e->range, tt.duration());
        return typed(e, invalid(e->range, tt.duration()));
      }
      auto v = static_cast<std::uint64_t>(*ms);
      return typed(e, emit(InstKind::DurationLit, tt.duration(), e->range,
                           low(v), high(v)));
    }
    case ast::ExprKind::Name:
      return typed(e, checkName(cast<ast::NameExpr>(e), expected));
    case ast::ExprKind::Field:
    case ast::ExprKind::Call:
      // Records each link of the chain, this one too.
      return checkPostfix(e, expected);
    case ast::ExprKind::TypeApply: {
      // `Events.emit[E]` is only meaningful as a callee.
      const auto* apply = cast<ast::TypeApplyExpr>(e);
      sema().diags.report<diag::NotAValue>(e->range,
                                           sema().sources.textOf(apply->range),
                                           "a capability operation");
      return invalid(e->range);
    }
    case ast::ExprKind::RecordLit:
      return typed(e, checkRecordLit(cast<ast::RecordLitExpr>(e)));
    case ast::ExprKind::ListLit:
      return typed(e, checkListLit(cast<ast::ListLitExpr>(e), expected));
    case ast::ExprKind::MapLit:
      return typed(e, checkMapLit(cast<ast::MapLitExpr>(e), expected));
    case ast::ExprKind::If:
      // Records each `if` of an `else if` chain, this one too.
      return checkIf(cast<ast::IfExpr>(e), expected, discard);
    case ast::ExprKind::Match:
      return typed(e, checkMatch(cast<ast::MatchExpr>(e), expected, discard));
    case ast::ExprKind::Block:
      // Not recorded (ir/expr_types.h says why).
      return checkBlock(cast<ast::BlockExpr>(e), expected, !discard);
    case ast::ExprKind::Unary:
      // Records each operator of the run, this one too.
      return checkUnary(cast<ast::UnaryExpr>(e));
    case ast::ExprKind::Binary:
      // Records each operator of the chain, this one too.
      return checkBinary(cast<ast::BinaryExpr>(e));
    case ast::ExprKind::Paren:
      // Parentheses only group: the inner value stands for them.
      return typed(e, check(cast<ast::ParenExpr>(e)->inner, expected, discard));
    case ast::ExprKind::Fail:
      return typed(e, checkFail(cast<ast::FailExpr>(e)));
    case ast::ExprKind::Error:
      return invalid(e->range);
  }
  return invalid(e->range);
}

bool BodyChecker::isMessage(InstId v) const {
  return pass_.sema.program.bodies.insts[v.index()].kind == InstKind::Message;
}

void BodyChecker::reportMessageUse(const ast::Expr* e, InstId v) {
  if (!isMessage(v)) return;
  const ast::Expr* inner = stripParens(e);
  if (inner == nullptr) return;
  std::string text(sema().sources.textOf(inner->range));
  sema()
      .diags.report<diag::MessageResultUsed>(inner->range, text)
      .note(
          "a message is delivered after this handler commits, so it has no "
          "result here; send it as a statement of its own");
}

InstId BodyChecker::checkUsed(const ast::Expr* e, const Type* expected) {
  InstId v = check(e, expected);
  reportMessageUse(e, v);
  return v;
}

InstId BodyChecker::checkAgainst(const ast::Expr* e, const Type* expected) {
  InstId v = checkUsed(e, expected);
  return coerce(e, v, expected);
}

InstId BodyChecker::coerce(const ast::Expr* e, InstId value,
                           const Type* expected) {
  const Type* actual = typeOf(value);
  if (e == nullptr || expected == nullptr || actual == expected) return value;
  if (quiet(actual) || quiet(expected)) return value;
  if (actual->kind == TypeKind::Never) return value;
  // A refined value is usable where its base is expected.
  if (stripRefined(actual) == stripRefined(expected) &&
      stripRefined(expected) == expected)
    return emit(InstKind::Unrefine, expected, e->range, value.index());
  // A base value is accepted where a refined type is expected: checked at
  // runtime, and now when it is a constant. A value of another refinement
  // of the same base is unrefined first.
  if (expected->kind == TypeKind::Named &&
      expected->named->def == TypeDefKind::Refined &&
      stripRefined(expected) == stripRefined(actual)) {
    if (actual != stripRefined(actual))
      value = emit(InstKind::Unrefine, stripRefined(actual), e->range,
                   value.index());
    InstId checked =
        emit(InstKind::RefineCheck, expected, e->range, value.index());
    // The value of a block is its last instruction's: `fn f() -> Q { 11 }`.
    std::optional<ConstValue> constant =
        constantOf(sema().program, blockValue(sema().program, value));
    if (constant && checkRefinement(*expected->named, *constant) ==
                        RefinementResult::Violated) {
      sema()
          .diags
          .report<diag::RefinementViolated>(
              e->range, "'" + render(*constant) + "'", expected->named->name)
          .note(expected->named->nameRange, "'{}' requires {}",
                expected->named->name,
                refinementText(sema().sources, *expected->named));
    }
    return checked;
  }
  DiagnosticBuilder report = sema().diags.report<diag::TypeMismatch>(
      e->range, displayName(expected), displayName(actual));
  if (expected->kind == TypeKind::Float && actual->kind == TypeKind::Int &&
      llvm::isa<ast::IntLitExpr>(stripParens(e))) {
    report.note("write a Float with a decimal point, e.g. '1.0'");
  } else if (expected->kind == TypeKind::Option && expected->arg0 == actual) {
    std::string some = fmt::format("Some({})", sema().sources.textOf(e->range));
    report.note("an Option holds a value as 'Some(...)'; write '{}'", some);
    report.fixit(e->range, some);
  }
  return invalid(e->range, expected);
}

const Type* BodyChecker::join(const Type* a, const Type* b) const {
  if (a == nullptr) return b;
  if (b == nullptr) return a;
  if (a->kind == TypeKind::Never) return b;
  if (b->kind == TypeKind::Never) return a;
  if (quiet(a)) return a;
  if (quiet(b)) return b;
  // Refinements of one base (or one beside its base) meet at the base, so
  // every branch is unrefined to it and code generation never guesses.
  if (a != b && stripRefined(a) == stripRefined(b)) return stripRefined(a);
  return a;
}

bool BodyChecker::needsExpected(const ast::Expr* e) {
  e = stripParens(e);
  if (e == nullptr) return false;
  if (const auto* list = dyn_cast<ast::ListLitExpr>(e))
    return list->elements.empty();
  if (const auto* map = dyn_cast<ast::MapLitExpr>(e))
    return map->entries.empty();
  if (const auto* call = dyn_cast<ast::CallExpr>(e)) {
    const auto* callee = llvm::dyn_cast_or_null<ast::NameExpr>(call->callee);
    return callee != nullptr && callee->name.name != "Some" &&
           needsExpected(callee);
  }
  const auto* name = dyn_cast<ast::NameExpr>(e);
  if (name == nullptr) return false;
  if (name->name.name == "None") return true;
  ast::Ident part = name->name;
  switch (resolve(llvm::ArrayRef<ast::Ident>(part), nullptr).kind) {
    case NameKind::Some:
    case NameKind::None:
    case NameKind::NotFound:
      return true;  // a bare variant, or a name only an expected type explains
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
    case NameKind::ContextPrefix:
    case NameKind::Ambiguous:
      break;
  }
  return false;
}

InstId BodyChecker::checkBlock(const ast::BlockExpr* block,
                               const Type* expected, bool used) {
  TypeTable& tt = types();
  if (block == nullptr) return invalid(SourceRange{});
  std::size_t mark = locals_.size();
  const Type* result = tt.unit();
  bool diverges = false;
  llvm::SmallVector<InstId, 8> stmts;
  for (std::size_t i = 0; i < block->stmts.size(); ++i) {
    const ast::Stmt* stmt = block->stmts[i];
    if (stmt == nullptr) continue;
    bool last = i + 1 == block->stmts.size();
    switch (stmt->kind) {
      case ast::StmtKind::Let:
        stmts.push_back(checkLet(stmt));
        break;
      case ast::StmtKind::Assign:
        stmts.push_back(checkAssign(stmt));
        break;
      case ast::StmtKind::Expr: {
        InstId v;
        if (last && used) {
          v = checkUsed(stmt->value, expected);
        } else {
          v = check(stmt->value, last ? expected : nullptr, true);
        }
        const Type* t = typeOf(v);
        if (t->kind == TypeKind::Never) diverges = true;
        if (last) result = t;
        stmts.push_back(v);
        break;
      }
      case ast::StmtKind::Error:
        sawBrokenStmt_ = true;
        result = tt.error();
        stmts.push_back(invalid(stmt->range));
        break;
    }
  }
  // A block whose statements end in `fail` has no value to agree on.
  if (diverges && result == tt.unit()) result = tt.never();
  locals_.resize(mark);
  return emit(InstKind::Block, result, block->range, list(stmts));
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

// An `else if` chain is walked down in a loop, each `if` keeping what it
// checked before its `else`, and joined back up from the last `else`, so
// that its length costs no stack; every `if` sees the type the one above
// passes down, as a recursive walk would.
InstId BodyChecker::checkIf(const ast::IfExpr* top, const Type* expected,
                            bool discard) {
  TypeTable& tt = types();
  struct Branch {
    const ast::IfExpr* e;
    const Type* expected;
    InstId cond;
    InstId then;
    const Type* thenT;
  };
  llvm::SmallVector<Branch, 4> chain;
  const ast::IfExpr* e = top;
  InstId value;
  // Without an expected type, the first `if` branch tells the rest what to
  // infer (`None`, `[]`, a bare variant), but only as a hint and without
  // its refinement: the branches below are joined as the first `if` joins
  // its own, so a refined first branch does not hold an `else if` branch,
  // or a `match` or `if` in the last `else`, to its refinement.
  const Type* hint = nullptr;
  for (;;) {
    InstId cond = checkAgainst(e->cond, tt.boolType());
    if (e->elseExpr == nullptr) {
      InstId then = checkBlock(e->thenBlock, nullptr, false);
      value = typed(e, emit(InstKind::If, tt.unit(), e->range, cond.index(),
                            then.index()));
      break;
    }
    InstId then = checkBlock(e->thenBlock,
                             expected != nullptr ? expected : hint, !discard);
    const Type* thenT = typeOf(then);
    if (expected != nullptr)
      then = coerce(valueOf(e->thenBlock), then, expected);
    chain.push_back({e, expected, cond, then, thenT});
    if (expected == nullptr && hint == nullptr)
      hint = thenT != nullptr && thenT->kind != TypeKind::Never
                 ? stripRefined(thenT)
                 : nullptr;
    const auto* next = dyn_cast<ast::IfExpr>(e->elseExpr);
    if (next == nullptr) {
      value =
          check(e->elseExpr, expected != nullptr ? expected : hint, discard);
      break;
    }
    e = next;
  }
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    value = typed(it->e, joinIf(it->e, it->expected, it->cond, it->then,
                                it->thenT, value));
  return value;
}

InstId BodyChecker::joinIf(const ast::IfExpr* e, const Type* expected,
                           InstId cond, InstId then, const Type* thenT,
                           InstId otherwise) {
  TypeTable& tt = types();
  const Type* elseT = typeOf(otherwise);
  if (expected != nullptr) {
    otherwise = coerce(valueOf(e->elseExpr), otherwise, expected);
    const Type* joined = join(thenT, elseT);
    InstId branches[] = {then, otherwise};
    return emit(InstKind::IfElse,
                joined != nullptr && joined->kind == TypeKind::Never ? joined
                                                                     : expected,
                e->range, cond.index(), list(branches));
  }
  const Type* want =
      thenT != nullptr && thenT->kind != TypeKind::Never ? thenT : nullptr;
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
  // Branches of different refinements are unrefined to the joined base.
  if (!quiet(result) && result->kind != TypeKind::Never) {
    if (thenT != nullptr && thenT != result && thenT->kind != TypeKind::Never)
      then = coerce(valueOf(e->thenBlock), then, result);
    if (elseT != nullptr && elseT != result && elseT->kind != TypeKind::Never)
      otherwise = coerce(valueOf(e->elseExpr), otherwise, result);
  }
  InstId branches[] = {then, otherwise};
  return emit(InstKind::IfElse, result, e->range, cond.index(), list(branches));
}

// A run of `!` and `-` is checked from its innermost operand out.
InstId BodyChecker::checkUnary(const ast::UnaryExpr* top) {
  std::vector<const ast::UnaryExpr*> run{top};
  while (const auto* inner =
             llvm::dyn_cast_or_null<ast::UnaryExpr>(run.back()->operand))
    run.push_back(inner);
  InstId operand = checkUsed(run.back()->operand, nullptr);
  for (auto it = run.rbegin(); it != run.rend(); ++it) {
    if (it != run.rbegin()) reportMessageUse((*it)->operand, operand);
    operand = typed(*it, unaryLink(*it, operand));
  }
  return operand;
}

InstId BodyChecker::unaryLink(const ast::UnaryExpr* e, InstId operand) {
  TypeTable& tt = types();
  const Type* t = typeOf(operand);
  const Type* base = stripRefined(t);
  const Type* result = tt.error();
  if (quiet(t)) return invalid(e->range);
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
  if (result == tt.error()) {
    sema().diags.report<diag::InvalidOperands>(e->range, ast::spelling(e->op),
                                               "'" + displayName(t) + "'");
    return invalid(e->range);
  }
  if (t != base && t->kind != TypeKind::Never)
    operand = coerce(e->operand, operand, base);
  return emitOperator(InstKind::Unary, result, e->range, operand.index(), 0,
                      static_cast<std::uint8_t>(e->op));
}

InstId BodyChecker::checkFail(const ast::FailExpr* e) {
  InstId message = checkAgainst(e->message, types().string());
  return emit(InstKind::Fail, types().never(), e->range, message.index());
}

}  // namespace herald::check
