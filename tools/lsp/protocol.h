// JSON-RPC 2.0 messages as LSP uses them: responses, errors and
// notifications, and the error codes the server answers with.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace herald::lsp {

enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
};

// window/logMessage's MessageType.Error.
inline constexpr int kLogError = 1;

// Thrown by a handler to answer its request with an error.
class RpcError : public std::runtime_error {
 public:
  RpcError(ErrorCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  [[nodiscard]] ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

[[nodiscard]] inline nlohmann::json response(const nlohmann::json& id,
                                             nlohmann::json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

// `id` is null when the request's id could not be read.
[[nodiscard]] inline nlohmann::json errorResponse(const nlohmann::json& id,
                                                  ErrorCode code,
                                                  const std::string& message) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"error", {{"code", static_cast<int>(code)}, {"message", message}}}};
}

[[nodiscard]] inline nlohmann::json notification(const std::string& method,
                                                 nlohmann::json params) {
  return {
      {"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace herald::lsp
