// The compiler's phases run over every file of a session, each a function
// from values to values reporting into the session's one engine.
#pragma once

#include <vector>

#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"

namespace herald::driver {

struct ParsedFile {
  const SourceFile* source;
  ParseResult parse;
};

// Lexes and parses every file, in file-id order. Always yields one AST per
// file; syntax errors go to `diags`.
[[nodiscard]] std::vector<ParsedFile> runFrontEnd(const SourceManager& sources,
                                                  DiagnosticEngine& diags);

}  // namespace herald::driver
