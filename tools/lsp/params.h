// Reading request parameters: a missing or mistyped member is an
// InvalidParams error naming it, never an exception of the JSON library
// reaching the client.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace herald::lsp {

// `object[key]`, which must exist and be an object.
[[nodiscard]] const nlohmann::json& objectMember(const nlohmann::json& object,
                                                 std::string_view key);
// `object[key]`, which must exist and be a string.
[[nodiscard]] std::string stringMember(const nlohmann::json& object,
                                       std::string_view key);
// `params.textDocument.uri`.
[[nodiscard]] std::string documentUri(const nlohmann::json& params);

}  // namespace herald::lsp
