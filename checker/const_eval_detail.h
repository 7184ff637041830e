// What the declaration rules need from constant evaluation beyond
// const_eval.h: why an expression is not a constant (for the notes of
// bad-field-default), which single refinement a constant violates, and the
// type `self` has inside a refinement. Internal to checker/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include "checker/const_eval.h"
#include "checker/resolve.h"
#include "checker/sema.h"
#include "frontend/ast.h"
#include "frontend/source.h"
#include "frontend/token.h"
#include "ir/const_value.h"
#include "ir/program.h"

namespace herald::check {

// The innermost sub-expression that keeps an expression from being a
// constant, and what is wrong with it. `quiet` when the cause is an earlier
// error (an Error node, an unresolved type): nothing should be reported.
struct ConstFailure {
  // Overflow and DivisionByZero are errors of their own (constant-overflow,
  // constant-division-by-zero), reported with reportConstFold; `message` is
  // then the expression's text and `type` the type it overflows.
  enum class Cause : std::uint8_t { NotConstant, Overflow, DivisionByZero };
  bool set = false;
  bool quiet = false;
  Cause cause = Cause::NotConstant;
  SourceRange range;
  std::string message;
  const Type* type = nullptr;
  // The value is an Option (`None`) where the expected type is not one: the
  // report can offer to make the field optional.
  bool optionWhereNotOptional = false;
};

// How an expression's kind is named in a note: "a call", "a block".
[[nodiscard]] std::string_view describeExpr(const ast::Expr& e);

// evalConstant that also says why it failed, in `why`.
[[nodiscard]] std::optional<ConstValue> evalConstantExplained(
    const Sema& sema, const ContextInfo& from, const ast::Expr* expr,
    const Type* expected, ConstFailure& why);

// The refinement of `type` alone (not of its base), `self` bound to the
// innermost base value of `value`.
[[nodiscard]] RefinementResult checkOwnRefinement(const TypeInfo& type,
                                                  const ConstValue& value);

// The first refinement a constant violates, searching its parts and every
// layer of a refined or opaque value innermost first; null when none is
// known to be violated.
struct RefinementViolation {
  const TypeInfo* type = nullptr;     // whose own predicate fails
  const ConstValue* value = nullptr;  // the offending part of the constant
};
[[nodiscard]] RefinementViolation findViolatedRefinement(
    const ConstValue& value);

// The type `self` stands for in the refinement of `type`: its base with
// every opaque or refined layer removed. Null when the chain of bases is
// unresolved or cyclic.
[[nodiscard]] const Type* refinementSelfType(const TypeInfo& type);

// `value` of `unit` in milliseconds; nullopt when it overflows an Int.
[[nodiscard]] std::optional<std::int64_t> durationMillis(std::uint64_t value,
                                                         DurationUnit unit);

// The source text of `expr` (or of `range`) on one line (runs of
// whitespace collapsed).
[[nodiscard]] std::string exprText(const SourceManager& sources,
                                   const ast::Expr& expr);
[[nodiscard]] std::string exprText(const SourceManager& sources,
                                   SourceRange range);

// --- the evaluator (const_eval.cpp, const_eval_names.cpp) ------------------

// The evaluator of constants (const_eval.cpp; names and calls in
// const_eval_names.cpp). Evaluates one expression against an expected type.
// With a ConstFailure it records the innermost reason for failing; without one
// it allocates nothing on the failure paths.
class ConstEvaluator {
 public:
  ConstEvaluator(const Sema& sema, const ContextInfo& from, ConstFailure* why)
      : sema_(sema), from_(from), why_(why) {}

  std::optional<ConstValue> eval(const ast::Expr* expr, const Type* expected);

 private:
  template <typename F>
  std::nullopt_t fail(SourceRange range, F&& message) {
    if (why_ != nullptr && !why_->set) {
      why_->set = true;
      why_->range = range;
      why_->message = std::forward<F>(message)();
    }
    return std::nullopt;
  }
  // `None` where `expected`, not an Option, is wanted.
  std::nullopt_t noneWhereNotOptional(SourceRange range, const Type* expected) {
    if (why_ != nullptr && !why_->set) why_->optionWhereNotOptional = true;
    return fail(range, [&] {
      return fmt::format("expected '{}', found 'Option[_]'",
                         displayName(expected));
    });
  }
  std::nullopt_t quiet() {
    if (why_ != nullptr && !why_->set) {
      why_->set = true;
      why_->quiet = true;
    }
    return std::nullopt;
  }
  // `described` is what the message names; the report is at `range`.
  std::nullopt_t mismatch(const ast::Expr& described, SourceRange range,
                          const Type* expected);
  // Names resolve as in a body with nothing in scope.
  Resolution resolve(llvm::ArrayRef<ast::Ident> parts,
                     const Type* expected) const {
    return resolveName(sema_.program, from_, BodyScope{}, parts, expected);
  }
  std::string unknownNameMessage(llvm::ArrayRef<ast::Ident> parts,
                                 const Resolution& found,
                                 const Type* expected) const;

