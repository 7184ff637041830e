#include <thread>

#include "e2e.hpp"
#include "e2e/fifo.h"
#include "e2e/fifo/observer.h"
#include <herald/threaded_executor.hpp>

namespace herald::e2e {

TEST_CASE(
    "fifo: per-publisher order under concurrent host calls on the threaded "
    "executor") {
  ThreadedExecutor executor(4);
  MemoryLogSink log;
  Runtime rt(config({{"executor.kind", "threaded"}}), executor, nullptr, &log);
  rt.install(::e2e::fifo::context());
  rt.install(::e2e::fifo::observer::context());
  Transcript t("fifo_threaded");

  constexpr int kPublishers = 4;
  constexpr int kThreadsPerPublisher = 3;
  constexpr int kCallsPerThread = 100;
  std::vector<std::thread> threads;
  for (int p = 0; p < kPublishers; ++p) {
    for (int i = 0; i < kThreadsPerPublisher; ++i) {
      threads.emplace_back([&rt, p] {
        auto publisher = ::e2e::fifo::Publisher::at(rt, fmt::format("p{}", p));
        for (int c = 0; c < kCallsPerThread; ++c) publisher.emitNext();
      });
    }
  }
  for (std::thread& thread : threads) thread.join();
  executor.drain();

  for (int p = 0; p < kPublishers; ++p) {
    t.say("p{}: {}", p,
          ::e2e::fifo::observer::Order::at(rt, fmt::format("p{}", p)).report());
  }
  rt.shutdown();
  t.check();
}

}  // namespace herald::e2e
