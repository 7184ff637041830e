// herald_bench_gen: writes a synthetic Herald project of about N lines.
//
//   herald_bench_gen --lines 100000 --out /tmp/p100k [--seed 7]
//                    [--format herald|herald-schema|fbs|proto|capnp]
//                    [--host]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/gen/project.h"

namespace fs = std::filesystem;

// An exception that escapes ends the run with its message, as intended.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  CLI::App app{"Writes a synthetic Herald project for the benchmarks."};
  herald::bench::ProjectOptions options;
  std::string out;
  app.add_option("--lines", options.lines, "Approximate number of lines")
      ->required()
      ->check(CLI::PositiveNumber);
  app.add_option("--out", out, "Directory to write (created; must be empty)")
      ->required();
  app.add_option("--seed", options.seed,
                 "Seed; the same seed gives the same project");
  std::string format = "herald";
  app.add_option("--format", format,
                 "herald: the whole project; herald-schema, fbs, proto, "
                 "capnp: only its types and events, in that language")
      ->check(
          CLI::IsMember({"herald", "herald-schema", "fbs", "proto", "capnp"}));
  app.add_flag("--host", options.host,
               "With herald-schema, fbs or proto: also write host.cpp, a "
               "unit that encodes, decodes and reads every event");
  CLI11_PARSE(app, argc, argv);
  options.format = *herald::bench::parseFormat(format);
  if (options.host && (options.format == herald::bench::Format::Herald ||
                       options.format == herald::bench::Format::Capnp)) {
    fmt::print(stderr,
               "herald_bench_gen: --host needs herald-schema, fbs or proto\n");
    return 2;
  }

  std::error_code ec;
  const fs::path root(out);
  if (fs::exists(root, ec) && !fs::is_empty(root, ec)) {
    fmt::print(stderr, "herald_bench_gen: '{}' exists and is not empty\n", out);
    return 2;
  }

  const auto start = std::chrono::steady_clock::now();
  bool failed = false;
  const herald::bench::FileSink write = [&](const std::string& path,
                                            const std::string& text) {
    const fs::path file = root / path;
    fs::create_directories(file.parent_path(), ec);
    std::ofstream stream(file, std::ios::binary);
    stream.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!stream) {
      fmt::print(stderr, "herald_bench_gen: cannot write '{}'\n",
                 file.string());
      failed = true;
    }
  };
  const herald::bench::ProjectStats stats =
      herald::bench::generateProject(options, write);
  const std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  if (failed) return 2;
  fmt::print(
      "{} lines, {} bytes, {} files, {} contexts, {} aggregates in {:.2f}s\n",
      stats.lines, stats.bytes, stats.files, stats.contexts, stats.entities,
      elapsed.count());
  if (options.format != herald::bench::Format::Herald) {
    fmt::print(
        "schema of the {}-line project: {} records and sums, {} events, {} "
        "fields\n",
        stats.heraldLines, stats.types, stats.events, stats.fields);
  }
  return 0;
}
