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

// Parses `document` as file `id` of a program: its own source manager
// holds it after `id` empty files, so that the ranges in its tree name
// `id`.
std::shared_ptr<const ParsedFile> parseFile(const Document& document,
                                            FileId id) {
  auto file = std::make_shared<ParsedFile>();
  file->path = document.path;
  for (FileId empty = 0; empty < id; ++empty) file->sources.addFile({}, {});
  file->sources.addFile(document.path, document.text);
  DiagnosticEngine diags;
  file->parsed = parse(file->source(), diags);
  file->diagnostics = diags.takeSince(0);
  return file;
}

}  // namespace

CheckedWorkspace::CheckedWorkspace(
    const std::vector<Document>& documents,
    const std::vector<std::shared_ptr<const ParsedFile>>& reusable) {
  uris_.reserve(documents.size());
  diagnostics_.reserve(documents.size());
  parsed_.reserve(documents.size());
  for (const Document& document : documents) {
    FileId id = sources_.addFile(document.path, document.text);
    uris_.push_back(document.uri);
    byKey_.emplace(key(document.uri), id);
    diagnostics_.push_back(
        {document.uri, document.version, nlohmann::json::array()});
    if (id < reusable.size() && reusable[id]->path == document.path &&
        reusable[id]->source().text() == document.text) {
      parsed_.push_back(reusable[id]);
    } else {
      parsed_.push_back(parseFile(document, id));
    }
  }

  // The phases as `heraldc check` runs them (tools/heraldc/pipeline.cpp),
  // without an error limit: an editor shows every error of the file open.
  // A file's syntax errors are reported as its parse reported them.
  DiagnosticEngine diags;
  std::vector<const ast::File*> files;
  files.reserve(parsed_.size());
  for (const std::shared_ptr<const ParsedFile>& file : parsed_) {
    for (const Diagnostic& diagnostic : file->diagnostics)
      diags.restore(diagnostic);
    files.push_back(file->parsed.file);
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
