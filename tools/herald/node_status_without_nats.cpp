// `herald status` on a nats node, in a herald built where the NATS C client
// (libnats-dev) is not installed: refused, saying so.
#include "tools/herald/database_command.hpp"
#include "tools/herald/node_status.hpp"

namespace herald::tool {

int run_node_status(const std::string& /*db*/, const RuntimeConfig& /*config*/,
                    Output /*output*/) {
  print_error(
      "the configuration names backend.kind = nats, and this herald is built "
      "without the NATS client (install libnats-dev and build it again)");
  return kExitRefused;
}

}  // namespace herald::tool
