// The pieces of the subscription pass (checkSubscriptions) that live in
// separate files: patterns, their canonical text, `via`, and handler shapes.
// Internal to checker/.
#pragma once

#include <optional>
#include <string>

#include <llvm/ADT/StringRef.h>

#include "checker/sema.h"
#include "frontend/ast.h"
#include "ir/predicate.h"
#include "ir/program.h"

namespace herald::check {

// Checks the pattern of `from Events(E { ... })` against `event` and lowers
// it. `eventRange` is where the event is written (fix-its that drop the
// braces start there). Reports every problem; a pattern with errors lowers
// to whatever part of it was valid.
[[nodiscard]] Predicate checkSubscriptionPattern(Sema& sema,
                                                 const ContextInfo& from,
                                                 const EventInfo& event,
                                                 const ast::RecordPattern& p,
                                                 SourceRange eventRange);

// The pattern in canonical spelling: braces, `, ..`, single spaces.
// Literals and names keep their source spelling.
[[nodiscard]] std::string patternText(const SourceManager& sources,
                                      const ast::Pattern* pattern);

// `schema(2..)`, `schema(_)`: the clause as it is printed in labels.
[[nodiscard]] std::string viaText(const ast::ViaClause& via);

// Checks `via schema(...)`; the accepted versions, or nullopt when the
// clause has errors.
[[nodiscard]] std::optional<VersionRange> checkVia(Sema& sema,
                                                   const ast::ViaClause& via);

// event-handler-shape for a service with `from`: exactly one
// `on event(e: E[, env: EventEnvelope])` returning ().
void checkEventServiceHandlers(Sema& sema, const ServiceInfo& service,
                               const ast::ServiceDecl& decl,
                               const EventInfo* event,
                               llvm::StringRef eventWritten);

// event-handler-shape for `on event` where no subscription is: a service
// without `from`, or an agent.
void rejectEventHandlers(Sema& sema, const ServiceInfo& service,
                         const ast::ServiceDecl& decl);
void rejectEventHandlers(Sema& sema, const AgentInfo& agent,
                         const ast::AgentDecl& decl);

// The first `on event` handler of an Events service, or null.
[[nodiscard]] const HandlerInfo* eventHandler(const ServiceInfo& service);

}  // namespace herald::check
