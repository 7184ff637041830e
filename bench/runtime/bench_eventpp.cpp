// The shape of `herald_bench_runtime N S` (deterministic executor, one
// thread) with eventpp (github.com/wqking/eventpp, header-only, not part of
// this repository): N deliveries of the same event to S subscriptions whose
// handlers add the event's counter to a per-subscription sum, events
// enqueued in bursts of 256 and then processed. Prints one line per eventpp
// class: deliveries per second and nanoseconds per delivery.
//
// `EventQueue` is what Herald's memory backend is compared with (events are
// queued, then delivered); `EventDispatcher` calls the listeners at once and
// is printed for reference. Both use eventpp's default policies (thread-safe
// queue and listener lists). Built only when HERALD_EVENTPP_DIR names an
// eventpp checkout; bench/runtime/compare.sh builds and runs both.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <eventpp/eventdispatcher.h>
#include <eventpp/eventqueue.h>

namespace {

using namespace std::chrono;

struct Tick {
  std::int64_t n = 0;
  std::int64_t emitted_ns = 0;
};

struct alignas(64) Sink {
  std::int64_t sum = 0;
};

constexpr int kTick = 1;
constexpr std::int64_t kBurst = 256;

std::int64_t steady_ns() {
  return duration_cast<nanoseconds>(steady_clock::now().time_since_epoch())
      .count();
}

std::int64_t events_for(std::int64_t deliveries, std::size_t subs) {
  return std::max<std::int64_t>(kBurst,
                                deliveries / static_cast<std::int64_t>(subs));
}

double report(const char* name, std::int64_t events, std::size_t subs,
              double secs, const std::vector<Sink>& sinks) {
  const double total = static_cast<double>(events) * static_cast<double>(subs);
  std::int64_t check = 0;
  for (const Sink& s : sinks) check += s.sum;
  std::printf("%s: %.2fM deliveries/s, %.2f ns per delivery (checksum %lld)\n",
              name, total / secs / 1e6, secs * 1e9 / total,
              static_cast<long long>(check));
  return secs * 1e9 / total;
}

void queue_throughput(std::int64_t deliveries, std::size_t subs) {
  std::vector<Sink> sinks(subs);
  eventpp::EventQueue<int, void(const Tick&)> queue;
  for (Sink& s : sinks)
    queue.appendListener(kTick, [&s](const Tick& t) { s.sum += t.n; });
  const std::int64_t events = events_for(deliveries, subs);
  auto burst = [&](std::int64_t first) {
    const std::int64_t now = steady_ns();
    for (std::int64_t i = 0; i < kBurst; ++i)
      queue.enqueue(kTick, Tick{first + i, now});
    queue.process();
  };
  burst(0);  // warm up, as the Herald bench does
  for (Sink& s : sinks) s.sum = 0;
  const auto t0 = steady_clock::now();
  for (std::int64_t done = 0; done < events; done += kBurst) burst(done);
  const double secs = duration<double>(steady_clock::now() - t0).count();
  report("eventpp EventQueue", events, subs, secs, sinks);
}

void dispatcher_throughput(std::int64_t deliveries, std::size_t subs) {
  std::vector<Sink> sinks(subs);
  eventpp::EventDispatcher<int, void(const Tick&)> dispatcher;
  for (Sink& s : sinks)
    dispatcher.appendListener(kTick, [&s](const Tick& t) { s.sum += t.n; });
  const std::int64_t events = events_for(deliveries, subs);
  auto burst = [&](std::int64_t first) {
    const std::int64_t now = steady_ns();
    for (std::int64_t i = 0; i < kBurst; ++i)
      dispatcher.dispatch(kTick, Tick{first + i, now});
  };
  burst(0);
  for (Sink& s : sinks) s.sum = 0;
  const auto t0 = steady_clock::now();
  for (std::int64_t done = 0; done < events; done += kBurst) burst(done);
  const double secs = duration<double>(steady_clock::now() - t0).count();
  report("eventpp EventDispatcher", events, subs, secs, sinks);
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t deliveries = argc > 1 ? std::atoll(argv[1]) : 4'000'000;
  const auto subs =
      static_cast<std::size_t>(argc > 2 ? std::max(1, std::atoi(argv[2])) : 1);
  queue_throughput(deliveries, subs);
  dispatcher_throughput(deliveries, subs);
  return 0;
}
