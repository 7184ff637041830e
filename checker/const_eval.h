// Compile-time evaluation of constants and of refinement predicates: used for
// event field defaults, store initialisers, literals in subscription
// patterns and constants passed where a refined type is expected.
#pragma once

#include <optional>
#include <string>

#include "checker/sema.h"
#include "frontend/ast.h"
#include "ir/const_value.h"
#include "ir/program.h"

namespace herald::check {

// The value of `expr` as a constant of type `expected` (literals, nullary
// variants, None, Some(constant), records and variants built from
// constants, opaque/refined constructors applied to literals); nullopt when
// it is not a constant of that type. Reports nothing.
[[nodiscard]] std::optional<ConstValue> evalConstant(const Sema& sema,
                                                     const ContextInfo& from,
                                                     const ast::Expr* expr,
                                                     const Type* expected);

enum class RefinementResult : std::uint8_t { Holds, Violated, Unknown };

// Evaluates the refinement of `type` (and of its base, when the base is
// refined too) with `self` bound to `value`. Unknown when the predicate
// cannot be evaluated at compile time.
[[nodiscard]] RefinementResult checkRefinement(const TypeInfo& type,
                                               const ConstValue& value);

// The refinement predicates `value` must satisfy to be a `type`, innermost
// first, if any; convenience for messages (source text of each predicate).
[[nodiscard]] std::string refinementText(const SourceManager& sources,
                                         const TypeInfo& type);

}  // namespace herald::check
