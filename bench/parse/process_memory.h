// Memory figures of the running process, for the benchmarks.
#pragma once

#include <cstddef>
#include <string_view>

namespace herald::bench {

// Peak resident set size from getrusage (ru_maxrss), in bytes.
[[nodiscard]] std::size_t peakRssFromRusage();

// A `VmXXX:` line of /proc/self/status (of process `pid` when it is not 0)
// in bytes ("VmHWM" is the peak resident set, "VmRSS" the current one); 0
// when it cannot be read.
[[nodiscard]] std::size_t procStatusBytes(std::string_view key, int pid = 0);

}  // namespace herald::bench
