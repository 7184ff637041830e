// The executors' timers under load and their stop deadline. Part of the
// threaded test binary, so these run under ThreadSanitizer too.
#include <atomic>
#include <chrono>
#include <thread>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "herald/config.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/errors.hpp"
#include "herald/runtime.hpp"
#include "herald/threaded_executor.hpp"

namespace test_stream {
struct Tick {
  std::int64_t n = 0;
};
inline void to_json(nlohmann::json& j, const Tick& t) { j = {{"n", t.n}}; }
inline void from_json(const nlohmann::json& j, Tick& t) {
  t.n = j.at("n").get<std::int64_t>();
}
}  // namespace test_stream

template <>
struct herald::EventInfo<test_stream::Tick> {
  static constexpr std::string_view owner = "test.stream";
  static constexpr std::string_view name = "test.stream.Tick";
  static constexpr std::int64_t schema_version = 1;
  static constexpr std::size_t max_encoded_bytes = 32;  // {"n":<int64>}
};

namespace herald::test {
namespace {

using namespace std::chrono_literals;
using test_stream::Tick;

RuntimeConfig config_of(std::map<std::string, std::string> settings) {
  ConfigSources s;
  s.environment = std::map<std::string, std::string>{};
  settings.emplace("log.level", "off");
  s.settings = std::move(settings);
  return load_config(s);
}

// Keeps the executor busy: each run does one unit of work and schedules the
// actor again, until `limit` runs or until told to stop.
class Busy final : public Actor {
 public:
  Busy(Executor& ex, int limit) : ex_(ex), limit_(limit) {}
  void run() override {
    const int n = runs.fetch_add(1) + 1;
    if (work) work(n);
    if (n < limit_ && !stop.load()) ex_.schedule(*this);
  }
  std::function<void(int)> work;
  std::atomic<int> runs{0};
  std::atomic<bool> stop{false};

