// Compiled tests: a subscription's predicate (ir/predicate.h) and a
// refinement's lowered `where` (TypeInfo::predicate) as C++ Bool
// expressions, and constants (ir/const_value.h) as C++ values.
#pragma once

#include <string>

#include "codegen/names.h"
#include "ir/program.h"

namespace herald::codegen {

// `value` as a C++ expression of its type's exact C++ type.
[[nodiscard]] std::string constant(Spelling& spelling,
                                   const check::ConstValue& value);

// The test of `type`'s own refinement on `base`, an expression of the
// type's base: a C++ Bool expression; empty when the type has no predicate.
[[nodiscard]] std::string refinementTest(Spelling& spelling,
                                         const check::TypeInfo& type,
                                         const std::string& base);

// Whether `type` is an opaque or refined type: a layer over its base.
[[nodiscard]] bool layered(const check::Type* type);

// `expr` unwrapped through every opaque and refined layer of `type` to the
// value a refinement's `self` stands for.
[[nodiscard]] std::string coreValue(const check::Type* type,
                                    const std::string& expr);

// The subscription predicate on `event`, an expression of `eventType`: a
// C++ Bool expression.
[[nodiscard]] std::string predicateTest(Spelling& spelling,
                                        const check::Predicate& predicate,
                                        const check::Type* eventType,
                                        const std::string& event);

}  // namespace herald::codegen
