// Herald evaluates operands left to right; C++ leaves the order of a
// function's arguments open. A call with two or more operands that have
// effects (a capability call, a store write, an agent fn that commits,
// `fail`) therefore computes its operands into locals first, in order,
// inside a lambda, so that they keep their order and their laziness under
// `&&`, `||` and `if`.
#include "codegen/lower_lowerer.h"

namespace herald::codegen::lower {

using check::Inst;
using check::InstId;
using check::InstKind;

bool Lowerer::effects(InstId id) {
  std::uint32_t at = id.index() - body_.firstInst;
  if (at < effects_.size() && effects_[at] != 0) return effects_[at] == 2;
  const Inst& i = inst(id);
  bool has = i.kind == InstKind::CapCall || i.kind == InstKind::StoreWrite ||
             i.kind == InstKind::Fail || i.kind == InstKind::Message ||
             i.kind == InstKind::Emit;
  if (i.is<check::CallFn>()) {
    const check::FnInfo& fn = *program_.bodies.fns[i.as<check::CallFn>().fn];
    has = fn.agent != nullptr && !effectFree(fn);
  }
  check::forEachOperand(program_.bodies, i, [&](InstId op) {
    if (!has) has = effects(op);
  });
  if (at < effects_.size()) effects_[at] = has ? 2 : 1;
  return has;
}

Cpp Lowerer::sequence(
    llvm::ArrayRef<InstId> ids, llvm::ArrayRef<const check::Type*> wants,
    const check::Type* result,
    const std::function<std::string(std::size_t)>& one,
    const std::function<Cpp(std::vector<std::string>)>& build) {
  std::size_t effectful = 0;
  for (InstId id : ids) effectful += effects(id) ? 1 : 0;
  std::vector<std::string> texts;
  if (effectful < 2) {
    for (std::size_t k = 0; k < ids.size(); ++k) texts.push_back(one(k));
    return build(std::move(texts));
  }
  std::string saved = std::move(out_);
  out_.clear();
  unsigned savedIndent = indent_;
  indent_ += 2;
  ++lambdaDepth_;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    std::string name = fresh("arg");
    line("const auto " + name + " = " +
         exact(ids[k], k < wants.size() ? wants[k] : nullptr) + ";");
    texts.push_back(name);
  }
  Cpp call = build(std::move(texts));
  bool unit = call.isVoid || isUnit(result) || isNever(result);
  line((unit ? "" : "return ") + call.text + ";");
  --lambdaDepth_;
  indent_ = savedIndent;
  std::string body = std::move(out_);
  out_ = std::move(saved);
  Cpp c;
  c.text = std::string(nonLocal_ && lambdaDepth_ == 0 ? "[]" : "[&]") + "()" +
           (unit ? "" : " -> " + spelling_.type(result)) + " {\n" + body +
           std::string(indent_, ' ') + "}()";
  c.isVoid = unit;
  return c;
}

}  // namespace herald::codegen::lower
