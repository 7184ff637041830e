#include "tools/lsp/lifecycle.h"

#include <optional>

#include "tools/lsp/protocol.h"
#include "tools/lsp/uri.h"

namespace herald::lsp {

std::vector<std::string> workspaceFolders(const nlohmann::json& params) {
  if (!params.is_object())
    throw RpcError(ErrorCode::InvalidParams, "initialize takes an object");
  std::vector<std::string> folders;
  auto add = [&](const nlohmann::json& uri) {
    if (!uri.is_string()) return;
    if (std::optional<std::string> path = uriToPath(uri.get<std::string>()))
      folders.push_back(std::move(*path));
  };
  if (auto it = params.find("workspaceFolders");
      it != params.end() && it->is_array()) {
    for (const nlohmann::json& folder : *it)
      if (folder.is_object() && folder.contains("uri")) add(folder["uri"]);
    return folders;
  }
  if (auto it = params.find("rootUri"); it != params.end() && it->is_string()) {
    add(*it);
    return folders;
  }
  if (auto it = params.find("rootPath"); it != params.end() && it->is_string())
    folders.push_back(it->get<std::string>());
  return folders;
}

nlohmann::json initializeResult(const std::string& version) {
  return {
      {"capabilities",
       {
           {"positionEncoding", "utf-16"},
           // Full documents on open and change (TextDocumentSyncKind.Full).
           {"textDocumentSync", {{"openClose", true}, {"change", 1}}},
           {"documentFormattingProvider", true},
           {"documentSymbolProvider", true},
           {"definitionProvider", true},
           {"hoverProvider", true},
           {"referencesProvider", true},
           {"workspaceSymbolProvider", true},
           {"renameProvider", {{"prepareProvider", true}}},
           // `.` opens a member list, `{` and `,` a list of fields or names,
           // `:` a field's value or a `given` item, `[` a Ref's agent.
           {"completionProvider",
            {{"triggerCharacters",
              nlohmann::json::array({".", "{", ",", ":", "["})}}},
           {"codeActionProvider",
            {{"codeActionKinds", nlohmann::json::array({"quickfix"})}}},
       }},
      {"serverInfo", {{"name", "heraldc"}, {"version", version}}},
  };
}

}  // namespace herald::lsp
