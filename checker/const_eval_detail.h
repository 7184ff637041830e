// What the declaration rules need from constant evaluation beyond
// const_eval.h: why an expression is not a constant (for the notes of
// bad-field-default), which single refinement a constant violates, and the
// type `self` has inside a refinement. Internal to checker/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "checker/const_eval.h"
#include "checker/const_value.h"
#include "checker/ir.h"
#include "checker/sema.h"
#include "frontend/ast.h"
#include "frontend/source.h"
#include "frontend/token.h"

namespace herald::check {

// The innermost sub-expression that keeps an expression from being a
// constant, and what is wrong with it. `quiet` when the cause is an earlier
// error (an Error node, an unresolved type): nothing should be reported.
struct ConstFailure {
  bool set = false;
  bool quiet = false;
  SourceRange range;
  std::string message;
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

// The source text of `expr` on one line (runs of whitespace collapsed).
[[nodiscard]] std::string exprText(const SourceManager& sources,
                                   const ast::Expr& expr);

}  // namespace herald::check
