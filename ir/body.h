// The body IR: every fn, handler, store initialiser, invariant and event
// field default lowered to typed instructions with resolved targets, built
// while the bodies are checked. Code generation reads bodies only through
// it: no name is looked up again, no type inferred, no variant guessed.
//
// Shape: instructions live in one flat vector per program and are named by
// 32-bit ids; a body is a contiguous range of them, operands before their
// users. An instruction is 16 bytes: its kind, a small `sub` field, its type
// (a TypeId) and two 32-bit arguments whose meaning its kind fixes
// (inst_kinds.def), read through the kind's typed view (inst_views.h:
// `inst.as<CallFn>().fn`). Operand lists are ranges of a shared id array;
// pointers to declarations go through small interned tables so that an
// argument stays 32 bits.
#pragma once

#include <cassert>
#include <cstdint>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include "frontend/ast.h"
#include "frontend/source.h"
#include "ir/id.h"
#include "ir/types.h"

namespace herald::check {

struct AgentInfo;
struct CapabilityInfo;
struct CapabilityOp;
struct EventInfo;
struct FnInfo;
struct HandlerInfo;
struct InvariantInfo;
struct ServiceInfo;
struct StoreInfo;
struct TypeInfo;
struct VariantInfo;
struct FieldInfo;
struct DependencyInfo;

enum class InstKind : std::uint8_t {
#define HERALD_INST(Name, spelling, Sub, A, B) Name,
#include "ir/inst_kinds.def"
};

// The typed view of each kind (inst_views.h), declared here for Inst::as.
#define HERALD_INST(Name, spelling, Sub, A, B) struct Name;
#include "ir/inst_kinds.def"

inline constexpr std::size_t kInstKindCount = 0
// Each kind adds one term to the sum: no parentheses around a term.
// NOLINTNEXTLINE(bugprone-macro-parentheses)
#define HERALD_INST(Name, spelling, Sub, A, B) +1
#include "ir/inst_kinds.def"
    ;

// What the `a` and `b` fields of an instruction hold.
enum class ArgKind : std::uint8_t {
  None,
  Inst,        // an InstId
  OptInst,     // an InstId, or kNoInst
  Insts,       // an operand list (`BodyIr::operands`)
  Slot,        // a local slot (SlotId)
  Param,       // a parameter of the body's fn or handler, by index
  Store,       // a store of the body's agent, by index
  Dep,         // a named `given` dependency (DepRef::encode)
  Capability,  // BodyIr::capabilities
  Fn,          // BodyIr::fns
  Handler,     // BodyIr::handlers (agent and handler)
  Variant,     // BodyIr::variants (sum type and variant)
  CapOp,       // BodyIr::capOps (capability and operation)
  Event,       // BodyIr::events
  Field,       // a field index of the type of operand `a` (FieldGet) or of
               // the event (FieldDefault)
  String,      // BodyIr::strings
  Bits64,      // with `b`: a 64-bit payload (integer, double, milliseconds)
};

// What the `sub` field holds.
enum class SubKind : std::uint8_t {
  None,
  Bool,      // 0 or 1
  UnaryOp,   // ast::UnaryOp
  BinaryOp,  // ast::BinaryOp
  Builtin,   // BuiltinMethod
  Envelope,  // EnvelopeField
};

// The built-in operations of String, List, Option and Map (language
// reference, section 8).
enum class BuiltinMethod : std::uint8_t {
  StringLen,
  StringConcat,
  StringContains,
  StringStartsWith,
  StringUpper,
  StringLower,
  ListLen,
  ListAppend,
  ListContains,
  OptionGetOr,
  OptionIsSome,
  MapGet,
  MapPut,
  MapRemove,
  MapLen,
};
[[nodiscard]] std::string_view builtinSpelling(BuiltinMethod m);

// The fields of an EventEnvelope (language reference, section 5).
enum class EnvelopeField : std::uint8_t {
  EventId,
  EventType,
  PublisherId,
  Sequence,
  EmittedAt,
  SchemaVersion,
  CausationId,
  CorrelationId,
  Depth,
};
inline constexpr std::size_t kEnvelopeFieldCount = 9;
[[nodiscard]] std::string_view envelopeSpelling(EnvelopeField f);

struct InstKindInfo {
  std::string_view spelling;
  SubKind sub;
  ArgKind a;
  ArgKind b;
};
[[nodiscard]] const InstKindInfo& instKindInfo(InstKind kind);

// An OptInst argument that names no instruction.
inline constexpr std::uint32_t kNoInst = InstId::kNone;

// Which `given` list a dependency is in: the service's, the handler's or
// the agent fn's (whose items each calling handler gives under the same
// name).
struct DepRef {
  enum class List : std::uint8_t { Service, Handler, Fn };
  List list = List::Handler;
  std::uint32_t index = 0;
  [[nodiscard]] std::uint32_t encode() const {
    return index * 3 + static_cast<std::uint32_t>(list);
  }
  [[nodiscard]] static DepRef decode(std::uint32_t v) {
    return {static_cast<List>(v % 3), v / 3};
  }
};

// An instruction as stored. Code outside ir/ reads its operands only
// through the typed view of its kind: `inst.as<CallFn>()` (inst_views.h).
struct Inst {
  InstKind kind = InstKind::Invalid;
  std::uint8_t sub = 0;
  TypeId type = 0;
  std::uint32_t a = 0;
  std::uint32_t b = 0;

