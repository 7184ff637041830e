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
  llvm::ArrayRef<InstId> ops = list(block.as<check::Block>().stmts);
  const check::Type* t = type(block.type);
  bool hasValue = !isUnit(t) && !isNever(t);
  for (std::size_t k = 0; k < ops.size(); ++k) {
    if (k + 1 < ops.size()) {
      statement(ops[k]);
      continue;
    }
    tail(ops[k], hasValue ? sink : Sink::Discard);
  }
}

void Lowerer::statement(InstId id) {
  const Inst& i = inst(id);
  if (i.kind == InstKind::Let) {
    const check::Let let = i.as<check::Let>();
    const check::Type* slotType = type(program_.bodies[let.slot].type);
    std::string v = exact(let.value, slotType);
    line(declareSlot(let.slot) + v + ";");
    return;
  }
  if (i.kind == InstKind::StoreWrite) {
    const check::StoreWrite write = i.as<check::StoreWrite>();
    const check::FieldInfo& store = body_.agent->stores[write.store].field;
    line("s." + cppName(store.name) + " = " + value(write.value, store.type) +
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
  // The condition of an If or IfElse.
  auto cond = [](const Inst& in) {
    return in.is<check::If>() ? in.as<check::If>().cond
                              : in.as<check::IfElse>().cond;
  };
  const Inst* i = &first;
  line("if (" + value(cond(*i)) + ") {");
  for (;;) {
    indent_ += 2;
    if (i->is<check::If>()) {
      tail(i->as<check::If>().then, Sink::Discard);
      indent_ -= 2;
      break;
    }
    llvm::ArrayRef<InstId> branches = list(i->as<check::IfElse>().branches);
    tail(branches[0], sink);
    indent_ -= 2;
    // `else { if ... }` with nothing else in the block is `else if`.
    const Inst* next = &inst(branches[1]);
    if (next->is<check::Block>()) {
      llvm::ArrayRef<InstId> stmts = list(next->as<check::Block>().stmts);
      if (stmts.size() == 1) next = &inst(stmts[0]);
    }
    if (next->kind == InstKind::IfElse ||
        (next->kind == InstKind::If && sink == Sink::Discard)) {
      i = next;
      line("} else if (" + value(cond(*i)) + ") {");
      continue;
    }
    line("} else {");
    indent_ += 2;
    tail(branches[1], sink);
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
