// Exhaustiveness and reachability of match arms, through payloads, as rustc
// computes them: the usefulness algorithm over the pattern matrix of the
// resolved arms (Maranget, "Warnings for pattern matching"). The work is
// bounded; past the bound the answer is conservative (see `capped`).
// Internal to checker/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "checker/pattern_resolve.h"

namespace herald::check {

class ArmMatrix {
 public:
  // `scrutinee`: the type of the value matched.
  explicit ArmMatrix(const Type* scrutinee);
  ~ArmMatrix();
  ArmMatrix(const ArmMatrix&) = delete;
  ArmMatrix& operator=(const ArmMatrix&) = delete;

  // Whether `arm` matches a value no earlier arm matches; then adds it,
  // reachable or not.
  bool addArm(const ResolvedPattern* arm);
  // Patterns of values no arm matches (at most a few), in source-like
  // spelling: `None`, `Some(false)`, `Refunded(_, false)`, `_`. Empty when
  // the arms are exhaustive.
  [[nodiscard]] std::vector<std::string> missing();
  // Whether there were more missing patterns than missing() lists.
  [[nodiscard]] bool moreMissing() const;
  // Set when the work bound was reached: from then on every arm counts as
  // reachable, and exhaustiveness falls back to the arms that match whole
  // variants (a wildcard, a binding, or a variant whose payload patterns
  // match anything), which may ask for an arm that is not needed.
  [[nodiscard]] bool capped() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace herald::check
