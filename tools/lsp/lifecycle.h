// `initialize`: the workspace folders the client names and the
// capabilities the server answers with.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace herald::lsp {

// The folders of InitializeParams: `workspaceFolders`, else `rootUri`, else
// the deprecated `rootPath`; none when the client opened no folder (then
// only open documents are checked). Folders that are not `file:` URIs are
// left out.
[[nodiscard]] std::vector<std::string> workspaceFolders(
    const nlohmann::json& params);

// InitializeResult: what this server implements, and its name and version.
[[nodiscard]] nlohmann::json initializeResult(const std::string& version);

}  // namespace herald::lsp
