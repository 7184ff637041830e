// A scripted LSP client: a language server (`heraldc lsp`) as a child
// process on pipes, spoken to in `Content-Length` frames. The tests
// (tests/lsp) and the latency benchmark (bench/lsp) drive the server with
// it. Every wait is bounded, so a server that hangs fails the caller
// instead of blocking it.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <sys/types.h>

namespace herald::lsp::client {

using Json = nlohmann::json;

inline constexpr std::chrono::milliseconds kTimeout{20000};

class Client {
 public:
  // Starts `command`: a program (found on PATH when it has no slash) and
  // its arguments.
  explicit Client(std::vector<std::string> command);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // The server's process id.
  [[nodiscard]] pid_t pid() const { return pid_; }

  // Raw bytes, as a client would write them (frames included).
  void sendRaw(const std::string& bytes);
  void send(const Json& message);
  void notify(const std::string& method, Json params);
  // Sends a request and waits for its response; the notifications that
  // arrive before it are kept for waitNotification().
  [[nodiscard]] Json request(const std::string& method, Json params,
                             std::chrono::milliseconds timeout = kTimeout);
  // `initialize` with `root` as the workspace folder, then `initialized`.
  Json initialize(const std::string& root,
                  std::chrono::milliseconds timeout = kTimeout);

  // The next message of any kind; nothing on timeout or end of output.
  [[nodiscard]] std::optional<Json> next(
      std::chrono::milliseconds timeout = kTimeout);
  // The first notification `method` (kept ones first) for which `match`
  // holds; those skipped are dropped.
  [[nodiscard]] std::optional<Json> waitNotification(
      const std::string& method,
      const std::function<bool(const Json&)>& match = nullptr,
      std::chrono::milliseconds timeout = kTimeout);
  // The notifications received and not yet taken.
  [[nodiscard]] std::deque<Json>& kept() { return kept_; }

  void closeInput();
  // The exit status, or nothing if the server has not exited in time.
  [[nodiscard]] std::optional<int> waitExit(
      std::chrono::milliseconds timeout = kTimeout);

 private:
  // Reads what the server wrote within `deadline`; false on timeout or EOF.
  bool fill(std::chrono::steady_clock::time_point deadline);

  pid_t pid_ = -1;
  int in_ = -1;   // the server's standard input
  int out_ = -1;  // its standard output
  std::string buffer_;
  std::deque<Json> kept_;
  int nextId_ = 1;
  std::optional<int> status_;
};

// A `file:` URI for an absolute path (no characters needing escapes).
[[nodiscard]] std::string fileUri(const std::string& path);

}  // namespace herald::lsp::client
