#include "herald_load.hpp"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "sqlbench/eight.h"
#include "sqlbench/one.h"
#include "sqlbench/src.h"
#include "stats.hpp"
#include <herald/config.hpp>
#include <herald/errors.hpp>
#include <herald/runtime.hpp>
#include <herald/threaded_executor.hpp>

namespace sqlbench {
namespace {

using namespace std::chrono;

std::int64_t steady_ns() {
  return duration_cast<nanoseconds>(steady_clock::now().time_since_epoch())
      .count();
}

// Per subscription: what it was delivered and, when asked, latency samples.
// Each slot is touched only by its subscription's actor.
struct alignas(64) Slot {
  std::int64_t count = 0;
  std::int64_t sum = 0;
  std::vector<std::int64_t> latencies;
};

class Probe final : public sqlbench::src::Probe {
 public:
  Probe(std::size_t slots, bool sample) : slots_(slots), sample_(sample) {}

  void seen(std::int64_t slot, std::int64_t n, std::int64_t at) override {
    Slot& s = slots_[static_cast<std::size_t>(slot)];
    ++s.count;
    s.sum += n;
    if (sample_) s.latencies.push_back(steady_ns() - at);
  }

  // Every one of `events` emitted events (counters 0 .. events - 1) was
  // delivered once to every subscription.
  void check(std::int64_t events) const {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      const Slot& s = slots_[i];
      if (s.count != events || s.sum != events * (events - 1) / 2) {
        throw herald::Error(fmt::format(
            "subscription {} was delivered {} events (sum {}), not {}", i,
            s.count, s.sum, events));
      }
    }
  }

  std::vector<std::int64_t> latencies() const {
    std::vector<std::int64_t> all;
    for (const Slot& s : slots_)
      all.insert(all.end(), s.latencies.begin(), s.latencies.end());
    return all;
  }

 private:
  std::vector<Slot> slots_;
  bool sample_;
};

// `retain`: keep the log's entries after delivery (backend.log_retention),
// so that the database shows what the log stored.
herald::RuntimeConfig config(const Load& load, const std::string& db,
                             bool retain) {
  herald::ConfigSources sources;
  sources.environment = std::map<std::string, std::string>{};
  sources.settings = {
      {"backend.kind", "sqlite"},
      {"backend.sqlite.path", db},
      {"backend.sqlite.synchronous",
       load.synchronous == herald::SqliteSynchronous::full ? "full" : "normal"},
      {"executor.kind", "threaded"},
      {"executor.threads", "2"},
      {"log.level", "error"},
  };
  if (retain) sources.settings.emplace("backend.log_retention", "1h");
  return herald::load_config(sources);
}

// The program on a fresh database: the publisher and 1 or 8 subscriptions.
struct Program {
  Program(const Load& load, const std::string& db, bool sample,
          bool retain = false)
      : load_(load),
        probe(load.subscriptions, sample),
        executor(2),
        rt(config(load, db, retain), executor) {
    rt.install(sqlbench::src::context());
    rt.install(load.subscriptions == 1 ? sqlbench::one::context(probe)
                                       : sqlbench::eight::context(probe));
    rt.recover();
  }

  // One host call: one event, or kBatch in one commit.
  void call() {
    auto source = sqlbench::src::Source::at(rt, "s");
    if (load_.events_per_commit == 1) {
      source.one(steady_ns());
    } else {
      source.batch(steady_ns());
    }
    emitted += load_.events_per_commit;
  }

  Load load_;
  Probe probe;
  herald::ThreadedExecutor executor;
  herald::Runtime rt;
  std::int64_t emitted = 0;
};

void check_load(const Load& load) {
  if ((load.events_per_commit != 1 && load.events_per_commit != kBatch) ||
      (load.subscriptions != 1 && load.subscriptions != 8)) {
    throw herald::Error(
        fmt::format("the program commits 1 or {} events per call to 1 or 8 "
                    "subscriptions, not {} to {}",
                    kBatch, load.events_per_commit, load.subscriptions));
  }
}

}  // namespace

HeraldThroughput herald_throughput(const Load& load, const std::string& db) {
  check_load(load);
  remove_database(db);
  HeraldThroughput result;
  {
    Program p(load, db, false);
    p.call();  // warm up: the first commit creates the agent's row
    p.executor.drain();
    const std::int64_t before = p.emitted;
    const std::int64_t per_drain = calls_per_drain(load);
    const auto t0 = steady_clock::now();
    const auto end = t0 + duration<double>(load.seconds);
    for (std::int64_t calls = 1; steady_clock::now() < end; ++calls) {
      p.call();
      if (calls % per_drain == 0) p.executor.drain();
    }
    p.executor.drain();
    const double secs = duration<double>(steady_clock::now() - t0).count();
    p.probe.check(p.emitted);
    result.events = p.emitted - before;
    result.events_per_s = static_cast<double>(result.events) / secs;
    result.deliveries_per_s =
        result.events_per_s * static_cast<double>(load.subscriptions);
    p.rt.shutdown();
  }
  remove_database(db);
  return result;
}

HeraldLatency herald_latency(const Load& load, const std::string& db) {
  check_load(load);
  remove_database(db);
  HeraldLatency result;
  {
    Program p(load, db, true);
    const auto end = steady_clock::now() + duration<double>(load.seconds);
    while (steady_clock::now() < end) {
      p.call();
      p.executor.drain();
    }
    p.probe.check(p.emitted);
    std::vector<std::int64_t> all = p.probe.latencies();
    result.deliveries = static_cast<std::int64_t>(all.size());
    result.p50_us = static_cast<double>(quantile(all, 0.50)) / 1000.0;
    result.p99_us = static_cast<double>(quantile(all, 0.99)) / 1000.0;
    p.rt.shutdown();
  }
  remove_database(db);
  return result;
}

void herald_sample_database(const Load& load, const std::string& db) {
  check_load(load);
  remove_database(db);
  Program p(load, db, false, true);
  for (int i = 0; i < 2; ++i) p.call();
  p.executor.drain();
  p.probe.check(p.emitted);
  p.rt.shutdown();
}

void remove_database(const std::string& db) {
  for (const char* suffix : {"", "-wal", "-shm", ".lock"})
    std::remove((db + suffix).c_str());
}

}  // namespace sqlbench
