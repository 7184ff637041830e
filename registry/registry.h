// The schema registry phase: runs after the checker on a program checked
// without errors, against the lock read from herald.schema.lock. Computes
// every event's version into the IR (EventInfo::schemaVersion), reports the
// registry's diagnostics at the events' declarations, and returns the lock
// a successful build writes back. It never touches the filesystem.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/ir.h"
#include "frontend/diagnostic.h"
#include "frontend/source.h"
#include "registry/lock.h"

namespace herald::registry {

struct RegistryOptions {
  // `--locked`: any change the lock needs is an error.
  bool locked = false;
  // The lock's text as a source file, when one was read, so notes can
  // point at an event's entry.
  const SourceFile* lockSource = nullptr;
};

// One event whose lock entry a build adds or bumps.
struct VersionChange {
  std::string event;                 // qualified
  std::optional<std::int64_t> from;  // none: new in the lock
  std::int64_t to = 1;
  std::vector<LockField> added;  // the defaulted fields a bump adds
};

struct RegistryResult {
  Lock lock;                           // the lock after this build
  bool changed = false;                // whether it differs from the lock given
  std::vector<VersionChange> changes;  // sorted by event
};

// Linear in the number of events and fields, after sorting the events.
// An entry of an event the program no longer declares is kept, so that
// building part of a project, or re-adding an event, never restarts a
// version.
[[nodiscard]] RegistryResult runRegistry(check::Program& program,
                                         const Lock& lock,
                                         const RegistryOptions& options,
                                         DiagnosticEngine& diags);

}  // namespace herald::registry
