// How an event's shape moved from its lock entry (language.md section 7):
// unchanged, additive (only fields with defaults added), or a change older
// readers cannot follow, with every such change named.
#pragma once

#include <string>
#include <vector>

#include "registry/lock.h"

namespace herald::registry {

enum class EvolutionKind { Unchanged, Additive, NonAdditive };

struct FieldChange {
  std::string field;
  std::string description;  // `removed (was 'Int')`, `retyped ...`
};

struct Evolution {
  EvolutionKind kind = EvolutionKind::Unchanged;
  std::vector<LockField> added;      // Additive: the fields added
  std::vector<FieldChange> changes;  // NonAdditive: every offending change
};

// Compares two shapes whose fields are sorted by name, in one pass.
[[nodiscard]] Evolution compareShapes(const LockEvent& locked,
                                      const LockEvent& current);

}  // namespace herald::registry
