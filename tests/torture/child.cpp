#include "child.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace torture {

Child::Child(const std::vector<std::string>& args) {
  int out[2];
  int in[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (pipe2(in, O_CLOEXEC) != 0) {
    close(out[0]);
    close(out[1]);
    throw std::runtime_error("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int rc =
      posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  close(in[0]);
  if (rc != 0) {
    close(out[0]);
    close(in[1]);
    throw std::runtime_error(fmt::format("cannot start {}", args[0]));
  }
  out_fd_ = out[0];
  in_ = in[1];
}

Child::~Child() {
  if (!reaped_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    waitpid(pid_, &status_, 0);
  }
  if (out_fd_ >= 0) close(out_fd_);
  if (in_ >= 0) close(in_);
}

bool Child::pump(std::chrono::milliseconds timeout) {
  if (out_fd_ < 0) return false;
  pollfd p{out_fd_, POLLIN, 0};
  const int ready = poll(&p, 1, static_cast<int>(timeout.count()));
  if (ready <= 0) return true;  // nothing yet
  char buf[8192];
  const ssize_t n = read(out_fd_, buf, sizeof buf);
  if (n <= 0) {
    close(out_fd_);
    out_fd_ = -1;
    return false;
  }
  out_.append(buf, static_cast<std::size_t>(n));
  return true;
}

bool Child::await_line(const std::string& tag,
                       std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (!lines(tag).empty()) return true;
    if (!pump(std::chrono::milliseconds(20))) return !lines(tag).empty();
  }
  return !lines(tag).empty();
}

void Child::release() {
  if (in_ < 0) return;
  const char byte = 'g';
  (void)!write(in_, &byte, 1);
  close(in_);
  in_ = -1;
}

void Child::kill_now() {
  if (!reaped_) ::kill(pid_, SIGKILL);
}

bool Child::wait(std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  bool in_time = true;
  while (pump(std::chrono::milliseconds(20))) {
    if (std::chrono::steady_clock::now() >= end) {
      ::kill(pid_, SIGKILL);
      in_time = false;
      while (pump(std::chrono::milliseconds(20))) {
      }
      break;
    }
  }
  waitpid(pid_, &status_, 0);
  reaped_ = true;
  return in_time;
}

bool Child::killed_by_signal() const {
  return WIFSIGNALED(status_) && WTERMSIG(status_) == SIGKILL;
}

bool Child::exited(int code) const {
  return WIFEXITED(status_) && WEXITSTATUS(status_) == code;
}

std::string Child::status_text() const {
  if (WIFEXITED(status_)) return fmt::format("exit {}", WEXITSTATUS(status_));
  if (WIFSIGNALED(status_)) return fmt::format("signal {}", WTERMSIG(status_));
  return fmt::format("status {}", status_);
}

std::vector<std::string> Child::lines(const std::string& tag) const {
  std::vector<std::string> found;
  std::size_t at = 0;
  while (at < out_.size()) {
    const std::size_t end = out_.find('\n', at);
    if (end == std::string::npos) break;  // a line cut by a kill
    if (out_.compare(at, tag.size() + 1, tag + " ") == 0)
      found.push_back(
          out_.substr(at + tag.size() + 1, end - at - tag.size() - 1));
    at = end + 1;
  }
  return found;
}

}  // namespace torture
