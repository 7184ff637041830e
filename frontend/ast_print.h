// Prints an AST back as canonical Herald source (`heraldc fmt`): braces for
// subscription patterns, `=` in event declarations, one declaration per
// line, four-space indentation. Re-parsing the output gives the same AST.
#pragma once

#include <string>

#include "frontend/ast.h"

namespace herald {

[[nodiscard]] std::string printFile(const ast::File& file);

}  // namespace herald
