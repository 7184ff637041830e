#pragma once
// "Did you mean": the name among `names` nearest to a misspelt `word`, for
// the errors of the configuration and the operator tool.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace herald {

// The name at the smallest edit distance (insertions, deletions,
// substitutions, swaps of two neighbours) from `word`, if that distance is
// small for the word's length (at most 2, or a third of its length); ties go
// to the first. nullopt when `word` is one of `names` or none is near.
std::optional<std::string> nearest_name(std::string_view word,
                                        std::span<const std::string> names);

}  // namespace herald
