// The checked IR as text (`heraldc check --dump-ir`, the `check_*` golden
// cases): every context with its declarations, resolved types written with
// qualified names, each handler's capabilities and commit shape, each
// subscription's predicate, then the event-flow graph. The order is the IR's
// own (contexts by name, declarations in source order), so the text is
// deterministic. The format is described in tests/golden/README.md.
#pragma once

#include <string>

#include "frontend/source.h"
#include "ir/program.h"

namespace herald::check {

// `sources` gives the text of what the IR keeps as AST (refinements, store
// initialisers, invariants, non-constant defaults).
[[nodiscard]] std::string dumpIr(const Program& program,
                                 const SourceManager& sources);

}  // namespace herald::check
