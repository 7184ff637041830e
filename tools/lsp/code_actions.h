// textDocument/codeAction: the fix-its of the diagnostics the client sends
// back, as quick fixes.
#pragma once

#include <nlohmann/json.hpp>

namespace herald::lsp {

// An array of CodeAction, one per fix-it found in `data.fixits` of the
// diagnostics of `params.context` (see diagnostics.h); each edits the file
// the fix-it is in.
[[nodiscard]] nlohmann::json quickFixes(const nlohmann::json& params);

}  // namespace herald::lsp
