#include "tools/heraldc/display_paths.h"

#include <filesystem>
#include <optional>
#include <system_error>

#include "tools/heraldc/inputs.h"

namespace herald::driver {
namespace fs = std::filesystem;
namespace {

// Absolute and normalised, but symlinks are not resolved: a name the user
// reached through a link stays the name they see.
fs::path absolutePath(const std::string& name) {
  std::error_code ec;
  fs::path absolute = fs::absolute(name, ec);
  if (ec) absolute = fs::path(name);
  return absolute.lexically_normal();
}

}  // namespace

fs::path commonDirectory(const fs::path& a, const fs::path& b) {
  fs::path common;
  auto i = a.begin();
  auto j = b.begin();
  for (; i != a.end() && j != b.end() && *i == *j; ++i, ++j) common /= *i;
  return common;
}

std::vector<std::string> displayPaths(const SourceManager& sources) {
  std::vector<fs::path> absolute(sources.size());
  std::optional<fs::path> root;
  for (FileId id = 0; id < sources.size(); ++id) {
    const std::string& name = sources.file(id).name();
    if (name == kStdinName) continue;
    absolute[id] = absolutePath(name);
    fs::path directory = absolute[id].parent_path();
    root = root ? commonDirectory(*root, directory) : directory;
  }
  std::vector<std::string> paths(sources.size());
  for (FileId id = 0; id < sources.size(); ++id) {
    const std::string& name = sources.file(id).name();
    paths[id] = name == kStdinName
                    ? name
                    : absolute[id].lexically_relative(*root).generic_string();
  }
  return paths;
}

}  // namespace herald::driver
