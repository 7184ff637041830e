#include "ir/verify.h"

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "ir/inst_views.h"
#include "ir/text.h"

namespace herald::check {
namespace {

class Verifier {
 public:
  explicit Verifier(const Program& program) : program_(program) {}

  std::vector<std::string> run() {
    for (const auto& cap : program_.firstParty) capability(*cap);
    for (const auto& context : program_.contexts)
      for (const auto& decl : context->decls) this->decl(*decl);
    for (std::uint32_t i = 0; i < program_.bodies.bodies.size(); ++i) body(i);
    return std::move(problems_);
  }

 private:
  void problem(const std::string& where, const std::string& what) {
    problems_.push_back(where + ": " + what);
  }

  void type(const std::string& where, const Type* t) {
    if (t == nullptr)
      problem(where, "no type");
    else if (!isWellFormed(t))
      problem(where, "the error type in '" + typeText(t) + "'");
  }

  void fields(const std::string& where, const std::vector<FieldInfo>& fields) {
    for (const FieldInfo& f : fields) {
      type(where + "." + f.name, f.type);
      if (f.defaultValue && !f.defaultBody.valid())
        problem(where + "." + f.name, "a default without a body");
    }
  }

  void signature(const std::string& where, const FnSignature& sig) {
    fields(where, sig.params);
    type(where + " result", sig.result);
  }

  void capability(const CapabilityInfo& cap) {
    std::string where = declText(&cap);
    type(where, cap.type);
    for (const CapabilityOp& op : cap.ops)
      signature(where + "." + op.name, op.sig);
  }

  void fn(const std::string& where, const FnInfo& fn) {
    signature(where, fn.sig);
    if (fn.fn != nullptr && !fn.body.valid()) problem(where, "no body");
    commit(where, fn.commit);
  }

  void dependencies(const std::string& where,
                    const std::vector<DependencyInfo>& given) {
    for (const DependencyInfo& d : given)
      type(where + " given " + d.name, d.type);
  }

  void commit(const std::string& where, const CommitShape& shape) {
    for (const EventInfo* e : shape.emits)
      if (e == nullptr) problem(where, "an emitted event is unresolved");
    for (const StoreInfo* s : shape.writes)
      if (s == nullptr) problem(where, "a written store is unresolved");
    for (const CommitShape::Message& m : shape.sends)
      if (m.agent == nullptr || m.handler == nullptr)
        problem(where, "a message target is unresolved");
  }

  void handler(const std::string& owner, const HandlerInfo& h) {
    std::string where = owner + "." + h.name;
    fields(where, h.params);
    type(where + " result", h.result);
    dependencies(where, h.given);
    if (h.decl != nullptr && !h.body.valid()) problem(where, "no body");
    commit(where, h.commit);
  }

  void decl(const DeclInfo& d) {
    std::string where = declText(&d);
    switch (d.kind) {
      case DeclInfoKind::Type: {
        const auto& t = llvm::cast<TypeInfo>(d);
        type(where, t.type);
        fields(where, t.fields);
        for (const VariantInfo& v : t.variants)
          fields(where + "." + v.name, v.fields);
        if (t.def != TypeDefKind::Record && t.def != TypeDefKind::Sum)
          type(where + " base", t.def == TypeDefKind::Alias && t.base == nullptr
                                    ? t.type
                                    : t.base);
        for (const FnInfo* f : t.staticFns)
          if (f != nullptr) fn(where + "." + f->name, *f);
        return;
      }
      case DeclInfoKind::Event: {
        const auto& e = llvm::cast<EventInfo>(d);
        type(where, e.type);
        fields(where, e.fields);
        return;
      }
      case DeclInfoKind::Actor:
        fields(where, llvm::cast<ActorInfo>(d).params);
        return;
      case DeclInfoKind::Capability:
        capability(llvm::cast<CapabilityInfo>(d));
        return;
      case DeclInfoKind::Fn:
        fn(where, llvm::cast<FnInfo>(d));
        return;
      case DeclInfoKind::Agent: {
        const auto& a = llvm::cast<AgentInfo>(d);
        if (a.key) type(where + " key", a.key->type);
        for (const StoreInfo& s : a.stores) {
          type(where + "." + s.field.name, s.field.type);
          if (s.init != nullptr && !s.body.valid())
            problem(where + "." + s.field.name,
                    "an initialiser without a body");
        }
        for (const InvariantInfo& inv : a.invariants)
          if (inv.condition != nullptr && !inv.body.valid())
            problem(where + "." + inv.name, "an invariant without a body");
        for (const auto& f : a.fns) fn(where + "." + f->name, *f);
        for (const HandlerInfo& h : a.handlers) handler(where, h);
        return;
      }
      case DeclInfoKind::Service: {
        const auto& s = llvm::cast<ServiceInfo>(d);
        dependencies(where, s.given);
        if (s.subscription && s.subscription->event == nullptr)
          problem(where, "the subscribed event is unresolved");
        if (s.subscription) predicate(where, s.subscription->predicate);
        for (const auto& f : s.fns) fn(where + "." + f->name, *f);
        for (const HandlerInfo& h : s.handlers) handler(where, h);
        return;
      }
    }
  }

