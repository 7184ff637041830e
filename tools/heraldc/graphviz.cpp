#include "tools/heraldc/graphviz.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace herald::driver {
namespace fs = std::filesystem;
namespace {

bool isExecutableFile(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

// A temporary file that is removed when it goes out of scope.
class TempFile {
 public:
  explicit TempFile(std::string_view suffix) {
    std::error_code ec;
    fs::path dir = fs::temp_directory_path(ec);
    if (ec) dir = "/tmp";
    std::string pattern =
        (dir / fmt::format("heraldc-graph-XXXXXX{}", suffix)).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    int fd = ::mkstemps(buffer.data(), static_cast<int>(suffix.size()));
    if (fd < 0) {
      error_ = std::strerror(errno);
      return;
    }
    ::close(fd);
    path_ = buffer.data();
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (path_.empty()) return;
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  std::string path_;
  std::string error_;
};

}  // namespace

std::optional<std::string> findOnPath(std::string_view program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  std::string_view rest = path;
  while (true) {
    std::size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    // An empty entry means the current directory.
    std::string candidate =
        dir.empty() ? std::string(program) : fmt::format("{}/{}", dir, program);
    if (isExecutableFile(candidate)) return candidate;
    if (colon == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(colon + 1);
  }
}

RenderResult renderWithDot(const std::string& dotPath, std::string_view dot,
                           std::string_view format) {
  RenderResult result;
  TempFile input(".dot");
  TempFile output(fmt::format(".{}", format));
  if (input.path().empty() || output.path().empty()) {
    result.error =
        fmt::format("cannot create a temporary file: {}",
                    input.error().empty() ? output.error() : input.error());
    return result;
  }
  {
    std::ofstream in(input.path(), std::ios::binary | std::ios::trunc);
    in << dot;
    if (!in) {
      result.error =
          fmt::format("cannot write temporary file '{}'", input.path());
      return result;
    }
  }
  std::string type = fmt::format("-T{}", format);
  std::string outFlag = "-o";
  std::vector<char*> argv = {const_cast<char*>(dotPath.c_str()),
                             type.data(),
                             outFlag.data(),
                             const_cast<char*>(output.path().c_str()),
                             const_cast<char*>(input.path().c_str()),
                             nullptr};
  pid_t pid = 0;
  int spawned = ::posix_spawn(&pid, dotPath.c_str(), nullptr, nullptr,
                              argv.data(), environ);
  if (spawned != 0) {
    result.error =
        fmt::format("cannot run '{}': {}", dotPath, std::strerror(spawned));
    return result;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.error = fmt::format("cannot wait for '{}': {}", dotPath,
                                 std::strerror(errno));
      return result;
    }
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    result.error = WIFEXITED(status)
                       ? fmt::format("'{}' failed with exit status {}", dotPath,
                                     WEXITSTATUS(status))
                       : fmt::format("'{}' was stopped by a signal", dotPath);
    return result;
  }
  std::ifstream rendered(output.path(), std::ios::binary);
  std::ostringstream text;
  text << rendered.rdbuf();
  if (!rendered) {
    result.error = fmt::format("cannot read what '{}' wrote", dotPath);
    return result;
  }
  result.output = text.str();
  return result;
}

}  // namespace herald::driver
