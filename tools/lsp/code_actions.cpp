#include "tools/lsp/code_actions.h"

#include "tools/lsp/params.h"
#include "tools/lsp/protocol.h"

namespace herald::lsp {

nlohmann::json quickFixes(const nlohmann::json& params) {
  const nlohmann::json& context = objectMember(params, "context");
  auto diagnostics = context.find("diagnostics");
  if (diagnostics == context.end() || !diagnostics->is_array())
    throw RpcError(ErrorCode::InvalidParams,
                   "member 'diagnostics' is not an array");
  nlohmann::json actions = nlohmann::json::array();
  for (const nlohmann::json& diagnostic : *diagnostics) {
    if (!diagnostic.is_object()) continue;
    const nlohmann::json* fixits = nullptr;
    if (auto data = diagnostic.find("data");
        data != diagnostic.end() && data->is_object()) {
      if (auto found = data->find("fixits");
          found != data->end() && found->is_array())
        fixits = &*found;
    }
    if (fixits == nullptr) continue;
    for (const nlohmann::json& fixit : *fixits) {
      if (!fixit.is_object() || !fixit.contains("title") ||
          !fixit.contains("uri") || !fixit.contains("edit") ||
          !fixit["uri"].is_string())
        continue;
      nlohmann::json changes = nlohmann::json::object();
      changes[fixit["uri"].get<std::string>()] =
          nlohmann::json::array({fixit["edit"]});
      actions.push_back({{"title", fixit["title"]},
                         {"kind", "quickfix"},
                         {"diagnostics", nlohmann::json::array({diagnostic})},
                         {"isPreferred", fixits->size() == 1},
                         {"edit", {{"changes", std::move(changes)}}}});
    }
  }
  return actions;
}

}  // namespace herald::lsp
