// Golden cases: one directory per case under the case root, holding `.herald`
// inputs and the expected output. A `fail_*` case expects errors and keeps
// the rendered diagnostics in `diagnostics.txt`; any other case must parse
// cleanly and keeps the AST dump of each input in `ast.txt`.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace herald::golden {

struct GoldenCase {
  std::string name;
  std::filesystem::path dir;
  std::vector<std::filesystem::path> inputs;  // sorted by file name
  [[nodiscard]] bool expectsErrors() const {
    return name.rfind("fail_", 0) == 0;
  }
  [[nodiscard]] std::string expectationFile() const {
    return expectsErrors() ? "diagnostics.txt" : "ast.txt";
  }
  // The expectation file of the other kind, which must not exist.
  [[nodiscard]] std::string staleFile() const {
    return expectsErrors() ? "ast.txt" : "diagnostics.txt";
  }
};

// Every case directory under `root`, sorted by name. `filters` keeps the
// cases whose name contains one of them (all when empty).
[[nodiscard]] std::vector<GoldenCase> discoverCases(
    const std::filesystem::path& root, const std::vector<std::string>& filters);

[[nodiscard]] std::optional<std::string> readFile(
    const std::filesystem::path& path);
bool writeFile(const std::filesystem::path& path, const std::string& text);

struct CaseOutput {
  std::string text;  // what the expectation file should hold
  bool hasErrors = false;
  std::string diagnostics;  // rendered, for explaining an unexpected result
  std::string problem;      // an input could not be read
};

// Parses every input of the case (one SourceManager, file names relative to
// the case directory) and renders the case's output.
[[nodiscard]] CaseOutput runCase(const GoldenCase& c);

}  // namespace herald::golden
