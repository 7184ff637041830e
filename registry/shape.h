// An event's or an agent's shape as the lock records it, read off the
// checked IR.
#pragma once

#include "ir/program.h"
#include "registry/lock.h"

namespace herald::registry {

// The event's lock entry at `version`: its fields sorted by name, each with
// its qualified type and its default constant as the IR dump spells them.
[[nodiscard]] LockEvent shapeOf(const check::EventInfo& event,
                                std::int64_t version);

// The agent's lock entry at `version`: its stores sorted by name, each with
// its qualified type, whether it has an initialiser, and added at version 1.
[[nodiscard]] LockAgent shapeOf(const check::AgentInfo& agent,
                                std::int64_t version);

}  // namespace herald::registry
