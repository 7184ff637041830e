#include "ir/program.h"

namespace herald::check {

const FieldInfo* TypeInfo::field(llvm::StringRef n) const {
  return fieldIndex.find(fields, n);
}

const VariantInfo* TypeInfo::variant(llvm::StringRef n) const {
  return variantIndex.find(variants, n);
}

const FieldInfo* EventInfo::field(llvm::StringRef n) const {
  return fieldIndex.find(fields, n);
}

const CapabilityOp* CapabilityInfo::op(llvm::StringRef n) const {
  return opIndex.find(ops, n);
}

const HandlerInfo* AgentInfo::handler(llvm::StringRef n) const {
  return handlerIndex.find(handlers, n);
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
  return handlerIndex.find(handlers, n);
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
