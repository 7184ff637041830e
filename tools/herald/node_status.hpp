#pragma once
// `herald status` on a node of the nats backend (its configuration names
// backend.kind = nats): the database's status beside the node's streams
// and consumers as the NATS servers report them (herald/nats_operator.hpp).
// Exit status kExitPartial when the servers could not be read: the local
// part is printed, with the reason. A herald built without the NATS client
// refuses it (node_status_without_nats.cpp).
#include <string>

#include "herald/config.hpp"
#include "tools/herald/commands.hpp"

namespace herald::tool {

int run_node_status(const std::string& db, const RuntimeConfig& config,
                    Output output);

}  // namespace herald::tool
