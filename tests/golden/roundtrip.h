// The printer property: for an input that parses without errors, printing
// its AST and parsing the result gives the same AST (dumped without
// locations and without the spelling-only flags `angle` and `equals`, which
// the printer canonicalises), and printing is idempotent.
#pragma once

#include <string>

namespace herald::golden {

enum class RoundTripStatus { Passed, Failed, Skipped };

struct RoundTripResult {
  RoundTripStatus status = RoundTripStatus::Passed;
  std::string report;  // why it failed
};

// `name` is used in the report only.
[[nodiscard]] RoundTripResult checkRoundTrip(const std::string& name,
                                             const std::string& text);

}  // namespace herald::golden
