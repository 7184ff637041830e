#include "registry/lock.h"

namespace herald::registry {

std::string printLock(const Lock& lock) {
  std::string out =
      "# Event schema and agent state versions (language reference, section "
      "11).\n"
      "# Maintained by `heraldc build`: commit this file and review its "
      "diffs.\n";
  for (const LockEvent& event : lock.events) {
    out += "\nevent " + event.qualified + " " + std::to_string(event.version) +
           "\n";
    for (const LockField& field : event.fields) {
      out += "  " + field.name + ": " + field.type;
      if (field.default_) out += " = " + *field.default_;
      out += "\n";
    }
  }
  for (const LockAgent& agent : lock.agents) {
    out += "\nagent " + agent.qualified + " " + std::to_string(agent.version) +
           "\n";
    for (const LockStore& store : agent.stores) {
      out += "  " + store.name + ": " + store.type;
      if (store.initialiser) out += " = initialiser";
      if (store.initialiser && store.since > 1)
        out += ", since " + std::to_string(store.since);
      out += "\n";
    }
  }
  return out;
}

}  // namespace herald::registry
