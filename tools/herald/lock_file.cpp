#include "tools/herald/lock_file.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "tools/herald/errors.hpp"
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace herald::tool {
namespace {

// The holder's pid as its lock file says, or "unknown" when the file does
// not hold one (the holder may not have written it yet).
std::string holder_pid(int fd) {
  char buffer[32] = {};
  const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
  std::string text(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
    text.pop_back();
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return "unknown";
  return text;
}

}  // namespace

LockFile::LockFile(const std::string& database_path,
                   const std::string& lock_path) {
  fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw Refusal(fmt::format("cannot open the lock file {}: {}", lock_path,
                              std::strerror(errno)));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string pid = error == EWOULDBLOCK ? holder_pid(fd_) : "";
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK)
      throw Refusal(
          fmt::format("database {} is in use by another process (pid {})",
                      database_path, pid));
    throw Refusal(
        fmt::format("cannot lock {}: {}", lock_path, std::strerror(error)));
  }
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) !=
                                      static_cast<ssize_t>(pid.size())) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    throw Refusal(fmt::format("cannot write the lock file {}: {}", lock_path,
                              std::strerror(error)));
  }
}

LockFile::~LockFile() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace herald::tool
