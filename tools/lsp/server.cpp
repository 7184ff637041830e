#include "tools/lsp/server.h"

#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tools/lsp/check.h"
#include "tools/lsp/protocol.h"

namespace herald::lsp {

Server::Server(int in, int out, ServerOptions options)
    : reader_(in, options.maxMessageBytes),
      out_(out),
      options_(std::move(options)) {}

int Server::run() {
  while (!exited_ && !outputClosed_) {
    // Changes are coalesced: while more messages wait (an editor sends one
    // per keystroke), the check waits for the latest text.
    if (stale_ && !reader_.pending()) publishDiagnostics();
    ReadResult read = reader_.next();
    switch (read.status) {
      case ReadStatus::Message:
        handle(read.body);
        break;
      case ReadStatus::End:
        return shutdown_ ? 0 : 1;
      case ReadStatus::TooLarge:
        send(errorResponse(nullptr, ErrorCode::InvalidRequest, read.body));
        break;
      case ReadStatus::BadFrame:
        send(errorResponse(nullptr, ErrorCode::ParseError, read.body));
        break;
    }
  }
  if (outputClosed_) return 1;
  return shutdown_ ? 0 : 1;
}

void Server::publishDiagnostics() {
  stale_ = false;
  try {
    // The files the last check parsed from the same text are not parsed
    // again; the rest of that check goes first.
    std::vector<std::shared_ptr<const ParsedFile>> reusable;
    if (checked_ != nullptr) reusable = checked_->parsedFiles();
    checked_.reset();
    checked_ =
        std::make_unique<CheckedWorkspace>(workspace_.documents(), reusable);
  } catch (const std::exception& e) {
    // A failure of the compiler on one text must not end the session: the
    // next change is checked afresh.
    send(notification(
        "window/logMessage",
        {{"type", kLogError},
         {"message",
          std::string("heraldc could not check the workspace: ") + e.what()}}));
    return;
  }
  std::map<std::string, Published> now;
  for (FileDiagnostics& file : checked_->takeDiagnostics()) {
    auto last = published_.find(file.uri);
    if (last == published_.end() ||
        last->second.diagnostics != file.diagnostics ||
        last->second.version != file.version) {
      nlohmann::json params = {{"uri", file.uri},
                               {"diagnostics", file.diagnostics}};
      if (file.version) params["version"] = *file.version;
      send(notification("textDocument/publishDiagnostics", std::move(params)));
    }
    now.emplace(std::move(file.uri),
                Published{file.version, std::move(file.diagnostics)});
  }
  // A file gone from the workspace (closed and not on disk, or deleted)
  // keeps no diagnostics in the client.
  for (const auto& [uri, published] : published_) {
    if (now.count(uri) == 0 && !published.diagnostics.empty())
      send(notification(
          "textDocument/publishDiagnostics",
          {{"uri", uri}, {"diagnostics", nlohmann::json::array()}}));
  }
  published_ = std::move(now);
}

const CheckedWorkspace& Server::checked() {
  if (stale_ || checked_ == nullptr) publishDiagnostics();
  if (checked_ == nullptr)
    throw RpcError(ErrorCode::RequestFailed,
                   "heraldc could not check the workspace");
  return *checked_;
}

void Server::send(const nlohmann::json& message) {
  if (outputClosed_) return;
  // Invalid UTF-8 from a document (in a message quoting it) is replaced,
  // not a reason to fail.
  if (!writeMessage(out_,
                    message.dump(-1, ' ', false,
                                 nlohmann::json::error_handler_t::replace)))
    outputClosed_ = true;
}

}  // namespace herald::lsp
