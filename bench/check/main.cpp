// herald_bench_check: parse+check throughput and memory on a project.
//
//   herald_bench_check DIR [--repeat R] [--passes]
//
// Loads every `*.herald` under DIR (not timed), then, R times, parses every
// file (ASTs kept alive, as heraldc keeps them) and checks the whole program
// with check::checkProgram, on one thread. Parse and check are timed
// separately within the same run, so the parse-only rate and the
// parse+check rate come from the same process and the same moment of a
// noisy machine. Prints the best wall and thread-CPU times of each phase,
// the rates, and the peak resident memory after parsing and after checking
// (of the first run, before any run's memory was freed and reused). Exits 1
// if the project has any diagnostic, warnings included: the benchmark input
// must check clean, so it never measures error paths.
//
// --passes runs the checker's passes one by one (the sequence of
// check::checkProgram, through the checker's internal sema.h) and adds the
// thread-CPU time of each, and the size of the expression side table, to
// the report: where the checking time goes.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/parse/process_memory.h"
#include "bench/parse/project.h"
#include "checker/checker.h"
#include "checker/sema.h"
#include "frontend/diagnostic.h"
#include "frontend/diagnostic_render.h"
#include "frontend/parser.h"
#include "frontend/source.h"

using herald::bench::peakRssFromRusage;
using herald::bench::procStatusBytes;
using herald::bench::Project;

namespace {

// CPU time of this thread: on a shared machine the wall clock also counts
// the time other processes held the core.
double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) +
         static_cast<double>(ts.tv_nsec) * 1e-9;
}

double wallSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Timing {
  double cpu = std::numeric_limits<double>::infinity();
  double wall = std::numeric_limits<double>::infinity();
};

void row(const char* key, const std::string& value) {
  fmt::print("{:<22} {}\n", key, value);
}

struct PassTime {
  const char* name;
  void (*run)(herald::check::Sema&);
  double cpu = std::numeric_limits<double>::infinity();
};

// The order of check::checkProgram (checker/checker.cpp).
std::vector<PassTime> checkerPasses() {
  namespace c = herald::check;
  return {{"collect", c::collectDeclarations},
          {"consumes", c::resolveConsumes},
          {"signatures", c::resolveSignatures},
          {"decl_rules", c::checkDeclarationRules},
          {"subscriptions", c::checkSubscriptions},
          {"bodies", c::checkBodies},
          {"flow_graph", c::buildFlowGraph}};
}

std::unique_ptr<herald::check::Program> checkByPass(
    llvm::ArrayRef<const herald::ast::File*> files,
    const herald::SourceManager& sources, herald::DiagnosticEngine& diags,
    std::vector<PassTime>& passes) {
  auto program = std::make_unique<herald::check::Program>();
  herald::check::Sema sema{*program, diags, sources, files};
  for (PassTime& pass : passes) {
    const double start = threadCpuSeconds();
    pass.run(sema);
    pass.cpu = std::min(pass.cpu, threadCpuSeconds() - start);
  }
  return program;
}

}  // namespace

