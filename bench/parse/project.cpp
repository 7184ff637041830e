#include "bench/parse/project.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

namespace herald::bench {

namespace fs = std::filesystem;

bool loadProject(const fs::path& root, Project& project,
                 std::string_view tool) {
  std::vector<fs::path> paths;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".herald") {
      paths.push_back(it->path());
    }
  }
  if (ec) {
    fmt::print(stderr, "{}: cannot list '{}': {}\n", tool, root.string(),
               ec.message());
    return false;
  }
  std::sort(paths.begin(), paths.end());
  for (const fs::path& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
      fmt::print(stderr, "{}: cannot read '{}'\n", tool, path.string());
      return false;
    }
    std::string content = text.str();
    project.bytes += content.size();
    project.lines += static_cast<std::size_t>(
        std::count(content.begin(), content.end(), '\n'));
    if (!content.empty() && content.back() != '\n') ++project.lines;
    project.sources.addFile(path.string(), std::move(content));
  }
  return true;
}

}  // namespace herald::bench
