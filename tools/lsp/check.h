// Checking the whole workspace as one program, as `heraldc check` checks
// the files it is given. The result is kept until the next check: its
// diagnostics are published, and requests about positions (definition,
// hover) are answered from its sources, checked program and index of
// declarations without checking again.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "frontend/parser.h"
#include "frontend/source.h"
#include "ir/program.h"
#include "tools/lsp/declarations.h"
#include "tools/lsp/workspace.h"

namespace herald::lsp {

struct FileDiagnostics {
  std::string uri;
  nlohmann::json diagnostics;  // an array of LSP Diagnostic, maybe empty
};

// One check of the workspace: the sources as they were checked, their
// syntax trees (which the program points into) and the checked program.
class CheckedWorkspace {
 public:
  // Checks `documents` as one program.
  explicit CheckedWorkspace(const std::vector<Document>& documents);
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

 private:
  SourceManager sources_;
  std::vector<std::string> uris_;        // by FileId, as the client spelt them
  std::map<std::string, FileId> byKey_;  // by path, or by URI if not a file
  std::vector<ParseResult> parsed_;
  std::unique_ptr<check::Program> program_;
  std::unique_ptr<DeclarationIndex> declarations_;
  std::vector<FileDiagnostics> diagnostics_;
};

}  // namespace herald::lsp
