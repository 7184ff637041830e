// The constant value of a lowered instruction. The instructions a value is
// built from are collected first (a walk with a stack of its own), then
// evaluated in lowering order, operands before their users, so that a
// constant of any depth costs no stack and each instruction is evaluated
// once.
#include "checker/eval.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>

#include "ir/inst_views.h"

namespace herald::check {

namespace {

constexpr std::uint64_t kMaxInt =
    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

class Evaluator {
 public:
  explicit Evaluator(const Program& program)
      : program_(program), ir_(program.bodies) {}

  std::optional<ConstValue> run(InstId root, InstId* blocker) {
    InstId stop = collect(root);
    if (!stop.valid()) {
      std::sort(order_.begin(), order_.end());
      for (std::uint32_t index : order_) {
        InstId id(index);
        if (!evaluate(id, stop)) break;
      }
    }
    if (stop.valid()) {
      if (blocker != nullptr) *blocker = stop;
      return std::nullopt;
    }
    auto it = values_.find(root.index());
    if (it == values_.end()) {
      if (blocker != nullptr) *blocker = root;
      return std::nullopt;
    }
    return std::move(it->second);
  }

 private:
  // Every instruction `root` is built from, into order_; the first (in
  // lowering order) that is no constant, or an invalid id.
  InstId collect(InstId root) {
    llvm::SmallVector<InstId, 16> stack{root};
    llvm::DenseSet<std::uint32_t> seen;
    InstId stop;
    auto consider = [&](InstId blocker) {
      if (!stop.valid() || blocker.index() < stop.index()) stop = blocker;
    };
    while (!stack.empty()) {
      InstId id = stack.pop_back_val();
      if (!seen.insert(id.index()).second) continue;
      const Inst& inst = ir_[id];
      if (!buildsConstant(inst)) {
        consider(id);
        continue;
      }
      order_.push_back(id.index());
      forEachOperand(ir_, inst,
                     [&](InstId operand) { stack.push_back(operand); });
    }
    return stop;
  }

  // Whether an instruction of this kind makes a constant of constant
  // operands.
  static bool buildsConstant(const Inst& inst) {
    switch (inst.kind) {
      case InstKind::IntLit:
      case InstKind::FloatLit:
      case InstKind::BoolLit:
      case InstKind::StringLit:
      case InstKind::UnitLit:
      case InstKind::DurationLit:
      case InstKind::ListLit:
      case InstKind::MapLit:
      case InstKind::RecordLit:
      case InstKind::Binary:
      case InstKind::Variant:
      case InstKind::OptionSome:
      case InstKind::OptionNone:
      case InstKind::OpaqueBuild:
      case InstKind::RefineCheck:
      case InstKind::Unrefine:
        return true;
      case InstKind::Unary:
        return inst.as<Unary>().op == ast::UnaryOp::Neg;
      case InstKind::Invalid:
      case InstKind::Interpolate:
      case InstKind::EventLit:
      case InstKind::FieldDefault:
      case InstKind::ParamRef:
      case InstKind::KeyRef:
      case InstKind::StoreRef:
      case InstKind::LocalRef:
      case InstKind::ActorRef:
      case InstKind::Dependency:
      case InstKind::CapabilityName:
      case InstKind::Let:
      case InstKind::StoreWrite:
      case InstKind::Block:
      case InstKind::If:
      case InstKind::IfElse:
      case InstKind::Match:
      case InstKind::MatchArm:
      case InstKind::Fail:
      case InstKind::PatWildcard:
      case InstKind::PatBind:
      case InstKind::PatLiteral:
      case InstKind::PatRange:
      case InstKind::PatNone:
      case InstKind::PatSome:
      case InstKind::PatVariant:
      case InstKind::PatRecord:
      case InstKind::PatOr:
      case InstKind::CallFn:
      case InstKind::OpaqueRaw:
      case InstKind::FieldGet:
      case InstKind::EnvelopeGet:
      case InstKind::AgentRef:
      case InstKind::Message:
      case InstKind::CapCall:
      case InstKind::Emit:
      case InstKind::Method:
        return false;
    }
    return false;
  }

