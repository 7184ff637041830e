// The names generated files use for their sources: stable whatever the
// current directory or the checkout location, so a build is reproducible.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "frontend/source.h"

namespace herald::driver {

// Per file (indexed by FileId), its path relative to the deepest directory
// that holds every input, `/`-separated. Standard input keeps its name.
[[nodiscard]] std::vector<std::string> displayPaths(
    const SourceManager& sources);

// The longest common leading run of directory components of two absolute,
// normalised paths.
[[nodiscard]] std::filesystem::path commonDirectory(
    const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace herald::driver
