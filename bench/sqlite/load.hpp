#pragma once
// One configuration of the sqlite benchmark: what both the Herald program
// (herald_load.hpp) and the raw SQLite baseline (raw_inserts.hpp) run.
#include <cstddef>
#include <cstdint>
#include <string>

#include <herald/sqlite_backend.hpp>

namespace sqlbench {

// Events committed by one host call of the publisher: `one` (single) or
// `batch` (HERALD_BENCH_BATCH emissions of one handler).
constexpr std::int64_t kBatch = HERALD_BENCH_BATCH;

struct Load {
  herald::SqliteSynchronous synchronous = herald::SqliteSynchronous::full;
  std::int64_t events_per_commit = 1;  // 1 or kBatch
  std::size_t subscriptions = 1;       // 1 or 8
  double seconds = 1.0;                // how long a run keeps emitting
};

// The host calls between two drains of the executor in a throughput run,
// so that at most about 64 events wait for delivery.
inline std::int64_t calls_per_drain(const Load& load) {
  return load.events_per_commit >= 64 ? 1 : 64 / load.events_per_commit;
}

inline const char* synchronous_name(herald::SqliteSynchronous s) {
  switch (s) {
    case herald::SqliteSynchronous::full:
      return "FULL";
    case herald::SqliteSynchronous::normal:
      return "NORMAL";
  }
  return "?";
}

}  // namespace sqlbench
