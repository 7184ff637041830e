#include "registry/shape.h"

#include <algorithm>

#include "checker/const_value.h"
#include "checker/ir_text.h"

namespace herald::registry {

LockEvent shapeOf(const check::EventInfo& event, std::int64_t version) {
  LockEvent shape{event.qualified, version, {}, 0};
  shape.fields.reserve(event.fields.size());
  for (const check::FieldInfo& field : event.fields) {
    LockField f{field.name, check::typeText(field.type), std::nullopt};
    if (field.defaultValue) f.default_ = check::render(*field.defaultValue);
    shape.fields.push_back(std::move(f));
  }
  std::sort(
      shape.fields.begin(), shape.fields.end(),
      [](const LockField& a, const LockField& b) { return a.name < b.name; });
  return shape;
}

}  // namespace herald::registry
