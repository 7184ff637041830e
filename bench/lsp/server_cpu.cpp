#include "bench/lsp/server_cpu.h"

#include <ctime>
#include <stdexcept>
#include <string>

namespace herald::bench {

double serverCpuMs(pid_t pid) {
  clockid_t clock{};
  timespec now{};
  if (::clock_getcpuclockid(pid, &clock) != 0 ||
      ::clock_gettime(clock, &now) != 0)
    throw std::runtime_error("cannot read the CPU time of process " +
                             std::to_string(pid));
  return static_cast<double>(now.tv_sec) * 1e3 +
         static_cast<double>(now.tv_nsec) * 1e-6;
}

}  // namespace herald::bench
