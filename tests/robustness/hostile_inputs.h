// Hostile and extreme inputs for `heraldc check`, generated (never checked
// in): random bytes, megabytes of one token, deep nesting, long operator
// and else-if chains, huge matches, thousands of unknown names or contexts.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace herald::robustness {

struct HostileInput {
  std::string name;  // file stem, e.g. "random_bytes"
  // Must check clean (exit 0): inputs that are large but valid, where only
  // true nesting could count against a limit.
  bool clean = false;
  // The text, at most `maxBytes` long, the same on every run. Made one at a
  // time, so that no more than one input is in memory.
  std::function<std::string(std::size_t maxBytes)> make;
  // When not clean and not empty: must report exactly these diagnostic codes
  // (each at least once) and no other, with exit status 1; for inputs that
  // are large and valid but for one mistake, which must be reported once
  // however long the construct around it is.
  std::vector<std::string> expect;
};

// Every input.
[[nodiscard]] std::vector<HostileInput> hostileInputs();

}  // namespace herald::robustness
