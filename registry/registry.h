// The schema registry phase: runs after the checker on a program checked
// without errors, against the lock read from herald.schema.lock. Computes
// every event's version into the IR (EventInfo::schemaVersion) and every
// agent's state version and the version each store was added at
// (AgentInfo::stateVersion, StoreInfo::since), reports the registry's
// diagnostics at the declarations, and returns the lock a successful build
// writes back. It never touches the filesystem.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/diagnostic.h"
#include "frontend/source.h"
#include "ir/program.h"
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

// One agent whose state version a build adds or bumps.
struct StateChange {
  std::string agent;                 // qualified
  std::optional<std::int64_t> from;  // none: new in the lock
  std::int64_t to = 1;
  std::vector<LockStore> added;  // the initialised stores a bump adds
};

struct RegistryResult {
  Lock lock;                           // the lock after this build
  bool changed = false;                // whether it differs from the lock given
  std::vector<VersionChange> changes;  // sorted by event
  std::vector<StateChange> stateChanges;  // sorted by agent
};

// Linear in the number of events, agents, fields and stores, after sorting
// the events and agents. An entry of an event or agent the program no
// longer declares is kept, so that building part of a project, or
// re-adding one, never restarts a version.
[[nodiscard]] RegistryResult runRegistry(check::Program& program,
                                         const Lock& lock,
                                         const RegistryOptions& options,
                                         DiagnosticEngine& diags);

}  // namespace herald::registry
