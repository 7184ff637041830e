#include "tools/heraldc/pipeline.h"

#include "checker/checker.h"

namespace herald::driver {

std::vector<ParsedFile> runFrontEnd(const SourceManager& sources,
                                    DiagnosticEngine& diags) {
  std::vector<ParsedFile> parsed;
  parsed.reserve(sources.size());
  for (FileId id = 0; id < sources.size(); ++id) {
    const SourceFile& file = sources.file(id);
    parsed.push_back({&file, parse(file, diags)});
  }
  return parsed;
}

CheckedProgram runChecker(const SourceManager& sources,
                          DiagnosticEngine& diags) {
  CheckedProgram checked{runFrontEnd(sources, diags), nullptr};
  std::vector<const ast::File*> files;
  files.reserve(checked.parsed.size());
  for (const ParsedFile& file : checked.parsed)
    files.push_back(file.parse.file);
  checked.program = check::checkProgram(files, sources, diags);
  return checked;
}

}  // namespace herald::driver
