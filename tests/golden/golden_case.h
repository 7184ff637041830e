// Golden cases: one directory per case under the case root, holding `.herald`
// inputs and the expected output. A `fail_*` case is parsed and checked,
// must have errors, and keeps the rendered diagnostics in `diagnostics.txt`;
// a `warn_*` case is parsed and checked, must have warnings and no errors,
// and keeps them in `diagnostics.txt` too; a `check_*` case must parse and
// check with no diagnostic at all and keeps the IR dump in `ir.txt`; a
// `fmt_*` case has one input and keeps what `heraldc fmt` prints for it in
// `fmt.herald` (which is not an input); any other case must parse cleanly
// (it is not checked) and keeps the AST dump of each input in `ast.txt`.
// A `gen_*` case must check with no diagnostic and keeps the C++ that code
// generation writes for it in `generated.txt`, every file after a
// `=== <path>` line. A checked case holding a `herald.schema.lock` also runs
// the schema registry against it (never writing it), after a clean check.
#pragma once

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace herald::golden {

enum class CaseKind { Ast, Fail, Warn, Check, Fmt, Gen };

inline constexpr CaseKind kAllKinds[] = {CaseKind::Ast, CaseKind::Fail,
                                         CaseKind::Warn, CaseKind::Check,
                                         CaseKind::Fmt, CaseKind::Gen};

// The expectation of a `fmt_*` case; never an input.
inline constexpr const char* kFmtExpectation = "fmt.herald";

struct GoldenCase {
  std::string name;
  std::filesystem::path dir;
  std::vector<std::filesystem::path> inputs;  // sorted by file name
  [[nodiscard]] CaseKind kind() const {
    if (name.rfind("fail_", 0) == 0) return CaseKind::Fail;
    if (name.rfind("warn_", 0) == 0) return CaseKind::Warn;
    if (name.rfind("check_", 0) == 0) return CaseKind::Check;
    if (name.rfind("fmt_", 0) == 0) return CaseKind::Fmt;
    if (name.rfind("gen_", 0) == 0) return CaseKind::Gen;
    return CaseKind::Ast;
  }
  // Whether the checker runs after the parser.
  [[nodiscard]] bool checked() const {
    switch (kind()) {
      case CaseKind::Fail:
      case CaseKind::Warn:
      case CaseKind::Check:
      case CaseKind::Gen:
        return true;
      case CaseKind::Ast:
      case CaseKind::Fmt:
        return false;
    }
    return false;
  }
  [[nodiscard]] static std::string expectationFile(CaseKind kind) {
    switch (kind) {
      case CaseKind::Ast:
        return "ast.txt";
      case CaseKind::Fail:
      case CaseKind::Warn:
        return "diagnostics.txt";
      case CaseKind::Check:
        return "ir.txt";
      case CaseKind::Fmt:
        return kFmtExpectation;
      case CaseKind::Gen:
        return "generated.txt";
    }
    return "ast.txt";
  }
  [[nodiscard]] std::string expectationFile() const {
    return expectationFile(kind());
  }
  // The expectation files of the other kinds, which must not exist.
  [[nodiscard]] std::vector<std::string> staleFiles() const {
    std::vector<std::string> stale;
    for (CaseKind k : kAllKinds) {
      std::string file = expectationFile(k);
      if (file != expectationFile() &&
          std::find(stale.begin(), stale.end(), file) == stale.end())
        stale.push_back(std::move(file));
    }
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
  bool hasWarnings = false;
  std::string diagnostics;  // rendered, for explaining an unexpected result
  std::string problem;      // an input could not be read
};

// Parses every input of the case (one SourceManager, file names relative to
// the case directory), checks them when the kind asks for it, and renders
// the case's output: the diagnostics, the IR dump, the AST dumps, or the
// formatted input.
[[nodiscard]] CaseOutput runCase(const GoldenCase& c);

}  // namespace herald::golden
