#include "tools/lsp/params.h"

#include <cstdint>

#include <fmt/format.h>

#include "tools/lsp/protocol.h"

namespace herald::lsp {
namespace {

const nlohmann::json& member(const nlohmann::json& object,
                             std::string_view key) {
  if (!object.is_object())
    throw RpcError(ErrorCode::InvalidParams,
                   fmt::format("expected an object holding '{}'", key));
  auto it = object.find(key);
  if (it == object.end())
    throw RpcError(ErrorCode::InvalidParams,
                   fmt::format("missing member '{}'", key));
  return *it;
}

}  // namespace

const nlohmann::json& objectMember(const nlohmann::json& object,
                                   std::string_view key) {
  const nlohmann::json& value = member(object, key);
  if (!value.is_object())
    throw RpcError(ErrorCode::InvalidParams,
                   fmt::format("member '{}' is not an object", key));
  return value;
}

std::string stringMember(const nlohmann::json& object, std::string_view key) {
  const nlohmann::json& value = member(object, key);
  if (!value.is_string())
    throw RpcError(ErrorCode::InvalidParams,
                   fmt::format("member '{}' is not a string", key));
  return value.get<std::string>();
}

std::string documentUri(const nlohmann::json& params) {
  return stringMember(objectMember(params, "textDocument"), "uri");
}

std::optional<std::int64_t> documentVersion(const nlohmann::json& params) {
  auto document = params.find("textDocument");
  if (document == params.end() || !document->is_object()) return std::nullopt;
  auto version = document->find("version");
  if (version == document->end() || !version->is_number_integer())
    return std::nullopt;
  return version->get<std::int64_t>();
}

TextPosition documentPosition(const nlohmann::json& params) {
  const nlohmann::json& position = objectMember(params, "position");
  auto number = [&](std::string_view key) {
    const nlohmann::json& value = member(position, key);
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() > UINT32_MAX)
      throw RpcError(
          ErrorCode::InvalidParams,
          fmt::format("member '{}' is not a position's number", key));
    return static_cast<std::uint32_t>(value.get<std::uint64_t>());
  };
  return {number("line"), number("character")};
}

bool includeDeclaration(const nlohmann::json& params) {
  if (!params.is_object() || !params.contains("context")) return false;
  const nlohmann::json& include =
      member(objectMember(params, "context"), "includeDeclaration");
  if (!include.is_boolean())
    throw RpcError(ErrorCode::InvalidParams,
                   "member 'includeDeclaration' is not a boolean");
  return include.get<bool>();
}

}  // namespace herald::lsp
