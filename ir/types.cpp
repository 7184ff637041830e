#include "ir/types.h"

#include <string>

#include <llvm/ADT/DenseMapInfo.h>

#include "ir/program.h"

namespace herald::check {

namespace {

// Whether `shape` holds no Error type; its arguments are interned already,
// so they know their own answer.
bool computeWellFormed(const Type& shape) {
  auto arg = [](const Type* t) { return t != nullptr && t->wellFormed; };
  switch (shape.kind) {
    case TypeKind::Error:
      return false;
    case TypeKind::Option:
    case TypeKind::List:
      return arg(shape.arg0);
    case TypeKind::Map:
      return arg(shape.arg0) && arg(shape.arg1);
    case TypeKind::Never:
    case TypeKind::Unit:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::String:
    case TypeKind::Instant:
    case TypeKind::Duration:
    case TypeKind::Envelope:
    case TypeKind::Ref:
    case TypeKind::Named:
    case TypeKind::Event:
    case TypeKind::Capability:
    case TypeKind::Actor:
      return true;
  }
  return false;
}

}  // namespace

TypeTable::TypeTable()
    : builtins_{{TypeKind::Error},   {TypeKind::Never},   {TypeKind::Unit},
                {TypeKind::Int},     {TypeKind::Float},   {TypeKind::Bool},
                {TypeKind::String},  {TypeKind::Instant}, {TypeKind::Duration},
                {TypeKind::Envelope}} {
  for (Type& t : builtins_) {
    t.id = static_cast<TypeId>(byId_.size());
    t.wellFormed = computeWellFormed(t);
    byId_.push_back(&t);
  }
}

TypeTable::Key TypeTable::KeyInfo::getEmptyKey() {
  return {TypeKind::Error, llvm::DenseMapInfo<const void*>::getEmptyKey(),
          nullptr};
}

TypeTable::Key TypeTable::KeyInfo::getTombstoneKey() {
  return {TypeKind::Error, llvm::DenseMapInfo<const void*>::getTombstoneKey(),
          nullptr};
}

// Types are interned on every use of a type name, so the hash is the cheap
// pointer mix DenseMap uses, not hash_combine.
unsigned TypeTable::KeyInfo::getHashValue(const Key& key) {
  using Ptr = llvm::DenseMapInfo<const void*>;
  return Ptr::getHashValue(key.a) * 37U ^ Ptr::getHashValue(key.b) ^
         static_cast<unsigned>(key.kind) * 0x9E3779B9U;
}

bool TypeTable::KeyInfo::isEqual(const Key& l, const Key& r) {
  return l.kind == r.kind && l.a == r.a && l.b == r.b;
}

const Type* TypeTable::intern(TypeKind kind, const void* a, const void* b,
                              Type shape) {
  auto [it, inserted] = interned_.try_emplace(Key{kind, a, b}, nullptr);
  if (inserted) {
    shape.id = static_cast<TypeId>(byId_.size());
    shape.wellFormed = computeWellFormed(shape);
    it->second = &storage_.emplace_back(shape);
    byId_.push_back(it->second);
  }
  return it->second;
}

const Type* TypeTable::option(const Type* element) {
  return intern(TypeKind::Option, element, nullptr,
                Type{TypeKind::Option, element});
}

const Type* TypeTable::list(const Type* element) {
  return intern(TypeKind::List, element, nullptr,
                Type{TypeKind::List, element});
}

const Type* TypeTable::map(const Type* key, const Type* value) {
  return intern(TypeKind::Map, key, value, Type{TypeKind::Map, key, value});
}

const Type* TypeTable::ref(const AgentInfo* agent) {
  Type shape{TypeKind::Ref};
  shape.agent = agent;
  return intern(TypeKind::Ref, agent, nullptr, shape);
}

const Type* TypeTable::named(const TypeInfo* decl) {
  Type shape{TypeKind::Named};
  shape.named = decl;
  return intern(TypeKind::Named, decl, nullptr, shape);
}

const Type* TypeTable::event(const EventInfo* decl) {
  Type shape{TypeKind::Event};
  shape.event = decl;
  return intern(TypeKind::Event, decl, nullptr, shape);
}

const Type* TypeTable::capability(const CapabilityInfo* decl) {
  Type shape{TypeKind::Capability};
  shape.capability = decl;
  return intern(TypeKind::Capability, decl, nullptr, shape);
}

const Type* TypeTable::actor(const ActorInfo* decl) {
  Type shape{TypeKind::Actor};
  shape.actor = decl;
  return intern(TypeKind::Actor, decl, nullptr, shape);
}

namespace {

std::string spell(const Type* type, bool qualified) {
  auto name = [&](const DeclInfo* d) {
    return qualified && !d->qualified.empty() ? d->qualified : d->name;
  };
  switch (type->kind) {
    case TypeKind::Error:
      return "{error}";
    case TypeKind::Never:
      return "Never";
    case TypeKind::Unit:
      return "()";
    case TypeKind::Int:
      return "Int";
    case TypeKind::Float:
      return "Float";
    case TypeKind::Bool:
      return "Bool";
    case TypeKind::String:
      return "String";
    case TypeKind::Instant:
      return "Instant";
    case TypeKind::Duration:
      return "Duration";
    case TypeKind::Envelope:
      return "EventEnvelope";
    case TypeKind::Option:
      return "Option[" + spell(type->arg0, qualified) + "]";
    case TypeKind::List:
      return "List[" + spell(type->arg0, qualified) + "]";
    case TypeKind::Map:
      return "Map[" + spell(type->arg0, qualified) + ", " +
             spell(type->arg1, qualified) + "]";
    case TypeKind::Ref:
      return "Ref[" + name(type->agent) + "]";
    case TypeKind::Named:
      return name(type->named);
    case TypeKind::Event:
      return name(type->event);
    case TypeKind::Capability:
      return name(type->capability);
    case TypeKind::Actor:
      return name(type->actor);
  }
  return "{error}";
}

}  // namespace

std::string displayName(const Type* type) { return spell(type, false); }
std::string qualifiedName(const Type* type) { return spell(type, true); }

}  // namespace herald::check
