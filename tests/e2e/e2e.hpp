#pragma once
// End-to-end tests: Herald programs compiled by `heraldc build`, linked with
// the runtime and driven through the generated host API. Each test writes a
// transcript of what a user would check and compares it with the program's
// `expected.txt`; HERALD_UPDATE_GOLDEN=1 rewrites the expectation instead.
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "canonical_ids.hpp"
#include <herald/backend.hpp>
#include <herald/deterministic_executor.hpp>
#include <herald/log.hpp>
#include <herald/runtime.hpp>

namespace herald::e2e {

using Settings = std::map<std::string, std::string>;

inline RuntimeConfig config(std::map<std::string, std::string> settings = {}) {
  settings.emplace("executor.kind", "deterministic");
  settings.emplace("log.level", "warn");
  ConfigSources sources;
  sources.settings = std::move(settings);
  sources.environment = std::map<std::string, std::string>{};
  return load_config(sources);
}

// A runtime on the deterministic executor whose log lines stay in memory,
// over a memory backend that outlives it (a test restarts with a new
// Runtime over `backend`).
struct World {
  explicit World(Settings settings = {}, std::uint64_t seed = 7)
      : executor(seed),
        settings_config(config(std::move(settings))),
        backend(make_memory_backend(
            MemoryBackendOptions{false, settings_config.dedup_window, {}})),
        rt(settings_config, executor, backend, &log) {}
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  std::uint64_t sub_metric(const std::string& subscription,
                           const std::string& counter) {
    return rt.metrics_json()["subscriptions"][subscription][counter]
        .get<std::uint64_t>();
  }
  std::uint64_t type_metric(const std::string& type,
                            const std::string& counter) {
    return rt.metrics_json()["eventTypes"][type][counter].get<std::uint64_t>();
  }

  DeterministicExecutor executor;
  MemoryLogSink log;
  RuntimeConfig settings_config;
  std::shared_ptr<Backend> backend;
  Runtime rt;
};

template <class T>
std::string join(const std::vector<T>& items) {
  return fmt::format("[{}]", fmt::join(items, ", "));
}

using herald::test_support::canonical_ids;

class Transcript {
 public:
  explicit Transcript(std::string program) : program_(std::move(program)) {}
  Transcript(const Transcript&) = delete;
  Transcript& operator=(const Transcript&) = delete;

  template <class... Args>
  void say(fmt::format_string<Args...> format, Args&&... args) {
    text_ += fmt::format(format, std::forward<Args>(args)...);
    text_ += '\n';
  }

  // Compares with tests/e2e/<program>/expected.txt (or rewrites it), ids
  // named by canonical_ids.
  void check() const {
    const std::string text = canonical_ids(text_);
    const std::string path =
        fmt::format("{}/{}/expected.txt", HERALD_E2E_SOURCE_DIR, program_);
    const char* update = std::getenv("HERALD_UPDATE_GOLDEN");
    if (update != nullptr && std::string(update) == "1") {
      std::ofstream(path, std::ios::binary) << text;
      return;
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream expected;
    expected << in.rdbuf();
    INFO("transcript of ", program_, " (", path, "):\n", text);
    CHECK(expected.str() == text);
  }

 private:
  std::string program_;
  std::string text_;
};

// The message of the fault a call raised, or "no fault".
template <class F>
std::string fault_of(F&& call) {
  try {
    call();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no fault";
}

}  // namespace herald::e2e
