// State shared by the checker's passes, and the passes themselves, in the
// order checkProgram runs them. Internal to checker/.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringSet.h>

#include "checker/spelling.h"
#include "frontend/ast.h"
#include "frontend/diagnostic.h"
#include "frontend/source.h"
#include "ir/program.h"

namespace herald::check {

struct Sema {
  Program& program;
  DiagnosticEngine& diags;
  const SourceManager& sources;
  llvm::ArrayRef<const ast::File*> files;
  // The program's budget of "did you mean" lookups.
  Speller speller;
  // `context prefix` for each qualified name whose prefix names no context
  // or alias, reported once per context (names_report.cpp).
  llvm::StringSet<> unknownPrefixes;
  // `context target` for each `consumes target` line a context misses,
  // reported at the first name it hides only (consumes_hint.cpp).
  llvm::StringSet<> missingConsumes;
};

// 1. Contexts (merged across files), their declarations and the first-party
//    capabilities; duplicate declarations and members. (collect.cpp)
void collectDeclarations(Sema& sema);
// 2. `consumes` lines: targets, aliases, restricted name lists.
//    (consumes.cpp)
void resolveConsumes(Sema& sema);
// 3. Every signature: type definitions (aliases, alias cycles), record and
//    event fields, variant payloads, actor parameters, capability ops, fn
//    signatures, agent keys and stores, handler parameters, `by` and
//    `given`, service `given`. After this pass every FieldInfo::type,
//    FnSignature::result, HandlerInfo::result and DependencyInfo::type is
//    set (to the error type where it could not be resolved).
//    (signatures.cpp)
void resolveSignatures(Sema& sema);
// 4. Declaration rules that need no bodies: event fields serialisable,
//    defaults outside events (default-outside-event), `@schema`
//    annotations, refinement predicates well-formed and lowered.
//    (decl_rules.cpp)
void checkDeclarationRules(Sema& sema);
// 5. Events services: the subscribed event, `via`, the handler shape, the
//    pattern lowered to a predicate; `on event` outside an Events service.
//    (subscriptions.cpp, patterns.cpp)
void checkSubscriptions(Sema& sema);
// 6. Bodies: fns, handlers, store initialisers, invariants, event field
//    defaults (each settled from its lowered body: bad-field-default);
//    effects and roles; emit rules; commit shapes. (bodies.cpp and friends)
void checkBodies(Sema& sema);
// 7. The static event-flow graph and the event-cycle warning.
//    (flow_graph.cpp)
void buildFlowGraph(Sema& sema);

}  // namespace herald::check
