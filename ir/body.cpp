#include "ir/body.h"

#include <cassert>

#include "ir/program.h"

namespace herald::check {

const InstKindInfo& instKindInfo(InstKind kind) {
  static constexpr InstKindInfo kInfo[] = {
#define HERALD_SUB_KIND_NoSub SubKind::None
#define HERALD_SUB_KIND_Sub(kind, name) SubKind::kind
#define HERALD_ARG_KIND_NoArg ArgKind::None
#define HERALD_ARG_KIND_Arg(kind, name) ArgKind::kind
#define HERALD_INST(Name, spelling, Sub, A, B) \
  {spelling, HERALD_SUB_KIND_##Sub, HERALD_ARG_KIND_##A, HERALD_ARG_KIND_##B},
#include "ir/inst_kinds.def"
#undef HERALD_SUB_KIND_NoSub
#undef HERALD_SUB_KIND_Sub
#undef HERALD_ARG_KIND_NoArg
#undef HERALD_ARG_KIND_Arg
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

BodyKind BodyOwner::kind() const {
  assert(valid() && "a body without an owner");
  if (fn() != nullptr) return BodyKind::Fn;
  if (handler() != nullptr) return BodyKind::Handler;
  if (store() != nullptr) return BodyKind::StoreInit;
  if (invariant() != nullptr) return BodyKind::Invariant;
  return BodyKind::FieldDefault;
}

llvm::ArrayRef<FieldInfo> BodyOwner::params() const {
  if (const FnInfo* f = fn()) return f->sig.params;
  if (const HandlerInfo* h = handler()) return h->params;
  return {};
}

const std::vector<DependencyInfo>* BodyOwner::given() const {
  if (const FnInfo* f = fn()) return &f->given;
  if (const HandlerInfo* h = handler()) return &h->given;
  return nullptr;
}

std::size_t BodyIr::bytes() const {
  return insts.capacity() * sizeof(Inst) +
         locs.capacity() * sizeof(std::uint32_t) +
         operands.capacity() * sizeof(InstId) +
         lists.capacity() * sizeof(InstRange) +
         slots.capacity() * sizeof(Slot) +
         strings.capacity() * sizeof(llvm::StringRef) +
         bodies.capacity() * sizeof(Body) + fns.bytes() + handlers.bytes() +
         variants.bytes() + capOps.bytes() + capabilities.bytes() +
         events.bytes();
}

void forEachOperand(const BodyIr& ir, const Inst& inst,
                    llvm::function_ref<void(InstId)> f) {
  const InstKindInfo& info = instKindInfo(inst.kind);
  auto visit = [&](ArgKind kind, std::uint32_t v) {
    if (kind == ArgKind::Inst || (kind == ArgKind::OptInst && v != kNoInst))
      f(InstId(v));
    if (kind == ArgKind::Insts)
      for (InstId id : ir.list(InstListId(v))) f(id);
  };
  visit(info.a, inst.a);
  if (info.a != ArgKind::Bits64) visit(info.b, inst.b);
}

}  // namespace herald::check
