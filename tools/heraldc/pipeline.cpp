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

std::unique_ptr<check::Program> runChecker(
    const std::vector<ParsedFile>& parsed, const SourceManager& sources,
    DiagnosticEngine& diags) {
  std::vector<const ast::File*> files;
  files.reserve(parsed.size());
  for (const ParsedFile& file : parsed) files.push_back(file.parse.file);
  return check::checkProgram(files, sources, diags);
}

}  // namespace herald::driver