  std::optional<ConstValue> evalLiteral(const ast::Expr& e,
                                        const Type* expected);
  std::optional<ConstValue> evalOperators(const ast::BinaryExpr& e,
                                          const Type* expected);
  // One `-` of a run (evalNegation walks the run).
  std::optional<ConstValue> negate(const ast::UnaryExpr& e,
                                   const Type* expected);
  std::optional<ConstValue> evalNegation(const ast::UnaryExpr& e,
                                         const Type* expected);
  std::optional<ConstValue> evalName(const ast::Expr& e, const Type* expected);
  std::optional<ConstValue> evalCall(const ast::CallExpr& e,
                                     const Type* expected);
  std::optional<ConstValue> evalConstructor(const ast::CallExpr& e,
                                            const TypeInfo& type,
                                            const Type* expected);
  std::optional<ConstValue> evalVariant(const ast::Expr& e, const TypeInfo& sum,
                                        const VariantInfo& variant,
                                        llvm::ArrayRef<ast::Arg> args,
                                        bool called);
  std::optional<ConstValue> evalRecord(const ast::RecordLitExpr& e,
                                       const Type* expected);
  std::optional<ConstValue> evalList(const ast::ListLitExpr& e,
                                     const Type* expected);

  const Sema& sema_;
  const ContextInfo& from_;
  ConstFailure* why_;
};

// The type a call `T(...)` names as a whole (its constructor is checked
// by evalConstructor); null when the callee is no type.
[[nodiscard]] const TypeInfo* constructedType(const Resolution& r,
                                              llvm::ArrayRef<ast::Ident> parts);

// --- constant arithmetic (const_fold.cpp) -----------------------------------

// The outcome of one checked operation on 64-bit values: a value, or why
// there is none. A wrapped value is never produced.
struct Folded {
  enum class Status : std::uint8_t {
    Value,
    Overflow,
    DivisionByZero,
    NotFolded,  // not an operation folded on these operands
  };
  Status status = Status::NotFolded;
  std::int64_t value = 0;
};

// What is folded: every arithmetic operator on two Int values, `+` and `-`
// on two Durations (milliseconds), unary `-` on either.
enum class FoldDomain : std::uint8_t { Int, Duration };
[[nodiscard]] Folded foldBinary(ast::BinaryOp op, FoldDomain domain,
                                std::int64_t lhs, std::int64_t rhs);
[[nodiscard]] Folded foldNegation(std::int64_t operand);

// The domain of a type whose arithmetic is folded, if it is one.
[[nodiscard]] std::optional<FoldDomain> foldDomain(const Type* type);

// Evaluates an operand for evalArithmetic and evalNegated: the evaluator's
// own eval, so that operands may be any constant.
using EvalOperand = llvm::function_ref<std::optional<ConstValue>(
    const ast::Expr*, const Type*)>;

// `a + b` (and the other arithmetic operators) as a constant of `expected`;
// `why`, when not null, receives the reason when it is not one.
[[nodiscard]] std::optional<ConstValue> evalArithmetic(
    const SourceManager& sources, const ast::BinaryExpr& e,
    const Type* expected, EvalOperand operand, ConstFailure* why);
// `-e` for an operand that is not a literal.
[[nodiscard]] std::optional<ConstValue> evalNegated(
    const SourceManager& sources, const ast::UnaryExpr& e, const Type* expected,
    EvalOperand operand, ConstFailure* why);

// `[:]` and `["a": 1]` as a constant of `expected` (const_eval_map.cpp).
[[nodiscard]] std::optional<ConstValue> evalMapLiteral(const ast::MapLitExpr& e,
                                                       const Type* expected,
                                                       EvalOperand operand,
                                                       ConstFailure* why);

// Reports a failure whose cause is Overflow or DivisionByZero; false (and
// nothing reported) for any other.
bool reportConstFold(DiagnosticEngine& diags, const ConstFailure& why);

}  // namespace herald::check
