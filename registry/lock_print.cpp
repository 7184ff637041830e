#include "registry/lock.h"

namespace herald::registry {

std::string printLock(const Lock& lock) {
  std::string out =
      "# Event schema versions (language reference, section 11).\n"
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
  return out;
}

}  // namespace herald::registry
