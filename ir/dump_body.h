// One body of the body IR as text, for the IR dump: its slots, then one line
// per instruction in id order. Internal to ir/.
#pragma once

#include <cstdint>
#include <string>

#include "ir/program.h"

namespace herald::check {

// Appends body `id` to `out`, each line indented by `indent` levels.
void dumpBody(std::string& out, int indent, const Program& program, BodyId id);

}  // namespace herald::check
