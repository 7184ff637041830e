// herald_bench_lsp: responsiveness of `heraldc lsp` on a project, through
// the scripted client of tools/lsp/client.
//
//   herald_bench_lsp --server 'taskset -c 0 heraldc lsp' --project DIR
//                    [--file NAME] [--edits N] [--queries M]
//
// Starts the server (the command, split at spaces), initializes it with DIR
// as the workspace folder, opens one file (the middle one of DIR's sorted
// `*.herald` files unless --file names one) and waits for its diagnostics.
// Then N edits, one at a time, in a cycle of six (a space inserted in a
// body and deleted again, a field with a default added to an event and
// removed, a function with a type error appended and removed): each is a
// full-text `didChange` with a new version, timed from the moment it is
// sent to the `publishDiagnostics` of that file carrying that version (the
// next edit is sent only then, so no change is coalesced with another).
// Then M hover and M definition requests at identifiers spread over the
// file, each timed to its response. Prints `key value` lines: per kind the
// median, p95 and max in milliseconds (wall), the server's CPU time per
// edit (from /proc/PID/stat: what the server spent, whatever else ran on
// its core), and the server's VmHWM and VmRSS at the end.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/lsp/edits.h"
#include "bench/lsp/server_cpu.h"
#include "bench/parse/process_memory.h"
#include "tools/lsp/client/client.h"

namespace {

namespace fs = std::filesystem;
using herald::lsp::client::Client;
using herald::lsp::client::fileUri;
using herald::lsp::client::Json;
using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kWait{120000};

double millisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

std::vector<std::string> split(const std::string& command) {
  std::istringstream in(command);
  return {std::istream_iterator<std::string>(in),
          std::istream_iterator<std::string>()};
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

// The file edited: the one named, else the first from the middle of the
// project's sorted files on that the edit cycle can work (one with a body
// and an event).
fs::path pickFile(const fs::path& project, const std::string& name) {
  if (!name.empty()) return fs::absolute(project / name);
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(project))
    if (entry.path().extension() == ".herald") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path& file = files[(files.size() / 2 + i) % files.size()];
    try {
      herald::bench::EditCycle cycle(readFile(file));
      return fs::absolute(file);
    } catch (const std::runtime_error&) {
      continue;
    }
  }
  throw std::runtime_error("no file of the project has a body and an event");
}

struct Summary {
  double median = 0;
  double p95 = 0;
  double max = 0;
};

Summary summarize(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  auto at = [&](double q) {
    auto i = static_cast<std::size_t>(q * static_cast<double>(values.size()));
    return values[std::min(i, values.size() - 1)];
  };
  std::size_t n = values.size();
  double median =
      n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return {median, at(0.95), values.back()};
}

void print(const std::string& kind, const std::vector<double>& values) {
  Summary s = summarize(values);
  fmt::print(
      "{}_count {}\n{}_median_ms {:.2f}\n{}_p95_ms {:.2f}\n"
      "{}_max_ms {:.2f}\n",
      kind, values.size(), kind, s.median, kind, s.p95, kind, s.max);
}

// Waits for the diagnostics of `uri` at `version`; their count.
std::size_t waitDiagnostics(Client& client, const std::string& uri,
                            int version) {
  std::optional<Json> published = client.waitNotification(
      "textDocument/publishDiagnostics",
      [&](const Json& m) {
        const Json& params = m["params"];
        return params.value("uri", "") == uri &&
               params.value("version", -1) == version;
      },
      kWait);
  if (!published)
    throw std::runtime_error(
        fmt::format("no diagnostics for version {} in time", version));
  return (*published)["params"]["diagnostics"].size();
}

}  // namespace

