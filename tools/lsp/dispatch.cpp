// The server's side of JSON-RPC: every message is answered or acted on, and
// nothing a client sends ends the server but `exit` (or closing its input).
#include <exception>
#include <new>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "tools/lsp/code_actions.h"
#include "tools/lsp/completion.h"
#include "tools/lsp/definition.h"
#include "tools/lsp/document_symbols.h"
#include "tools/lsp/formatting.h"
#include "tools/lsp/hover.h"
#include "tools/lsp/lifecycle.h"
#include "tools/lsp/params.h"
#include "tools/lsp/protocol.h"
#include "tools/lsp/references.h"
#include "tools/lsp/rename.h"
#include "tools/lsp/server.h"
#include "tools/lsp/workspace_symbols.h"

namespace herald::lsp {
namespace {

// No message of the protocol nests this deep. Deeper JSON is refused while
// it is parsed: copying or printing it (both recursive in the JSON library)
// would overflow the stack.
constexpr int kMaxNesting = 256;

struct TooDeep {};

}  // namespace

void Server::handle(const std::string& body) {
  nlohmann::json message;
  try {
    message = nlohmann::json::parse(
        body, [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
          if (depth > kMaxNesting) throw TooDeep{};
          return true;
        });
  } catch (const nlohmann::json::parse_error& e) {
    send(errorResponse(nullptr, ErrorCode::ParseError, e.what()));
    return;
  } catch (const TooDeep&) {
    send(errorResponse(
        nullptr, ErrorCode::ParseError,
        fmt::format("JSON nested deeper than {} levels", kMaxNesting)));
    return;
  }
  if (!message.is_object()) {
    send(errorResponse(nullptr, ErrorCode::InvalidRequest,
                       "a message must be a JSON object"));
    return;
  }
  auto id = message.find("id");
  bool validId =
      id != message.end() && (id->is_string() || id->is_number_integer());
  auto method = message.find("method");
  if (method == message.end()) {
    // A response: the server sends no requests, so there is nothing to
    // match it with.
    if (id == message.end())
      send(errorResponse(nullptr, ErrorCode::InvalidRequest,
                         "a message without 'method' or 'id'"));
    return;
  }
  if (!method->is_string() || (id != message.end() && !validId)) {
    send(errorResponse(validId ? *id : nlohmann::json(nullptr),
                       ErrorCode::InvalidRequest,
                       "'method' must be a string and 'id' a string or an "
                       "integer"));
    return;
  }
  nlohmann::json params = message.value("params", nlohmann::json());
  if (validId)
    request(*id, method->get<std::string>(), params);
  else
    notify(method->get<std::string>(), params);
}

void Server::request(const nlohmann::json& id, const std::string& method,
                     const nlohmann::json& params) {
  if (!initialized_ && method != "initialize") {
    send(errorResponse(id, ErrorCode::ServerNotInitialized,
                       "the server is not initialized"));
    return;
  }
  if (shutdown_) {
    send(errorResponse(id, ErrorCode::InvalidRequest,
                       "the server is shut down; only 'exit' is accepted"));
    return;
  }
  try {
    send(response(id, answer(method, params)));
  } catch (const RpcError& e) {
    send(errorResponse(id, e.code(), e.what()));
  } catch (const nlohmann::json::exception& e) {
    send(errorResponse(id, ErrorCode::InvalidParams, e.what()));
  } catch (const std::bad_alloc&) {
    send(errorResponse(id, ErrorCode::InternalError, "out of memory"));
  } catch (const std::exception& e) {
    send(errorResponse(id, ErrorCode::InternalError, e.what()));
  }
}

nlohmann::json Server::answer(const std::string& method,
                              const nlohmann::json& params) {
  if (method == "initialize") {
    if (initialized_)
      throw RpcError(ErrorCode::InvalidRequest,
                     "the server is already initialized");
    workspace_.setFolders(workspaceFolders(params));
    initialized_ = true;
    // The files on disk have diagnostics before any document is opened.
    stale_ = true;
    return initializeResult(options_.version);
  }
  if (method == "shutdown") {
    shutdown_ = true;
    return nullptr;
  }
  if (method == "textDocument/formatting" ||
      method == "textDocument/documentSymbol") {
    std::string uri = documentUri(params);
    std::optional<std::string> text = workspace_.text(uri);
    if (!text)
      throw RpcError(ErrorCode::RequestFailed,
                     fmt::format("cannot read '{}'", uri));
    if (method == "textDocument/documentSymbol")
      return documentSymbols(uri, *text);
    FormatEdits edits = formatDocument(uri, *text);
    if (!edits.error.empty())
      throw RpcError(ErrorCode::RequestFailed,
                     fmt::format("cannot format: {}", edits.error));
    return std::move(edits.edits);
  }
  if (method == "textDocument/codeAction") return quickFixes(params);
  if (method == "workspace/symbol")
    return workspaceSymbols(checked(), stringMember(params, "query"));
  if (method == "textDocument/definition" || method == "textDocument/hover" ||
      method == "textDocument/references" ||
      method == "textDocument/completion" ||
      method == "textDocument/prepareRename" ||
      method == "textDocument/rename") {
    std::string uri = documentUri(params);
    TextPosition position = documentPosition(params);
    if (method == "textDocument/hover") return hover(checked(), uri, position);
    if (method == "textDocument/completion")
      return completion(checked(), uri, position);
    if (method == "textDocument/prepareRename")
      return prepareRename(checked(), uri, position);
    if (method == "textDocument/rename")
      return rename(checked(), uri, position, stringMember(params, "newName"));
    if (method == "textDocument/references")
      return references(checked(), uri, position, includeDeclaration(params));
    return definition(checked(), uri, position);
  }
  throw RpcError(ErrorCode::MethodNotFound,
                 fmt::format("unknown method '{}'", method));
}

void Server::notify(const std::string& method, const nlohmann::json& params) {
  if (method == "exit") {
    exited_ = true;
    return;
  }
  // Before initialize and after shutdown, notifications are dropped.
  if (!initialized_ || shutdown_) return;
  try {
    if (method == "textDocument/didOpen") {
      const nlohmann::json& document = objectMember(params, "textDocument");
      workspace_.open(stringMember(document, "uri"),
                      stringMember(document, "text"), documentVersion(params));
      stale_ = true;
    } else if (method == "textDocument/didChange") {
      std::string uri = documentUri(params);
      auto changes = params.find("contentChanges");
      if (changes == params.end() || !changes->is_array() || changes->empty())
        throw RpcError(ErrorCode::InvalidParams,
                       "member 'contentChanges' is not a non-empty array");
      // Full synchronisation: the last change is the whole new text.
      const nlohmann::json& last = changes->back();
      if (last.is_object() && last.contains("range"))
        throw RpcError(ErrorCode::InvalidParams,
                       "incremental changes are not supported; the server "
                       "asked for full documents");
      workspace_.open(uri, stringMember(last, "text"), documentVersion(params));
      stale_ = true;
    } else if (method == "textDocument/didClose") {
      workspace_.close(documentUri(params));
      stale_ = true;
    }
    // Other notifications ($/cancelRequest, $/setTrace, didSave, ...) need
    // nothing from this server.
  } catch (const RpcError& e) {
    send(notification("window/logMessage",
                      {{"type", kLogError},
                       {"message", fmt::format("{}: {}", method, e.what())}}));
  }
}

}  // namespace herald::lsp
