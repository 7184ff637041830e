#pragma once
// Summaries for the benchmark's tables: medians, ranges and percentiles.
#include <cstdint>
#include <string>
#include <vector>

namespace sqlbench {

struct Summary {
  double median = 0;
  double min = 0;
  double max = 0;
};

// The median, smallest and largest of `values` (not empty).
Summary summarize(std::vector<double> values);

// The q-quantile (0..1) of `samples` (not empty), nearest rank; sorts them.
std::int64_t quantile(std::vector<std::int64_t>& samples, double q);

// "median (min–max)" with each value printed by fmt's `spec`, e.g. "{:.0f}".
std::string median_range(const Summary& s, const char* spec);

}  // namespace sqlbench
