#include "registry/report.h"

#include <fmt/format.h>

namespace herald::registry {

std::string evolutionReport(const std::vector<VersionChange>& changes) {
  std::string out;
  for (const VersionChange& change : changes) {
    if (!change.from) continue;
    out += fmt::format("schema: {} {} -> {}\n", change.event, *change.from,
                       change.to);
    for (const LockField& field : change.added)
      out += fmt::format("  + {}: {} = {}\n", field.name, field.type,
                         field.default_.value_or(""));
  }
  return out;
}

std::string stateEvolutionReport(const std::vector<StateChange>& changes) {
  std::string out;
  for (const StateChange& change : changes) {
    if (!change.from) continue;
    out += fmt::format("state: {} {} -> {}\n", change.agent, *change.from,
                       change.to);
    for (const LockStore& store : change.added)
      out += fmt::format("  + {}: {} = initialiser\n", store.name, store.type);
  }
  return out;
}

}  // namespace herald::registry
