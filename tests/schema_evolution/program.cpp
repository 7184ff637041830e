// The host side of one build of the evolving program (v1/ or v2/, chosen
// by the include directory CMake gives): runs it on a sqlite database that
// outlives the process, new subscriptions starting from the oldest event.
//
//   program place DB ORDER CENTS...   places each order (Shop.place), drains
//   program log DB KEY                recovers, drains, prints Log KEY's
//                                     entries one per line, sorted
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "evo/orders.h"
#include <herald/config.hpp>
#include <herald/deterministic_executor.hpp>
#include <herald/runtime.hpp>

namespace {

herald::RuntimeConfig config(const std::string& db) {
  herald::ConfigSources sources;
  sources.environment = std::map<std::string, std::string>{};
  sources.settings = {
      {"backend.kind", "sqlite"},
      {"backend.sqlite.path", db},
      {"subscriptions.start", "oldest"},
      {"log.level", "off"},
  };
  return herald::load_config(sources);
}

struct Program {
  explicit Program(const std::string& db)
      : executor(1), rt(config(db), executor, nullptr, nullptr) {
    rt.install({evo::orders::context()});
    rt.recover();
  }
  herald::DeterministicExecutor executor;
  herald::Runtime rt;
};

int usage() {
  std::fputs("usage: program place DB ORDER CENTS... | program log DB KEY\n",
             stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return usage();
  const std::string command = argv[1];
  Program p(argv[2]);
  if (command == "place" && argc % 2 == 1) {
    for (int i = 3; i + 1 < argc; i += 2)
      evo::orders::Shop::at(p.rt, "shop")
          .place(argv[i], std::stoll(argv[i + 1]));
    p.executor.drain();
  } else if (command == "log" && argc == 4) {
    p.executor.drain();
    const std::string text = evo::orders::Log::at(p.rt, argv[3]).read();
    std::vector<std::string> entries;
    for (std::size_t at = 0, semi;
         (semi = text.find(';', at)) != std::string::npos; at = semi + 1)
      entries.push_back(text.substr(at, semi - at));
    std::sort(entries.begin(), entries.end());
    for (const std::string& entry : entries) std::printf("%s\n", entry.c_str());
  } else {
    return usage();
  }
  p.rt.shutdown();
  return 0;
}
