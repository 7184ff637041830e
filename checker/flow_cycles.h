// Cycles of the event-flow graph (event-cycle, language.md section 6.10).
// Internal to checker/.
#pragma once

#include <cstdint>
#include <vector>

#include "checker/sema.h"
#include "ir/program.h"

namespace herald::check {

// The cycles that pass through no subscription of a `@cycle` service
// (ServiceInfo::cycleIntended). One per strongly connected component of
// the rest of the graph that holds a subscription:
// node indices from the component's subscription with the smallest id,
// along a shortest path back to it (the start is not repeated at the end).
// Sorted by their first node.
[[nodiscard]] std::vector<std::vector<std::uint32_t>> eventCycles(
    const FlowGraph& graph);

// Reports each cycle of eventCycles as an event-cycle warning at the `from`
// clause of its first subscription, with a fix-it marking that service
// `@cycle`.
void reportEventCycles(Sema& sema, const FlowGraph& graph);

}  // namespace herald::check
