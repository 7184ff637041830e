// `heraldc lsp`: a language server over a pair of file descriptors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tools/lsp/check.h"
#include "tools/lsp/framing.h"
#include "tools/lsp/workspace.h"

namespace herald::lsp {

struct ServerOptions {
  std::string version;  // serverInfo.version
  // A message whose content is larger is refused unread.
  std::size_t maxMessageBytes = 0;
};

class Server {
 public:
  Server(int in, int out, ServerOptions options);

  // Serves until `exit` or the end of input; returns the process exit code:
  // 0 after a `shutdown`, 1 otherwise (as LSP specifies).
  [[nodiscard]] int run();

 private:
  // dispatch.cpp: one message, answered (requests) or acted on.
  void handle(const std::string& body);
  void request(const nlohmann::json& id, const std::string& method,
               const nlohmann::json& params);
  nlohmann::json answer(const std::string& method,
                        const nlohmann::json& params);
  void notify(const std::string& method, const nlohmann::json& params);

  // Checks the workspace, keeps the result and publishes each file's
  // diagnostics that differ from what the client was last sent, or that
  // are for a new version of an open document (so that a client waiting
  // for the diagnostics of a version gets them).
  void publishDiagnostics();
  // The check of the documents as they are now: the kept one, or a new
  // one when they changed since. A RequestFailed error when the check
  // failed.
  const CheckedWorkspace& checked();
  void send(const nlohmann::json& message);

  MessageReader reader_;
  int out_;
  ServerOptions options_;
  Workspace workspace_;
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exited_ = false;
  bool outputClosed_ = false;
  // The documents changed since diagnostics were last published.
  bool stale_ = false;
  struct Published {
    std::optional<std::int64_t> version;
    nlohmann::json diagnostics;
  };
  std::map<std::string, Published> published_;  // by URI
  // The last check, for the requests about positions; null before the
  // first and after a check that failed.
  std::unique_ptr<CheckedWorkspace> checked_;
};

}  // namespace herald::lsp
