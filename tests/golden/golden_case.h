// Golden cases: one directory per case under the case root, holding `.herald`
// inputs and the expected output. A `fail_*` case expects errors and keeps
// the rendered diagnostics in `diagnostics.txt`; a `fmt_*` case has one
// input and keeps what `heraldc fmt` prints for it in `fmt.herald` (which is
// not an input); any other case must parse cleanly and keeps the AST dump of
// each input in `ast.txt`.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace herald::golden {

enum class CaseKind { Ast, Fail, Fmt };

// The expectation of a `fmt_*` case; never an input.
inline constexpr const char* kFmtExpectation = "fmt.herald";

struct GoldenCase {
  std::string name;
  std::filesystem::path dir;
  std::vector<std::filesystem::path> inputs;  // sorted by file name
  [[nodiscard]] CaseKind kind() const {
    if (name.rfind("fail_", 0) == 0) return CaseKind::Fail;
    if (name.rfind("fmt_", 0) == 0) return CaseKind::Fmt;
    return CaseKind::Ast;
  }
  [[nodiscard]] bool expectsErrors() const { return kind() == CaseKind::Fail; }
  [[nodiscard]] static std::string expectationFile(CaseKind kind) {
    switch (kind) {
      case CaseKind::Ast:
        return "ast.txt";
      case CaseKind::Fail:
        return "diagnostics.txt";
      case CaseKind::Fmt:
        return kFmtExpectation;
    }
    return "ast.txt";
  }
  [[nodiscard]] std::string expectationFile() const {
    return expectationFile(kind());
  }
  // The expectation files of the other kinds, which must not exist.
  [[nodiscard]] std::vector<std::string> staleFiles() const {
    std::vector<std::string> stale;
    for (CaseKind k : {CaseKind::Ast, CaseKind::Fail, CaseKind::Fmt})
      if (k != kind()) stale.push_back(expectationFile(k));
    return stale;
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
// the case directory) and renders the case's output: the diagnostics, the
// AST dumps, or the formatted input.
[[nodiscard]] CaseOutput runCase(const GoldenCase& c);

}  // namespace herald::golden
