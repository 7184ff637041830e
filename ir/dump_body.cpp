#include "ir/dump_body.h"

#include <cstring>

#include <fmt/format.h>

#include "ir/inst_views.h"
#include "ir/text.h"

namespace herald::check {
namespace {

class BodyDumper {
 public:
  BodyDumper(std::string& out, int indent, const Program& program,
             const Body& body)
      : out_(out), indent_(indent), program_(program), body_(body) {}

  void run() {
    const BodyIr& ir = program_.bodies;
    if (body_.endSlot > body_.firstSlot) {
      std::string slots;
      for (std::uint32_t i = body_.firstSlot; i < body_.endSlot; ++i) {
        const Slot& slot = ir.slots[i];
        if (!slots.empty()) slots += ", ";
        slots += fmt::format("${} {}: {}{}", i - body_.firstSlot,
                             slot.name.str(), typeText(type(slot.type)),
                             slot.fromPattern ? " (pattern)" : "");
      }
      line("slots " + slots);
    }
    for (std::uint32_t i = body_.firstInst; i < body_.endInst; ++i)
      inst(InstId(i));
    line("root " + ref(body_.root));
  }

 private:
  void line(const std::string& text) {
    out_.append(static_cast<std::size_t>(indent_) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }

  const Type* type(TypeId id) const { return program_.types.byId(id); }

  std::string ref(InstId id) const {
    if (!id.valid()) return "_";
    return fmt::format("%{}", id.index() - body_.firstInst);
  }

  std::string list(InstListId at) const {
    std::string text = "[";
    for (InstId id : program_.bodies.list(at)) {
      if (text.size() > 1) text += ", ";
      text += ref(id);
    }
    return text + "]";
  }

  std::string bits64(const Inst& inst) const {
    std::uint64_t v = readArg<ArgKind::Bits64>(inst, 0);
    if (inst.kind == InstKind::FloatLit) {
      double d = 0;
      std::memcpy(&d, &v, sizeof d);
      // Always with a point or exponent, so that `1.0` is not read as `1`.
      std::string text = fmt::format("{}", d);
      if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
      return text;
    }
    if (inst.kind == InstKind::DurationLit) return fmt::format("{}ms", v);
    return fmt::format("{}", static_cast<std::int64_t>(v));
  }

  // The fields a Field argument indexes: of the type of operand `a`
  // (FieldGet) or of the event (FieldDefault).
  const std::vector<FieldInfo>* fieldsOf(const Inst& inst) const {
    const BodyIr& ir = program_.bodies;
    if (inst.is<FieldDefault>())
      return &ir.events[inst.as<FieldDefault>().event]->fields;
    const Type* base = type(ir[inst.as<FieldGet>().base].type);
    if (base->kind == TypeKind::Named) return &base->named->fields;
    if (base->kind == TypeKind::Event) return &base->event->fields;
    if (base->kind == TypeKind::Actor) return &base->actor->params;
    return nullptr;
  }

  std::string arg(const Inst& inst, ArgKind kind, int slot) const {
    std::uint32_t v = slot == 0 ? inst.a : inst.b;
    const BodyIr& ir = program_.bodies;
    switch (kind) {
      case ArgKind::None:
        return "";
      case ArgKind::Inst:
      case ArgKind::OptInst:
        return ref(InstId{v});
      case ArgKind::Insts:
        return list(readArg<ArgKind::Insts>(inst, slot));
      case ArgKind::Slot:
        return fmt::format("${}", v - body_.firstSlot);
      case ArgKind::Param: {
        llvm::ArrayRef<FieldInfo> ps = body_.owner.params();
        return v < ps.size() ? ps[v].name : "{missing}";
      }
      case ArgKind::Store:
        return body_.agent != nullptr && v < body_.agent->stores.size()
                   ? body_.agent->stores[v].field.name
                   : "{missing}";
      case ArgKind::Dep: {
        DepRef dep = DepRef::decode(v);
        const std::vector<DependencyInfo>* given = nullptr;
        const char* owner = "handler";
        switch (dep.list) {
          case DepRef::List::Service:
            owner = "service";
            if (body_.service != nullptr) given = &body_.service->given;
            break;
          case DepRef::List::Handler:
            if (body_.owner.handler() != nullptr) given = body_.owner.given();
            break;
          case DepRef::List::Fn:
            owner = "fn";
            if (body_.owner.fn() != nullptr) given = body_.owner.given();
            break;
        }
        return fmt::format("{}.given[{}] {}", owner, dep.index,
                           given != nullptr && dep.index < given->size()
                               ? (*given)[dep.index].name
                               : "{missing}");
      }
      case ArgKind::Capability:
        return declText(ir.capabilities[CapabilityId(v)]);
      case ArgKind::Fn:
        return declText(ir.fns[FnId(v)]);
      case ArgKind::Handler:
        return declText(ir.handlers[HandlerId(v)].first) + "." +
               ir.handlers[HandlerId(v)].second->name;
      case ArgKind::Variant:
        return declText(ir.variants[VariantId(v)].first) + "." +
               ir.variants[VariantId(v)].second->name;
      case ArgKind::CapOp:
        return declText(ir.capOps[CapOpId(v)].first) + "." +
               ir.capOps[CapOpId(v)].second->name;
      case ArgKind::Event:
        return declText(ir.events[EventId(v)]);
      case ArgKind::Field: {
        const std::vector<FieldInfo>* fields = fieldsOf(inst);
        return fields != nullptr && v < fields->size() ? (*fields)[v].name
                                                       : "{missing}";
      }
      case ArgKind::String:
        return "\"" + ast::escapeStringText(ir.strings[v]) + "\"";
      case ArgKind::Bits64:
        return bits64(inst);
    }
    return "?";
  }

  static std::string sub(const Inst& inst, SubKind kind) {
    switch (kind) {
      case SubKind::None:
        return "";
      case SubKind::Bool:
        return inst.sub != 0 ? "true" : "false";
      case SubKind::UnaryOp:
        return std::string(ast::spelling(static_cast<ast::UnaryOp>(inst.sub)));
      case SubKind::BinaryOp:
        return std::string(ast::spelling(static_cast<ast::BinaryOp>(inst.sub)));
      case SubKind::Builtin:
        return std::string(
            builtinSpelling(static_cast<BuiltinMethod>(inst.sub)));
      case SubKind::Envelope:
        return std::string(
            envelopeSpelling(static_cast<EnvelopeField>(inst.sub)));
    }
    return "?";
  }

  void inst(InstId id) {
    const Inst& inst = program_.bodies[id];
    const InstKindInfo& info = instKindInfo(inst.kind);
    std::string text = ref(id) + " = " + std::string(info.spelling);
    std::string op = sub(inst, info.sub);
    if (!op.empty()) text += " " + op;
    std::string args[] = {arg(inst, info.a, 0), info.a == ArgKind::Bits64
                                                    ? std::string()
                                                    : arg(inst, info.b, 1)};
    bool first = true;
    for (const std::string& a : args) {
      if (a.empty()) continue;
      text += first ? " " : ", ";
      text += a;
      first = false;
    }
    line(text + " : " + typeText(type(inst.type)));
  }

  std::string& out_;
  int indent_;
  const Program& program_;
  const Body& body_;
};

}  // namespace

void dumpBody(std::string& out, int indent, const Program& program, BodyId id) {
  if (!id.valid() || id.index() >= program.bodies.bodies.size()) return;
  out.append(static_cast<std::size_t>(indent) * 2, ' ');
  out += "body\n";
  BodyDumper(out, indent + 1, program, program.bodies[id]).run();
}

}  // namespace herald::check
