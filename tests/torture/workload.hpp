// The torture workload's model: what the host passes for each tick and
// what the contract then promises, as pure functions of the publisher's
// tick number and the switched-on workload features. The program that
// makes the host calls and the checker that verifies the store after the
// last crash both read it, so the checker knows every committed value
// without a record the crashed processes might have lost.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace torture {

constexpr int kPublishers = 4;
constexpr std::int64_t kMaxAttempts = 5;
constexpr std::int64_t kPayloadLimit = 65536;
constexpr std::int64_t kCascadeLimit = 16;
// A deep chain cascades past the depth limit, a shallow one stays within.
constexpr std::int64_t kDeepChain = kCascadeLimit + 2;
constexpr std::int64_t kShallowChain = 3;

// Workload features, each switchable so a run can exclude the ones a build
// does not yet survive.
struct Features {
  bool floats = false;     // NaN, ±inf, -0.0, subnormal, max in Tick.x
  bool big = false;        // payloads at and over the byte limit
  bool deep = false;       // chains past the cascade-depth limit
  bool bad_bytes = false;  // invalid UTF-8 in faults and host strings
  bool newer = true;       // Novel events and Courier messages (full build)
};

inline std::string publisher(int i) { return fmt::format("p{}", i); }

inline std::string publisher_id(const std::string& p) {
  return "torture.source.Publisher/" + p;
}

// Tick n's Float.
inline double x_of(std::int64_t n, const Features& f) {
  if (!f.floats) return static_cast<double>(n) * 0.5;
  switch (n % 8) {
    case 0:
      return std::numeric_limits<double>::quiet_NaN();
    case 1:
      return std::numeric_limits<double>::infinity();
    case 2:
      return -std::numeric_limits<double>::infinity();
    case 3:
      return -0.0;
    case 4:
      return std::numeric_limits<double>::denorm_min();
    case 5:
      return std::numeric_limits<double>::max();
    case 6:
      return -std::numeric_limits<double>::lowest() / 3.0;
    default:
      return static_cast<double>(n) + 0.25;
  }
}

// Two doubles are the same value: NaN equals NaN, -0.0 differs from 0.0.
inline bool same_float(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

// Tick n's chain length (0: no Chain).
inline std::int64_t chain_of(std::int64_t n, const Features& f) {
  if (n % 16 != 0) return 0;
  return f.deep && n % 32 == 0 ? kDeepChain : kShallowChain;
}

// Tick n's blob: near the payload limit every eleventh tick when `big`.
inline std::size_t blob_of(std::int64_t n, const Features& f) {
  if (f.big && n % 11 == 0)
    return static_cast<std::size_t>(kPayloadLimit) - 400;
  return static_cast<std::size_t>(n % 7);
}

// Before tick n the host tries one over the limit, which must be refused.
inline bool oversize_before(std::int64_t n, const Features& f) {
  return f.big && n % 23 == 0;
}

// Bands receives the ticks of band 1 and 2 (n % 4).
inline bool band_matches(std::int64_t n) { return n % 4 == 1 || n % 4 == 2; }

// The Gateway fails for good on these (Bands dead-letters them) ...
inline bool gateway_refuses(std::int64_t n) { return n % 4 == 1 && n % 9 == 0; }
// ... and once per process on these (Bands retries them).
inline bool gateway_stumbles(std::int64_t n) { return n % 3 == 0; }

// The Gate refuses every tenth tick until healed.
inline bool gate_refuses(std::int64_t n) { return n % 10 == 0; }

// The values Chainer records for a chain of length `chain`, and whether the
// chain ends in a dead letter (an emission past the depth limit).
// Chain(left = chain) is emitted at depth 1 by a delivery of a tick (depth
// 0); the delivery of left = k emits left = k - 1 at depth 2 + chain - k.
struct ChainOutcome {
  std::vector<std::int64_t> recorded;
  bool dead = false;
  std::int64_t dead_left = 0;
};

inline ChainOutcome chain_outcome(std::int64_t chain) {
  ChainOutcome out;
  for (std::int64_t k = chain; k >= 0; --k) {
    if (k > 0 && 2 + chain - k > kCascadeLimit) {
      out.dead = true;
      out.dead_left = k;
      break;
    }
    out.recorded.push_back(k);
  }
  return out;
}

}  // namespace torture
