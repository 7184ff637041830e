// The compiler's phases run over every file of a session, each a function
// from values to values reporting into the session's one engine.
#pragma once

#include <memory>
#include <vector>

#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "ir/program.h"

namespace herald::driver {

struct ParsedFile {
  const SourceFile* source;
  ParseResult parse;
};

// Lexes and parses every file, in file-id order. Always yields one AST per
// file; syntax errors go to `diags`.
[[nodiscard]] std::vector<ParsedFile> runFrontEnd(const SourceManager& sources,
                                                  DiagnosticEngine& diags);

// A checked program with the ASTs it points into, which must outlive it.
struct CheckedProgram {
  std::vector<ParsedFile> parsed;
  std::unique_ptr<check::Program> program;
};

// Parses every file, then checks them as one program (syntax errors
// included: the checker stays quiet about the malformed parts). All
// diagnostics go to `diags`; the program is code-generation input only when
// there are no errors. When parsing reaches the error limit the checker does
// not run and `program` is null.
[[nodiscard]] CheckedProgram runChecker(const SourceManager& sources,
                                        DiagnosticEngine& diags);

// A program checked without errors must have complete IR; anything missing
// is a bug in the checker. Prints each problem as an internal error and
// returns false when the IR is incomplete.
[[nodiscard]] bool irComplete(const check::Program& program);

}  // namespace herald::driver
