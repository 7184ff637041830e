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
  // Print the flags that only record which of two equivalent spellings was
  // written: `angle` (a `< ... >` pattern) and `equals` (`event E = {...}`).
  // Off in the round-trip test, since the printer writes the canonical one.
  bool spelling = true;
};

[[nodiscard]] std::string dumpAst(const ast::File& file,
                                  const SourceFile& source,
                                  AstDumpOptions options = {});

}  // namespace herald