  const ConstValue* value(InstId id) const {
    auto it = values_.find(id.index());
    return it != values_.end() ? &it->second : nullptr;
  }

  // The value of `id` from its operands' values; false (with `stop` set)
  // when it has none.
  bool evaluate(InstId id, InstId& stop) {
    const Inst& inst = ir_[id];
    ConstValue out;
    out.type = program_.types.byId(inst.type);
    // A child of `out`, or the instruction that stops the evaluation.
    auto child = [&](InstId operand) {
      const ConstValue* v = value(operand);
      if (v == nullptr) {
        stop = operand;
        return false;
      }
      out.children.push_back(*v);
      return true;
    };
    auto children = [&](InstListId list) {
      for (InstId operand : ir_.list(list))
        if (!child(operand)) return false;
      return true;
    };
    switch (inst.kind) {
      case InstKind::IntLit:
        // A magnitude past the largest Int is a value only under its `-`.
        if (inst.as<IntLit>().value > kMaxInt) return true;
        out.kind = ConstValue::Kind::Int;
        out.integer = static_cast<std::int64_t>(inst.as<IntLit>().value);
        break;
      case InstKind::FloatLit:
        out.kind = ConstValue::Kind::Float;
        out.real = std::bit_cast<double>(inst.as<FloatLit>().value);
        break;
      case InstKind::BoolLit:
        out.kind = ConstValue::Kind::Bool;
        out.boolean = inst.as<BoolLit>().value;
        break;
      case InstKind::StringLit:
        out.kind = ConstValue::Kind::String;
        out.text = ir_[inst.as<StringLit>().text].str();
        break;
      case InstKind::UnitLit:
        out.kind = ConstValue::Kind::Unit;
        break;
      case InstKind::DurationLit:
        out.kind = ConstValue::Kind::Duration;
        out.integer = static_cast<std::int64_t>(inst.as<DurationLit>().ms);
        break;
      case InstKind::Unary:
        if (!negate(inst, out)) return fail(id, stop);
        break;
      case InstKind::Binary:
        if (!arithmetic(inst, out)) return fail(id, stop);
        break;
      case InstKind::ListLit:
        out.kind = ConstValue::Kind::List;
        if (!children(inst.as<ListLit>().elements)) return false;
        break;
      case InstKind::MapLit:
        out.kind = ConstValue::Kind::Map;
        if (!children(inst.as<MapLit>().entries)) return false;
        break;
      case InstKind::RecordLit: {
        const Type* type = out.type;
        if (type == nullptr || type->kind != TypeKind::Named)
          return fail(id, stop);
        out.kind = ConstValue::Kind::Record;
        for (const FieldInfo& field : type->named->fields)
          out.names.push_back(field.name);
        if (!children(inst.as<RecordLit>().fields)) return false;
        break;
      }
      case InstKind::Variant: {
        auto view = inst.as<Variant>();
        const VariantInfo& variant = *ir_.variants[view.variant].second;
        out.kind = ConstValue::Kind::Variant;
        out.variant = variant.name;
        for (const FieldInfo& field : variant.fields)
          out.names.push_back(field.name);
        if (!children(view.args)) return false;
        break;
      }
      case InstKind::OptionSome:
        out.kind = ConstValue::Kind::Some;
        if (!child(inst.as<OptionSome>().value)) return false;
        break;
      case InstKind::OptionNone:
        out.kind = ConstValue::Kind::None;
        break;
      case InstKind::OpaqueBuild:
        out.kind = ConstValue::Kind::Opaque;
        if (!child(inst.as<OpaqueBuild>().value)) return false;
        break;
      case InstKind::RefineCheck:
        out.kind = ConstValue::Kind::Opaque;
        if (!child(inst.as<RefineCheck>().value)) return false;
        break;
      case InstKind::Unrefine: {
        // The refined value's base value.
        const ConstValue* refined = value(inst.as<Unrefine>().value);
        if (refined == nullptr) return fail(inst.as<Unrefine>().value, stop);
        if (refined->kind != ConstValue::Kind::Opaque ||
            refined->children.empty())
          return fail(id, stop);
        values_[id.index()] = refined->children[0];
        return true;
      }
      case InstKind::Invalid:
      case InstKind::Interpolate:
      case InstKind::EventLit:
      case InstKind::FieldDefault:
      case InstKind::ParamRef:
      case InstKind::KeyRef:
      case InstKind::StoreRef:
      case InstKind::LocalRef:
      case InstKind::ActorRef:
      case InstKind::Dependency:
      case InstKind::CapabilityName:
      case InstKind::Let:
      case InstKind::StoreWrite:
      case InstKind::Block:
      case InstKind::If:
      case InstKind::IfElse:
      case InstKind::Match:
      case InstKind::MatchArm:
      case InstKind::Fail:
      case InstKind::PatWildcard:
      case InstKind::PatBind:
      case InstKind::PatLiteral:
      case InstKind::PatRange:
      case InstKind::PatNone:
      case InstKind::PatSome:
      case InstKind::PatVariant:
      case InstKind::PatRecord:
      case InstKind::PatOr:
      case InstKind::CallFn:
      case InstKind::OpaqueRaw:
      case InstKind::FieldGet:
      case InstKind::EnvelopeGet:
      case InstKind::AgentRef:
      case InstKind::Message:
      case InstKind::CapCall:
      case InstKind::Emit:
      case InstKind::Method:
        return fail(id, stop);
    }
    values_[id.index()] = std::move(out);
    return true;
  }