  void predicate(const std::string& where, const Predicate& p) {
    for (const PathStep& step : p.path) {
      type(where + " pattern step " + step.name, step.type);
      if (step.kind == PathStep::Kind::VariantField && step.variant == nullptr)
        problem(where, "a variant field step names no variant");
    }
    if (p.kind == Predicate::Kind::VariantIs && p.variantInfo == nullptr)
      problem(where, "a variant test names no variant");
    for (const Predicate& child : p.children) predicate(where, child);
  }

  // --- bodies -------------------------------------------------------------

  struct Scope {
    const Body* body;
    std::uint32_t self;  // the instruction being verified
    std::string where;
  };

  void operand(const Scope& s, std::uint32_t id, bool optional) {
    if (optional && id == kNoInst) return;
    if (id < s.body->firstInst || id >= s.self)
      problem(s.where, fmt::format("operand {} is not an earlier instruction "
                                   "of its body",
                                   id));
  }

  std::size_t fieldCount(const Inst& inst) const {
    const BodyIr& ir = program_.bodies;
    if (inst.kind == InstKind::FieldDefault)
      return inst.a < ir.events.size() && ir.events[EventId(inst.a)] != nullptr
                 ? ir.events[EventId(inst.a)]->fields.size()
                 : 0;
    if (inst.a >= ir.insts.size()) return 0;
    const Type* base = program_.types.byId(ir.insts[inst.a].type);
    if (base->kind == TypeKind::Named) return base->named->fields.size();
    if (base->kind == TypeKind::Event) return base->event->fields.size();
    if (base->kind == TypeKind::Actor) return base->actor->params.size();
    return 0;
  }

  bool listInRange(std::uint32_t v) const {
    const BodyIr& ir = program_.bodies;
    return v < ir.lists.size() &&
           ir.lists[v].begin + std::uint64_t{ir.lists[v].count} <=
               ir.operands.size();
  }

  template <typename Table>
  void target(const Scope& s, const Table& table, std::uint32_t v,
              const char* what) {
    if (v >= table.size())
      problem(s.where, fmt::format("an unresolved {}", what));
  }

  void arg(const Scope& s, const Inst& inst, ArgKind kind, std::uint32_t v) {
    const BodyIr& ir = program_.bodies;
    const Body& b = *s.body;
    switch (kind) {
      case ArgKind::None:
      case ArgKind::Bits64:
        return;
      case ArgKind::Inst:
        return operand(s, v, false);
      case ArgKind::OptInst:
        return operand(s, v, true);
      case ArgKind::Insts:
        if (!listInRange(v)) {
          problem(s.where, "an operand list out of range");
          return;
        }
        for (InstId id : ir.list(InstListId(v))) operand(s, id.index(), false);
        return;
      case ArgKind::Slot:
        if (v < b.firstSlot || v >= b.endSlot)
          problem(s.where, "a slot outside its body");
        return;
      case ArgKind::Param:
        if (v >= b.owner.params().size())
          problem(s.where, "an unresolved parameter");
        return;
      case ArgKind::Store:
        if (b.agent == nullptr || v >= b.agent->stores.size())
          problem(s.where, "an unresolved store");
        return;
      case ArgKind::Dep: {
        DepRef dep = DepRef::decode(v);
        const std::vector<DependencyInfo>* given = nullptr;
        if (dep.list == DepRef::List::Service && b.service != nullptr)
          given = &b.service->given;
        if (dep.list == DepRef::List::Handler && b.owner.handler() != nullptr)
          given = b.owner.given();
        if (dep.list == DepRef::List::Fn && b.owner.fn() != nullptr)
          given = b.owner.given();
        if (given == nullptr || dep.index >= given->size())
          problem(s.where, "an unresolved dependency");
        return;
      }
      case ArgKind::Capability:
        return target(s, ir.capabilities, v, "capability");
      case ArgKind::Fn:
        return target(s, ir.fns, v, "fn");
      case ArgKind::Handler:
        return target(s, ir.handlers, v, "handler");
      case ArgKind::Variant:
        return target(s, ir.variants, v, "variant");
      case ArgKind::CapOp:
        return target(s, ir.capOps, v, "capability operation");
      case ArgKind::Event:
        return target(s, ir.events, v, "event");
      case ArgKind::Field:
        if (v >= fieldCount(inst)) problem(s.where, "an unresolved field");
        return;
      case ArgKind::String:
        if (v >= ir.strings.size()) problem(s.where, "a string out of range");
        return;
    }
  }

