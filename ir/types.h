// Semantic types. Every type is interned in one TypeTable per checked
// program, so two types are the same type exactly when their pointers are
// equal. Aliases are transparent: `type Timestamp = Instant` resolves to the
// Instant type itself. Records, sums, opaque and refined types are nominal:
// each is a `Named` type pointing at its declaration.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include <llvm/ADT/DenseMap.h>

namespace herald::check {

struct TypeInfo;
struct EventInfo;
struct AgentInfo;
struct CapabilityInfo;
struct ActorInfo;

enum class TypeKind : std::uint8_t {
  Error,  // an earlier error; every operation on it is quietly accepted
  Never,  // `fail(...)`: fits any expected type
  Unit,
  Int,
  Float,
  Bool,
  String,
  Instant,
  Duration,
  Envelope,    // EventEnvelope
  Option,      // arg0
  List,        // arg0
  Map,         // arg0 -> arg1
  Ref,         // agent
  Named,       // named: a record, sum, opaque or refined type
  Event,       // event
  Capability,  // capability (first-party or declared); never a value type
  Actor,       // the presented actor bound by `by c: Customer`
};

// A type's index in its TypeTable: what the body IR stores (32 bits) in
// place of a pointer.
using TypeId = std::uint32_t;

struct Type {
  TypeKind kind;
  const Type* arg0 = nullptr;
  const Type* arg1 = nullptr;
  const TypeInfo* named = nullptr;
  const EventInfo* event = nullptr;
  const AgentInfo* agent = nullptr;
  const CapabilityInfo* capability = nullptr;
  const ActorInfo* actor = nullptr;
  TypeId id = 0;  // set by the TypeTable
  // No Error type anywhere inside; set by the TypeTable, as every check
  // asks it.
  bool wellFormed = false;
};

class TypeTable {
 public:
  TypeTable();
  TypeTable(const TypeTable&) = delete;
  TypeTable& operator=(const TypeTable&) = delete;

  [[nodiscard]] const Type* error() const { return &builtins_[0]; }
  [[nodiscard]] const Type* never() const { return &builtins_[1]; }
  [[nodiscard]] const Type* unit() const { return &builtins_[2]; }
  [[nodiscard]] const Type* intType() const { return &builtins_[3]; }
  [[nodiscard]] const Type* floatType() const { return &builtins_[4]; }
  [[nodiscard]] const Type* boolType() const { return &builtins_[5]; }
  [[nodiscard]] const Type* string() const { return &builtins_[6]; }
  [[nodiscard]] const Type* instant() const { return &builtins_[7]; }
  [[nodiscard]] const Type* duration() const { return &builtins_[8]; }
  [[nodiscard]] const Type* envelope() const { return &builtins_[9]; }

  const Type* option(const Type* element);
  const Type* list(const Type* element);
  const Type* map(const Type* key, const Type* value);
  const Type* ref(const AgentInfo* agent);
  const Type* named(const TypeInfo* decl);
  const Type* event(const EventInfo* decl);
  const Type* capability(const CapabilityInfo* decl);
  const Type* actor(const ActorInfo* decl);

  [[nodiscard]] const Type* byId(TypeId id) const { return byId_[id]; }

 private:
  // Hashed by the kind and the one or two pointers that make a composite
  // type; the types themselves live in a deque, which never moves them.
  struct Key {
    TypeKind kind;
    const void* a;
    const void* b;
  };
  struct KeyInfo {
    static Key getEmptyKey();
    static Key getTombstoneKey();
    static unsigned getHashValue(const Key& key);
    static bool isEqual(const Key& l, const Key& r);
  };
  const Type* intern(TypeKind kind, const void* a, const void* b, Type shape);

  Type builtins_[10];
  llvm::DenseMap<Key, const Type*, KeyInfo> interned_;
  std::deque<Type> storage_;
  std::vector<const Type*> byId_;
};

// How a type is written in diagnostics: `Option[UserId]`, `Money`,
// `Ref[Room]` (declaration names unqualified).
[[nodiscard]] std::string displayName(const Type* type);
// How a type is written in the IR dump and the flow graph: declaration names
// fully qualified (`Option[commerce.order.UserId]`).
[[nodiscard]] std::string qualifiedName(const Type* type);

// True when no error is hidden inside `type` (so diagnostics about it are
// not a cascade of an earlier one).
[[nodiscard]] inline bool isWellFormed(const Type* type) {
  return type != nullptr && type->wellFormed;
}

}  // namespace herald::check
