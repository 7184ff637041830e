// Generates a whole project: the core context, then domain contexts until
// the line budget is used, written one file at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "bench/gen/idl.h"

namespace herald::bench {

struct ProjectOptions {
  std::size_t lines =
      10'000;  // approximate size; the last aggregate may overshoot
  std::uint64_t seed = 1;
  // Anything but Herald writes only the schema part of the project that
  // Herald would have written with the same lines and seed.
  Format format = Format::Herald;
  // With herald-schema, fbs or proto: also `host.cpp` (bench/gen/host.h),
  // not counted in the statistics.
  bool host = false;
};

struct ProjectStats {
  std::size_t files = 0;
  std::size_t contexts = 0;
  std::size_t entities = 0;
  std::size_t lines = 0;
  std::size_t bytes = 0;
  std::size_t heraldLines = 0;  // of the full project the schema is from
  std::size_t types = 0;        // records and sums
  std::size_t events = 0;
  std::size_t fields = 0;  // of records, variants and events
};

// `write(relativePath, text)` receives every file; paths use '/'.
using FileSink =
    std::function<void(const std::string& path, const std::string& text)>;

ProjectStats generateProject(const ProjectOptions& options,
                             const FileSink& write);

}  // namespace herald::bench
