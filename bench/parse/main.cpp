// herald_bench_parse: front-end throughput and memory on a project.
//
//   herald_bench_parse DIR [--mode lex|parse] [--repeat R]
//
// Loads every `*.herald` under DIR (not timed), then lexes (a Lexer::next
// loop, tokens dropped) or lexes and parses (full ASTs, all kept alive until
// the end as a compiler keeps them) every file on one thread, R times, and
// prints the best wall and thread-CPU times (MB/s and ns/line use CPU time)
// with the memory figures. Exits 1 if any file has a lexical or syntax
// error: the benchmark inputs must be clean.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/parse/process_memory.h"
#include "bench/parse/project.h"
#include "frontend/diagnostic.h"
#include "frontend/diagnostic_render.h"
#include "frontend/lexer.h"
#include "frontend/parser.h"
#include "frontend/source.h"

using herald::bench::peakRssFromRusage;
using herald::bench::procStatusBytes;
using herald::bench::Project;

namespace {

std::size_t lexAllFiles(const Project& project,
                        herald::DiagnosticEngine& diags) {
  std::size_t tokens = 0;
  for (std::size_t i = 0; i < project.sources.size(); ++i) {
    herald::Lexer lexer(project.sources.file(static_cast<herald::FileId>(i)),
                        diags);
    while (lexer.next().kind != herald::TokenKind::EndOfFile) ++tokens;
  }
  return tokens;
}

void parseAllFiles(const Project& project, herald::DiagnosticEngine& diags,
                   std::vector<herald::ParseResult>& results) {
  for (std::size_t i = 0; i < project.sources.size(); ++i) {
    results.push_back(herald::parse(
        project.sources.file(static_cast<herald::FileId>(i)), diags));
  }
}

// CPU time of this thread: on a shared machine the wall clock also counts
// the time other processes held the core.
double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) +
         static_cast<double>(ts.tv_nsec) * 1e-9;
}

void row(const char* key, const std::string& value) {
  fmt::print("{:<16} {}\n", key, value);
}

}  // namespace

// An exception that escapes ends the run with its message, as intended.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  CLI::App app{"Measures lexing and parsing throughput and peak memory."};
  std::string dir;
  std::string mode = "parse";
  int repeat = 1;
  app.add_option("DIR", dir, "Project directory (searched for *.herald)")
      ->required();
  app.add_option("--mode", mode, "lex: lexer only; parse: lexer, parser, AST")
      ->check(CLI::IsMember({"lex", "parse"}));
  app.add_option("--repeat", repeat, "Timed runs; the best is reported")
      ->check(CLI::Range(1, 1000));
  CLI11_PARSE(app, argc, argv);

  Project project;
  if (!herald::bench::loadProject(dir, project, "herald_bench_parse")) return 2;
  if (project.sources.size() == 0) {
    fmt::print(stderr, "herald_bench_parse: no .herald files under '{}'\n",
               dir);
    return 2;
  }
  const std::size_t rssLoaded = procStatusBytes("VmRSS");

  double best = std::numeric_limits<double>::infinity();
  double bestCpu = std::numeric_limits<double>::infinity();
  std::size_t tokens = 0;
  std::size_t arenaBytes = 0;
  std::size_t errors = 0;
  herald::DiagnosticEngine diags;
  std::vector<herald::ParseResult> results;
  results.reserve(project.sources.size());
  for (int run = 0; run < repeat; ++run) {
    // Only the last run's ASTs stay alive, so the peak is one project's.
    results.clear();
    herald::DiagnosticEngine runDiags;
    const double cpuStart = threadCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    if (mode == "lex") {
      tokens = lexAllFiles(project, runDiags);
    } else {
      parseAllFiles(project, runDiags, results);
    }
    const std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    bestCpu = std::min(bestCpu, threadCpuSeconds() - cpuStart);
    best = std::min(best, elapsed.count());
    errors = runDiags.errorCount();
    if (run + 1 == repeat) diags = std::move(runDiags);
  }
  for (const herald::ParseResult& r : results)
    arenaBytes += r.arena->bytesAllocated();

  const std::size_t peakRss = peakRssFromRusage();
  const std::size_t hwm = procStatusBytes("VmHWM");
  const double lines = static_cast<double>(project.lines);
  row("mode", mode);
  row("files", std::to_string(project.sources.size()));
  row("lines", std::to_string(project.lines));
  row("bytes", std::to_string(project.bytes));
  if (mode == "lex") row("tokens", std::to_string(tokens));
  row("runs", std::to_string(repeat));
  row("seconds", fmt::format("{:.6f}", best));
  row("cpu_seconds", fmt::format("{:.6f}", bestCpu));
  row("lines_per_s", fmt::format("{:.0f}", lines / best));
  row("cpu_lines_per_s", fmt::format("{:.0f}", lines / bestCpu));
  row("mb_per_s", fmt::format("{:.1f}", static_cast<double>(project.bytes) /
                                            bestCpu / 1e6));
  row("ns_per_line", fmt::format("{:.1f}", bestCpu * 1e9 / lines));
  if (mode == "parse") {
    row("arena_bytes", std::to_string(arenaBytes));
    row("arena_per_line",
        fmt::format("{:.1f}", static_cast<double>(arenaBytes) / lines));
  }
  row("rss_loaded", std::to_string(rssLoaded));
  row("peak_rss", std::to_string(peakRss));
  row("vm_hwm", std::to_string(hwm));
  row("peak_per_line",
      fmt::format("{:.1f}",
                  static_cast<double>(std::max(peakRss, hwm)) / lines));
  row("errors", std::to_string(errors));

  if (errors != 0) {
    diags.finalize();
    std::vector<herald::Diagnostic> shown = diags.diagnostics();
    if (shown.size() > 20) shown.resize(20);
    fmt::print(stderr, "{}", herald::renderText(project.sources, shown));
    fmt::print(stderr,
               "herald_bench_parse: {} error(s); the input must be clean\n",
               errors);
    return 1;
  }
  return 0;
}
