#include "bench/parse/process_memory.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include <sys/resource.h>

namespace herald::bench {

std::size_t peakRssFromRusage() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  // Linux reports kilobytes.
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;
}

std::size_t procStatusBytes(std::string_view key, int pid) {
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> status(std::fopen(
      pid == 0 ? "/proc/self/status"
               : ("/proc/" + std::to_string(pid) + "/status").c_str(),
      "r"));
  if (!status) return 0;
  char line[256];
  while (std::fgets(line, sizeof line, status.get()) != nullptr) {
    const std::string_view text(line);
    if (text.size() > key.size() && text.substr(0, key.size()) == key &&
        text[key.size()] == ':') {
      // "VmHWM:	   12345 kB"
      const unsigned long long kb =
          std::strtoull(line + key.size() + 1, nullptr, 10);
      return static_cast<std::size_t>(kb) * 1024;
    }
  }
  return 0;
}

}  // namespace herald::bench
