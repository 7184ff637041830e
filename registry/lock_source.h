// A lock read into the source manager, so its problems have locations.
#pragma once

#include <optional>

#include "frontend/diagnostic.h"
#include "frontend/source.h"
#include "registry/lock.h"

namespace herald::registry {

// The lock in `file` (named as the diagnostics show it). A malformed lock
// is reported as schema-registry-corrupt at the offending line; then
// nothing is returned.
[[nodiscard]] std::optional<Lock> readLockSource(const SourceFile& file,
                                                 DiagnosticEngine& diags);

// The whole of 1-based line `line` of `file`, as a range.
[[nodiscard]] SourceRange lineRange(const SourceFile& file, std::uint32_t line);

}  // namespace herald::registry
