// The printer property, for an input that parses without errors:
//   - formatting it (`heraldc fmt`: the printer with the file's comments)
//     gives source that parses to the same AST (dumped without locations and
//     without the spelling-only flags `angle` and `equals`, which the printer
//     canonicalises), and holds the input's comments exactly (the formatter
//     checks that itself and fails otherwise);
//   - formatting is idempotent: formatting the output changes nothing;
//   - the printer without comments also gives source with the same AST.
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
