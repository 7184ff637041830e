// The host of desk.herald and work.herald on the sqlite backend, for the
// end-to-end test of `herald` over a database a real program wrote.
//
//   herald_tool_e2e_program DB JOBS open|closed
//
// recovers (applying what the operator marked: re-drives, replays), submits
// JOBS jobs, runs until nothing is left (retries included) and prints one JSON
// line: each tally's count and sum, the dead letters left, and the deliveries
// dedup absorbed.
#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ops/desk.h"
#include "ops/work.h"
#include <herald/config.hpp>
#include <herald/deterministic_executor.hpp>
#include <herald/runtime.hpp>

namespace {

class HostGate final : public ops::work::Gate {
 public:
  explicit HostGate(bool open) : open_(open) {}
  bool open() override { return open_; }

 private:
  bool open_;
};

herald::RuntimeConfig config(const std::string& db) {
  herald::ConfigSources sources;
  sources.environment = std::map<std::string, std::string>{};
  sources.settings = {
      {"backend.kind", "sqlite"}, {"backend.sqlite.path", db},
      {"retry.base", "1ms"},      {"retry.cap", "1ms"},
      {"retry.jitter", "0"},      {"retry.max_attempts", "2"},
      {"log.level", "off"},
  };
  return herald::load_config(sources);
}

nlohmann::json tally(herald::Runtime& rt, const std::string& key) {
  std::istringstream in(ops::work::Tally::at(rt, key).report());
  std::int64_t count = 0;
  std::int64_t sum = 0;
  if (!(in >> count >> sum))
    throw std::runtime_error("unreadable report of tally " + key);
  return {{"count", count}, {"sum", sum}};
}

int run(const std::string& db, int jobs, bool open) {
  herald::DeterministicExecutor executor(7);
  herald::Runtime rt(config(db), executor, nullptr, nullptr);
  HostGate gate(open);
  rt.install({ops::desk::context(), ops::work::context(gate)});
  rt.recover();
  for (int i = 0; i < jobs; ++i) ops::desk::Desk::at(rt, "front").submit();
  // Runs the retries too (virtual time jumps to each).
  executor.run_all();
  std::int64_t deduplicated = 0;
  // Held in a variable: a range-for over a member of the temporary would
  // outlive it.
  const nlohmann::json metrics = rt.metrics_json();
  for (const auto& [name, m] : metrics.at("subscriptions").items())
    deduplicated += m.at("deduplicated").get<std::int64_t>();
  fmt::print("{}\n",
             nlohmann::json{{"worker", tally(rt, "worker")},
                            {"counter", tally(rt, "counter")},
                            {"dead_letters", rt.dead_letters().size()},
                            {"deduplicated", deduplicated},
                            {"recovered", rt.recovery().deliveries_redriven},
                            {"redrives", rt.recovery().redrives_resumed}}
                 .dump());
  rt.shutdown();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string gate = argc == 4 ? argv[3] : "";
  if (gate != "open" && gate != "closed") {
    fmt::print(stderr, "usage: {} DB JOBS open|closed\n", argv[0]);
    return 2;
  }
  try {
    return run(argv[1], std::stoi(argv[2]), gate == "open");
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}\n", argv[0], e.what());
    return 1;
  }
}
