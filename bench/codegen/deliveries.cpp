// herald_bench_codegen_deliveries: deliveries per second of code generated
// by heraldc (source.herald.in, one.herald, eight.herald), measured as
// herald_bench_runtime measures its hand-written fixture: the deterministic
// executor, events emitted by an agent handler in bursts per host call, the
// executor run until idle after each call, and a subscriber handler that
// adds the event's counter to a per-subscription sum (here through the
// host's implementation of the bench.src.Sink capability).
//
//   herald_bench_codegen_deliveries [deliveries] [subscriptions: 1 or 8]
//
// Prints deliveries/s and heap allocations per delivery.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "bench/eight.h"
#include "bench/one.h"
#include "bench/src.h"
#include "heap_counter.hpp"
#include <herald/config.hpp>
#include <herald/deterministic_executor.hpp>
#include <herald/runtime.hpp>

namespace {

using namespace std::chrono;

constexpr std::int64_t kBurst = HERALD_BENCH_BURST;

// One sum per subscription, each on its own cache line as in
// herald_bench_runtime.
struct alignas(64) Slot {
  std::int64_t sum = 0;
};

class Sums final : public bench::src::Sink {
 public:
  explicit Sums(std::size_t slots) : slots_(slots) {}
  void add(std::int64_t slot, std::int64_t n) override {
    slots_[static_cast<std::size_t>(slot)].sum += n;
  }
  std::int64_t total() const {
    std::int64_t t = 0;
    for (const Slot& s : slots_) t += s.sum;
    return t;
  }

 private:
  std::vector<Slot> slots_;
};

herald::RuntimeConfig config() {
  herald::ConfigSources sources;
  sources.environment = std::map<std::string, std::string>{};
  sources.settings = {{"executor.kind", "deterministic"},
                      {"log.level", "error"}};
  return herald::load_config(sources);
}

struct Throughput {
  double deliveries_per_s = 0;
  double allocations_per_delivery = 0;
  std::int64_t sum = 0;
};

Throughput deterministic_throughput(std::size_t subs, std::int64_t deliveries) {
  herald::DeterministicExecutor ex(1);
  Sums sums(subs);
  herald::Runtime rt(config(), ex);
  rt.install(bench::src::context());
  rt.install(subs == 1 ? bench::one::context(sums)
                       : bench::eight::context(sums));
  const std::int64_t events = std::max<std::int64_t>(
      kBurst, deliveries / static_cast<std::int64_t>(subs));
  bench::src::Source::at(rt, "s").burst();  // warm up
  ex.run_until_idle();
  const auto allocs0 = g_allocations.load();
  const auto t0 = steady_clock::now();
  for (std::int64_t done = 0; done < events; done += kBurst) {
    bench::src::Source::at(rt, "s").burst();
    ex.run_until_idle();
  }
  const double secs = duration<double>(steady_clock::now() - t0).count();
  const double total = static_cast<double>(events) * static_cast<double>(subs);
  return {total / secs,
          static_cast<double>(g_allocations.load() - allocs0) / total,
          sums.total()};
}

}  // namespace

// An exception that escapes ends the run with its message, as intended.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  const std::int64_t deliveries = argc > 1 ? std::atoll(argv[1]) : 4'000'000;
  const auto subs =
      static_cast<std::size_t>(argc > 2 ? std::atoll(argv[2]) : 1);
  if (subs != 1 && subs != 8) {
    std::fprintf(stderr,
                 "herald_bench_codegen_deliveries: the program has 1 or 8 "
                 "subscriptions, not %zu\n",
                 subs);
    return 2;
  }
  const Throughput t = deterministic_throughput(subs, deliveries);
  // Every delivery must have run its handler: the sums hold each emitted
  // counter once per subscription.
  const std::int64_t events =
      (std::max<std::int64_t>(kBurst,
                              deliveries / static_cast<std::int64_t>(subs)) +
       kBurst - 1) /
          kBurst * kBurst +
      kBurst;
  const std::int64_t expected =
      static_cast<std::int64_t>(subs) * (events * (events - 1) / 2);
  if (t.sum != expected) {
    std::fprintf(stderr,
                 "herald_bench_codegen_deliveries: the handlers summed %lld, "
                 "not %lld\n",
                 static_cast<long long>(t.sum),
                 static_cast<long long>(expected));
    return 1;
  }
  std::printf("%.2fM deliveries/s, %.2f allocations/delivery\n",
              t.deliveries_per_s / 1e6, t.allocations_per_delivery);
  return 0;
}
