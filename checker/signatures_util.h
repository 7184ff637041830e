// Helpers shared by the signature pass's files: fields, parameters and
// function signatures resolved in one context. Internal to checker/.
#pragma once

#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include "checker/sema.h"
#include "frontend/ast.h"
#include "ir/program.h"

namespace herald::check {

// Record, event or variant fields; a repeated name is reported
// (duplicate-member, `what` "field") and dropped. Defaults are kept only
// when `keepDefaults` (event fields).
[[nodiscard]] std::vector<FieldInfo> resolveFields(
    Sema& sema, const ContextInfo& ctx, llvm::ArrayRef<ast::FieldDecl> fields,
    bool keepDefaults);

// Parameters, in order; a repeated name is reported but kept, since
// arguments are positional.
[[nodiscard]] std::vector<FieldInfo> resolveParams(
    Sema& sema, const ContextInfo& ctx, llvm::ArrayRef<ast::Param> params);

// Parameters and result (Unit when `-> T` is omitted).
[[nodiscard]] FnSignature resolveSignature(Sema& sema, const ContextInfo& ctx,
                                           llvm::ArrayRef<ast::Param> params,
                                           const ast::TypeExpr* result);

// Agents and services: keys, stores, handlers (`by`, `given`), fns.
void resolveAgentSignatures(Sema& sema, AgentInfo& agent);
// given-on-pure-fn for a context-level, static or service-local fn with a
// `given` list.
void reportGivenOnPureFn(Sema& sema, const FnInfo& fn);
void resolveServiceSignatures(Sema& sema, ServiceInfo& service);

}  // namespace herald::check