  static bool fail(InstId id, InstId& stop) {
    stop = id;
    return false;
  }

  // `-x` of an Int, a Duration or a Float.
  bool negate(const Inst& inst, ConstValue& out) const {
    InstId operandId = inst.as<Unary>().operand;
    const Inst& operand = ir_[operandId];
    if (operand.is<IntLit>() && operand.as<IntLit>().value == kMaxInt + 1) {
      out.kind = ConstValue::Kind::Int;
      out.integer = std::numeric_limits<std::int64_t>::min();
      return true;
    }
    const ConstValue* v = value(operandId);
    if (v == nullptr) return false;
    if (v->kind == ConstValue::Kind::Float) {
      out.kind = ConstValue::Kind::Float;
      out.real = -v->real;
      return true;
    }
    if (v->kind != ConstValue::Kind::Int &&
        v->kind != ConstValue::Kind::Duration)
      return false;
    Folded folded = foldNegation(v->integer);
    if (folded.status != Folded::Status::Value) return false;
    out.kind = v->kind;
    out.integer = folded.value;
    return true;
  }

  // Int arithmetic, and `+ -` on Durations, checked.
  bool arithmetic(const Inst& inst, ConstValue& out) const {
    Binary binary = inst.as<Binary>();
    std::optional<FoldDomain> domain = foldDomain(out.type);
    const ConstValue* lhs = value(binary.lhs);
    const ConstValue* rhs = value(binary.rhs);
    if (!domain || lhs == nullptr || rhs == nullptr) return false;
    auto integer = [](const ConstValue& v) -> std::optional<std::int64_t> {
      if (v.kind == ConstValue::Kind::Int ||
          v.kind == ConstValue::Kind::Duration)
        return v.integer;
      return std::nullopt;
    };
    std::optional<std::int64_t> a = integer(*lhs);
    std::optional<std::int64_t> b = integer(*rhs);
    if (!a || !b) return false;
    Folded folded = foldBinary(binary.op, *domain, *a, *b);
    if (folded.status != Folded::Status::Value) return false;
    out.kind = *domain == FoldDomain::Int ? ConstValue::Kind::Int
                                          : ConstValue::Kind::Duration;
    out.integer = folded.value;
    return true;
  }

  const Program& program_;
  const BodyIr& ir_;
  std::vector<std::uint32_t> order_;
  llvm::DenseMap<std::uint32_t, ConstValue> values_;
};

}  // namespace

std::optional<ConstValue> constantOf(const Program& program, InstId id,
                                     InstId* blocker) {
  if (!id.valid()) return std::nullopt;
  return Evaluator(program).run(id, blocker);
}

}  // namespace herald::check
