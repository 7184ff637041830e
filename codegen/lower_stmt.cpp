// Statements: `let`, `:=`, blocks, `if` and the expressions whose value is
// discarded; a block, `if` or `match` in value position becomes an
// immediately invoked lambda around the same statements.
#include "codegen/lower_lowerer.h"

namespace herald::codegen::lower {

using check::Inst;
using check::InstId;
using check::InstKind;

void Lowerer::tail(InstId id, Sink sink) {
  const Inst& i = inst(id);
  if (i.kind == InstKind::Block) {
    blockStatements(i, sink);
    return;
  }
  if (i.kind == InstKind::If || i.kind == InstKind::IfElse) {
    ifStatement(i, sink);
    return;
  }
  if (i.kind == InstKind::Match) {
    match(i, sink);
    return;
  }
  if (sink == Sink::Discard || isNever(type(i.type)) || isUnit(type(i.type))) {
    statement(id);
    return;
  }
  line("return " + value(id) + ";");
}

void Lowerer::blockStatements(const Inst& block, Sink sink) {
  llvm::ArrayRef<std::uint32_t> ops = list(block.a);
  const check::Type* t = type(block.type);
  bool hasValue = !isUnit(t) && !isNever(t);
  for (std::size_t k = 0; k < ops.size(); ++k) {
    if (k + 1 < ops.size()) {
      statement(InstId{ops[k]});
      continue;
    }
    tail(InstId{ops[k]}, hasValue ? sink : Sink::Discard);
  }
}

void Lowerer::statement(InstId id) {
  const Inst& i = inst(id);
  if (i.kind == InstKind::Let) {
    const check::Type* slotType = type(program_.bodies.slots[i.a].type);
    std::string v = exact(InstId{i.b}, slotType);
    line(declareSlot(i.a) + v + ";");
    return;
  }
  if (i.kind == InstKind::StoreWrite) {
    const check::FieldInfo& store = body_.agent->stores[i.a].field;
    line("s." + cppName(store.name) + " = " + value(InstId{i.b}, store.type) +
         ";");
    return;
  }
  if (i.kind == InstKind::Block) {
    line("{");
    indent_ += 2;
    blockStatements(i, Sink::Discard);
    indent_ -= 2;
    line("}");
    return;
  }
  if (i.kind == InstKind::If || i.kind == InstKind::IfElse ||
      i.kind == InstKind::Match) {
    tail(id, Sink::Discard);
    return;
  }
  Cpp c = expr(id);
  if (c.isVoid)
    line(c.text + ";");
  else
    line("static_cast<void>(" + c.text + ");");
}

void Lowerer::ifStatement(const Inst& first, Sink sink) {
  const Inst* i = &first;
  line("if (" + value(InstId{i->a}) + ") {");
  for (;;) {
    indent_ += 2;
    if (i->kind == InstKind::If) {
      tail(InstId{i->b}, Sink::Discard);
      indent_ -= 2;
      break;
    }
    llvm::ArrayRef<std::uint32_t> branches = list(i->b);
    tail(InstId{branches[0]}, sink);
    indent_ -= 2;
    // `else { if ... }` with nothing else in the block is `else if`.
    const Inst* next = &inst(InstId{branches[1]});
    if (next->kind == InstKind::Block && list(next->a).size() == 1)
      next = &inst(InstId{list(next->a)[0]});
    if (next->kind == InstKind::IfElse ||
        (next->kind == InstKind::If && sink == Sink::Discard)) {
      i = next;
      line("} else if (" + value(InstId{i->a}) + ") {");
      continue;
    }
    line("} else {");
    indent_ += 2;
    tail(InstId{branches[1]}, sink);
    indent_ -= 2;
    break;
  }
  line("}");
}

Cpp Lowerer::lambda(InstId id, const check::Type* want) {
  const check::Type* t = type(inst(id).type);
  if (isNever(t) && want != nullptr && !isNever(want)) t = want;
  bool unit = isUnit(t) || isNever(t);
  std::string saved = std::move(out_);
  out_.clear();
  unsigned savedIndent = indent_;
  indent_ += 2;
  ++lambdaDepth_;
  tail(id, unit ? Sink::Discard : Sink::Return);
  --lambdaDepth_;
  indent_ = savedIndent;
  std::string body = std::move(out_);
  out_ = std::move(saved);
  std::string capture = nonLocal_ && lambdaDepth_ == 0 ? "[]" : "[&]";
  std::string text = capture + "()";
  if (!unit) text += " -> " + spelling_.type(t);
  text += " {\n" + body + std::string(indent_, ' ') + "}()";
  Cpp c;
  c.text = std::move(text);
  c.isVoid = unit;
  return c;
}

}  // namespace herald::codegen::lower
