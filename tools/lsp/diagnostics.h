// The compiler's diagnostics as LSP Diagnostic objects.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "frontend/diagnostic.h"
#include "frontend/source.h"

namespace herald::lsp {

// One diagnostic of the file it is in: range, severity, `code` (E0202),
// `source` "heraldc", the message; notes with a location become
// `relatedInformation` (`uris` names each FileId), the others are appended
// to the message as `note:` lines as heraldc prints them. The fix-its go in
// `data.fixits` (each a title and its edits), where textDocument/codeAction
// finds them again.
[[nodiscard]] nlohmann::json toLspDiagnostic(
    const Diagnostic& diagnostic, const SourceManager& sources,
    const std::vector<std::string>& uris);

}  // namespace herald::lsp
