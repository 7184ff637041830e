// A benchmark input: every `*.herald` file under a directory, loaded into a
// SourceManager before anything is timed.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string_view>

#include "frontend/source.h"

namespace herald::bench {

struct Project {
  SourceManager sources;
  std::size_t lines = 0;
  std::size_t bytes = 0;
};

// Loads the files in sorted path order, so every run sees them in the same
// order. On failure prints "<tool>: ..." to stderr and returns false.
bool loadProject(const std::filesystem::path& root, Project& project,
                 std::string_view tool);

}  // namespace herald::bench
