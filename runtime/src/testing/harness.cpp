// Harness: a deterministic executor, a runtime over it logging to a
// LogCapture, and an EventRecorder.
#include <utility>

#include "herald/testing.hpp"

namespace herald::testing {

Harness::Harness() : Harness(Options{}) {}

Harness::Harness(Options options) : executor_(options.seed) {
  // The defaults, not the caller's HERALD_* variables: a test's run must
  // not depend on the shell it is started from.
  RuntimeConfig config =
      options.config
          ? std::move(*options.config)
          : load_config({.environment = std::map<std::string, std::string>{}});
  runtime_ = std::make_unique<Runtime>(std::move(config), executor_,
                                       std::move(options.backend), &logs_);
}

Harness::~Harness() = default;

std::vector<LogLine> Harness::faults() const {
  std::vector<LogLine> out;
  for (LogLine& line : logs_.lines())
    if (is_fault_event(line.event)) out.push_back(std::move(line));
  return out;
}

std::vector<DeadMessage> Harness::dead_messages() {
  return runtime_->dead_messages();
}

}  // namespace herald::testing
