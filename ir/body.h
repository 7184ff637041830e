// The body IR: every fn, handler, store initialiser, invariant and event
// field default lowered to typed instructions with resolved targets, built
// while the bodies are checked. Code generation reads bodies only through
// it: no name is looked up again, no type inferred, no variant guessed.
//
// Shape: instructions live in one flat vector per program and are named by
// 32-bit ids; a body is a contiguous range of them, operands before their
// users. An instruction is 16 bytes: its kind, a small `sub` field, its type
// (a TypeId) and two 32-bit arguments whose meaning its kind fixes
// (inst_kinds.def). Operand lists are ranges of a shared id array; pointers
// to declarations go through small interned tables so that an argument
// stays 32 bits.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include "frontend/ast.h"
#include "frontend/source.h"
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

enum class InstKind : std::uint8_t {
#define HERALD_INST(Name, spelling, Sub, A, B) Name,
#include "ir/inst_kinds.def"
};

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

inline constexpr std::uint32_t kNoInst = ~0u;

struct InstId {
  std::uint32_t index = kNoInst;
  [[nodiscard]] bool valid() const { return index != kNoInst; }
  friend bool operator==(InstId, InstId) = default;
};

struct SlotId {
  std::uint32_t index = kNoInst;
  [[nodiscard]] bool valid() const { return index != kNoInst; }
};

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

struct Inst {
  InstKind kind = InstKind::Invalid;
  std::uint8_t sub = 0;
  TypeId type = 0;
  std::uint32_t a = 0;
  std::uint32_t b = 0;
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
  Fn,            // `owner` is the FnInfo
  Handler,       // `owner` is the HandlerInfo
  StoreInit,     // `owner` is the StoreInfo
  Invariant,     // `owner` is the InvariantInfo
  FieldDefault,  // `owner` is the event's FieldInfo
};

struct Body {
  BodyKind kind = BodyKind::Fn;
  const void* owner = nullptr;
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

inline constexpr std::uint32_t kNoBody = ~0u;

// Pointers to declarations interned as 32-bit ids, in first-use order.
template <typename T>
class InternTable {
 public:
  std::uint32_t intern(T item) {
    auto [it, inserted] = index_.try_emplace(
        key(item), static_cast<std::uint32_t>(items_.size()));
    if (inserted) items_.push_back(item);
    return it->second;
  }
  [[nodiscard]] const T& operator[](std::uint32_t i) const { return items_[i]; }
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

class BodyIr {
 public:
  // The three arrays every expression appends to are SmallVectors: their
  // growth is out of line, which keeps the append (the checker's most
  // frequent call) short.
  llvm::SmallVector<Inst, 0> insts;
  llvm::SmallVector<std::uint32_t, 0> locs;  // per inst: begin offset in its
                                             // body's file
  // Operand lists: a list at `i` is operands[i] (the count) followed by
  // that many InstIds.
  llvm::SmallVector<std::uint32_t, 0> operands;
  std::vector<Slot> slots;
  std::vector<llvm::StringRef> strings;
  std::vector<Body> bodies;

  InternTable<const FnInfo*> fns;
  InternTable<std::pair<const AgentInfo*, const HandlerInfo*>> handlers;
  InternTable<std::pair<const TypeInfo*, const VariantInfo*>> variants;
  InternTable<std::pair<const CapabilityInfo*, const CapabilityOp*>> capOps;
  InternTable<const CapabilityInfo*> capabilities;
  InternTable<const EventInfo*> events;

  [[nodiscard]] const Inst& operator[](InstId id) const {
    return insts[id.index];
  }
  [[nodiscard]] llvm::ArrayRef<std::uint32_t> list(std::uint32_t at) const {
    return llvm::ArrayRef<std::uint32_t>(operands).slice(at + 1, operands[at]);
  }

  // Instructions, and the bytes the IR of bodies holds.
  [[nodiscard]] std::size_t size() const { return insts.size(); }
  [[nodiscard]] std::size_t bytes() const;
};

}  // namespace herald::check
