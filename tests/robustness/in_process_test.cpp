// The checker in-process over every golden input and example and a few
// mutations of each: the same inputs as checker_robustness, without the
// process around it, so that a sanitizer or a debugger points straight at
// the checker. A crash ends the test with the INFO line naming the input.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "checker/checker.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "tests/robustness/mutate.h"

namespace fs = std::filesystem;
using namespace herald::robustness;

namespace {

struct Input {
  std::string name;
  std::string text;
};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every case directory under `root` with its `.herald` inputs (a fmt_
// case's fmt.herald is an expectation, not an input).
std::vector<std::pair<std::string, std::vector<Input>>> casesUnder(
    const fs::path& root) {
  std::vector<fs::path> dirs;
  for (const fs::directory_entry& e : fs::directory_iterator(root)) {
    if (e.is_directory()) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  std::vector<std::pair<std::string, std::vector<Input>>> cases;
  for (const fs::path& dir : dirs) {
    const bool fmtCase = dir.filename().string().rfind("fmt_", 0) == 0;
    std::vector<fs::path> files;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().extension() == ".herald" &&
          !(fmtCase && e.path().filename() == "fmt.herald")) {
        files.push_back(e.path());
      }
    }
    std::sort(files.begin(), files.end());
    std::vector<Input> inputs;
    inputs.reserve(files.size());
    for (const fs::path& f : files) {
      inputs.push_back({f.filename().string(), readFile(f)});
    }
    if (!inputs.empty()) {
      cases.emplace_back(dir.filename().string(), std::move(inputs));
    }
  }
  return cases;
}

// Parses and checks the files; returns the number of diagnostics.
std::size_t checkAll(const std::vector<Input>& inputs) {
  herald::SourceManager sources;
  for (const Input& in : inputs) sources.addFile(in.name, in.text);
  herald::DiagnosticEngine diags;
  std::vector<herald::ParseResult> parsed;
  std::vector<const herald::ast::File*> files;
  for (herald::FileId id = 0; id < sources.size(); ++id) {
    parsed.push_back(herald::parse(sources.file(id), diags));
    files.push_back(parsed.back().file);
  }
  auto program = herald::check::checkProgram(files, sources, diags);
  diags.finalize();
  REQUIRE(program != nullptr);
  return diags.diagnostics().size();
}

constexpr MutationKind kKinds[] = {
    MutationKind::DeleteToken,     MutationKind::TruncateMidToken,
    MutationKind::SwapIdentifiers, MutationKind::DropClosingBrace,
    MutationKind::DuplicateLine,   MutationKind::TruncateAtByte,
};

void checkCasesUnder(const fs::path& root) {
  // Different choices from the process test's (another seed), so the two
  // together cover more inputs.
  constexpr std::uint64_t kSeed = 7;
  std::size_t runs = 0;
  for (const auto& entry : casesUnder(root)) {
    // Named references, not a structured binding: INFO captures them.
    const std::string& name = entry.first;
    const std::vector<Input>& inputs = entry.second;
    INFO("case ", name, " unmutated");
    CHECK_NOTHROW(checkAll(inputs));
    ++runs;
    Rng rng(kSeed ^ hashName(name));
    // Three rounds of every kind; deletions take every third token.
    constexpr std::size_t kRounds = 3;
    for (std::size_t i = 0; i < kRounds * std::size(kKinds); ++i) {
      const std::size_t file = i % inputs.size();
      const MutationKind kind = kKinds[i % std::size(kKinds)];
      const std::vector<TokenSpan> tokens =
          tokenize(inputs[file].name, inputs[file].text);
      Mutation m;
      if (!mutate(kind, inputs[file].text, tokens, i / std::size(kKinds),
                  kRounds, rng, m)) {
        continue;
      }
      std::vector<Input> mutated = inputs;
      mutated[file].text = m.text;
      INFO("case ", name, ", file ", inputs[file].name, ", ",
           mutationKindName(m.kind), " ", m.detail);
      CHECK_NOTHROW(checkAll(mutated));
      ++runs;
    }
  }
  MESSAGE(fmt::format("{} inputs checked under {}", runs, root.string()));
  CHECK(runs > 0);
}

}  // namespace

TEST_CASE("the checker survives every golden input and mutations of it") {
  checkCasesUnder(HERALD_GOLDEN_DIR);
}

TEST_CASE("the checker survives the examples and mutations of them") {
  checkCasesUnder(HERALD_EXAMPLES_DIR);
}
