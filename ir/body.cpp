#include "ir/body.h"

namespace herald::check {

const InstKindInfo& instKindInfo(InstKind kind) {
  static constexpr InstKindInfo kInfo[] = {
#define HERALD_INST(Name, spelling, Sub, A, B) \
  {spelling, SubKind::Sub, ArgKind::A, ArgKind::B},
#include "ir/inst_kinds.def"
  };
  return kInfo[static_cast<std::size_t>(kind)];
}

std::string_view builtinSpelling(BuiltinMethod m) {
  switch (m) {
    case BuiltinMethod::StringLen:
      return "String.len";
    case BuiltinMethod::StringConcat:
      return "String.concat";
    case BuiltinMethod::StringContains:
      return "String.contains";
    case BuiltinMethod::StringStartsWith:
      return "String.startsWith";
    case BuiltinMethod::StringUpper:
      return "String.upper";
    case BuiltinMethod::StringLower:
      return "String.lower";
    case BuiltinMethod::ListLen:
      return "List.len";
    case BuiltinMethod::ListAppend:
      return "List.append";
    case BuiltinMethod::ListContains:
      return "List.contains";
    case BuiltinMethod::OptionGetOr:
      return "Option.getOr";
    case BuiltinMethod::OptionIsSome:
      return "Option.isSome";
    case BuiltinMethod::MapGet:
      return "Map.get";
    case BuiltinMethod::MapPut:
      return "Map.put";
    case BuiltinMethod::MapRemove:
      return "Map.remove";
    case BuiltinMethod::MapLen:
      return "Map.len";
  }
  return "?";
}

std::string_view envelopeSpelling(EnvelopeField f) {
  switch (f) {
    case EnvelopeField::EventId:
      return "eventId";
    case EnvelopeField::EventType:
      return "eventType";
    case EnvelopeField::PublisherId:
      return "publisherId";
    case EnvelopeField::Sequence:
      return "sequence";
    case EnvelopeField::EmittedAt:
      return "emittedAt";
    case EnvelopeField::SchemaVersion:
      return "schemaVersion";
    case EnvelopeField::CausationId:
      return "causationId";
    case EnvelopeField::CorrelationId:
      return "correlationId";
    case EnvelopeField::Depth:
      return "depth";
  }
  return "?";
}

std::size_t BodyIr::bytes() const {
  return insts.capacity() * sizeof(Inst) +
         locs.capacity() * sizeof(std::uint32_t) +
         operands.capacity() * sizeof(std::uint32_t) +
         slots.capacity() * sizeof(Slot) +
         strings.capacity() * sizeof(llvm::StringRef) +
         bodies.capacity() * sizeof(Body) + fns.bytes() + handlers.bytes() +
         variants.bytes() + capOps.bytes() + capabilities.bytes() +
         events.bytes();
}

}  // namespace herald::check
