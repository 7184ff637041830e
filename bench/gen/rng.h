// A small deterministic random generator (SplitMix64). The standard
// distributions are implementation-defined, so the generator does its own
// range reduction: the same seed gives the same project on every platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace herald::bench {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Uniform in [lo, hi] (inclusive); the slight modulo bias is irrelevant
  // for choosing shapes of generated code.
  int range(int lo, int hi) {
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<int>(next() % span);
  }

  // True with probability percent/100.
  bool chance(int percent) { return range(0, 99) < percent; }

  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<std::size_t>(
        range(0, static_cast<int>(items.size()) - 1))];
  }

  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(next() % i);
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  std::uint64_t state_;
};

}  // namespace herald::bench
