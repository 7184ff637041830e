// The predicate IR a subscription pattern lowers to: what the runtime
// evaluates on a decoded event before invoking the subscriber. It is small on
// purpose: conjunction, disjunction, and tests of one value reached from the
// event by a path of field, option-payload and variant-payload steps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/const_value.h"

namespace herald::check {

struct VariantInfo;

struct PathStep {
  enum class Kind : std::uint8_t {
    Field,         // `.name` of a record or event
    SomePayload,   // the value inside `Some(...)`; guarded by IsSome
    VariantField,  // `.name` of a variant's payload; guarded by VariantIs
  };
  Kind kind;
  std::string name;            // Field, VariantField
  const Type* type = nullptr;  // the value the step reaches
  // VariantField: the variant whose payload the field is in.
  const VariantInfo* variant = nullptr;
  std::uint32_t field = 0;  // Field, VariantField: the field's index
  friend bool operator==(const PathStep&, const PathStep&) = default;
};

struct Predicate {
  enum class Kind : std::uint8_t {
    True,       // no constraint (`_`, or no pattern at all)
    And,        // children
    Or,         // children
    Equals,     // value at path == value
    IntRange,   // low <= value at path <= high (either end open)
    VariantIs,  // value at path is the variant named `variant`
    IsNone,     // value at path is None
    IsSome,     // value at path is Some(_)
  };
  Kind kind = Kind::True;
  std::vector<PathStep> path;
  ConstValue value;                          // Equals
  std::optional<std::int64_t> low;           // IntRange
  std::optional<std::int64_t> high;          // IntRange
  std::string variant;                       // VariantIs: its name
  const VariantInfo* variantInfo = nullptr;  // VariantIs
  std::vector<Predicate> children;           // And, Or
};

// One line, deterministic: `region is Domestic && amount.cents in 100..`.
[[nodiscard]] std::string render(const Predicate& predicate);

}  // namespace herald::check