// An exception that escapes ends the run with its message, as intended.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  CLI::App app{"Measures parse+check throughput and peak memory."};
  std::string dir;
  int repeat = 1;
  bool byPass = false;
  app.add_option("DIR", dir, "Project directory (searched for *.herald)")
      ->required();
  app.add_option("--repeat", repeat, "Timed runs; the best is reported")
      ->check(CLI::Range(1, 1000));
  app.add_flag("--passes", byPass, "Also time each checker pass");
  CLI11_PARSE(app, argc, argv);

  Project project;
  if (!herald::bench::loadProject(dir, project, "herald_bench_check")) return 2;
  if (project.sources.size() == 0) {
    fmt::print(stderr, "herald_bench_check: no .herald files under '{}'\n",
               dir);
    return 2;
  }
  const std::size_t rssLoaded = procStatusBytes("VmRSS");

  Timing parse;
  Timing check;
  Timing total;
  std::size_t peakParsed = 0;
  std::size_t peakChecked = 0;
  std::size_t rssParsed = 0;
  std::size_t rssChecked = 0;
  herald::DiagnosticEngine diags;
  std::vector<PassTime> passes = checkerPasses();
  std::size_t exprs = 0;
  std::size_t exprTableBytes = 0;
  for (int run = 0; run < repeat; ++run) {
    herald::DiagnosticEngine runDiags;
    std::vector<herald::ParseResult> results;
    results.reserve(project.sources.size());
    std::vector<const herald::ast::File*> files;
    files.reserve(project.sources.size());

    const double cpu0 = threadCpuSeconds();
    const double wall0 = wallSeconds();
    for (std::size_t i = 0; i < project.sources.size(); ++i) {
      results.push_back(herald::parse(
          project.sources.file(static_cast<herald::FileId>(i)), runDiags));
      files.push_back(results.back().file);
    }
    const double cpu1 = threadCpuSeconds();
    const double wall1 = wallSeconds();
    if (run == 0) {
      peakParsed = std::max(peakRssFromRusage(), procStatusBytes("VmHWM"));
      rssParsed = procStatusBytes("VmRSS");
    }
    const double cpu2 = threadCpuSeconds();
    const double wall2 = wallSeconds();
    std::unique_ptr<herald::check::Program> program =
        byPass ? checkByPass(files, project.sources, runDiags, passes)
               : herald::check::checkProgram(files, project.sources, runDiags);
    const double cpu3 = threadCpuSeconds();
    const double wall3 = wallSeconds();
    if (run == 0) {
      peakChecked = std::max(peakRssFromRusage(), procStatusBytes("VmHWM"));
      rssChecked = procStatusBytes("VmRSS");
    }

    parse.cpu = std::min(parse.cpu, cpu1 - cpu0);
    parse.wall = std::min(parse.wall, wall1 - wall0);
    check.cpu = std::min(check.cpu, cpu3 - cpu2);
    check.wall = std::min(check.wall, wall3 - wall2);
    total.cpu = std::min(total.cpu, (cpu1 - cpu0) + (cpu3 - cpu2));
    total.wall = std::min(total.wall, (wall1 - wall0) + (wall3 - wall2));
    exprs = program->bodies.size();
    exprTableBytes = program->bodies.bytes();
    if (run + 1 == repeat) diags = std::move(runDiags);
  }

  const double lines = static_cast<double>(project.lines);
  auto rate = [&](double seconds) {
    return fmt::format("{:.0f}", lines / seconds);
  };
  row("files", std::to_string(project.sources.size()));
  row("lines", std::to_string(project.lines));
  row("bytes", std::to_string(project.bytes));
  row("runs", std::to_string(repeat));
  row("parse_cpu_seconds", fmt::format("{:.6f}", parse.cpu));
  row("check_cpu_seconds", fmt::format("{:.6f}", check.cpu));
  row("total_cpu_seconds", fmt::format("{:.6f}", total.cpu));
  row("total_seconds", fmt::format("{:.6f}", total.wall));
  row("parse_lines_per_s", rate(parse.cpu));
  row("check_lines_per_s", rate(check.cpu));
  row("total_lines_per_s", rate(total.cpu));
  row("total_wall_lines_per_s", rate(total.wall));
  row("total_ns_per_line", fmt::format("{:.1f}", total.cpu * 1e9 / lines));
  row("check_ns_per_line", fmt::format("{:.1f}", check.cpu * 1e9 / lines));
  row("total_over_parse", fmt::format("{:.2f}", total.cpu / parse.cpu));
  row("rss_loaded", std::to_string(rssLoaded));
  row("rss_parsed", std::to_string(rssParsed));
  row("rss_checked", std::to_string(rssChecked));
  row("check_rss_per_line",
      fmt::format("{:.1f}", static_cast<double>(
                                rssChecked - std::min(rssChecked, rssParsed)) /
                                lines));
  row("peak_parsed", std::to_string(peakParsed));
  row("peak_checked", std::to_string(peakChecked));
  row("peak_per_line",
      fmt::format("{:.1f}", static_cast<double>(peakChecked) / lines));
  row("exprs", std::to_string(exprs));
  row("expr_table_bytes", std::to_string(exprTableBytes));
  if (byPass) {
    for (const PassTime& pass : passes) {
      row(fmt::format("pass_{}_cpu", pass.name).c_str(),
          fmt::format("{:.6f}", pass.cpu));
    }
  }
  row("diagnostics", std::to_string(diags.diagnostics().size()));

  if (!diags.diagnostics().empty()) {
    diags.finalize();
    std::vector<herald::Diagnostic> shown = diags.diagnostics();
    if (shown.size() > 20) shown.resize(20);
    fmt::print(stderr, "{}", herald::renderText(project.sources, shown));
    fmt::print(stderr,
               "herald_bench_check: {} diagnostic(s); the input must check "
               "clean\n",
               diags.diagnostics().size());
    return 1;
  }
  return 0;
}
