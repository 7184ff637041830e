#pragma once
// The Herald program of bench/sqlite (source.herald.in, one.herald,
// eight.herald, compiled by heraldc) on the sqlite backend and the threaded
// executor.
#include <cstdint>
#include <string>

#include "load.hpp"

namespace sqlbench {

struct HeraldThroughput {
  std::int64_t events = 0;      // committed in the measured part
  double events_per_s = 0;      // durable events/s, deliveries included
  double deliveries_per_s = 0;  // committed deliveries/s
};

// Host calls back to back for load.seconds, the executor drained every
// calls_per_drain(load) calls, then drained at the end; the time runs until
// every delivery committed. The database `db` is created fresh.
HeraldThroughput herald_throughput(const Load& load, const std::string& db);

struct HeraldLatency {
  std::int64_t deliveries = 0;
  double p50_us = 0;
  double p99_us = 0;
};

// One host call in flight: each call, then a drain, for load.seconds.
// Latency is the host's steady clock from just before the host call to the
// subscriber's handler, per delivery.
HeraldLatency herald_latency(const Load& load, const std::string& db);

// Leaves in `db` what two host calls of the program commit, for the raw
// baseline to copy its rows from (raw_inserts.hpp).
void herald_sample_database(const Load& load, const std::string& db);

// Deletes a database file with its WAL, shared-memory and lock files.
void remove_database(const std::string& db);

}  // namespace sqlbench
