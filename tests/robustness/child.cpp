#include "tests/robustness/child.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace herald::robustness {

namespace {

std::vector<char*> cStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ChildPool::ChildPool(std::size_t parallel, std::chrono::milliseconds timeout,
                     std::vector<std::string> environment)
    : parallel_(parallel == 0 ? 1 : parallel),
      timeout_(timeout),
      environment_(std::move(environment)) {}

void ChildPool::start(ChildJob job) {
  while (running_.size() >= parallel_) {
    if (!reap()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO,
                                   job.outputFile.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                   O_RDONLY, 0);

  std::vector<std::string> argv = job.argv;
  std::vector<char*> cArgv = cStrings(argv);
  std::vector<char*> cEnv = cStrings(environment_);
  pid_t pid = 0;
  const int error =
      posix_spawn(&pid, cArgv[0], &actions, nullptr, cArgv.data(), cEnv.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    ChildResult result;
    result.output =
        std::string("cannot start ") + argv[0] + ": " + std::strerror(error);
    job.done(result);
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  running_.push_back({pid, now, now + timeout_, std::move(job)});
}

void ChildPool::drain() {
  while (!running_.empty()) {
    if (!reap()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

bool ChildPool::reap() {
  bool freed = false;
  const auto now = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < running_.size();) {
    Running& r = running_[i];
    int status = 0;
    rusage usage{};
    pid_t ended = wait4(r.pid, &status, WNOHANG, &usage);
    bool timedOut = false;
    if (ended == 0 && now >= r.deadline) {
      kill(r.pid, SIGKILL);
      ended = wait4(r.pid, &status, 0, &usage);
      timedOut = true;
    }
    if (ended == 0 || (ended < 0 && errno == EINTR)) {
      ++i;
      continue;
    }
    if (ended < 0) {
      ChildResult lost;
      lost.output = std::string("waitpid failed: ") + std::strerror(errno);
      r.job.done(lost);
    } else {
      finish(r, status, timedOut, usage);
    }
    running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
    freed = true;
  }
  return freed;
}

void ChildPool::finish(Running& r, int status, bool timedOut,
                       const rusage& usage) {
  ChildResult result;
  result.spawned = true;
  result.timedOut = timedOut;
  result.peakRssKiB = usage.ru_maxrss;  // KiB on Linux
  auto ms = [](const timeval& t) {
    return std::chrono::milliseconds(static_cast<long long>(t.tv_sec) * 1000 +
                                     t.tv_usec / 1000);
  };
  result.cpu = ms(usage.ru_utime) + ms(usage.ru_stime);
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - r.started);
  if (!timedOut) {
    if (WIFSIGNALED(status)) {
      result.signal = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
      result.exitCode = WEXITSTATUS(status);
    }
  }
  result.output = readAll(r.job.outputFile);
  r.job.done(result);
}

}  // namespace herald::robustness
