// Compile-time values, computed on the IR: the constant value of a lowered
// instruction (eval.cpp), checked arithmetic on Int and Duration
// (const_fold.cpp) and `where` predicates evaluated on their lowered form,
// TypeInfo::predicate (refinement_eval.cpp). Event field defaults, store
// initialisers, refined and opaque constructors applied to constants, map
// keys and pattern literals are all evaluated here, once, from what the
// checker lowered. Internal to checker/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "frontend/ast.h"
#include "frontend/diagnostic.h"
#include "frontend/source.h"
#include "frontend/token.h"
#include "ir/const_value.h"
#include "ir/id.h"
#include "ir/program.h"

namespace herald::check {

// --- constants (eval.cpp) ----------------------------------------------------

// The value of instruction `id` of `program`'s body IR when it is a
// constant: literals, `-` and arithmetic on them (checked: an overflow is
// no value), variants, `None`, `Some`, record, list and map literals of
// constants, opaque and refined values built from constants. Otherwise
// nullopt, and `blocker`, when given, receives the first instruction (in
// lowering order) that is not a constant. Reports nothing.
[[nodiscard]] std::optional<ConstValue> constantOf(const Program& program,
                                                   InstId id,
                                                   InstId* blocker = nullptr);

// --- refinements (refinement_eval.cpp)
// ----------------------------------------

enum class RefinementResult : std::uint8_t { Holds, Violated, Unknown };

// Evaluates the refinement of `type` (and of its base, when the base is
// refined too) with `self` bound to `value`. Unknown when a predicate
// cannot be evaluated at compile time (or was not well-formed).
[[nodiscard]] RefinementResult checkRefinement(const TypeInfo& type,
                                               const ConstValue& value);

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

// The refinement predicates `value` must satisfy to be a `type`, innermost
// first, if any; for messages (source text of each predicate).
[[nodiscard]] std::string refinementText(const SourceManager& sources,
                                         const TypeInfo& type);

// The source text of `expr` (or of `range`) on one line (runs of
// whitespace collapsed).
[[nodiscard]] std::string exprText(const SourceManager& sources,
                                   const ast::Expr& expr);
[[nodiscard]] std::string exprText(const SourceManager& sources,
                                   SourceRange range);

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

// `value` of `unit` in milliseconds; nullopt when it overflows an Int.
[[nodiscard]] std::optional<std::int64_t> durationMillis(std::uint64_t value,
                                                         DurationUnit unit);

// Reports constant-overflow (of a value of `type`) or
// constant-division-by-zero at `range`, for a status of Overflow or
// DivisionByZero; nothing for the others.
void reportConstFold(DiagnosticEngine& diags, const SourceManager& sources,
                     Folded::Status status, SourceRange range,
                     const Type* type);

}  // namespace herald::check
