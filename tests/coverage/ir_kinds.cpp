// ir_kind_coverage GOLDEN_DIR
//
// Fails when an instruction kind of the body IR (ir/inst_kinds.def)
// appears in no `check_*/ir.txt` golden, so every kind code generation must
// handle has a program that produces it and a dump that pins it. Kinds are
// read through instKindInfo(), so a kind added to inst_kinds.def is seen
// without touching this program. An instruction line of the dump is
// `%N = spelling ...` (tests/golden/README.md).
//
// Invalid is exempt: it marks an expression an error was reported for, and
// a check_ case has no errors (the IR verifier rejects it there).
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ir/body.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: ir_kind_coverage GOLDEN_DIR\n");
    return 2;
  }
  fs::path root = argv[1];
  std::set<std::string> seen;
  std::size_t files = 0;
  const std::regex line(R"(^\s*%[0-9]+ = ([a-z_]+))");
  std::vector<fs::path> cases;
  for (const fs::directory_entry& entry : fs::directory_iterator(root))
    if (entry.is_directory() &&
        entry.path().filename().string().rfind("check_", 0) == 0)
      cases.push_back(entry.path() / "ir.txt");
  for (const fs::path& path : cases) {
    std::ifstream in(path);
    if (!in) continue;
    ++files;
    std::string text;
    std::smatch m;
    while (std::getline(in, text))
      if (std::regex_search(text, m, line)) seen.insert(m[1].str());
  }
  if (files == 0) {
    fmt::print(stderr, "no check_*/ir.txt under {}\n", root.string());
    return 1;
  }
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < herald::check::kInstKindCount; ++i) {
    auto kind = static_cast<herald::check::InstKind>(i);
    if (kind == herald::check::InstKind::Invalid) continue;
    std::string spelling(herald::check::instKindInfo(kind).spelling);
    if (seen.count(spelling) == 0) missing.push_back(spelling);
  }
  if (!missing.empty()) {
    for (const std::string& s : missing)
      fmt::print(stderr,
                 "instruction kind '{}' appears in no check_*/ir.txt; add a "
                 "check_ case that produces it\n",
                 s);
    return 1;
  }
  fmt::print("{} instruction kinds, all in the {} check_ dumps\n",
             herald::check::kInstKindCount - 1, files);
  return 0;
}
