// Restarts on the threaded executor over one sqlite database: a process is
// abandoned mid-work (its executor stops and drops what was runnable, as a
// crash would) while agent messages that emit are in flight, and a new
// Runtime recovers. Recovery may run nothing it queued before every
// publication is positioned: otherwise a commit made meanwhile is never
// routed (a lost event) and a re-posted message can arrive after one a
// redelivered event sent (one sender's messages reordered).
#include <chrono>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "herald/config.hpp"
#include "herald/dead_message.hpp"
#include "herald/runtime.hpp"
#include "herald/threaded_executor.hpp"
#include "restart/chain.h"
#include "temp_database.hpp"

namespace herald::test {
namespace {

using restart::chain::Ledger;
using restart::chain::Relay;

constexpr int kLives = 30;
constexpr int kChainsPerLife = 4;
constexpr std::int64_t kWidth = 3;   // events a chain starts with
constexpr std::int64_t kLength = 6;  // steps of each of them

RuntimeConfig restart_config(const std::string& path) {
  ConfigSources s;
  s.environment = std::map<std::string, std::string>{};
  s.settings = {
      {"executor.kind", "threaded"}, {"backend.kind", "sqlite"},
      {"backend.sqlite.path", path}, {"backend.sqlite.synchronous", "normal"},
      {"retry.base", "1ms"},         {"retry.cap", "4ms"},
      {"log.level", "off"}};
  return load_config(s);
}

std::string chain_name(int life, int chain) {
  return fmt::format("c{}-{}", life, chain);
}

// "count last gaps" as Ledger.report() writes it.
struct LedgerReport {
  std::int64_t count = -1, last = -1, gaps = -1;
};

LedgerReport ledger(Runtime& rt, const std::string& chain) {
  LedgerReport r;
  std::istringstream in(Ledger::at(rt, chain).report());
  in >> r.count >> r.last >> r.gaps;
  return r;
}

}  // namespace

TEST_CASE(
    "Threaded restarts over one sqlite database lose no committed event and "
    "keep each sender's messages in order") {
  TempDatabase db;
  std::mt19937 rng(25);
  std::uniform_int_distribution<int> pause_us(0, 4000);
  for (int life = 0; life < kLives; ++life) {
    ThreadedExecutor executor(3);
    Runtime rt(restart_config(db.path), executor);
    rt.install(restart::chain::context());
    rt.recover();
    for (int c = 0; c < kChainsPerLife; ++c)
      Relay::at(rt, chain_name(life, c)).start(kWidth, kLength);
    std::this_thread::sleep_for(std::chrono::microseconds(pause_us(rng)));
    // Abandoned: what was runnable or waiting on a timer is dropped; what
    // committed is in the store for the next life.
    executor.stop(Duration::zero());
  }
  ThreadedExecutor executor(3);
  Runtime rt(restart_config(db.path), executor);
  rt.install(restart::chain::context());
  rt.recover();
  executor.drain();
  int complete = 0;
  for (int life = 0; life < kLives; ++life) {
    for (int c = 0; c < kChainsPerLife; ++c) {
      const std::string chain = chain_name(life, c);
      const std::int64_t emitted = Relay::at(rt, chain).emittedCount();
      const LedgerReport r = ledger(rt, chain);
      INFO("chain ", chain, ": emitted ", emitted, ", ledger saw ", r.count,
           " (last ", r.last, ", gaps ", r.gaps, ")");
      // Every committed event reached OnStepped, whose messages reached the
      // ledger once each and in the publisher's order ...
      CHECK(r.count == emitted);
      CHECK(r.last == emitted);
      CHECK(r.gaps == 0);
      // ... and each relay's advance ran, so every chain ran to its end.
      CHECK(emitted == kWidth * kLength);
      if (emitted == kWidth * kLength && r.gaps == 0) ++complete;
    }
  }
  CHECK(complete == kLives * kChainsPerLife);
  CHECK(rt.dead_letters().empty());
  CHECK(rt.dead_messages().empty());
  rt.shutdown();
}

}  // namespace herald::test
