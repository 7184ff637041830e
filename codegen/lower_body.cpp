#include "codegen/lower_body.h"

#include "codegen/lower_lowerer.h"

namespace herald::codegen {

BodyLowering::BodyLowering(const check::Program& program, Spelling& spelling)
    : program_(program), spelling_(spelling) {}

std::string BodyLowering::statements(check::BodyId body, unsigned indent) {
  return lower::Lowerer(program_, spelling_, body).statements(indent);
}

std::string BodyLowering::expression(check::BodyId body) {
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
                 check::BodyId body)
    : program_(program),
      spelling_(spelling),
      body_(program.bodies[body]),
      slots_(body_.endSlot - body_.firstSlot),
      effects_(body_.endInst - body_.firstInst, 0) {
  // The names the function around the body declares.
  names_ = {"tx", "s"};
  for (const FieldInfo& p : body_.owner.params())
    names_.insert(cppName(p.name));
  if (body_.agent != nullptr && body_.agent->key) names_.insert(keyName());
  if (const HandlerInfo* h = body_.owner.handler()) {
    if (!h->byBinder.empty()) names_.insert(cppName(h->byBinder));
    for (const check::CapabilityInfo* c : passedCapabilities(body_.service, *h))
      names_.insert(capabilityParam(body_.service, *h, *c));
  }
  nonLocal_ = body_.kind() == BodyKind::StoreInit ||
              body_.kind() == BodyKind::FieldDefault;
}

std::string Lowerer::statements(unsigned indent) {
  indent_ = indent;
  const Type* result = nullptr;
  switch (body_.kind()) {
    case BodyKind::Fn:
      result = body_.owner.fn()->sig.result;
      break;
    case BodyKind::Handler:
      result = body_.owner.handler()->result;
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
  return finish(out_);
}

std::string Lowerer::expression() {
  return finish(exact(body_.root, typeOf(body_.root)));
}

std::string Lowerer::finish(const std::string& text) const {
  std::string out;
  out.reserve(text.size());
  // One count of every name: a check per local would read the body once
  // per local.
  const auto counts = nameUses(text);
  std::size_t at = 0;
  for (std::size_t mark = text.find('\x01'); mark != std::string::npos;
       mark = text.find('\x01', at)) {
    out.append(text, at, mark - at);
    std::size_t end = text.find('\x02', mark);
    std::size_t k = std::stoul(text.substr(mark + 1, end - mark - 1));
    // Its declaration is one use.
    auto found = counts.find(locals_[k]);
    if (found == counts.end() || found->second <= 1) out += "[[maybe_unused]] ";
    at = end + 1;
  }
  out.append(text, at);
  return out;
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

std::string Lowerer::declareSlot(check::SlotId id) {
  std::uint32_t slot = id.index();
  std::string& name = slots_[slot - body_.firstSlot];
  name = fresh(program_.bodies[id].name);
  return declareLocal(name);
}

std::string Lowerer::declareLocal(const std::string& name) {
  // A mark that finish() replaces once the whole body shows whether the
  // local is read.
  std::string mark = "\x01" + std::to_string(locals_.size()) +
                     "\x02"
                     "const auto " +
                     name + " = ";
  locals_.push_back(name);
  return mark;
}

std::string Lowerer::slotName(check::SlotId slot) {
  return slots_[slot.index() - body_.firstSlot];
}

std::string Lowerer::keyName() const { return cppName(body_.agent->key->name); }

bool isUnit(const Type* t) { return t == nullptr || t->kind == TypeKind::Unit; }

bool isNever(const Type* t) {
  return t != nullptr && t->kind == TypeKind::Never;
}

bool isEnumSum(const check::TypeInfo* type) {
  for (const check::VariantInfo& v : type->variants)
    if (!v.fields.empty()) return false;
  return true;
}

bool effectFree(const FnInfo& fn) {
  return fn.capabilitiesUsed.empty() && fn.commit.readOnly() &&
         fn.given.empty();
}

}  // namespace lower
}  // namespace herald::codegen
