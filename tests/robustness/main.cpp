// checker_robustness: `heraldc check` never crashes, hangs or fails
// internally, whatever the input.
//
//   checker_robustness --heraldc PATH --work DIR --cases ROOT [--cases ROOT]
//                      [--per-case N] [--max-runs M] [--jobs J]
//                      [--timeout-ms T] [--seed S]
//
// Each directory under a ROOT that holds `.herald` files is a case (every
// golden case, every example). Each case is checked as it is, then N times
// with one mechanical mutation applied to one of its files (round robin
// over the files): a deleted token (every k-th), two identifiers swapped,
// the file cut in the middle of a token or at any byte, a line
// duplicated, a `}` dropped. Choices come from a fixed seed and the case
// name, so every run checks the same inputs. Every run is a fresh
// `heraldc check DIR` process over a copy of the whole case with the
// mutated file (at most M runs in all: N shrinks as cases are added, every
// case keeps its unmutated run), and must end by itself within the timeout, by
// exit (not by a signal), with status 0 or 1, and print neither "internal
// error" nor a sanitizer report.
//
// A failing input is kept under WORK/failures/ with the mutation and the
// output; its path is printed.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "tests/robustness/child.h"
#include "tests/robustness/mutate.h"

extern char** environ;  // NOLINT(readability-redundant-declaration)

namespace fs = std::filesystem;
using namespace herald::robustness;

namespace {

struct SourceText {
  std::string name;  // file name inside the case directory
  std::string text;
};

struct Case {
  std::string name;  // "<root name>/<case>", e.g. "golden/fail_event_errors"
  std::vector<SourceText> files;
};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

bool isInput(const fs::path& caseDir, const fs::path& file) {
  if (file.extension() != ".herald") return false;
  // A fmt_ case's fmt.herald is the formatter's expected output, the same
  // declarations again; checking it beside the input would only report
  // duplicates.
  const std::string dir = caseDir.filename().string();
  return !(dir.rfind("fmt_", 0) == 0 && file.filename() == "fmt.herald");
}

std::vector<Case> findCases(const std::vector<std::string>& roots) {
  std::vector<Case> cases;
  for (const std::string& rootName : roots) {
    const fs::path root = fs::absolute(rootName);
    std::vector<fs::path> dirs;
    for (const fs::directory_entry& e : fs::directory_iterator(root)) {
      if (e.is_directory()) dirs.push_back(e.path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const fs::path& dir : dirs) {
      Case c;
      c.name = root.filename().string() + "/" + dir.filename().string();
      std::vector<fs::path> files;
      for (const fs::directory_entry& e :
           fs::recursive_directory_iterator(dir)) {
        if (e.is_regular_file() && isInput(dir, e.path())) {
          files.push_back(e.path());
        }
      }
      std::sort(files.begin(), files.end());
      for (const fs::path& f : files) {
        // Lexically: a case may hold symlinks to shared inputs.
        c.files.push_back(
            {f.lexically_relative(dir).generic_string(), readFile(f)});
      }
      if (!c.files.empty()) cases.push_back(std::move(c));
    }
  }
  return cases;
}

// One `heraldc check` run: the case with at most one file replaced.
struct Run {
  const Case* source;
  std::size_t file = 0;  // index of the mutated file
  bool mutated = false;
  Mutation mutation;

  [[nodiscard]] std::string describe() const {
    if (!mutated) return fmt::format("{} (unmutated)", source->name);
    return fmt::format("{}, file {}, {} {}", source->name,
                       source->files[file].name,
                       mutationKindName(mutation.kind), mutation.detail);
  }
};

// The kinds of the N mutations of a case, in order: every kind early, token
// deletion and truncation most often, since they break the most structure.
constexpr MutationKind kSchedule[] = {
    MutationKind::DeleteToken,      MutationKind::TruncateMidToken,
    MutationKind::SwapIdentifiers,  MutationKind::DropClosingBrace,
    MutationKind::DuplicateLine,    MutationKind::TruncateAtByte,
    MutationKind::DeleteToken,      MutationKind::SwapIdentifiers,
    MutationKind::TruncateMidToken, MutationKind::DeleteToken,
    MutationKind::DropClosingBrace, MutationKind::TruncateAtByte,
};

void planCase(const Case& c, std::size_t perCase, std::uint64_t seed,
              std::vector<Run>& runs) {
  runs.push_back({&c, 0, false, {}});
  Rng rng(seed ^ hashName(c.name));
  std::vector<std::vector<TokenSpan>> tokens;
  for (const SourceText& f : c.files)
    tokens.push_back(tokenize(f.name, f.text));

  // (file, kind) -> how many are planned, so deletions can stride.
  struct Slot {
    std::size_t file;
    MutationKind kind;
  };
  std::vector<Slot> slots;
  std::map<std::pair<std::size_t, MutationKind>, std::size_t> planned;
  for (std::size_t i = 0; i < perCase; ++i) {
    // Every file of the case gets each kind in turn.
    const Slot s{i % c.files.size(),
                 kSchedule[(i / c.files.size()) % std::size(kSchedule)]};
    slots.push_back(s);
    ++planned[{s.file, s.kind}];
  }
  std::map<std::pair<std::size_t, MutationKind>, std::size_t> ordinal;
  for (const Slot& s : slots) {
    Run run{&c, s.file, true, {}};
    const std::size_t n = ordinal[{s.file, s.kind}]++;
    if (mutate(s.kind, c.files[s.file].text, tokens[s.file], n,
               planned[{s.file, s.kind}], rng, run.mutation)) {
      runs.push_back(std::move(run));
    }
  }
}

struct Verdict {
  bool ok = true;
  std::string why;
};

Verdict judge(const ChildResult& r) {
  static const std::regex sanitizer("SUMMARY: [A-Za-z]*Sanitizer");
  if (!r.spawned) return {false, r.output};
  if (r.timedOut) return {false, "did not finish within the timeout (killed)"};
  if (r.signal != 0) {
    return {false, fmt::format("killed by signal {} ({})", r.signal,
                               strsignal(r.signal))};
  }
  if (r.exitCode != 0 && r.exitCode != 1) {
    return {false, fmt::format("exit status {} (expected 0 or 1)", r.exitCode)};
  }
  std::string lower = r.output;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return std::tolower(ch); });
  if (lower.find("internal error") != std::string::npos) {
    return {false, "printed \"internal error\""};
  }
  if (std::regex_search(r.output, sanitizer)) {
    return {false, "a sanitizer reported an error"};
  }
  return {};
}

