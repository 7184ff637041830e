// How an event's shape or an agent's stores moved from the lock entry
// (language.md section 7): unchanged, additive (only fields with defaults,
// or stores with initialisers, added), or a change older readers cannot
// follow, with every such change named.
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

// How an agent's stores moved from its lock entry: unchanged, additive
// (only stores with initialisers added, which older state decodes from
// their initialisers) or a change saved state cannot follow (a store
// removed, retyped, added without an initialiser, or one that older state
// lacks losing its initialiser).
struct StateEvolution {
  EvolutionKind kind = EvolutionKind::Unchanged;
  std::vector<LockStore> added;      // Additive: the stores added
  std::vector<FieldChange> changes;  // NonAdditive: every offending change
};

// Compares two agents' stores sorted by name, in one pass. `current`'s
// stores are read at version 1; the result's `added` are not yet dated.
[[nodiscard]] StateEvolution compareStores(const LockAgent& locked,
                                           const LockAgent& current);

}  // namespace herald::registry