  // A match's arms are arm instructions, and code generation takes the
  // match's value from them as they are: each must already have the
  // match's type (or never produce a value).
  void armTypes(const Scope& s, const Inst& match) {
    const BodyIr& ir = program_.bodies;
    if (!listInRange(match.b)) return;
    for (InstId id : ir.list(InstListId(match.b))) {
      if (id.index() >= ir.insts.size()) continue;
      if (!ir[id].is<MatchArm>()) {
        problem(s.where, "an arm that is not an arm instruction");
        continue;
      }
      const Type* t = program_.types.byId(ir[id].type);
      if (ir[id].type != match.type && t != nullptr &&
          t->kind != TypeKind::Never)
        problem(s.where, "an arm's value does not have the match's type");
    }
  }

  // A map literal's operands are key/value pairs, each of the map's key
  // and value type (or never producing a value).
  void mapEntries(const Scope& s, const Inst& map) {
    const BodyIr& ir = program_.bodies;
    const Type* t = program_.types.byId(map.type);
    if (t == nullptr || t->kind != TypeKind::Map) {
      problem(s.where, "a map literal whose type is not a Map");
      return;
    }
    if (!listInRange(map.a)) return;
    llvm::ArrayRef<InstId> parts = ir.list(InstListId(map.a));
    if (parts.size() % 2 != 0)
      problem(s.where, "a map literal with a key and no value");
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].index() >= ir.insts.size()) continue;
      const Type* part = program_.types.byId(ir[parts[i]].type);
      const Type* want = i % 2 == 0 ? t->arg0 : t->arg1;
      if (part != want && part != nullptr && part->kind != TypeKind::Never)
        problem(s.where, i % 2 == 0
                             ? "a map key does not have the map's key type"
                             : "a map value does not have the map's value "
                               "type");
    }
  }

  void body(std::uint32_t id) {
    const BodyIr& ir = program_.bodies;
    const Body& b = ir.bodies[id];
    std::string where = fmt::format("body {}", id);
    if (!b.owner.valid()) problem(where, "no owner");
    if (!b.root.valid() || b.root.index() < b.firstInst ||
        b.root.index() >= b.endInst)
      problem(where, "the root is not an instruction of the body");
    for (std::uint32_t i = b.firstSlot; i < b.endSlot; ++i)
      type(fmt::format("{} slot ${}", where, i - b.firstSlot),
           program_.types.byId(ir.slots[i].type));
    for (std::uint32_t i = b.firstInst; i < b.endInst; ++i) {
      const Inst& inst = ir.insts[i];
      const InstKindInfo& info = instKindInfo(inst.kind);
      Scope s{
          &b, i,
          fmt::format("{} %{} ({})", where, i - b.firstInst, info.spelling)};
      if (inst.kind == InstKind::Invalid)
        problem(s.where, "an instruction an error was reported for");
      type(s.where, program_.types.byId(inst.type));
      arg(s, inst, info.a, inst.a);
      if (info.a != ArgKind::Bits64) arg(s, inst, info.b, inst.b);
      if (inst.kind == InstKind::MapLit) mapEntries(s, inst);
      if (inst.kind == InstKind::Match) armTypes(s, inst);
    }
  }

  const Program& program_;
  std::vector<std::string> problems_;
};

}  // namespace

std::vector<std::string> verifyIr(const Program& program) {
  return Verifier(program).run();
}

}  // namespace herald::check