 private:
  Executor& ex_;
  int limit_;
};

// A subscription that fails the first attempt of the first event and notes
// how many events the stream had published when that event came back.
struct Flaky {
  std::atomic<int> attempts_of_first{0};
  std::atomic<int> published{0};
  std::atomic<int> published_at_retry{-1};
};

Context stream_context(Flaky& flaky) {
  Context c("test.stream");
  c.owns<Tick>();
  c.subscribe<Tick>(
      {.service = "test.stream.Flaky",
       .handler = [&flaky](Invocation&, const Tick& t, const EventEnvelope&) {
         if (t.n != 0) return;
         if (flaky.attempts_of_first.fetch_add(1) == 0)
           throw std::runtime_error("first attempt fails");
         flaky.published_at_retry.store(flaky.published.load());
       }});
  return c;
}

}  // namespace

TEST_CASE(
    "Deterministic executor: a due timer fires before ready work that keeps "
    "coming") {
  DeterministicExecutor ex(3);
  Busy busy(ex, 1000);
  int busy_runs_at_timer = -1;
  busy.work = [&](int n) {
    if (n == 10)
      ex.schedule_at(ex.now(), [&] { busy_runs_at_timer = busy.runs.load(); });
  };
  ex.schedule(busy);
  ex.run_until_idle();
  CHECK(busy.runs.load() == 1000);
  // Set during run 10 and due at once: it runs before run 11.
  CHECK(busy_runs_at_timer == 10);
}

TEST_CASE(
    "Deterministic executor: timers due at one instant fire in the order they "
    "were set, and time stands still in run_until_idle") {
  DeterministicExecutor ex(3);
  std::vector<int> fired;
  const Instant t0 = ex.now();
  ex.schedule_at(t0 + 1ms, [&] { fired.push_back(3); });
  ex.schedule_at(t0, [&] { fired.push_back(1); });
  ex.schedule_at(t0, [&] { fired.push_back(2); });
  ex.run_until_idle();
  CHECK(fired == std::vector<int>{1, 2});
  CHECK(ex.now() == t0);
  CHECK(ex.pending_timers() == 1);
  ex.advance(1ms);
  CHECK(fired == std::vector<int>{1, 2, 3});
}

TEST_CASE(
    "Deterministic executor: a retry due during a steady stream of events is "
    "delivered before the stream ends") {
  DeterministicExecutor ex(11);
  // A 1ns base fully jittered rounds to a zero delay: the retry is due at
  // once, while the stream keeps the ready queue full.
  Runtime rt(config_of({{"executor.kind", "deterministic"},
                        {"retry.base", "1ns"},
                        {"retry.jitter", "1"}}),
             ex);
  Flaky flaky;
  rt.install(stream_context(flaky));
  constexpr int kStream = 200;
  Busy feeder(ex, kStream);
  feeder.work = [&](int n) {
    rt.publish("test.stream", "feeder", Tick{n - 1});
    flaky.published.store(n);
  };
  ex.schedule(feeder);
  ex.run_all();
  REQUIRE(flaky.attempts_of_first.load() == 2);
  CHECK(flaky.published_at_retry.load() < kStream);
}

TEST_CASE(
    "Threaded executor: a due timer fires while a busy actor keeps the ready "
    "queue full") {
  ThreadedExecutor ex(1);
  Busy busy(ex, 1 << 30);
  std::atomic<int> busy_runs_at_timer{-1};
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  busy.work = [&](int n) {
    // Set once busy is running, so the timer falls due while it keeps going.
    if (n == 1) {
      ex.schedule_at(ex.now() + 2ms, [&] {
        busy_runs_at_timer.store(busy.runs.load());
        busy.stop.store(true);
      });
    }
    if (std::chrono::steady_clock::now() > give_up) busy.stop.store(true);
  };
  ex.schedule(busy);
  ex.drain();
  // Fired while busy was still scheduling itself, not after it gave up.
  CHECK(busy_runs_at_timer.load() >= 1);
  CHECK(std::chrono::steady_clock::now() < give_up);
}

TEST_CASE(
    "Threaded executor: a retry is delivered while a steady stream of events "
    "keeps the executor busy") {
  ThreadedExecutor ex(1);
  Runtime rt(config_of({{"executor.kind", "threaded"},
                        {"retry.base", "1ms"},
                        {"retry.jitter", "0"}}),
             ex);
  Flaky flaky;
  rt.install(stream_context(flaky));
  constexpr int kStream = 1 << 30;
  Busy feeder(ex, kStream);
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  feeder.work = [&](int n) {
    rt.publish("test.stream", "feeder", Tick{n - 1});
    flaky.published.store(n);
    // The stream ends when the retry came through, or at the give-up time.
    if (flaky.published_at_retry.load() >= 0 ||
        std::chrono::steady_clock::now() > give_up)
      feeder.stop.store(true);
  };
  ex.schedule(feeder);
  ex.drain();
  CHECK(flaky.attempts_of_first.load() == 2);
  CHECK(flaky.published_at_retry.load() >= 0);
  CHECK(std::chrono::steady_clock::now() < give_up);
  rt.shutdown();
}

TEST_CASE(
    "Deterministic executor: stop fires the timers due within the timeout, "
    "drops the rest and refuses later work") {
  DeterministicExecutor ex(5);
  int fired = 0;
  const Instant t0 = ex.now();
  ex.schedule_at(t0 + 1s, [&] { ++fired; });
  ex.schedule_at(t0 + 10s, [&] { ++fired; });
  const Executor::StopReport left = ex.stop(5s);
  CHECK(fired == 1);
  CHECK(left.timers == 1);
  CHECK(left.actors == 0);
  CHECK_FALSE(left.complete());
  CHECK(ex.stopped());
  CHECK(ex.now() == t0 + 1s);  // time moved only as far as the last timer
  CHECK(ex.pending_timers() == 0);

  Busy late(ex, 1);
  ex.schedule(late);
  ex.schedule_at(ex.now(), [&] { ++fired; });
  ex.run_all();
  CHECK(late.runs.load() == 0);
  CHECK(fired == 1);
  CHECK(ex.refused() == 2);
  CHECK(ex.stop(5s).complete());
}

TEST_CASE(
    "Threaded executor: stop returns at its deadline, dropping a timer that "
    "is not due") {
  ThreadedExecutor ex(2);
  std::atomic<bool> fired{false};
  ex.schedule_at(ex.now() + std::chrono::hours(1), [&] { fired.store(true); });
  const auto before = std::chrono::steady_clock::now();
  const Executor::StopReport left = ex.stop(50ms);
  const auto waited = std::chrono::steady_clock::now() - before;
  CHECK(left.timers == 1);
  CHECK(left.actors == 0);
  CHECK(waited >= 50ms);
  CHECK(waited < 5s);
  CHECK_FALSE(fired.load());
  CHECK(ex.stopped());
  CHECK(ex.threads() == 0);
  ex.drain();  // nothing left to wait for
}

TEST_CASE(
    "Threaded executor: stop lets a running actor finish, drops the queued "
    "ones and refuses what the running one schedules") {
  ThreadedExecutor ex(1);
  std::atomic<bool> started{false};
  std::atomic<bool> finished{false};
  Busy queued(ex, 1);
  Busy follow_up(ex, 1);
  Busy slow(ex, 1);
  slow.work = [&](int) {
    started.store(true);
    std::this_thread::sleep_for(200ms);
    ex.schedule(follow_up);  // after the deadline: refused
    finished.store(true);
  };
  ex.schedule(slow);
  ex.schedule(queued);
  while (!started.load()) std::this_thread::yield();
  const Executor::StopReport left = ex.stop(20ms);
  CHECK(left.actors == 1);
  CHECK(left.timers == 0);
  CHECK(finished.load());
  CHECK(queued.runs.load() == 0);
  CHECK(follow_up.runs.load() == 0);
  CHECK(ex.refused() == 1);
}

TEST_CASE(
    "Threaded executor: stop with time to spare waits for a retry timer and "
    "leaves nothing") {
  ThreadedExecutor ex(2);
  std::atomic<bool> fired{false};
  ex.schedule_at(ex.now() + 20ms, [&] { fired.store(true); });
  const Executor::StopReport left = ex.stop(5s);
  CHECK(left.complete());
  CHECK(fired.load());
  CHECK(ex.stopped());
}

TEST_CASE(
    "Config: executor.shutdown_timeout is a duration, 5s by default, not "
    "negative") {
  CHECK(config_of({}).executor_shutdown_timeout == 5s);
  CHECK(config_of({{"executor.shutdown_timeout", "250ms"}})
            .executor_shutdown_timeout == 250ms);
  CHECK_THROWS_WITH_AS(config_of({{"executor.shutdown_timeout", "-1s"}}),
                       doctest::Contains("'executor.shutdown_timeout'"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(config_of({{"executor.shutdown_timeout", "soon"}}),
                       doctest::Contains("'executor.shutdown_timeout'"),
                       ConfigError);
}

}  // namespace herald::test
