// herald_bench_sqlite: durable events/s and emit-to-delivery latency of a
// Herald program (compiled by heraldc) on the sqlite backend, with FULL and
// NORMAL synchronous, single and batched commits, 1 and 8 subscriptions;
// in the same process, raw SQLite inserts of the same rows in the same
// transactions, and the backend's throughput as a ratio of theirs.
//
//   herald_bench_sqlite [runs] [seconds] [full|normal single|batched 1|8]
//
// runs (default 5): rounds per configuration; each round runs the program's
// throughput and latency runs and the raw baseline, starting with the
// program in the first, third, ... round and with the raw baseline in the
// others. seconds (default 1): how long each run emits. The databases go
// into a new directory under $BENCH_DIR (default /tmp), removed at the end.
//
// Prints a Markdown table: median (min–max) over the rounds; each round's
// counts go to stderr. The last three arguments pick one row (for
// profiling); without them every row runs.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "herald_load.hpp"
#include "load.hpp"
#include "raw_inserts.hpp"
#include "stats.hpp"

namespace {

using sqlbench::Load;

struct Rounds {
  std::vector<double> herald_events;
  std::vector<double> herald_deliveries;
  std::vector<double> raw_events;
  std::vector<double> ratio;
  std::vector<double> p50;
  std::vector<double> p99;
  std::int64_t raw_transactions = 0;
  std::int64_t raw_events_total = 0;
};

Rounds measure(const Load& load, int runs, const std::filesystem::path& dir) {
  const std::string herald_db = (dir / "herald.db").string();
  const std::string raw_db = (dir / "raw.db").string();
  sqlbench::herald_sample_database(load, herald_db);
  const sqlbench::RowTemplates rows = sqlbench::read_row_templates(herald_db);
  sqlbench::remove_database(herald_db);
  Rounds r;
  for (int i = 0; i < runs; ++i) {
    sqlbench::HeraldThroughput h;
    sqlbench::HeraldLatency l;
    sqlbench::RawThroughput raw;
    if (i % 2 == 0) {
      h = sqlbench::herald_throughput(load, herald_db);
      l = sqlbench::herald_latency(load, herald_db);
      raw = sqlbench::raw_throughput(load, rows, raw_db);
    } else {
      raw = sqlbench::raw_throughput(load, rows, raw_db);
      h = sqlbench::herald_throughput(load, herald_db);
      l = sqlbench::herald_latency(load, herald_db);
    }
    std::fprintf(stderr,
                 "%s, %lld per commit, %zu subscriptions, round %d: Herald "
                 "%lld events in %.2f s, %lld deliveries timed; raw %lld "
                 "events in %lld transactions, %.2f s\n",
                 sqlbench::synchronous_name(load.synchronous),
                 static_cast<long long>(load.events_per_commit),
                 load.subscriptions, i + 1, static_cast<long long>(h.events),
                 static_cast<double>(h.events) / h.events_per_s,
                 static_cast<long long>(l.deliveries),
                 static_cast<long long>(raw.events),
                 static_cast<long long>(raw.transactions),
                 static_cast<double>(raw.events) / raw.events_per_s);
    r.herald_events.push_back(h.events_per_s);
    r.herald_deliveries.push_back(h.deliveries_per_s);
    r.raw_events.push_back(raw.events_per_s);
    r.ratio.push_back(h.events_per_s / raw.events_per_s);
    r.p50.push_back(l.p50_us);
    r.p99.push_back(l.p99_us);
    r.raw_transactions += raw.transactions;
    r.raw_events_total += raw.events;
  }
  return r;
}

}  // namespace

// An exception that escapes ends the run with its message, as intended.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
  const int runs = argc > 1 ? std::atoi(argv[1]) : 5;
  const double seconds = argc > 2 ? std::atof(argv[2]) : 1.0;
  const bool one_row = argc == 6;
  const auto either = [&](int arg, const char* a, const char* b) {
    return std::string(argv[arg]) == a || std::string(argv[arg]) == b;
  };
  if (runs < 1 || seconds <= 0 || (argc > 3 && !one_row) ||
      (one_row && (!either(3, "full", "normal") ||
                   !either(4, "single", "batched") || !either(5, "1", "8")))) {
    std::fprintf(stderr,
                 "usage: herald_bench_sqlite [runs] [seconds] "
                 "[full|normal single|batched 1|8]\n");
    return 2;
  }
  const auto picked = [&](int arg, const char* value) {
    return !one_row || std::string(argv[arg]) == value;
  };
  const char* base = std::getenv("BENCH_DIR");
  std::string pattern =
      (std::filesystem::path(base != nullptr ? base : "/tmp") /
       "herald-sqlite-bench-XXXXXX")
          .string();
  if (mkdtemp(pattern.data()) == nullptr) {
    std::perror(pattern.c_str());
    return 1;
  }
  const std::filesystem::path dir = pattern;

  std::printf(
      "%d rounds per row, %.1f s of emission per run; the program's runs "
      "and the raw baseline alternate which goes first; median (min–max) "
      "over the rounds. Batched: %lld events per host call (one handler "
      "emitting them, one commit). Threaded executor, 2 workers. Latency: "
      "one host call in flight, emit-to-handler wall clock per delivery. "
      "SQLite %s.\n\n",
      runs, seconds, static_cast<long long>(sqlbench::kBatch),
      sqlbench::sqlite_version().c_str());
  std::printf(
      "| synchronous | load | subscriptions | Herald events/s | Herald "
      "deliveries/s | raw events/s | raw transactions/event | Herald ÷ raw | "
      "p50 µs | p99 µs |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const auto sync :
       {herald::SqliteSynchronous::full, herald::SqliteSynchronous::normal}) {
    for (const std::int64_t per_commit : {std::int64_t{1}, sqlbench::kBatch}) {
      for (const std::size_t subs : {std::size_t{1}, std::size_t{8}}) {
        if (!picked(3, sync == herald::SqliteSynchronous::full ? "full"
                                                               : "normal") ||
            !picked(4, per_commit == 1 ? "single" : "batched") ||
            !picked(5, subs == 1 ? "1" : "8"))
          continue;
        const Load load{sync, per_commit, subs, seconds};
        const Rounds r = measure(load, runs, dir);
        const std::string label = per_commit == 1
                                      ? std::string("single")
                                      : fmt::format("batched ({})", per_commit);
        using sqlbench::median_range;
        using sqlbench::summarize;
        std::printf(
            "| %s | %s | %zu | %s | %s | %s | %.2f | %s | %s | %s |\n",
            sqlbench::synchronous_name(sync), label.c_str(), subs,
            median_range(summarize(r.herald_events), "{:.0f}").c_str(),
            median_range(summarize(r.herald_deliveries), "{:.0f}").c_str(),
            median_range(summarize(r.raw_events), "{:.0f}").c_str(),
            static_cast<double>(r.raw_transactions) /
                static_cast<double>(r.raw_events_total),
            median_range(summarize(r.ratio), "{:.2f}").c_str(),
            median_range(summarize(r.p50), "{:.0f}").c_str(),
            median_range(summarize(r.p99), "{:.0f}").c_str());
        std::fflush(stdout);
      }
    }
  }
  std::filesystem::remove_all(dir);
  return 0;
}
