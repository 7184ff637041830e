// The typed view of each instruction kind, generated from inst_kinds.def:
// one struct per kind with its operands named and typed,
//
//   struct CallFn {
//     static constexpr InstKind kKind = InstKind::CallFn;
//     FnId fn;
//     InstListId args;
//   };
//
// read with `inst.as<CallFn>()` (which asserts the kind). Code outside ir/
// reads operands only through these views; the raw `a`, `b` and `sub`
// fields of an Inst are the storage they decode.
#pragma once

#include <cstdint>
#include <type_traits>

#include "frontend/ast.h"
#include "ir/body.h"
#include "ir/id.h"

namespace herald::check {

// The C++ type of an operand of each ArgKind and SubKind.
template <ArgKind K>
struct ArgType;
template <>
struct ArgType<ArgKind::Inst> {
  using Type = InstId;
};
template <>
struct ArgType<ArgKind::OptInst> {
  using Type = InstId;  // not valid() when absent
};
template <>
struct ArgType<ArgKind::Insts> {
  using Type = InstListId;
};
template <>
struct ArgType<ArgKind::Slot> {
  using Type = SlotId;
};
template <>
struct ArgType<ArgKind::Param> {
  using Type = std::uint32_t;  // into BodyOwner::params()
};
template <>
struct ArgType<ArgKind::Store> {
  using Type = std::uint32_t;  // into the body's AgentInfo::stores
};
template <>
struct ArgType<ArgKind::Dep> {
  using Type = DepRef;
};
template <>
struct ArgType<ArgKind::Capability> {
  using Type = CapabilityId;
};
template <>
struct ArgType<ArgKind::Fn> {
  using Type = FnId;
};
template <>
struct ArgType<ArgKind::Handler> {
  using Type = HandlerId;
};
template <>
struct ArgType<ArgKind::Variant> {
  using Type = VariantId;
};
template <>
struct ArgType<ArgKind::CapOp> {
  using Type = CapOpId;
};
template <>
struct ArgType<ArgKind::Event> {
  using Type = EventId;
};
template <>
struct ArgType<ArgKind::Field> {
  using Type = std::uint32_t;  // a field index (ArgKind::Field)
};
template <>
struct ArgType<ArgKind::String> {
  using Type = StringId;
};
template <>
struct ArgType<ArgKind::Bits64> {
  using Type = std::uint64_t;  // spans `a` (low) and `b` (high)
};

template <SubKind K>
struct SubType;
template <>
struct SubType<SubKind::Bool> {
  using Type = bool;
};
template <>
struct SubType<SubKind::UnaryOp> {
  using Type = ast::UnaryOp;
};
template <>
struct SubType<SubKind::BinaryOp> {
  using Type = ast::BinaryOp;
};
template <>
struct SubType<SubKind::Builtin> {
  using Type = BuiltinMethod;
};
template <>
struct SubType<SubKind::Envelope> {
  using Type = EnvelopeField;
};

// Decoding one operand from its slot (0: `a`, 1: `b`).
template <ArgKind K>
[[nodiscard]] typename ArgType<K>::Type readArg(const Inst& inst, int slot) {
  std::uint32_t raw = slot == 0 ? inst.a : inst.b;
  using T = typename ArgType<K>::Type;
  if constexpr (K == ArgKind::Bits64) {
    return static_cast<std::uint64_t>(inst.a) |
           (static_cast<std::uint64_t>(inst.b) << 32);
  } else if constexpr (K == ArgKind::Dep) {
    return DepRef::decode(raw);
  } else if constexpr (std::is_same_v<T, std::uint32_t>) {
    return raw;
  } else {
    return T(raw);
  }
}

template <SubKind K>
[[nodiscard]] typename SubType<K>::Type readSub(const Inst& inst) {
  using T = typename SubType<K>::Type;
  if constexpr (K == SubKind::Bool)
    return inst.sub != 0;
  else
    return static_cast<T>(inst.sub);
}

// One struct per kind. The field macros are pasted from the .def's
// `Sub(kind, name)`, `NoSub`, `Arg(kind, name)` and `NoArg`.
#define HERALD_VIEW_FIELD_NoSub
#define HERALD_VIEW_FIELD_Sub(kind, name) SubType<SubKind::kind>::Type name{};
#define HERALD_VIEW_FIELD_NoArg
#define HERALD_VIEW_FIELD_Arg(kind, name) ArgType<ArgKind::kind>::Type name{};
#define HERALD_VIEW_READ_NoSub
#define HERALD_VIEW_READ_Sub(kind, name) \
  view.name = readSub<SubKind::kind>(inst);
#define HERALD_VIEW_READ_NoArg ++slot;
#define HERALD_VIEW_READ_Arg(kind, name) \
  view.name = readArg<ArgKind::kind>(inst, slot++);
#define HERALD_INST(Name, spelling, Sub, A, B)                          \
  struct Name {                                                         \
    static constexpr InstKind kKind = InstKind::Name;                   \
    HERALD_VIEW_FIELD_##Sub HERALD_VIEW_FIELD_##A HERALD_VIEW_FIELD_##B \
        [[nodiscard]] static Name                                       \
        read([[maybe_unused]] const Inst& inst) {                       \
      Name view;                                                        \
      [[maybe_unused]] int slot = 0;                                    \
      HERALD_VIEW_READ_##Sub HERALD_VIEW_READ_##A                       \
          HERALD_VIEW_READ_##B return view;                             \
    }                                                                   \
  };
#include "ir/inst_kinds.def"
#undef HERALD_VIEW_FIELD_NoSub
#undef HERALD_VIEW_FIELD_Sub
#undef HERALD_VIEW_FIELD_NoArg
#undef HERALD_VIEW_FIELD_Arg
#undef HERALD_VIEW_READ_NoSub
#undef HERALD_VIEW_READ_Sub
#undef HERALD_VIEW_READ_NoArg
#undef HERALD_VIEW_READ_Arg

}  // namespace herald::check