int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  CLI::App app{"heraldc lsp responsiveness"};
  std::string server;
  std::string project;
  std::string file;
  int edits = 50;
  int queries = 50;
  app.add_option("--server", server, "the server command, split at spaces")
      ->required();
  app.add_option("--project", project, "the workspace folder")->required();
  app.add_option("--file", file, "the file edited, relative to the project");
  app.add_option("--edits", edits, "edits timed")->check(CLI::PositiveNumber);
  app.add_option("--queries", queries, "hover and definition positions")
      ->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);

  try {
    fs::path root = fs::absolute(project);
    fs::path path = pickFile(root, file);
    std::string uri = fileUri(path.string());
    std::string text = readFile(path);
    herald::bench::EditCycle cycle(text);

    Client client(split(server));
    Clock::time_point start = Clock::now();
    client.initialize(root.string(), kWait);
    int version = 1;
    client.notify("textDocument/didOpen", {{"textDocument",
                                            {{"uri", uri},
                                             {"languageId", "herald"},
                                             {"version", version},
                                             {"text", text}}}});
    std::size_t openDiagnostics = waitDiagnostics(client, uri, version);
    double openMs = millisSince(start);

    std::vector<double> editMs;
    std::vector<double> editCpuMs;
    std::size_t diagnosticsSeen = 0;
    for (int i = 0; i < edits; ++i) {
      herald::bench::Edit edit = cycle.next();
      ++version;
      double cpuBefore = herald::bench::serverCpuMs(client.pid());
      Clock::time_point sent = Clock::now();
      client.notify("textDocument/didChange",
                    {{"textDocument", {{"uri", uri}, {"version", version}}},
                     {"contentChanges", {{{"text", edit.text}}}}});
      std::size_t count = waitDiagnostics(client, uri, version);
      editMs.push_back(millisSince(sent));
      editCpuMs.push_back(herald::bench::serverCpuMs(client.pid()) - cpuBefore);
      if ((count != 0) != edit.expectsDiagnostics)
        throw std::runtime_error(fmt::format(
            "edit {} ({}) has {} diagnostics, expected {}", i, edit.kind, count,
            edit.expectsDiagnostics ? "some" : "none"));
      diagnosticsSeen += count;
    }

    std::vector<std::size_t> positions =
        herald::bench::identifierOffsets(cycle.text(), queries);
    std::vector<double> hoverMs;
    std::vector<double> definitionMs;
    std::size_t definitionsFound = 0;
    for (std::size_t offset : positions) {
      Json position = herald::bench::lspPosition(cycle.text(), offset);
      Json params = {{"textDocument", {{"uri", uri}}}, {"position", position}};
      Clock::time_point sent = Clock::now();
      Json hover = client.request("textDocument/hover", params, kWait);
      hoverMs.push_back(millisSince(sent));
      sent = Clock::now();
      Json definition =
          client.request("textDocument/definition", params, kWait);
      definitionMs.push_back(millisSince(sent));
      if (hover.contains("error") || definition.contains("error"))
        throw std::runtime_error("a request failed: " + hover.dump() + " " +
                                 definition.dump());
      if (!definition["result"].is_null()) ++definitionsFound;
    }

    std::size_t hwm = herald::bench::procStatusBytes("VmHWM", client.pid());
    std::size_t rss = herald::bench::procStatusBytes("VmRSS", client.pid());
    (void)client.request("shutdown", nullptr, kWait);
    client.notify("exit", nullptr);
    (void)client.waitExit(kWait);

    fmt::print("file {}\nfile_lines {}\n", path.filename().string(),
               std::count(text.begin(), text.end(), '\n'));
    fmt::print("open_ms {:.2f}\nopen_diagnostics {}\n", openMs,
               openDiagnostics);
    print("diagnostics", editMs);
    print("diagnostics_cpu", editCpuMs);
    fmt::print("diagnostics_published {}\n", diagnosticsSeen);
    print("hover", hoverMs);
    print("definition", definitionMs);
    fmt::print("definitions_found {}\n", definitionsFound);
    fmt::print("server_vmhwm_bytes {}\nserver_vmrss_bytes {}\n", hwm, rss);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "herald_bench_lsp: %s\n", e.what());
    return 1;
  }
  return 0;
}
