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

Cpp callExpr(std::string text, bool isVoid = false) {
  Cpp c;
  c.text = std::move(text);
  c.isVoid = isVoid;
  return c;
}

}  // namespace

Cpp Lowerer::arguments(llvm::ArrayRef<InstId> ids,
                       const std::vector<check::FieldInfo>& params,
                       const Type* result,
                       const std::function<Cpp(std::string)>& build) {
  std::vector<const Type*> wants;
  for (std::size_t k = 0; k < ids.size(); ++k)
    wants.push_back(k < params.size() ? params[k].type : nullptr);
  return sequence(
      ids, wants, result,
      [&](std::size_t k) { return value(ids[k], wants[k]); },
      [&](const std::vector<std::string>& texts) {
        std::string joined;
        for (const std::string& t : texts)
          joined += (joined.empty() ? "" : ", ") + t;
        return build(std::move(joined));
      });
}

std::string Lowerer::capability(const check::CapabilityInfo& cap) {
  if (const check::HandlerInfo* h = body_.owner.handler()) {
    std::string passed = capabilityParam(body_.service, *h, cap);
    if (!passed.empty()) return passed;
  }
  return "tx.capability<" + spelling_.decl(cap) + ">(\"" + cap.qualified +
         "\")";
}

Cpp Lowerer::call(const Inst& i) {
  const check::CallFn c = i.as<check::CallFn>();
  const check::FnInfo& fn = *program_.bodies.fns[c.fn];
  bool isVoid = isUnit(fn.sig.result) || isNever(fn.sig.result);
  std::string name = cppName(fn.name);
  std::string callee;
  std::string lead;
  if (fn.ownerType != nullptr) {
    // README.md, "Types": a member of the type, or `T_name` beside an
    // enum class.
    std::string owner = spelling_.decl(*fn.ownerType);
    callee =
        isEnumSum(fn.ownerType) && fn.ownerType->def == check::TypeDefKind::Sum
            ? owner + "_" + name
            : owner + "::" + name;
  } else if (fn.agent != nullptr) {
    callee = cppName(fn.agent->name) + "_" + name;
    lead = (effectFree(fn) ? "s, " : "tx, s, ") + keyName();
  } else if (fn.service != nullptr) {
    callee = cppName(fn.service->name) + "_" + name;
  } else {
    callee = spelling_.decl(fn);
  }
  return arguments(list(c.args), fn.sig.params, fn.sig.result,
                   [&](const std::string& a) {
                     std::string all = lead;
                     if (!a.empty()) all += (all.empty() ? "" : ", ") + a;
                     return callExpr(callee + "(" + all + ")", isVoid);
                   });
}

Cpp Lowerer::variant(const Inst& i) {
  const check::Variant built = i.as<check::Variant>();
  const auto& [sum, v] = program_.bodies.variants[built.variant];
  std::string s = spelling_.decl(*sum);
  if (isEnumSum(sum)) return callExpr(s + "::" + cppName(v->name));
  spelling_.useHeader("<variant>");
  llvm::ArrayRef<InstId> ops = list(built.args);
  std::string fields;
  for (std::size_t k = 0; k < ops.size() && k < v->fields.size(); ++k) {
    if (k != 0) fields += ", ";
    fields += "." + cppName(v->fields[k].name) + " = " +
              value(ops[k], v->fields[k].type);
  }
  return callExpr(s + "{" + s + "::" + cppName(v->name) + "{" + fields + "}}");
}

Cpp Lowerer::capCall(const Inst& i) {
  const check::CapCall c = i.as<check::CapCall>();
  const auto& [cap, op] = program_.bodies.capOps[c.op];
  llvm::ArrayRef<InstId> ops = list(c.args);
  bool isVoid = isUnit(op->sig.result) || isNever(op->sig.result);
  std::string name = cppName(op->name);
  std::string callee;
  switch (cap->firstParty) {
    case FirstParty::None:
      callee = value(ops[0]) + "." + name;
      break;
    case FirstParty::Events:
      callee = "tx.events()." + name;
      break;
    case FirstParty::Clock:
      callee = "tx.clock()." + name;
      break;
    case FirstParty::Logger:
      callee = "tx.logger()." + name;
      break;
    case FirstParty::Idempotency:
      callee = "tx.idempotency()." + name;
      break;
    case FirstParty::Random:
      // `Random.uuid` is a String: the text form of the runtime's id.
      if (op->name == "uuid") return callExpr("tx.random().uuid().str()");
      callee = "tx.random().next_int";
      break;
  }
  return arguments(ops.drop_front(), op->sig.params, op->sig.result,
                   [&](const std::string& a) {
                     return callExpr(callee + "(" + a + ")", isVoid);
                   });
}

