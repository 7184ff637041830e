// Runs programs as child processes (posix_spawn, no shell), several at a
// time, each with a deadline after which it is killed.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/types.h>

namespace herald::robustness {

struct ChildResult {
  bool spawned = false;
  bool timedOut = false;
  int signal = 0;      // the signal that ended it, 0 if it exited
  int exitCode = -1;   // valid when signal == 0 and !timedOut
  std::string output;  // stdout and stderr, interleaved
  // From wait4(): the child's peak resident set and CPU time (user and
  // system), and the wall time from spawn to reaping (at most a poll
  // interval late).
  long peakRssKiB = 0;
  std::chrono::milliseconds cpu{0};
  std::chrono::milliseconds elapsed{0};
};

struct ChildJob {
  std::vector<std::string> argv;
  std::string outputFile;  // where the child's stdout and stderr go
  // Called once the child has ended (or could not start).
  std::function<void(const ChildResult&)> done;
};

class ChildPool {
 public:
  ChildPool(std::size_t parallel, std::chrono::milliseconds timeout,
            std::vector<std::string> environment);

  // Starts `job`, first waiting for a free slot if all are busy.
  void start(ChildJob job);
  // Waits until every started child has ended.
  void drain();

 private:
  struct Running {
    pid_t pid;
    std::chrono::steady_clock::time_point started;
    std::chrono::steady_clock::time_point deadline;
    ChildJob job;
  };

  // Reaps children that have ended and kills those past their deadline;
  // returns whether any slot was freed.
  bool reap();
  void finish(Running& r, int status, bool timedOut, const rusage& usage);

  std::size_t parallel_;
  std::chrono::milliseconds timeout_;
  std::vector<std::string> environment_;
  std::vector<Running> running_;
};

}  // namespace herald::robustness
