// "Did you mean": the closest candidate by edit distance, with bounded
// work per lookup and per program. Internal to checker/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

namespace herald::check {

// What suggestion lookups cost: edit distances computed, lookups made.
struct SpellingStats {
  std::uint64_t compared = 0;
  std::uint32_t lookups = 0;
};

// The closest of `candidates` to `name` by edit distance, or empty when
// none is close enough to suggest. A candidate is close enough within about
// one edit in three characters of `name`; one whose length alone puts it
// further away is skipped without computing a distance, and at most
// kMaxComparedPerLookup distances are computed (the first candidates in
// the caller's order; callers pass them sorted, so the result is
// deterministic). Adds the distances computed to `stats` when given.
inline constexpr std::size_t kMaxComparedPerLookup = 1024;
[[nodiscard]] std::string closestName(llvm::StringRef name,
                                      llvm::ArrayRef<std::string> candidates,
                                      SpellingStats* stats = nullptr);

// "Did you mean" for a whole program, with a budget like clang's
// -fspell-checking-limit: the first kMaxLookups unknown names get
// suggestions and later ones are reported without, so a program with many
// thousands of unknown names costs at most kMaxLookups bounded lookups
// instead of one scan of every candidate per name.
class Speller {
 public:
  static constexpr std::uint32_t kMaxLookups = 64;

  // Whether the budget allows one more lookup; counts it. Callers build
  // their candidate lists only after it says yes.
  [[nodiscard]] bool admit() {
    if (stats_.lookups >= kMaxLookups) return false;
    ++stats_.lookups;
    return true;
  }
  // closestName, counted.
  [[nodiscard]] std::string closest(llvm::StringRef name,
                                    llvm::ArrayRef<std::string> candidates) {
    return closestName(name, candidates, &stats_);
  }
  [[nodiscard]] const SpellingStats& stats() const { return stats_; }

 private:
  SpellingStats stats_;
};

}  // namespace herald::check
