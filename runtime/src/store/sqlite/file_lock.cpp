#include "file_lock.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace herald {
namespace {

// The holder's pid as its lock file says, or "unknown" when the file does
// not hold one: the holder may not have written it yet, and whatever else
// the file holds is not a pid to name.
std::string read_holder(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string pid(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!pid.empty() &&
         (pid.back() == '\n' || pid.back() == '\r' || pid.back() == ' '))
    pid.pop_back();
  if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos)
    return "unknown";
  return pid;
}

// Every link resolved, the last one too when it dangles (a database about
// to be created through a link locks beside where it will be), then
// weakly_canonical for the directories.
std::string lock_path_of(const std::string& database_path) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::path real = database_path;
  constexpr int kMaxLinks = 40;  // as the kernel's ELOOP
  for (int hop = 0; hop < kMaxLinks && fs::is_symlink(real, error); ++hop) {
    const fs::path target = fs::read_symlink(real, error);
    if (error) break;
    real = target.is_absolute() ? target : real.parent_path() / target;
  }
  const fs::path canonical = fs::weakly_canonical(real, error);
  return (error ? real : canonical).string() + ".lock";
}

}  // namespace

FileLock::FileLock(const std::string& database_path)
    : path_(lock_path_of(database_path)) {
  const std::string& what = database_path;
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw Error(fmt::format("database {}: cannot open its lock file {}: {}",
                            what, path_, std::strerror(errno)));
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    std::string holder = read_holder(fd_);
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK) {
      throw Error(fmt::format(
          "database {} is in use by another process (pid {})", what, holder));
    }
    throw Error(fmt::format("database {}: cannot lock {}: {}", what, path_,
                            std::strerror(err)));
  }
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) !=
                                      static_cast<ssize_t>(pid.size())) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    throw Error(fmt::format("database {}: cannot write its lock file {}: {}",
                            what, path_, std::strerror(err)));
  }
}

FileLock::~FileLock() {
  // The file stays: unlinking it would let a second process lock a new
  // file while a third still waits on the old one.
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace herald