std::string slug(const std::string& s) {
  std::string out;
  for (char ch : s) {
    out += std::isalnum(static_cast<unsigned char>(ch)) != 0 ? ch : '_';
  }
  return out;
}

}  // namespace

// An exception that escapes ends the test with its message, as intended.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  CLI::App app{"Runs heraldc check over golden inputs and mutations of them."};
  std::string heraldc;
  std::string work;
  std::vector<std::string> roots;
  std::size_t perCase = 8;
  std::size_t maxRuns = 0;
  std::size_t jobs = 2;
  int timeoutMs = 10000;
  std::uint64_t seed = 20261130;
  app.add_option("--heraldc", heraldc, "The heraldc binary")->required();
  app.add_option("--work", work, "Scratch directory (emptied first)")
      ->required();
  app.add_option("--cases", roots, "Directory whose subdirectories are cases")
      ->required();
  app.add_option("--per-case", perCase, "Mutations per case");
  app.add_option("--max-runs", maxRuns,
                 "Bound on all runs; lowers --per-case to fit (0: none)");
  app.add_option("--jobs", jobs, "heraldc processes at a time");
  app.add_option("--timeout-ms", timeoutMs, "Per-run limit; killed after it");
  app.add_option("--seed", seed, "Seed for the mutation choices");
  CLI11_PARSE(app, argc, argv);

  const fs::path workDir = fs::absolute(work);
  fs::remove_all(workDir);
  fs::create_directories(workDir / "runs");

  const std::vector<Case> cases = findCases(roots);
  if (cases.empty()) {
    fmt::print(stderr, "checker_robustness: no cases found\n");
    return 2;
  }
  if (maxRuns != 0) {
    const std::size_t spare =
        maxRuns > cases.size() ? (maxRuns - cases.size()) / cases.size() : 0;
    perCase = std::min(perCase, spare);
  }
  std::vector<Run> runs;
  for (const Case& c : cases) planCase(c, perCase, seed, runs);

  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) environment.emplace_back(*e);

  const auto start = std::chrono::steady_clock::now();
  ChildPool pool(jobs, std::chrono::milliseconds(timeoutMs), environment);
  std::size_t failures = 0;
  std::map<std::string, std::size_t> exits;  // "exit 0" -> count
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& run = runs[i];
    const fs::path dir = workDir / "runs" / std::to_string(i);
    fs::create_directories(dir / "case");
    for (std::size_t f = 0; f < run.source->files.size(); ++f) {
      const SourceText& file = run.source->files[f];
      const fs::path path = dir / "case" / file.name;
      fs::create_directories(path.parent_path());
      writeFile(path,
                run.mutated && f == run.file ? run.mutation.text : file.text);
    }
    ChildJob job;
    job.argv = {heraldc, "check", "--color=never", (dir / "case").string()};
    job.outputFile = (dir / "output.txt").string();
    job.done = [&, i, dir](const ChildResult& result) {
      const Run& r = runs[i];
      const Verdict v = judge(result);
      if (v.ok) {
        ++exits[fmt::format("exit {}", result.exitCode)];
        fs::remove_all(dir);
        return;
      }
      ++failures;
      const fs::path kept =
          workDir / "failures" /
          fmt::format(
              "{:04}-{}-{}", i, slug(r.source->name),
              r.mutated ? mutationKindName(r.mutation.kind) : "unmutated");
      fs::create_directories(kept.parent_path());
      fs::rename(dir, kept);
      writeFile(kept / "mutation.txt", r.describe() + "\n");
      fmt::print("FAIL: {}\n  {}\n  input kept in {}\n  rerun: {} check {}\n",
                 r.describe(), v.why, (kept / "case").string(), heraldc,
                 (kept / "case").string());
      std::string excerpt = result.output.substr(0, 2000);
      if (!excerpt.empty()) fmt::print("  output:\n{}\n", excerpt);
    };
    pool.start(std::move(job));
  }
  pool.drain();
  const std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;

  std::size_t mutated = 0;
  for (const Run& r : runs) mutated += r.mutated ? 1 : 0;
  std::string exitSummary;
  for (const auto& [what, count] : exits) {
    exitSummary +=
        fmt::format("{}{}: {}", exitSummary.empty() ? "" : ", ", what, count);
  }
  fmt::print(
      "checker_robustness: {} runs ({} cases unmutated, {} "
      "mutations, up to {} per case) in {:.1f} s; {}; {} failure(s)\n",
      runs.size(), cases.size(), mutated, perCase, elapsed.count(), exitSummary,
      failures);
  if (failures == 0) fs::remove_all(workDir);
  return failures == 0 ? 0 : 1;
}
