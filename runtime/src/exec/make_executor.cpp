#include "herald/config.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/executor.hpp"
#include "herald/threaded_executor.hpp"

namespace herald {

std::unique_ptr<Executor> make_executor(const RuntimeConfig& config) {
  // load_config admits exactly these two kinds.
  if (config.executor_kind == "deterministic") {
    return std::make_unique<DeterministicExecutor>(static_cast<std::uint64_t>(config.executor_seed));
  }
  return std::make_unique<ThreadedExecutor>(static_cast<unsigned>(config.executor_threads));
}

}  // namespace herald
