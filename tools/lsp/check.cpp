#include "tools/lsp/check.h"

#include "checker/checker.h"
#include "frontend/diagnostic.h"
#include "tools/lsp/diagnostics.h"
#include "tools/lsp/position.h"
#include "tools/lsp/uri.h"

namespace herald::lsp {
namespace {

std::string key(const std::string& uri) {
  std::optional<std::string> path = uriToPath(uri);
  return path ? *path : uri;
}

}  // namespace

CheckedWorkspace::CheckedWorkspace(const std::vector<Document>& documents) {
  uris_.reserve(documents.size());
  diagnostics_.reserve(documents.size());
  for (const Document& document : documents) {
    FileId id = sources_.addFile(document.path, document.text);
    uris_.push_back(document.uri);
    byKey_.emplace(key(document.uri), id);
    diagnostics_.push_back({document.uri, nlohmann::json::array()});
  }

  // The phases as `heraldc check` runs them (tools/heraldc/pipeline.cpp),
  // without an error limit: an editor shows every error of the file open.
  DiagnosticEngine diags;
  std::vector<const ast::File*> files;
  parsed_.reserve(sources_.size());
  files.reserve(sources_.size());
  for (FileId id = 0; id < sources_.size(); ++id) {
    parsed_.push_back(parse(sources_.file(id), diags));
    files.push_back(parsed_.back().file);
  }
  program_ = check::checkProgram(files, sources_, diags,
                                 check::CheckOptions{.recordUses = true});
  declarations_ = std::make_unique<DeclarationIndex>(*program_);
  diags.finalize();

  for (const Diagnostic& diagnostic : diags.diagnostics())
    diagnostics_[diagnostic.range.file].diagnostics.push_back(
        toLspDiagnostic(diagnostic, sources_, uris_));
}

std::optional<FileId> CheckedWorkspace::file(const std::string& uri) const {
  auto it = byKey_.find(key(uri));
  if (it == byKey_.end()) return std::nullopt;
  return it->second;
}

nlohmann::json CheckedWorkspace::location(SourceRange range) const {
  return {{"uri", uris_[range.file]},
          {"range", toRange(sources_.file(range.file), range)}};
}

}  // namespace herald::lsp
