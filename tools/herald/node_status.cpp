#include "tools/herald/node_status.hpp"

#include "herald/nats_backend.hpp"
#include "herald/nats_operator.hpp"
#include "tools/herald/database_command.hpp"
#include "tools/herald/json_output.hpp"
#include "tools/herald/text_output.hpp"

namespace herald::tool {

int run_node_status(const std::string& path, const RuntimeConfig& config,
                    Output output) {
  int code = kExitOk;
  const int opened = with_database(path, [&](SqliteOperator& db) {
    const op::NodeStatus status =
        nats_node_status(db, nats_backend_options(config));
    print(output, node_status_json(status), node_status_text(status));
    if (status.broker_error) {
      print_error(fmt::format(
          "the NATS servers could not be read ({}): only the local part is "
          "shown",
          *status.broker_error));
      code = kExitPartial;
    }
  });
  return opened == kExitOk ? code : opened;
}

}  // namespace herald::tool
