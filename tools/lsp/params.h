// Reading request parameters: a missing or mistyped member is an
// InvalidParams error naming it, never an exception of the JSON library
// reaching the client.
#pragma once

#include <cstdint>
#include <optional>
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
// `params.textDocument.version` when it is an integer (didOpen and
// didChange carry it; diagnostics name the version they are for).
[[nodiscard]] std::optional<std::int64_t> documentVersion(
    const nlohmann::json& params);

// An LSP Position: a 0-based line and a UTF-16 character offset in it.
struct TextPosition {
  std::uint32_t line = 0;
  std::uint32_t character = 0;
};
// `params.position`, whose members must be non-negative integers.
[[nodiscard]] TextPosition documentPosition(const nlohmann::json& params);
// `params.context.includeDeclaration` of a references request: false
// without `context`; within it, the member must be a boolean.
[[nodiscard]] bool includeDeclaration(const nlohmann::json& params);

}  // namespace herald::lsp
