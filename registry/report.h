// The evolution reports `heraldc build` prints when versions change.
#pragma once

#include <string>
#include <vector>

#include "registry/registry.h"

namespace herald::registry {

// One line per bumped event, then one indented line per field it adds:
//
//   schema: commerce.order.PaymentConfirmed 1 -> 2
//     + region: commerce.order.Region = commerce.order.Region.Domestic
//
// Events new in the lock are not listed: no version of theirs changes.
// Empty when nothing was bumped.
[[nodiscard]] std::string evolutionReport(
    const std::vector<VersionChange>& changes);

// The same for agents whose state version was bumped:
//
//   state: commerce.order.Account 1 -> 2
//     + limit: Int = initialiser
//
// Agents new in the lock are not listed. Empty when nothing was bumped.
[[nodiscard]] std::string stateEvolutionReport(
    const std::vector<StateChange>& changes);

}  // namespace herald::registry
