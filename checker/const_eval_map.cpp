// Constant map literals, `[:]` and `["a": 1]`, where a constant is expected
// (event field defaults, and constants passed where a refined type is
// expected): each key and value a constant of the map's key and value
// type. A key given twice is left to the body checker, which reports it
// (duplicate-map-key) for every map literal, constant or not.
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "checker/const_eval_detail.h"

namespace herald::check {

std::optional<ConstValue> evalMapLiteral(const ast::MapLitExpr& e,
                                         const Type* expected,
                                         EvalOperand operand,
                                         ConstFailure* why) {
  if (expected->kind != TypeKind::Map) {
    if (why != nullptr && !why->set) {
      why->set = true;
      why->range = e.range;
      why->message = fmt::format("a map literal is not of type '{}'",
                                 displayName(expected));
    }
    return std::nullopt;
  }
  ConstValue value;
  value.kind = ConstValue::Kind::Map;
  value.type = expected;
  value.children.reserve(e.entries.size() * 2);
  for (const ast::MapEntry& entry : e.entries) {
    std::optional<ConstValue> key = operand(entry.key, expected->arg0);
    if (!key) return std::nullopt;
    std::optional<ConstValue> v = operand(entry.value, expected->arg1);
    if (!v) return std::nullopt;
    value.children.push_back(std::move(*key));
    value.children.push_back(std::move(*v));
  }
  return value;
}

}  // namespace herald::check
