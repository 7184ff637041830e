#include "ir/dump_body.h"

#include <cstring>

#include <fmt/format.h>

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
      inst(InstId{i});
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
    return fmt::format("%{}", id.index - body_.firstInst);
  }

  std::string list(std::uint32_t at) const {
    std::string text = "[";
    for (std::uint32_t id : program_.bodies.list(at)) {
      if (text.size() > 1) text += ", ";
      text += ref(InstId{id});
    }
    return text + "]";
  }

  static std::uint64_t bits(const Inst& inst) {
    return static_cast<std::uint64_t>(inst.a) |
           (static_cast<std::uint64_t>(inst.b) << 32);
  }

  std::string bits64(const Inst& inst) const {
    std::uint64_t v = bits(inst);
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

  const std::vector<FieldInfo>* params() const {
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

  // The fields a Field argument indexes: of the type of operand `a`
  // (FieldGet) or of the event (FieldDefault).
  const std::vector<FieldInfo>* fieldsOf(const Inst& inst) const {
    const BodyIr& ir = program_.bodies;
    if (inst.kind == InstKind::FieldDefault) return &ir.events[inst.a]->fields;
    const Type* base = type(ir.insts[inst.a].type);
    if (base->kind == TypeKind::Named) return &base->named->fields;
    if (base->kind == TypeKind::Event) return &base->event->fields;
    if (base->kind == TypeKind::Actor) return &base->actor->params;
    return nullptr;
  }

  std::string arg(const Inst& inst, ArgKind kind, std::uint32_t v) const {
    const BodyIr& ir = program_.bodies;
    switch (kind) {
      case ArgKind::None:
        return "";
      case ArgKind::Inst:
      case ArgKind::OptInst:
        return ref(InstId{v});
      case ArgKind::Insts:
        return list(v);
      case ArgKind::Slot:
        return fmt::format("${}", v - body_.firstSlot);
      case ArgKind::Param: {
        const std::vector<FieldInfo>* ps = params();
        return ps != nullptr && v < ps->size() ? (*ps)[v].name : "{missing}";
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
            if (body_.kind == BodyKind::Handler)
              given = &static_cast<const HandlerInfo*>(body_.owner)->given;
            break;
          case DepRef::List::Fn:
            owner = "fn";
            if (body_.kind == BodyKind::Fn)
              given = &static_cast<const FnInfo*>(body_.owner)->given;
            break;
        }
        return fmt::format("{}.given[{}] {}", owner, dep.index,
                           given != nullptr && dep.index < given->size()
                               ? (*given)[dep.index].name
                               : "{missing}");
      }
      case ArgKind::Capability:
        return declText(ir.capabilities[v]);
      case ArgKind::Fn:
        return declText(ir.fns[v]);
      case ArgKind::Handler:
        return declText(ir.handlers[v].first) + "." +
               ir.handlers[v].second->name;
      case ArgKind::Variant:
        return declText(ir.variants[v].first) + "." +
               ir.variants[v].second->name;
      case ArgKind::CapOp:
        return declText(ir.capOps[v].first) + "." + ir.capOps[v].second->name;
      case ArgKind::Event:
        return declText(ir.events[v]);
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
    std::string args[] = {
        arg(inst, info.a, inst.a),
        info.a == ArgKind::Bits64 ? std::string() : arg(inst, info.b, inst.b)};
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

void dumpBody(std::string& out, int indent, const Program& program,
              std::uint32_t id) {
  if (id == kNoBody || id >= program.bodies.bodies.size()) return;
  out.append(static_cast<std::size_t>(indent) * 2, ' ');
  out += "body\n";
  BodyDumper(out, indent + 1, program, program.bodies.bodies[id]).run();
}

}  // namespace herald::check
