// Compile-time constants: event field defaults, literals in subscription
// patterns and refinement checks of constants. A constant carries its type,
// so `Region.Domestic` and a refined `Quantity` 3 print and compare exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/types.h"

namespace herald::check {

struct ConstValue {
  enum class Kind : std::uint8_t {
    Int,
    Float,
    Bool,
    String,
    Unit,
    Duration,  // milliseconds in `integer`
    None,
    Some,     // children[0]
    Variant,  // `variant`, named payload fields in names/children
    Record,   // names/children in declaration order
    Opaque,   // an opaque or refined value built from children[0]
    List,     // children (a constant list literal)
    Map,      // children: keys and values alternating, in source order
  };
  Kind kind = Kind::Unit;
  const Type* type = nullptr;
  std::int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  std::string text;     // String
  std::string variant;  // Variant: the variant's name
  std::vector<std::string> names;
  std::vector<ConstValue> children;

  friend bool operator==(const ConstValue&, const ConstValue&);
};

// Source-like text: `3`, `"EUR"`, `Region.Domestic`, `Some(3)`,
// `Money { cents: 0, currency: "EUR" }`, `OrderId("a-1")`, `250.ms` as
// `250ms`. Deterministic; used by the IR dump, the flow graph and messages.
[[nodiscard]] std::string render(const ConstValue& value);

}  // namespace herald::check
