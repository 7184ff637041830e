#include "tools/heraldc/inputs.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <system_error>

#include <fmt/format.h>

namespace herald::driver {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kExtension = ".herald";

std::string cannotRead(const std::string& path, const std::string& why) {
  return fmt::format("cannot read '{}': {}", path, why);
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// Reads all of `file`; on failure returns the reason.
std::optional<std::string> readStream(std::FILE* file, std::string& text) {
  char buffer[1 << 16];
  while (true) {
    std::size_t n = std::fread(buffer, 1, sizeof buffer, file);
    text.append(buffer, n);
    // Locations are 32-bit byte offsets.
    if (text.size() >= std::numeric_limits<std::uint32_t>::max())
      return std::string("file is too large (4 GiB or more)");
    if (n < sizeof buffer) break;
  }
  if (std::ferror(file)) {
    int error = errno != 0 ? errno : EIO;
    return std::generic_category().message(error);
  }
  return std::nullopt;
}

std::optional<std::string> readFile(const std::string& path,
                                    std::string& text) {
  errno = 0;
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) return std::generic_category().message(errno);
  return readStream(file.get(), text);
}

class Collector {
 public:
  void addPath(const std::string& path);
  Inputs take() { return std::move(inputs_); }

 private:
  void addDirectory(const std::string& path);
  void addFile(const std::string& name);
  void addStdin();

  Inputs inputs_;
  std::set<fs::path> seen_;
  bool stdinRead_ = false;
};

void Collector::addPath(const std::string& path) {
  if (path == kStdinPath) {
    addStdin();
    return;
  }
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec) {
    inputs_.errors.push_back(cannotRead(path, ec.message()));
    return;
  }
  if (fs::is_directory(status)) {
    addDirectory(path);
  } else {
    addFile(path);
  }
}

void Collector::addDirectory(const std::string& path) {
  std::vector<fs::path> found;
  std::error_code ec;
  // Directory symlinks are not followed, so a link cycle cannot loop.
  fs::recursive_directory_iterator it(path, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::directory_entry& entry = *it;
    std::error_code typeError;
    if (entry.path().extension() == kExtension &&
        entry.is_regular_file(typeError))
      found.push_back(entry.path());
  }
  if (ec) {
    inputs_.errors.push_back(
        fmt::format("cannot read directory '{}': {}", path, ec.message()));
    return;
  }
  if (found.empty()) {
    inputs_.errors.push_back(
        fmt::format("no {} files in directory '{}'", kExtension, path));
    return;
  }
  std::sort(found.begin(), found.end());
  for (const fs::path& file : found) addFile(file.string());
}

void Collector::addFile(const std::string& name) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(name, ec);
  if (ec) canonical = fs::path(name).lexically_normal();
  if (!seen_.insert(canonical).second) return;
  InputFile file{name, {}};
  if (std::optional<std::string> error = readFile(name, file.text)) {
    inputs_.errors.push_back(cannotRead(name, *error));
    return;
  }
  inputs_.files.push_back(std::move(file));
}

void Collector::addStdin() {
  if (stdinRead_) return;
  stdinRead_ = true;
  InputFile file{std::string(kStdinName), {}};
  errno = 0;
  if (std::optional<std::string> error = readStream(stdin, file.text)) {
    inputs_.errors.push_back(cannotRead(file.name, *error));
    return;
  }
  inputs_.files.push_back(std::move(file));
}

}  // namespace

Inputs readInputs(const std::vector<std::string>& paths) {
  Collector collector;
  for (const std::string& path : paths) collector.addPath(path);
  return collector.take();
}

}  // namespace herald::driver
