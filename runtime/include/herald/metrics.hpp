#pragma once
// Counters per event type and per subscription, commit -> delivery latency
// histograms and lag, readable as a snapshot in JSON or Prometheus text.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "herald/time.hpp"

namespace herald {

// Written by one actor at a time, read by anyone: a relaxed load and store is
// enough and keeps the delivery path free of locked instructions.
class SingleWriterCounter {
 public:
  // Always inline: a delivery adds to three of them, and a call saves and
  // restores registers around two instructions.
  [[gnu::always_inline]] void add(std::uint64_t n = 1) {
    v_.store(v_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  std::uint64_t get() const { return v_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> v_{0};
};

class SharedCounter {
 public:
  void add(std::uint64_t n = 1) { v_.fetch_add(n, std::memory_order_relaxed); }
  void sub(std::uint64_t n = 1) { v_.fetch_sub(n, std::memory_order_relaxed); }
  std::uint64_t get() const { return v_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> v_{0};
};

class LatencyHistogram {
 public:
  // Upper bounds in seconds, Prometheus style (the last bucket is +Inf).
  static constexpr std::array<double, 16> kBounds = {
      1e-6, 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4,
      1e-3, 5e-3, 1e-2, 5e-2,   1e-1, 1.0,  10.0,   60.0};
  // The same bounds in nanoseconds, compared on the delivery path.
  static constexpr std::array<std::int64_t, 16> kBoundsNs = {
      1'000,       5'000,         10'000,         25'000,
      50'000,      100'000,       250'000,        500'000,
      1'000'000,   5'000'000,     10'000'000,     50'000'000,
      100'000'000, 1'000'000'000, 10'000'000'000, 60'000'000'000};
  void record(Duration d) {  // single writer
    const std::int64_t ns = d.count();
    std::size_t i = 0;
    while (i < kBoundsNs.size() && ns > kBoundsNs[i]) ++i;
    counts_[i].add();
    sum_ns_.add(static_cast<std::uint64_t>(ns > 0 ? ns : 0));
  }
  struct Snapshot {
    std::array<std::uint64_t, kBounds.size() + 1> counts{};  // not cumulative
    std::uint64_t count = 0;
    double sum_seconds = 0;
    // Estimated from the buckets (upper bound of the bucket holding it).
    double quantile(double q) const;
  };
  Snapshot snapshot() const;

 private:
  std::array<SingleWriterCounter, kBounds.size() + 1> counts_;
  SingleWriterCounter sum_ns_;
};

struct EventTypeMetrics {
  std::string event_type;
  SharedCounter emitted;   // Events.emit calls, aborted ones included
  SharedCounter released;  // appended to the publisher's log, at commit (D2)
  SharedCounter
      duplicate_publishes;  // same eventId published again (at commit)
  SharedCounter aborted;    // emissions discarded by an aborted handler
};

struct SubscriptionMetrics {
  std::string subscription;
  std::string event_type;
  SingleWriterCounter filtered;   // fan-out: pattern or via did not match
  SingleWriterCounter delivered;  // handler committed
  SingleWriterCounter
      deduplicated;  // recorded eventId redelivered: acknowledged, not run
  SingleWriterCounter retried;  // retries scheduled
  SingleWriterCounter dead_lettered;
  SingleWriterCounter aborted;  // delivery attempts that faulted
  // Lag = enqueued + redriven - finished: deliveries queued and not yet
  // acknowledged or dead-lettered. Split by writer so that none of them
  // needs a locked instruction: the fan-out enqueues, the host re-drives,
  // the subscription finishes.
  SingleWriterCounter enqueued;
  SharedCounter redriven;
  SingleWriterCounter finished;
  std::uint64_t lag() const {
    // Read from another thread the three counters are not one snapshot;
    // finished is read first (it never passes the others) and the result
    // is clamped so a racing read cannot wrap around.
    const std::uint64_t done = finished.get();
    const std::uint64_t in = enqueued.get() + redriven.get();
    return in > done ? in - done : 0;
  }
  LatencyHistogram latency;  // commit -> delivery
};

class Metrics {
 public:
  EventTypeMetrics& event_type(const std::string& name);
  SubscriptionMetrics& subscription(const std::string& name,
                                    const std::string& event_type);

  nlohmann::json snapshot_json() const;
  std::string snapshot_prometheus() const;

  // Work left pending because the store refused retry.max_attempts writes
  // in a row (a full disk): a later process runs it at recovery.
  SharedCounter& store_refused() { return store_refused_; }

 private:
  SharedCounter store_refused_;
  mutable std::mutex mutex_;
  // unique_ptr: metric objects stay put while the lists grow.
  std::vector<std::unique_ptr<EventTypeMetrics>> event_types_;
  std::vector<std::unique_ptr<SubscriptionMetrics>> subscriptions_;
};

}  // namespace herald
