// The `consumes` line a name needs: where a fix-it inserts it, and the one
// report per missing line. Shared by the reports of unknown names, types
// and subscribed events. Internal to checker/.
#pragma once

#include <optional>

#include <llvm/ADT/StringRef.h>

#include "checker/sema.h"
#include "frontend/diagnostic.h"
#include "frontend/source.h"
#include "ir/program.h"

namespace herald::check {

// A fix-it adding `consumes target` to the part of `ctx` that holds `at`:
// a line of its own after the part's last `consumes` line, else after the
// context's opening line. None when `at` is in no part of `ctx`.
[[nodiscard]] std::optional<FixIt> consumesFixIt(const Sema& sema,
                                                 const ContextInfo& ctx,
                                                 SourceRange at,
                                                 llvm::StringRef target);

// A missing `consumes` line is one mistake however many names it hides, so
// only the first name it hides is reported: the report that suggests the
// line records it, and the reports of later names it would make visible
// ask whether it was suggested already.
void recordMissingConsumes(Sema& sema, const ContextInfo& from,
                           const ContextInfo& target);
[[nodiscard]] bool missingConsumesReported(const Sema& sema,
                                           const ContextInfo& from,
                                           const ContextInfo& target);

}  // namespace herald::check
