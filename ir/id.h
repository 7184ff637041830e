// Typed 32-bit ids of the IR: an index into one of its tables, whose type
// says which table. Ids of two tables neither compare nor convert, so an
// instruction id is never taken for a body id or a string.
#pragma once

#include <compare>
#include <cstdint>

namespace herald::check {

template <typename Tag>
class Id {
 public:
  static constexpr std::uint32_t kNone = ~0u;

  constexpr Id() = default;
  constexpr explicit Id(std::uint32_t index) : index_(index) {}

  [[nodiscard]] constexpr std::uint32_t index() const { return index_; }
  // False for a default-constructed id, which names nothing.
  [[nodiscard]] constexpr bool valid() const { return index_ != kNone; }

  friend constexpr bool operator==(Id, Id) = default;
  friend constexpr auto operator<=>(Id, Id) = default;

 private:
  std::uint32_t index_ = kNone;
};

// An instruction (BodyIr::insts).
using InstId = Id<struct InstTag>;
// A local slot (BodyIr::slots).
using SlotId = Id<struct SlotTag>;
// A body (BodyIr::bodies).
using BodyId = Id<struct BodyTag>;
// An operand list (BodyIr::lists): the arguments of a call, the elements of
// a literal, the statements of a block, the arms of a match.
using InstListId = Id<struct InstListTag>;
// A string literal's text (BodyIr::strings).
using StringId = Id<struct StringTag>;
// Declarations an instruction names, interned per program (BodyIr::fns,
// handlers, variants, capOps, capabilities, events).
using FnId = Id<struct FnTag>;
using HandlerId = Id<struct HandlerTag>;
using VariantId = Id<struct VariantTag>;
using CapOpId = Id<struct CapOpTag>;
using CapabilityId = Id<struct CapabilityTag>;
using EventId = Id<struct EventTag>;

}  // namespace herald::check
