#include "checker/ir.h"

namespace herald::check {

namespace {

template <typename T>
const T* findNamed(const std::vector<T>& items, llvm::StringRef name) {
  for (const T& item : items)
    if (item.name == name) return &item;
  return nullptr;
}

}  // namespace

const FieldInfo* TypeInfo::field(llvm::StringRef n) const {
  return findNamed(fields, n);
}

const VariantInfo* TypeInfo::variant(llvm::StringRef n) const {
  return findNamed(variants, n);
}

const FieldInfo* EventInfo::field(llvm::StringRef n) const {
  return findNamed(fields, n);
}

const CapabilityOp* CapabilityInfo::op(llvm::StringRef n) const {
  return findNamed(ops, n);
}

const HandlerInfo* AgentInfo::handler(llvm::StringRef n) const {
  return findNamed(handlers, n);
}

const StoreInfo* AgentInfo::store(llvm::StringRef n) const {
  for (const StoreInfo& s : stores)
    if (s.field.name == n) return &s;
  return nullptr;
}

const FnInfo* AgentInfo::fn(llvm::StringRef n) const {
  for (const auto& f : fns)
    if (f->name == n) return f.get();
  return nullptr;
}

const HandlerInfo* ServiceInfo::handler(llvm::StringRef n) const {
  return findNamed(handlers, n);
}

const FnInfo* ServiceInfo::fn(llvm::StringRef n) const {
  for (const auto& f : fns)
    if (f->name == n) return f.get();
  return nullptr;
}

DeclInfo* ContextInfo::lookup(llvm::StringRef n) const {
  auto it = byName.find(n);
  return it == byName.end() ? nullptr : it->second;
}

ContextInfo* Program::context(llvm::StringRef name) const {
  for (const auto& c : contexts)
    if (c->name == name) return c.get();
  return nullptr;
}

}  // namespace herald::check
