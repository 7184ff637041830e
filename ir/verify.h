// The verifier of the checked IR: a program that checked clean must be
// complete input for code generation. It walks every declaration and every
// body and reports each Error type, missing type, unresolved target,
// missing body and out-of-range operand it finds. `heraldc check` and the
// golden runner run it on every program without errors; a problem is a bug
// in the checker, never in the program.
#pragma once

#include <string>
#include <vector>

#include "ir/program.h"

namespace herald::check {

// One line per problem, in IR order; empty when the IR is complete.
[[nodiscard]] std::vector<std::string> verifyIr(const Program& program);

}  // namespace herald::check
