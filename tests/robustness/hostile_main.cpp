// hostile_inputs: `heraldc check` stays within time and memory bounds on
// hostile and extreme inputs.
//
//   hostile_inputs --heraldc PATH --work DIR [--max-bytes B]
//                  [--cpu-limit-ms T] [--rss-limit-mib M] [--timeout-ms K]
//                  [--no-bounds] [--jobs J] [--only NAME]
//
// Generates every input of hostile_inputs.cpp (each at most B bytes, 5 MiB
// by default), runs `heraldc check FILE` on each in a child process and
// requires: it ends by itself (killed after K ms of wall time), by exit with
// status 0 or 1 (0 for the inputs that are valid programs; 1 with exactly
// the expected codes for those valid but for one mistake), without
// "internal error" or a sanitizer report, having used at most T ms of CPU
// time and M MiB of peak resident memory (from wait4). CPU time rather than
// wall time is bounded, so that other processes on the machine do not make
// the test flaky. Under sanitizers the bounds do not hold and --no-bounds
// skips them; everything else is still checked.
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tests/robustness/child.h"
#include "tests/robustness/hostile_inputs.h"

extern char** environ;  // NOLINT(readability-redundant-declaration)

namespace fs = std::filesystem;
using namespace herald::robustness;

namespace {

struct Options {
  std::string heraldc;
  std::string work;
  std::size_t maxBytes = 5U << 20U;
  long cpuLimitMs = 5000;
  long rssLimitMiB = 512;
  long timeoutMs = 60000;
  bool noBounds = false;
  std::size_t jobs = 1;
  std::string only;
};

std::vector<std::string> environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  return env;
}

// Why `r` breaks the rules for `input`, or empty.
std::string judge(const Options& o, const HostileInput& input,
                  const ChildResult& r) {
  static const std::regex sanitizer("SUMMARY: [A-Za-z]*Sanitizer");
  if (!r.spawned) return r.output;
  if (r.timedOut)
    return fmt::format("still running after {} ms (killed)", o.timeoutMs);
  if (r.signal != 0)
    return fmt::format("killed by signal {} ({})", r.signal,
                       strsignal(r.signal));
  if (input.clean ? r.exitCode != 0 : (r.exitCode != 0 && r.exitCode != 1))
    return fmt::format("exit status {} (expected {})", r.exitCode,
                       input.clean ? "0" : "0 or 1");
  if (!input.expect.empty()) {
    static const std::regex code(R"((?:error|warning)\[([EW][0-9]+)\])");
    std::set<std::string> found;
    for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), code);
         it != std::sregex_iterator(); ++it)
      found.insert((*it)[1].str());
    const std::set<std::string> expected(input.expect.begin(),
                                         input.expect.end());
    if (r.exitCode != 1 || found != expected)
      return fmt::format("exit status {} with codes {} (expected 1 with {})",
                         r.exitCode, fmt::join(found, ", "),
                         fmt::join(expected, ", "));
  }
  if (r.output.find("internal error") != std::string::npos)
    return "printed \"internal error\"";
  if (std::regex_search(r.output, sanitizer))
    return "a sanitizer reported an error";
  if (o.noBounds) return {};
  if (r.cpu.count() > o.cpuLimitMs)
    return fmt::format("used {} ms of CPU time (limit {} ms)", r.cpu.count(),
                       o.cpuLimitMs);
  if (r.peakRssKiB > o.rssLimitMiB * 1024)
    return fmt::format("peak memory {} MiB (limit {} MiB)", r.peakRssKiB / 1024,
                       o.rssLimitMiB);
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app("heraldc check on hostile inputs, within bounds");
  app.add_option("--heraldc", o.heraldc, "heraldc to run")->required();
  app.add_option("--work", o.work, "Scratch directory")->required();
  app.add_option("--max-bytes", o.maxBytes, "Largest input");
  app.add_option("--cpu-limit-ms", o.cpuLimitMs, "CPU time bound per run");
  app.add_option("--rss-limit-mib", o.rssLimitMiB, "Peak memory bound");
  app.add_option("--timeout-ms", o.timeoutMs, "Wall time before a kill");
  app.add_flag("--no-bounds", o.noBounds, "Do not check time and memory");
  app.add_option("--jobs", o.jobs, "Runs at a time");
  app.add_option("--only", o.only, "Run only the input of this name");
  CLI11_PARSE(app, argc, argv);

  const fs::path work = fs::absolute(o.work);
  fs::remove_all(work);
  fs::create_directories(work);

  std::vector<HostileInput> inputs = hostileInputs();
  ChildPool pool(o.jobs, std::chrono::milliseconds(o.timeoutMs), environment());
  // The inputs are written before any child starts: a child's peak memory
  // as wait4() reports it includes the parent's peak at spawn time, so the
  // parent never holds more than one input.
  struct Selected {
    const HostileInput* input;
    std::size_t size;
  };
  std::vector<Selected> selected;
  for (const HostileInput& input : inputs) {
    if (!o.only.empty() && input.name != o.only) continue;
    const std::string text = input.make(o.maxBytes);
    std::ofstream out(work / (input.name + ".herald"),
                      std::ios::binary | std::ios::trunc);
    out << text;
    selected.push_back({&input, text.size()});
  }

  std::atomic<int> failures = 0;
  for (const Selected& s : selected) {
    const HostileInput* input = s.input;
    const std::size_t size = s.size;
    const fs::path file = work / (input->name + ".herald");
    pool.start({{o.heraldc, "check", file.string()},
                (work / (input->name + ".out")).string(),
                [&o, input, size, &failures](const ChildResult& r) {
                  const std::string why = judge(o, *input, r);
                  fmt::print(
                      "{:<24} {:>8} bytes  exit {:>2}  {:>6} ms cpu  "
                      "{:>5} MiB  {}\n",
                      input->name, size, r.exitCode, r.cpu.count(),
                      r.peakRssKiB / 1024, why.empty() ? "ok" : "FAIL: " + why);
                  if (!why.empty()) {
                    ++failures;
                    fmt::print("  output begins:\n{}\n",
                               r.output.substr(0, 2000));
                  }
                }});
  }
  pool.drain();
  const std::size_t runs = selected.size();
  fmt::print("{} runs, {} failed{}\n", runs, failures.load(),
             o.noBounds ? " (time and memory not checked)" : "");
  if (runs == 0) {
    fmt::print("no input named '{}'\n", o.only);
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
