// Checking the whole workspace as one program, as `heraldc check` checks
// the files it is given, for the diagnostics of every file.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/lsp/workspace.h"

namespace herald::lsp {

struct FileDiagnostics {
  std::string uri;
  nlohmann::json diagnostics;  // an array of LSP Diagnostic, maybe empty
};

// One entry per document, in the order given. Every diagnostic is kept
// (no error limit), sorted and de-duplicated as heraldc prints them.
[[nodiscard]] std::vector<FileDiagnostics> checkDocuments(
    const std::vector<Document>& documents);

}  // namespace herald::lsp
