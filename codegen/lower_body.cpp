#include "codegen/lower_body.h"

#include "codegen/lower_lowerer.h"

namespace herald::codegen {

BodyLowering::BodyLowering(const check::Program& program, Spelling& spelling)
    : program_(program), spelling_(spelling) {}

std::string BodyLowering::statements(std::uint32_t body, unsigned indent) {
  return lower::Lowerer(program_, spelling_, body).statements(indent);
}

std::string BodyLowering::expression(std::uint32_t body) {
  return lower::Lowerer(program_, spelling_, body).expression();
}

namespace lower {

using check::BodyKind;
using check::FieldInfo;
using check::FnInfo;
using check::HandlerInfo;
using check::Type;
using check::TypeKind;

Lowerer::Lowerer(const check::Program& program, Spelling& spelling,
                 std::uint32_t body)
    : program_(program),
      spelling_(spelling),
      body_(program.bodies.bodies[body]),
      slots_(body_.endSlot - body_.firstSlot),
      slotRead_(body_.endSlot - body_.firstSlot, false),
      effects_(body_.endInst - body_.firstInst, 0) {
  // A local counts as read when an instruction other than a match's
  // scrutinee reads it: a match whose first arm takes every value reads
  // nothing of its scrutinee, so a local read only there may go unread
  // in the C++ (and is declared [[maybe_unused]]).
  std::vector<bool> scrutinee(body_.endInst - body_.firstInst, false);
  for (std::uint32_t i = body_.firstInst; i < body_.endInst; ++i) {
    const check::Inst& m = program.bodies.insts[i];
    if (m.kind == check::InstKind::Match && m.a >= body_.firstInst &&
        m.a < body_.endInst)
      scrutinee[m.a - body_.firstInst] = true;
  }
  for (std::uint32_t i = body_.firstInst; i < body_.endInst; ++i) {
    const check::Inst& read = program.bodies.insts[i];
    if (read.kind == check::InstKind::LocalRef &&
        !scrutinee[i - body_.firstInst] &&
        read.a - body_.firstSlot < slotRead_.size())
      slotRead_[read.a - body_.firstSlot] = true;
  }
  // The names the function around the body declares.
  names_ = {"tx", "s"};
  if (const std::vector<FieldInfo>* ps = params())
    for (const FieldInfo& p : *ps) names_.insert(cppName(p.name));
  if (body_.agent != nullptr && body_.agent->key) names_.insert(keyName());
  if (body_.kind == BodyKind::Handler) {
    const auto* h = static_cast<const HandlerInfo*>(body_.owner);
    if (!h->byBinder.empty()) names_.insert(cppName(h->byBinder));
    for (const check::CapabilityInfo* c : passedCapabilities(body_.service, *h))
      names_.insert(capabilityParam(body_.service, *h, *c));
  }
  nonLocal_ =
      body_.kind == BodyKind::StoreInit || body_.kind == BodyKind::FieldDefault;
}

std::string Lowerer::statements(unsigned indent) {
  indent_ = indent;
  const Type* result = nullptr;
  switch (body_.kind) {
    case BodyKind::Fn:
      result = static_cast<const FnInfo*>(body_.owner)->sig.result;
      break;
    case BodyKind::Handler:
      result = static_cast<const HandlerInfo*>(body_.owner)->result;
      break;
    case BodyKind::StoreInit:
    case BodyKind::Invariant:
    case BodyKind::FieldDefault:
      result = typeOf(body_.root);
      break;
  }
  Sink sink = result == nullptr || isUnit(result) || isNever(result)
                  ? Sink::Discard
                  : Sink::Return;
  const check::Inst& root = inst(body_.root);
  if (root.kind == check::InstKind::Block)
    blockStatements(root, sink);
  else
    tail(body_.root, sink);
  return std::move(out_);
}

std::string Lowerer::expression() {
  return exact(body_.root, typeOf(body_.root));
}

void Lowerer::line(const std::string& text) {
  out_.append(indent_, ' ');
  out_ += text;
  out_ += '\n';
}

std::string Lowerer::fresh(llvm::StringRef name) {
  std::string base = cppName(name);
  std::string candidate = base;
  for (unsigned n = 2; names_.count(candidate) != 0; ++n)
    candidate = base + "_" + std::to_string(n);
  names_.insert(candidate);
  return candidate;
}

std::string Lowerer::declareSlot(std::uint32_t slot) {
  std::string& name = slots_[slot - body_.firstSlot];
  name = fresh(program_.bodies.slots[slot].name);
  return std::string(slotRead_[slot - body_.firstSlot] ? ""
                                                       : "[[maybe_unused]] ") +
         "const auto " + name + " = ";
}

std::string Lowerer::slotName(std::uint32_t slot) {
  return slots_[slot - body_.firstSlot];
}

const std::vector<FieldInfo>* Lowerer::params() const {
  switch (body_.kind) {
    case BodyKind::Fn:
      return &static_cast<const FnInfo*>(body_.owner)->sig.params;
    case BodyKind::Handler:
      return &static_cast<const HandlerInfo*>(body_.owner)->params;
    case BodyKind::StoreInit:
    case BodyKind::Invariant:
    case BodyKind::FieldDefault:
      return nullptr;
  }
  return nullptr;
}

std::string Lowerer::keyName() const { return cppName(body_.agent->key->name); }

bool Lowerer::isUnit(const Type* t) {
  return t == nullptr || t->kind == TypeKind::Unit;
}

bool Lowerer::isNever(const Type* t) {
  return t != nullptr && t->kind == TypeKind::Never;
}

bool Lowerer::isEnumSum(const check::TypeInfo* type) {
  for (const check::VariantInfo& v : type->variants)
    if (!v.fields.empty()) return false;
  return true;
}

bool Lowerer::effectFree(const FnInfo& fn) {
  return fn.capabilitiesUsed.empty() && fn.commit.readOnly() &&
         fn.given.empty();
}

}  // namespace lower
}  // namespace herald::codegen
