// A random valid Herald program of several contexts from a seed (see
// README.md): its declarations use every construct of the language
// reference, and seed-chosen mutations vary how the same program is
// written without making it invalid.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace herald::progen {

struct GeneratedFile {
  std::string path;  // relative to the output directory
  std::string text;
};

struct ProgramOptions {
  std::uint64_t seed = 1;
  // The first segment of every context name; programs with different
  // prefixes can be compiled into one translation unit.
  std::string prefix;
};

[[nodiscard]] std::vector<GeneratedFile> generateProgram(
    const ProgramOptions& options);

}  // namespace herald::progen
