// diagnostic_coverage TESTS_DIR
//
// Fails when a registry entry (frontend/diagnostics.def) is produced by no
// test, or when a test expects a code the registry does not have. The
// registry is read through allDiagKinds()/diagInfo(), so a code added to
// diagnostics.def is seen without touching this program.
//
// What counts as "a test produces the code":
//  - tests/golden/**/diagnostics.txt: the header of each diagnostic,
//    `error[E0501]` or `warning[W0530]`. These files are heraldc's exact
//    output, compared by the golden runner, so a code there is produced.
//  - tests/cli/**: every file but the `.herald` inputs (the test
//    definitions and any expected-output file), for each code spelled out
//    in full (`E0401`, `error\\[E0401\\]`, `code=^E0401$`). A pattern such
//    as `E01[0-9][0-9]` names no single code and is not counted.
//  - tests/unit/*.cpp: a string literal that starts with a code (`"E0100"`,
//    `"E0103 3:9 ..."`, `"E0007@7-8"`): the unit tests compare the codes
//    that lexing, parsing or checking an input reported against such
//    literals. diagnostics_test.cpp is left out: it tests the engine by
//    reporting arbitrary kinds by hand, which shows nothing about inputs.
// Comments and the lang/ catalogue are not counted: the catalogue has its
// own test (catalogue_examples), and this one asks for tests that pin the
// full output.
//
// Every code found in those places must be in the registry. Codes that no
// command reports yet would be listed in kReserved, exempt from the first
// check; there are none.
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "frontend/diagnostic.h"

namespace fs = std::filesystem;

namespace {

// Codes no command reports yet.
constexpr std::array<std::string_view, 0> kReserved{};

// Where each code was seen, for the report: code -> first few files.
using Sightings = std::map<std::string, std::vector<std::string>>;

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every regular file under `root` accepted by `keep`, sorted, so the report
// is the same on every machine.
template <typename Keep>
std::vector<fs::path> filesUnder(const fs::path& root, Keep keep) {
  std::vector<fs::path> out;
  if (!fs::is_directory(root)) return out;
  for (const fs::directory_entry& entry :
       fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && keep(entry.path())) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void scan(const fs::path& file, const fs::path& testsDir,
          const std::regex& pattern, Sightings& seen) {
  const std::string text = readFile(file);
  const std::string where = fs::relative(file, testsDir).generic_string();
  for (std::sregex_iterator it(text.begin(), text.end(), pattern), end;
       it != end; ++it) {
    std::vector<std::string>& files = seen[(*it)[1].str()];
    if (std::find(files.begin(), files.end(), where) == files.end()) {
      files.push_back(where);
    }
  }
}

}  // namespace

// An exception that escapes ends the test with its message, as intended.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  if (argc != 2) {
    fmt::print(stderr, "usage: diagnostic_coverage TESTS_DIR\n");
    return 2;
  }
  const fs::path tests = argv[1];
  if (!fs::is_directory(tests / "golden")) {
    fmt::print(stderr, "diagnostic_coverage: '{}' has no golden/ directory\n",
               tests.string());
    return 2;
  }

  Sightings seen;
  const std::regex header(R"((?:error|warning)\[([EW][0-9]{4})\])");
  const std::regex anyCode(R"(\b([EW][0-9]{4})\b)");
  const std::regex literal(R"re("([EW][0-9]{4})\b)re");

  std::size_t files = 0;
  for (const fs::path& f : filesUnder(tests / "golden", [](const fs::path& p) {
         return p.filename() == "diagnostics.txt";
       })) {
    scan(f, tests, header, seen);
    ++files;
  }
  for (const fs::path& f : filesUnder(tests / "cli", [](const fs::path& p) {
         return p.extension() != ".herald";
       })) {
    scan(f, tests, anyCode, seen);
    ++files;
  }
  for (const fs::path& f : filesUnder(tests / "unit", [](const fs::path& p) {
         return p.extension() == ".cpp" &&
                p.filename() != "diagnostics_test.cpp";
       })) {
    scan(f, tests, literal, seen);
    ++files;
  }

  std::set<std::string, std::less<>> registry;
  for (herald::DiagKind kind : herald::allDiagKinds()) {
    registry.emplace(herald::diagInfo(kind).code);
  }

  int problems = 0;
  std::size_t required = 0;
  std::size_t uncovered = 0;
  for (herald::DiagKind kind : herald::allDiagKinds()) {
    const herald::DiagInfo& info = herald::diagInfo(kind);
    if (std::find(std::begin(kReserved), std::end(kReserved), info.code) !=
        std::end(kReserved)) {
      continue;
    }
    ++required;
    if (seen.find(std::string(info.code)) == seen.end()) {
      ++uncovered;
      fmt::print("uncovered: {} {} ({}): no test produces it\n", info.code,
                 info.name, herald::severityName(info.severity));
      ++problems;
    }
  }
  for (const auto& [code, where] : seen) {
    if (registry.find(code) != registry.end()) continue;
    fmt::print("unknown: {} is expected by {} but is not in the registry\n",
               code, fmt::join(where, ", "));
    ++problems;
  }
  for (std::string_view code : kReserved) {
    if (registry.find(code) == registry.end()) {
      fmt::print(
          "stale: reserved code {} is no longer in the registry; "
          "update kReserved\n",
          code);
      ++problems;
    }
  }

  fmt::print(
      "diagnostic coverage: {} of {} codes produced by a test ({} "
      "reserved), {} files scanned, {} problem(s)\n",
      required - uncovered, required, std::size(kReserved), files, problems);
  return problems == 0 ? 0 : 1;
}
