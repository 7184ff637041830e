#include "tools/lsp/check.h"

#include "checker/checker.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "tools/lsp/diagnostics.h"

namespace herald::lsp {

std::vector<FileDiagnostics> checkDocuments(
    const std::vector<Document>& documents) {
  SourceManager sources;
  std::vector<std::string> uris;
  std::vector<FileDiagnostics> result;
  uris.reserve(documents.size());
  result.reserve(documents.size());
  for (const Document& document : documents) {
    (void)sources.addFile(document.path, document.text);
    uris.push_back(document.uri);
    result.push_back({document.uri, nlohmann::json::array()});
  }

  // The phases as `heraldc check` runs them (tools/heraldc/pipeline.cpp),
  // without an error limit: an editor shows every error of the file open.
  DiagnosticEngine diags;
  std::vector<ParseResult> parsed;
  std::vector<const ast::File*> files;
  parsed.reserve(sources.size());
  files.reserve(sources.size());
  for (FileId id = 0; id < sources.size(); ++id) {
    parsed.push_back(parse(sources.file(id), diags));
    files.push_back(parsed.back().file);
  }
  // The checked program is not kept: only its diagnostics are published.
  (void)check::checkProgram(files, sources, diags);
  diags.finalize();

  for (const Diagnostic& diagnostic : diags.diagnostics())
    result[diagnostic.range.file].diagnostics.push_back(
        toLspDiagnostic(diagnostic, sources, uris));
  return result;
}

}  // namespace herald::lsp
