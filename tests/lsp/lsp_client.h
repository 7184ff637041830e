// The scripted client of tools/lsp/client, starting the `heraldc` under
// test; and temporary workspaces. Every wait is bounded, so a server that
// hangs fails the test instead of blocking it.
#pragma once

#include <string>
#include <vector>

#include "tools/lsp/client/client.h"

namespace herald::lsp::test {

using client::fileUri;
using client::Json;
using client::kTimeout;

class LspClient : public client::Client {
 public:
  // Starts HERALDC (a compile definition) with `lsp` and `extraArgs`.
  explicit LspClient(const std::vector<std::string>& extraArgs = {});
};

// A fresh directory under the system's temporary directory, removed with
// everything in it when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }
  // Writes `text` to `name` under the directory; returns the full path.
  std::string write(const std::string& name, const std::string& text) const;

 private:
  std::string path_;
};

}  // namespace herald::lsp::test
