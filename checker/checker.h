// The checker: names, types, effects and the event rules of the language
// reference, over every file of a program. A function from ASTs to a checked
// IR plus diagnostics; it never touches the filesystem.
#pragma once

#include <memory>

#include <llvm/ADT/ArrayRef.h>

#include "frontend/ast.h"
#include "frontend/diagnostic.h"
#include "frontend/source.h"
#include "ir/program.h"

namespace herald::check {

struct CheckOptions {
  // Fill Program::uses (ir/uses.h), where each name written points, and
  // Program::exprTypes (ir/expr_types.h), the type of each expression, for
  // tools that navigate the source; a compilation needs neither.
  bool recordUses = false;
};

// Checks `files` (ASTs as the parser produced them, Error nodes included:
// the checker stays quiet about malformed parts). Always returns a program;
// it is valid input for code generation only when `diags` holds no error.
[[nodiscard]] std::unique_ptr<Program> checkProgram(
    llvm::ArrayRef<const ast::File*> files, const SourceManager& sources,
    DiagnosticEngine& diags, CheckOptions options = {});

}  // namespace herald::check