  // The operands of an instruction of kind View::kKind, typed. Asserts the
  // kind.
  template <typename View>
  [[nodiscard]] View as() const {
    assert(kind == View::kKind && "an instruction read as another kind");
    return View::read(*this);
  }
  template <typename View>
  [[nodiscard]] bool is() const {
    return kind == View::kKind;
  }
};
static_assert(sizeof(Inst) == 16, "one per expression: keep it small");

// A local: bound by one `let` or one pattern binding. Two `let x` are two
// slots; a use names the slot, so shadowing is resolved.
struct Slot {
  llvm::StringRef name;  // into the source (ASTs outlive the IR's users)
  TypeId type = 0;
  bool fromPattern = false;
};

enum class BodyKind : std::uint8_t {
  Fn,
  Handler,
  StoreInit,
  Invariant,
  FieldDefault,  // an event field's default
};

// The declaration a body belongs to: which kind of declaration, and that
// declaration, typed.
class BodyOwner {
 public:
  BodyOwner() = default;
  explicit BodyOwner(const FnInfo& fn) : decl_(&fn) {}
  explicit BodyOwner(const HandlerInfo& handler) : decl_(&handler) {}
  explicit BodyOwner(const StoreInfo& store) : decl_(&store) {}
  explicit BodyOwner(const InvariantInfo& invariant) : decl_(&invariant) {}
  // An event field's default.
  explicit BodyOwner(const FieldInfo& field) : decl_(&field) {}

  // False for a default-constructed owner, which owns nothing.
  [[nodiscard]] bool valid() const {
    return !std::holds_alternative<std::monostate>(decl_);
  }
  [[nodiscard]] BodyKind kind() const;

  // The declaration when it is of that kind, else null.
  [[nodiscard]] const FnInfo* fn() const { return get<FnInfo>(); }
  [[nodiscard]] const HandlerInfo* handler() const {
    return get<HandlerInfo>();
  }
  [[nodiscard]] const StoreInfo* store() const { return get<StoreInfo>(); }
  [[nodiscard]] const InvariantInfo* invariant() const {
    return get<InvariantInfo>();
  }
  [[nodiscard]] const FieldInfo* fieldDefault() const {
    return get<FieldInfo>();
  }

  // The parameters of a fn or handler body (ParamRef's index); none for
  // the other kinds.
  [[nodiscard]] llvm::ArrayRef<FieldInfo> params() const;
  // The fn's or handler's own `given` list (DepRef::List::Fn and
  // DepRef::List::Handler); null for the other kinds.
  [[nodiscard]] const std::vector<DependencyInfo>* given() const;

