// The golden-test runner.
//
//   golden_runner [--update] CASE_ROOT [FILTER...]   compare (or rewrite)
//   golden_runner --roundtrip CASE_ROOT [FILTER...]  printer round trip
//
// A filter keeps the cases whose name contains it: `--update . fmt_`
// rewrites only the formatter cases.
//
// HERALD_UPDATE_GOLDEN=1 in the environment is the same as --update.
// Cases are discovered at run time, so adding a directory adds a case.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "golden_case.h"
#include "line_diff.h"
#include "roundtrip.h"

namespace fs = std::filesystem;
using namespace herald::golden;

namespace {

struct Options {
  bool update = false;
  bool roundtrip = false;
  fs::path root;
  std::vector<std::string> filters;
};

bool parseArgs(int argc, char** argv, Options& options) {
  const char* env = std::getenv("HERALD_UPDATE_GOLDEN");
  options.update = env != nullptr && std::string_view(env) == "1";
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--update") {
      options.update = true;
    } else if (arg == "--roundtrip") {
      options.roundtrip = true;
    } else if (arg.starts_with("--")) {
      std::cerr << "unknown option " << arg << "\n";
      return false;
    } else if (options.root.empty()) {
      options.root = arg;
    } else {
      options.filters.emplace_back(arg);
    }
  }
  if (options.root.empty()) {
    std::cerr << "usage: golden_runner [--update | --roundtrip] CASE_ROOT "
                 "[FILTER...]\n";
    return false;
  }
  return true;
}

// Compares (or rewrites) one case; returns whether it passed.
bool checkCase(const GoldenCase& c, bool update) {
  auto fail = [&](const std::string& why) {
    std::cout << "FAIL " << c.name << ": " << why << "\n";
    return false;
  };
  if (c.inputs.empty()) return fail("no .herald inputs");
  for (const std::string& stale : c.staleFiles())
    if (fs::exists(c.dir / stale))
      return fail("holds " + stale + ", which only another kind of case has");

  CaseOutput out = runCase(c);
  if (!out.problem.empty()) return fail(out.problem);
  switch (c.kind()) {
    case CaseKind::Fail:
      if (!out.hasErrors)
        return fail("a fail_ case, but the inputs check without errors");
      break;
    case CaseKind::Warn:
      if (out.hasErrors)
        return fail(
            "a warn_ case with errors (only fail_ cases may have "
            "them):\n" +
            out.diagnostics);
      if (!out.hasWarnings)
        return fail("a warn_ case, but the inputs check without warnings");
      break;
    case CaseKind::Check:
    case CaseKind::Gen:
      if (out.hasErrors || out.hasWarnings)
        return fail("a " + c.name.substr(0, c.name.find('_') + 1) +
                    " case must check without diagnostics:\n" +
                    out.diagnostics);
      break;
    case CaseKind::Ast:
    case CaseKind::Fmt:
      if (out.hasErrors)
        return fail("unexpected errors (only fail_ cases may have them):\n" +
                    out.diagnostics);
      break;
  }

  fs::path expectedPath = c.dir / c.expectationFile();
  std::optional<std::string> expected = readFile(expectedPath);
  if (expected && *expected == out.text) return true;
  if (update) {
    if (!writeFile(expectedPath, out.text))
      return fail("cannot write " + expectedPath.string());
    std::cout << "updated " << c.name << "/" << c.expectationFile() << "\n";
    return true;
  }
  if (!expected)
    return fail("missing " + c.expectationFile() + " (run with --update)");
  return fail(c.expectationFile() + " differs\n" +
              lineDiff(*expected, out.text));
}

int runGolden(const std::vector<GoldenCase>& cases, bool update) {
  std::size_t passed = 0;
  std::size_t failed = 0;
  for (const GoldenCase& c : cases) (checkCase(c, update) ? passed : failed)++;
  std::cout << "golden: " << passed << " passed, " << failed << " failed\n";
  return failed == 0 && passed != 0 ? 0 : 1;
}

int runRoundTrip(const std::vector<GoldenCase>& cases) {
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::size_t skipped = 0;
  for (const GoldenCase& c : cases) {
    std::vector<fs::path> texts = c.inputs;
    // The expected formatter output is itself a formatted input: the round
    // trip checks that formatting it changes nothing.
    if (c.kind() == CaseKind::Fmt && fs::exists(c.dir / kFmtExpectation))
      texts.push_back(c.dir / kFmtExpectation);
    for (const fs::path& input : texts) {
      std::string name = c.name + "/" + input.filename().string();
      std::optional<std::string> text = readFile(input);
      if (!text) {
        std::cout << "FAIL " << name << ": cannot read it\n";
        ++failed;
        continue;
      }
      RoundTripResult r = checkRoundTrip(name, *text);
      switch (r.status) {
        case RoundTripStatus::Passed:
          ++passed;
          break;
        case RoundTripStatus::Skipped:
          ++skipped;
          break;
        case RoundTripStatus::Failed:
          std::cout << "FAIL " << name << ": " << r.report << "\n";
          ++failed;
          break;
      }
    }
  }
  std::cout << "roundtrip: " << passed << " passed, " << failed << " failed, "
            << skipped << " skipped (inputs with errors)\n";
  return failed == 0 && passed != 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parseArgs(argc, argv, options)) return 2;
  if (!fs::is_directory(options.root)) {
    std::cerr << "golden_runner: " << options.root.string()
              << " is not a directory\n";
    return 2;
  }
  std::vector<GoldenCase> cases = discoverCases(options.root, options.filters);
  if (cases.empty()) {
    std::cerr << "golden_runner: no cases under " << options.root.string()
              << "\n";
    return 1;
  }
  return options.roundtrip ? runRoundTrip(cases)
                           : runGolden(cases, options.update);
}
