// Calls with resolved targets: fns (context-level, static, agent and
// service ones), variants, capability operations, messages and the
// built-in methods of String, List, Option and Map.
#include "codegen/lower_lowerer.h"

namespace herald::codegen::lower {

using check::BuiltinMethod;
using check::FirstParty;
using check::Inst;
using check::InstId;
using check::Type;

namespace {

Cpp make(std::string text, bool isVoid = false) {
  Cpp c;
  c.text = std::move(text);
  c.isVoid = isVoid;
  return c;
}

}  // namespace

std::string Lowerer::args(llvm::ArrayRef<std::uint32_t> ids,
                          const std::vector<check::FieldInfo>& params,
                          std::size_t skip) {
  std::string out;
  for (std::size_t k = skip; k < ids.size(); ++k) {
    if (k != skip) out += ", ";
    std::size_t p = k - skip;
    out += value(InstId{ids[k]}, p < params.size() ? params[p].type : nullptr);
  }
  return out;
}

std::string Lowerer::capability(const check::CapabilityInfo& cap) {
  return "tx.capability<" + spelling_.decl(cap) + ">(\"" + cap.qualified +
         "\")";
}

Cpp Lowerer::call(const Inst& i) {
  const check::FnInfo& fn = *program_.bodies.fns[i.a];
  std::string a = args(list(i.b), fn.sig.params);
  bool isVoid = isUnit(fn.sig.result) || isNever(fn.sig.result);
  std::string name = cppName(fn.name);
  if (fn.ownerType != nullptr) {
    // README.md, "Types": a member of the type, or `T_name` beside an
    // enum class.
    std::string owner = spelling_.decl(*fn.ownerType);
    std::string callee =
        isEnumSum(fn.ownerType) && fn.ownerType->def == check::TypeDefKind::Sum
            ? owner + "_" + name
            : owner + "::" + name;
    return make(callee + "(" + a + ")", isVoid);
  }
  if (fn.agent != nullptr) {
    std::string lead = effectFree(fn) ? "s, " : "tx, s, ";
    lead += keyName();
    return make(cppName(fn.agent->name) + "_" + name + "(" + lead +
                    (a.empty() ? "" : ", " + a) + ")",
                isVoid);
  }
  if (fn.service != nullptr)
    return make(cppName(fn.service->name) + "_" + name + "(" + a + ")", isVoid);
  return make(spelling_.decl(fn) + "(" + a + ")", isVoid);
}

Cpp Lowerer::variant(const Inst& i) {
  const auto& [sum, v] = program_.bodies.variants[i.a];
  std::string s = spelling_.decl(*sum);
  if (isEnumSum(sum)) return make(s + "::" + cppName(v->name));
  spelling_.useHeader("<variant>");
  llvm::ArrayRef<std::uint32_t> ops = list(i.b);
  std::string fields;
  for (std::size_t k = 0; k < ops.size() && k < v->fields.size(); ++k) {
    if (k != 0) fields += ", ";
    fields += "." + cppName(v->fields[k].name) + " = " +
              value(InstId{ops[k]}, v->fields[k].type);
  }
  return make(s + "{" + s + "::" + cppName(v->name) + "{" + fields + "}}");
}

Cpp Lowerer::capCall(const Inst& i) {
  const auto& [cap, op] = program_.bodies.capOps[i.a];
  llvm::ArrayRef<std::uint32_t> ops = list(i.b);
  std::string a = args(ops, op->sig.params, 1);
  bool isVoid = isUnit(op->sig.result) || isNever(op->sig.result);
  std::string name = cppName(op->name);
  switch (cap->firstParty) {
    case FirstParty::None:
      return make(value(InstId{ops[0]}) + "." + name + "(" + a + ")", isVoid);
    case FirstParty::Events:
      return make("tx.events()." + name + "(" + a + ")", isVoid);
    case FirstParty::Clock:
      return make("tx.clock()." + name + "(" + a + ")", isVoid);
    case FirstParty::Logger:
      return make("tx.logger()." + name + "(" + a + ")", isVoid);
    case FirstParty::Idempotency:
      return make("tx.idempotency()." + name + "(" + a + ")", isVoid);
    case FirstParty::Random:
      // `Random.uuid` is a String: the text form of the runtime's id.
      if (op->name == "uuid") return make("tx.random().uuid().str()");
      return make("tx.random().next_int(" + a + ")");
  }
  return make("");
}

Cpp Lowerer::message(const Inst& i) {
  const auto& [agent, handler] = program_.bodies.handlers[i.a];
  llvm::ArrayRef<std::uint32_t> ops = list(i.b);
  std::string a = args(ops, handler->params, 1);
  return make(operand(InstId{ops[0]}, Prec::Primary) + "." +
                  cppName(handler->name) + "(tx" + (a.empty() ? "" : ", " + a) +
                  ")",
              true);
}

Cpp Lowerer::method(const Inst& i) {
  llvm::ArrayRef<std::uint32_t> ops = list(i.a);
  InstId recv{ops[0]};
  const Type* rt = typeOf(recv);
  // The element, key and value types a built-in's arguments have.
  const Type* arg0 = rt != nullptr ? rt->arg0 : nullptr;
  const Type* arg1 = rt != nullptr ? rt->arg1 : nullptr;
  auto arg = [&](std::size_t k, const Type* want) {
    return exact(InstId{ops[k]}, want);
  };
  // A receiver of a C++ member call: a std::string even when written as a
  // literal.
  auto self = [&]() { return exactOperand(recv, Prec::Primary); };
  spelling_.useHeader("<herald/ops.hpp>");
  switch (static_cast<BuiltinMethod>(i.sub)) {
    case BuiltinMethod::StringLen:
    case BuiltinMethod::ListLen:
    case BuiltinMethod::MapLen:
      return make("herald::ops::len(" + value(recv) + ")");
    case BuiltinMethod::StringConcat: {
      Cpp c = make(self() + " + " + operand(InstId{ops[1]}, Prec::Mul, rt));
      c.prec = Prec::Add;
      return c;
    }
    case BuiltinMethod::StringContains:
      return make("herald::ops::contains(" + value(recv) + ", " +
                  value(InstId{ops[1]}, rt) + ")");
    case BuiltinMethod::ListContains:
      return make("herald::ops::contains(" + exact(recv) + ", " + arg(1, arg0) +
                  ")");
    case BuiltinMethod::StringStartsWith:
      return make(self() + ".starts_with(" + value(InstId{ops[1]}, rt) + ")");
    case BuiltinMethod::StringUpper:
      return make("herald::ops::upper(" + value(recv) + ")");
    case BuiltinMethod::StringLower:
      return make("herald::ops::lower(" + value(recv) + ")");
    case BuiltinMethod::ListAppend:
      return make("herald::ops::append(" + exact(recv) + ", " + arg(1, arg0) +
                  ")");
    case BuiltinMethod::OptionGetOr:
      return make(self() + ".value_or(" + value(InstId{ops[1]}, arg0) + ")");
    case BuiltinMethod::OptionIsSome:
      return make(self() + ".has_value()");
    case BuiltinMethod::MapGet:
      return make("herald::ops::get(" + exact(recv) + ", " + arg(1, arg0) +
                  ")");
    case BuiltinMethod::MapPut:
      return make("herald::ops::put(" + exact(recv) + ", " + arg(1, arg0) +
                  ", " + arg(2, arg1) + ")");
    case BuiltinMethod::MapRemove:
      return make("herald::ops::remove(" + exact(recv) + ", " + arg(1, arg0) +
                  ")");
  }
  return make("");
}

}  // namespace herald::codegen::lower
