// Checking the whole workspace as one program, as `heraldc check` checks
// the files it is given. The result is kept until the next check: its
// diagnostics are published, and requests about positions (definition,
// hover) are answered from its sources, checked program and index of
// declarations without checking again. A check reuses the syntax trees of
// the files the previous one parsed from the same text at the same place:
// after an edit only the edited file is parsed again (the whole program is
// still checked; tools/lsp/README.md says why).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "ir/program.h"
#include "tools/lsp/declarations.h"
#include "tools/lsp/workspace.h"

namespace herald::lsp {

struct FileDiagnostics {
  std::string uri;
  std::optional<std::int64_t> version;  // of an open document
  nlohmann::json diagnostics;  // an array of LSP Diagnostic, maybe empty
};

// One file as parsed for a check, and kept for the next checks while the
// file keeps its text and its place (FileId) in the workspace.
struct ParsedFile {
  std::string path;
  // The file at its FileId after empty ones: the text the syntax tree
  // points into, owned here so that the tree outlives the check that
  // parsed it.
  SourceManager sources;
  ParseResult parsed;
  std::vector<Diagnostic> diagnostics;  // the parser's

  [[nodiscard]] const SourceFile& source() const {
    return sources.file(static_cast<FileId>(sources.size() - 1));
  }
};

// One check of the workspace: the sources as they were checked, their
// syntax trees (which the program points into) and the checked program.
class CheckedWorkspace {
 public:
  // Checks `documents` as one program, parsing only the documents that
  // `reusable` (by FileId: the files of an earlier check) does not hold
  // parsed from the same text at the same place.
  CheckedWorkspace(
      const std::vector<Document>& documents,
      const std::vector<std::shared_ptr<const ParsedFile>>& reusable);
  CheckedWorkspace(const CheckedWorkspace&) = delete;
  CheckedWorkspace& operator=(const CheckedWorkspace&) = delete;

  // One entry per document, in the order given. Every diagnostic is kept
  // (no error limit), sorted and de-duplicated as heraldc prints them.
  // Taken once, to be published.
  [[nodiscard]] std::vector<FileDiagnostics> takeDiagnostics() {
    return std::move(diagnostics_);
  }

  // The file a document's URI names (two spellings of one `file:` URI
  // name one file), or nothing when it was not part of the check.
  [[nodiscard]] std::optional<FileId> file(const std::string& uri) const;
  [[nodiscard]] const SourceFile& source(FileId id) const {
    return sources_.file(id);
  }
  [[nodiscard]] const SourceManager& sources() const { return sources_; }
  [[nodiscard]] const check::Program& program() const { return *program_; }
  [[nodiscard]] const DeclarationIndex& declarations() const {
    return *declarations_;
  }

  // An LSP Location: the URI of `range`'s file and the range in it.
  [[nodiscard]] nlohmann::json location(SourceRange range) const;

  // The files as parsed, by FileId, for the next check to reuse.
  [[nodiscard]] const std::vector<std::shared_ptr<const ParsedFile>>&
  parsedFiles() const {
    return parsed_;
  }

 private:
  SourceManager sources_;
  std::vector<std::string> uris_;        // by FileId, as the client spelt them
  std::map<std::string, FileId> byKey_;  // by path, or by URI if not a file
  std::vector<std::shared_ptr<const ParsedFile>> parsed_;  // by FileId
  std::unique_ptr<check::Program> program_;
  std::unique_ptr<DeclarationIndex> declarations_;
  std::vector<FileDiagnostics> diagnostics_;
};

}  // namespace herald::lsp
