#include "herald/nearest_name.hpp"

#include <algorithm>
#include <vector>

namespace herald {
namespace {

// Optimal string alignment distance; the words are names, so the table is
// small.
std::size_t distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::size_t> d((n + 1) * (m + 1));
  auto at = [&](std::size_t i, std::size_t j) -> std::size_t& {
    return d[i * (m + 1) + j];
  };
  for (std::size_t i = 0; i <= n; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j <= m; ++j) at(0, j) = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      std::size_t best = std::min(
          {at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        best = std::min(best, at(i - 2, j - 2) + 1);
      at(i, j) = best;
    }
  }
  return at(n, m);
}

}  // namespace

std::optional<std::string> nearest_name(std::string_view word,
                                        std::span<const std::string> names) {
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  const std::string* nearest = nullptr;
  std::size_t best = limit + 1;
  for (const std::string& name : names) {
    if (name == word) return std::nullopt;
    const std::size_t d = distance(word, name);
    if (d < best) {
      best = d;
      nearest = &name;
    }
  }
  if (nearest == nullptr) return std::nullopt;
  return *nearest;
}

}  // namespace herald
