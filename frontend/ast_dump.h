// A deterministic, readable dump of the AST (`heraldc parse --dump-ast`,
// golden tests).
#pragma once

#include <string>

#include "frontend/ast.h"
#include "frontend/source.h"

namespace herald {

struct AstDumpOptions {
  // Print `@line:col-line:col` ranges. Off when comparing two parses of
  // different text (the round-trip test).
  bool locations = true;
};

[[nodiscard]] std::string dumpAst(const ast::File& file,
                                  const SourceFile& source,
                                  AstDumpOptions options = {});

}  // namespace herald
