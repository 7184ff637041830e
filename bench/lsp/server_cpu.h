// The CPU time a process has used: what the language server spent on a
// request, whatever else ran on its core.
#pragma once

#include <sys/types.h>

namespace herald::bench {

// User plus system time of process `pid` so far, in milliseconds (its
// CPU-time clock, clock_getcpuclockid); throws when it cannot be read.
[[nodiscard]] double serverCpuMs(pid_t pid);

}  // namespace herald::bench
