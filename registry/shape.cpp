#include "registry/shape.h"

#include <algorithm>

#include "ir/const_value.h"
#include "ir/text.h"

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

LockAgent shapeOf(const check::AgentInfo& agent, std::int64_t version) {
  LockAgent shape{agent.qualified, version, {}, 0};
  shape.stores.reserve(agent.stores.size());
  for (const check::StoreInfo& store : agent.stores)
    shape.stores.push_back({store.field.name, check::typeText(store.field.type),
                            store.init != nullptr, 1});
  std::sort(
      shape.stores.begin(), shape.stores.end(),
      [](const LockStore& a, const LockStore& b) { return a.name < b.name; });
  return shape;
}

}  // namespace herald::registry
