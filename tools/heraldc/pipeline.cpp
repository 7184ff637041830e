#include "tools/heraldc/pipeline.h"

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

}  // namespace herald::driver
