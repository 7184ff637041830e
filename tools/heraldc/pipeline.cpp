#include "tools/heraldc/pipeline.h"

#include <string>

#include "checker/checker.h"
#include "ir/verify.h"
#include "tools/heraldc/session.h"

namespace herald::driver {

std::vector<ParsedFile> runFrontEnd(const SourceManager& sources,
                                    DiagnosticEngine& diags) {
  std::vector<ParsedFile> parsed;
  parsed.reserve(sources.size());
  // Past the error limit the parser stops at its first token, so the files
  // after that cost nothing.
  for (FileId id = 0; id < sources.size(); ++id) {
    const SourceFile& file = sources.file(id);
    parsed.push_back({&file, parse(file, diags)});
  }
  return parsed;
}

CheckedProgram runChecker(const SourceManager& sources,
                          DiagnosticEngine& diags) {
  CheckedProgram checked{runFrontEnd(sources, diags), nullptr};
  // The errors shown are the first of those found: once the syntax errors
  // alone fill the limit, checking would only add errors nobody sees.
  if (diags.errorLimitReached()) {
    diags.stopEarly();
    return checked;
  }
  std::vector<const ast::File*> files;
  files.reserve(checked.parsed.size());
  for (const ParsedFile& file : checked.parsed)
    files.push_back(file.parse.file);
  checked.program = check::checkProgram(files, sources, diags);
  return checked;
}

bool irComplete(const check::Program& program) {
  std::vector<std::string> problems = check::verifyIr(program);
  for (const std::string& p : problems)
    printError("internal error: the checked IR is incomplete: " + p);
  return problems.empty();
}

}  // namespace herald::driver
