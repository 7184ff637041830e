// herald_bench_measure: runs one command as a child and reports what it
// cost, from the kernel's accounting of that child alone (wait4), so
// compilers of different languages are measured the same way.
//
//   herald_bench_measure REPORT COMMAND [ARG...]
//
// The child inherits standard input, output and error. REPORT receives
// `key value` lines: wall_s, user_s, sys_s, cpu_s (user + system), peak_rss
// (bytes) and status (the exit code, or 128 + the signal). The exit code is
// the child's status; 127 if it could not be started.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: herald_bench_measure REPORT COMMAND [ARG...]\n");
    return 2;
  }
  std::FILE* report = std::fopen(argv[1], "w");
  if (report == nullptr) {
    fmt::print(stderr, "herald_bench_measure: cannot write '{}': {}\n", argv[1],
               std::strerror(errno));
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child < 0) {
    fmt::print(stderr, "herald_bench_measure: fork: {}\n",
               std::strerror(errno));
    return 2;
  }
  if (child == 0) {
    execvp(argv[2], argv + 2);
    fmt::print(stderr, "herald_bench_measure: cannot run '{}': {}\n", argv[2],
               std::strerror(errno));
    _exit(127);
  }
  int raw = 0;
  rusage usage{};
  while (wait4(child, &raw, 0, &usage) < 0) {
    if (errno != EINTR) {
      fmt::print(stderr, "herald_bench_measure: wait4: {}\n",
                 std::strerror(errno));
      return 2;
    }
  }
  const std::chrono::duration<double> wall =
      std::chrono::steady_clock::now() - start;
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  const double user = seconds(usage.ru_utime);
  const double sys = seconds(usage.ru_stime);
  // ru_maxrss is in KiB on Linux.
  fmt::print(report,
             "wall_s {:.6f}\nuser_s {:.6f}\nsys_s {:.6f}\ncpu_s {:.6f}\n"
             "peak_rss {}\nstatus {}\n",
             wall.count(), user, sys, user + sys, usage.ru_maxrss * 1024L,
             status);
  std::fclose(report);
  return status;
}