Cpp Lowerer::message(const Inst& i) {
  const check::Message m = i.as<check::Message>();
  const auto& [agent, handler] = program_.bodies.handlers[m.handler];
  llvm::ArrayRef<InstId> ops = list(m.args);
  // The receiver is evaluated before the arguments, in C++ as in Herald.
  std::string callee =
      operand(ops[0], Prec::Primary) + "." + cppName(handler->name);
  return arguments(
      ops.drop_front(), handler->params, nullptr, [&](const std::string& a) {
        return callExpr(callee + "(tx" + (a.empty() ? "" : ", " + a) + ")",
                        true);
      });
}

Cpp Lowerer::method(const Inst& i) {
  const check::Method m = i.as<check::Method>();
  llvm::ArrayRef<InstId> ops = list(m.args);
  InstId recv = ops[0];
  const Type* rt = typeOf(recv);
  // The element, key and value types a built-in's arguments have.
  const Type* arg0 = rt != nullptr ? rt->arg0 : nullptr;
  const Type* arg1 = rt != nullptr ? rt->arg1 : nullptr;
  auto arg = [&](std::size_t k, const Type* want) {
    return exact(ops[k], want);
  };
  // A receiver of a C++ member call: a std::string even when written as a
  // literal.
  auto self = [&]() { return exactOperand(recv, Prec::Primary); };
  spelling_.useHeader("<herald/ops.hpp>");
  switch (m.method) {
    case BuiltinMethod::StringLen:
    case BuiltinMethod::ListLen:
    case BuiltinMethod::MapLen:
      return callExpr("herald::ops::len(" + value(recv) + ")");
    case BuiltinMethod::StringConcat: {
      Cpp c = callExpr(self() + " + " + operand(ops[1], Prec::Mul, rt));
      c.prec = Prec::Add;
      return c;
    }
    case BuiltinMethod::StringContains:
      return callExpr("herald::ops::contains(" + value(recv) + ", " +
                      value(ops[1], rt) + ")");
    case BuiltinMethod::ListContains:
      return callExpr("herald::ops::contains(" + exact(recv) + ", " +
                      arg(1, arg0) + ")");
    case BuiltinMethod::StringStartsWith:
      return callExpr(self() + ".starts_with(" + value(ops[1], rt) + ")");
    case BuiltinMethod::StringUpper:
      return callExpr("herald::ops::upper(" + value(recv) + ")");
    case BuiltinMethod::StringLower:
      return callExpr("herald::ops::lower(" + value(recv) + ")");
    case BuiltinMethod::ListAppend:
      return callExpr("herald::ops::append(" + exact(recv) + ", " +
                      arg(1, arg0) + ")");
    case BuiltinMethod::OptionGetOr:
      return callExpr(self() + ".value_or(" + value(ops[1], arg0) + ")");
    case BuiltinMethod::OptionIsSome:
      return callExpr(self() + ".has_value()");
    case BuiltinMethod::MapGet:
      return callExpr("herald::ops::get(" + exact(recv) + ", " + arg(1, arg0) +
                      ")");
    case BuiltinMethod::MapPut:
      return callExpr("herald::ops::put(" + exact(recv) + ", " + arg(1, arg0) +
                      ", " + arg(2, arg1) + ")");
    case BuiltinMethod::MapRemove:
      return callExpr("herald::ops::remove(" + exact(recv) + ", " +
                      arg(1, arg0) + ")");
  }
  return callExpr("");
}

}  // namespace herald::codegen::lower
