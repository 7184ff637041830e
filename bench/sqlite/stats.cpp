#include "stats.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sqlbench {

Summary summarize(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const double median =
      n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return {median, values.front(), values.back()};
}

std::int64_t quantile(std::vector<std::int64_t>& samples, double q) {
  std::sort(samples.begin(), samples.end());
  const auto rank = static_cast<std::size_t>(
      std::ceil(q * static_cast<double>(samples.size())));
  return samples[std::min(samples.size() - 1, rank == 0 ? 0 : rank - 1)];
}

std::string median_range(const Summary& s, const char* spec) {
  const auto one = [spec](double v) {
    return fmt::format(fmt::runtime(spec), v);
  };
  return one(s.median) + " (" + one(s.min) + "–" + one(s.max) + ")";
}

}  // namespace sqlbench
