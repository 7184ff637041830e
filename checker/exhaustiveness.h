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

#include <llvm/ADT/SmallVector.h>

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
  // Almost every match only chooses among the scrutinee's constructors:
  // each arm is `_`, a binding, `None`, `Some(x)`, a variant whose payload
  // patterns are `_` or bindings, or `|` of these. Such arms are followed by
  // the constructors they choose alone: an arm that chooses a new one is
  // reachable, and every constructor chosen is exhaustive. The matrix is
  // built, from every arm so far, at the first arm of another shape, at an
  // arm that chooses nothing new, and for missing() when some constructor
  // is left, so every diagnostic comes from it.
  bool chooses(const ResolvedPattern* arm);
  State& state();

  const Type* scrutinee_ = nullptr;
  std::size_t ctors_ = 0;
  llvm::SmallVector<const ResolvedPattern*, 8> arms_;
  llvm::SmallVector<bool, 16> chosen_;
  std::size_t chosenCount_ = 0;
  bool everything_ = false;  // a `_` or a binding was an arm
  std::unique_ptr<State> state_;
};

}  // namespace herald::check