 private:
  template <typename T>
  [[nodiscard]] const T* get() const {
    const T* const* p = std::get_if<const T*>(&decl_);
    return p != nullptr ? *p : nullptr;
  }
  std::variant<std::monostate, const FnInfo*, const HandlerInfo*,
               const StoreInfo*, const InvariantInfo*, const FieldInfo*>
      decl_;
};

struct Body {
  BodyOwner owner;
  [[nodiscard]] BodyKind kind() const { return owner.kind(); }
  const AgentInfo* agent = nullptr;      // agent members
  const ServiceInfo* service = nullptr;  // service members
  const EventInfo* event = nullptr;      // FieldDefault
  FileId file = 0;
  std::uint32_t firstInst = 0;  // insts [firstInst, endInst)
  std::uint32_t endInst = 0;
  std::uint32_t firstSlot = 0;  // slots [firstSlot, endSlot)
  std::uint32_t endSlot = 0;
  InstId root;  // the body's value: a Block for fns and handlers
};

// Pointers to declarations interned as typed 32-bit ids, in first-use
// order.
template <typename T, typename IdT>
class InternTable {
 public:
  IdT intern(T item) {
    auto [it, inserted] = index_.try_emplace(
        key(item), static_cast<std::uint32_t>(items_.size()));
    if (inserted) items_.push_back(item);
    return IdT(it->second);
  }
  [[nodiscard]] const T& operator[](IdT id) const { return items_[id.index()]; }
  [[nodiscard]] bool contains(IdT id) const {
    return id.index() < items_.size();
  }
  [[nodiscard]] std::size_t size() const { return items_.size(); }
  [[nodiscard]] std::size_t bytes() const {
    return items_.capacity() * sizeof(T) + index_.getMemorySize();
  }

 private:
  template <typename P>
  static const void* key(P* p) {
    return p;
  }
  template <typename P, typename Q>
  static const void* key(const std::pair<P, Q>& p) {
    return p.second;
  }
  std::vector<T> items_;
  llvm::DenseMap<const void*, std::uint32_t> index_;
};

// An operand list: `count` ids of BodyIr::operands from `begin`.
struct InstRange {
  std::uint32_t begin = 0;
  std::uint32_t count = 0;
};

class BodyIr {
 public:
  // The three arrays every expression appends to are SmallVectors: their
  // growth is out of line, which keeps the append (the checker's most
  // frequent call) short.
  llvm::SmallVector<Inst, 0> insts;
  llvm::SmallVector<std::uint32_t, 0> locs;  // per inst: begin offset in its
                                             // body's file
  // Operand lists (InstListId): ranges of `operands`.
  llvm::SmallVector<InstId, 0> operands;
  llvm::SmallVector<InstRange, 0> lists;
  std::vector<Slot> slots;
  std::vector<llvm::StringRef> strings;  // StringId
  std::vector<Body> bodies;

  InternTable<const FnInfo*, FnId> fns;
  InternTable<std::pair<const AgentInfo*, const HandlerInfo*>, HandlerId>
      handlers;
  InternTable<std::pair<const TypeInfo*, const VariantInfo*>, VariantId>
      variants;
  InternTable<std::pair<const CapabilityInfo*, const CapabilityOp*>, CapOpId>
      capOps;
  InternTable<const CapabilityInfo*, CapabilityId> capabilities;
  InternTable<const EventInfo*, EventId> events;

  [[nodiscard]] const Inst& operator[](InstId id) const {
    return insts[id.index()];
  }
  [[nodiscard]] const Body& operator[](BodyId id) const {
    return bodies[id.index()];
  }
  [[nodiscard]] const Slot& operator[](SlotId id) const {
    return slots[id.index()];
  }
  [[nodiscard]] llvm::StringRef operator[](StringId id) const {
    return strings[id.index()];
  }
  [[nodiscard]] llvm::ArrayRef<InstId> list(InstListId id) const {
    const InstRange& r = lists[id.index()];
    return llvm::ArrayRef<InstId>(operands).slice(r.begin, r.count);
  }

  // Instructions, and the bytes the IR of bodies holds.
  [[nodiscard]] std::size_t size() const { return insts.size(); }
  [[nodiscard]] std::size_t bytes() const;
};

// Calls `f` on each instruction `inst` takes as an operand, in operand
// order: an Inst argument, an OptInst one when present, each element of an
// Insts list.
void forEachOperand(const BodyIr& ir, const Inst& inst,
                    llvm::function_ref<void(InstId)> f);

}  // namespace herald::check
