// Expressions: literals, names, operators, constructions and field reads,
// each in the C++ spelling README.md ("Bodies") fixes.
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "codegen/lower_lowerer.h"

namespace herald::codegen::lower {

using ast::BinaryOp;
using check::Inst;
using check::InstId;
using check::InstKind;
using check::Type;
using check::TypeKind;

namespace {

Cpp make(std::string text, Prec prec = Prec::Primary) {
  Cpp c;
  c.text = std::move(text);
  c.prec = prec;
  return c;
}

}  // namespace

bool Lowerer::plain(InstId id) const {
  const Inst& i = inst(id);
  if (i.is<check::Block>()) {
    llvm::ArrayRef<InstId> ops = list(i.as<check::Block>().stmts);
    return ops.size() == 1 && plain(ops[0]);
  }
  if (i.is<check::Unrefine>()) return plain(i.as<check::Unrefine>().value);
  if (i.is<check::RefineCheck>())
    return plain(i.as<check::RefineCheck>().value);
  if (i.kind == InstKind::Let || i.kind == InstKind::StoreWrite ||
      i.kind == InstKind::If || i.kind == InstKind::IfElse ||
      i.kind == InstKind::Match || i.kind == InstKind::Fail ||
      i.kind == InstKind::Invalid)
    return false;
  return !isNever(typeOf(id)) && !isUnit(typeOf(id));
}

std::string paren(const Cpp& c, Prec limit) {
  if (c.prec > limit) return "(" + c.text + ")";
  return c.text;
}

std::string Lowerer::exactText(const Cpp& c, const Type* t) {
  if (c.isVoid) {
    spelling_.useHeader("<herald/ops.hpp>");
    return "(" + c.text + ", herald::Unit{})";
  }
  if (c.text == "std::nullopt") return spelling_.type(t) + "()";
  if (!c.exact) return spelling_.type(t) + "(" + c.text + ")";
  return c.text;
}

std::string Lowerer::operandText(Cpp c, Prec limit) {
  if (c.isVoid) {
    spelling_.useHeader("<herald/ops.hpp>");
    return "(" + c.text + ", herald::Unit{})";
  }
  // `- -5` must not read as a decrement.
  if (limit == Prec::Unary && !c.text.empty() && c.text[0] == '-')
    return "(" + c.text + ")";
  return paren(c, limit);
}

std::string Lowerer::exact(InstId id, const Type* want) {
  return exactText(expr(id, want), typeOf(id));
}

std::string Lowerer::exactOperand(InstId id, Prec limit, const Type* want) {
  Cpp c = expr(id, want);
  bool wrap = c.exact && !c.isVoid && c.prec > limit;
  std::string text = exactText(c, typeOf(id));
  return wrap ? "(" + text + ")" : text;
}

std::string Lowerer::value(InstId id, const Type* want) {
  return operandText(expr(id, want), Prec::Ternary);
}

std::string Lowerer::operand(InstId id, Prec limit, const Type* want) {
  return operandText(expr(id, want), limit);
}

Cpp Lowerer::literal(const Inst& i) {
  if (i.kind == InstKind::IntLit) {
    auto v = static_cast<std::int64_t>(i.as<check::IntLit>().value);
    if (v == std::numeric_limits<std::int64_t>::min()) {
      spelling_.useHeader("<limits>");
      return make("std::numeric_limits<std::int64_t>::min()");
    }
    Cpp c = make(std::to_string(v), v < 0 ? Prec::Unary : Prec::Primary);
    c.exact = false;
    return c;
  }
  if (i.kind == InstKind::FloatLit) {
    double d = 0;
    std::uint64_t b = i.as<check::FloatLit>().value;
    std::memcpy(&d, &b, sizeof d);
    if (std::isinf(d)) {
      spelling_.useHeader("<limits>");
      return make(std::string(d < 0 ? "-" : "") +
                      "std::numeric_limits<double>::infinity()",
                  d < 0 ? Prec::Unary : Prec::Primary);
    }
    // The shortest text that reads back as the same double.
    std::string text = fmt::format("{}", d);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return make(text, d < 0 ? Prec::Unary : Prec::Primary);
  }
  if (i.kind == InstKind::BoolLit)
    return make(i.as<check::BoolLit>().value ? "true" : "false");
  if (i.kind == InstKind::StringLit) {
    llvm::StringRef text = program_.bodies[i.as<check::StringLit>().text];
    spelling_.useHeader("<string>");
    if (text.contains('\0'))
      return make("std::string(" + cppStringLiteral(text) + ", " +
                  std::to_string(text.size()) + ")");
    Cpp c = make(cppStringLiteral(text));
    c.exact = false;
    return c;
  }
  if (i.kind == InstKind::UnitLit) {
    spelling_.useHeader("<herald/ops.hpp>");
    return make("herald::Unit{}");
  }
  // A DurationLit, in milliseconds; past about 292 years it does not fit
  // in the runtime's nanoseconds.
  auto ms = static_cast<std::int64_t>(i.as<check::DurationLit>().ms);
  spelling_.useHeader("<chrono>");
  constexpr std::int64_t kMaxMs =
      std::numeric_limits<std::int64_t>::max() / 1000000;
  if (ms > kMaxMs || ms < -kMaxMs) {
    spelling_.useHeader("<herald/ops.hpp>");
    return make("herald::ops::milliseconds(" + std::to_string(ms) + ")");
  }
  Cpp c = make("std::chrono::milliseconds(" + std::to_string(ms) + ")");
  c.exact = false;
  return c;
}

Cpp Lowerer::unary(const Inst& i, const Type* want) {
  const Type* t = type(i.type);
  const check::Unary u = i.as<check::Unary>();
  // `-fail(...)`: the operand never yields a value, so nothing is negated;
  // it is lowered as the value the context wants, as `fail(...)` is.
  if (isNever(t)) return expr(u.operand, want);
  if (u.op == ast::UnaryOp::Not)
    return make("!" + operand(u.operand, Prec::Unary, t), Prec::Unary);
  if (t->kind == TypeKind::Int) {
    // `-9223372036854775808`: the literal's magnitude is no Int, only the
    // negation is.
    const Inst& literal = inst(u.operand);
    if (literal.is<check::IntLit>() &&
        literal.as<check::IntLit>().value == std::uint64_t{1} << 63) {
      spelling_.useHeader("<limits>");
      return make("std::numeric_limits<std::int64_t>::min()");
    }
    // The negation of any other literal cannot overflow.
    if (literal.is<check::IntLit>()) {
      Cpp c = make("-" + std::to_string(literal.as<check::IntLit>().value),
                   Prec::Unary);
      c.exact = false;
      return c;
    }
    spelling_.useHeader("<herald/ops.hpp>");
    return make("herald::ops::neg(" + value(u.operand, t) + ")");
  }
  return make("-" + operand(u.operand, Prec::Unary, t), Prec::Unary);
}

Cpp Lowerer::binary(const Inst& i, const Type* want) {
  const check::Binary bin = i.as<check::Binary>();
  BinaryOp op = bin.op;
  InstId a = bin.lhs;
  InstId b = bin.rhs;
  const Type* lt = typeOf(a);
  const Type* rt = typeOf(b);
  // `fail(...) + fail(...)`: the left operand fails first and the operator
  // never runs; it is lowered as the value the context wants (a Bool for a
  // comparison), as `fail(...)` is.
  if (isNever(lt) && isNever(rt))
    return expr(a, isNever(type(i.type)) ? want : type(i.type));
  if (isNever(lt)) lt = rt;
  if (isNever(rt)) rt = lt;
  const char* name = nullptr;
  const char* sym = nullptr;
  Prec prec = Prec::Add;
  switch (op) {
    case BinaryOp::Add:
      name = "add", sym = "+";
      break;
    case BinaryOp::Sub:
      name = "sub", sym = "-";
      break;
    case BinaryOp::Mul:
      name = "mul", sym = "*", prec = Prec::Mul;
      break;
    case BinaryOp::Div:
      name = "div", sym = "/", prec = Prec::Mul;
      break;
    case BinaryOp::Rem:
      name = "rem", sym = "%", prec = Prec::Mul;
      break;
    case BinaryOp::Or: {
      // `&&` inside `||` is parenthesised, as -Wparentheses asks.
      Cpp l = expr(a, lt);
      if (l.prec == Prec::And) l.prec = Prec::Ternary;
      std::string left = operandText(std::move(l), Prec::Or);
      return make(left + " || " + operand(b, Prec::Compare, rt), Prec::Or);
    }
    case BinaryOp::And: {
      std::string l = operand(a, Prec::And, lt);
      return make(l + " && " + operand(b, Prec::Compare, rt), Prec::And);
    }
    case BinaryOp::Eq:
      sym = "==";
      break;
    case BinaryOp::Ne:
      sym = "!=";
      break;
    case BinaryOp::Lt:
      sym = "<";
      break;
    case BinaryOp::Le:
      sym = "<=";
      break;
    case BinaryOp::Gt:
      sym = ">";
      break;
    case BinaryOp::Ge:
      sym = ">=";
      break;
  }
  if (name == nullptr) {
    // Comparisons: at least one side with its exact type, so that two
    // literals never compare as pointers.
    Cpp l = expr(a, lt);
    Cpp r = expr(b, rt);
    std::string left = !l.exact && !r.exact ? exactText(l, typeOf(a))
                                            : operandText(l, Prec::Add);
    return make(left + " " + sym + " " + operandText(r, Prec::Add),
                Prec::Compare);
  }
  if (lt->kind == TypeKind::Int) {
    spelling_.useHeader("<herald/ops.hpp>");
    InstId ids[] = {a, b};
    const Type* wants[] = {lt, rt};
    return sequence(
        ids, wants, type(i.type),
        [&](std::size_t k) { return value(ids[k], wants[k]); },
        [&](std::vector<std::string> v) {
          return make(std::string("herald::ops::") + name + "(" + v[0] + ", " +
                      v[1] + ")");
        });
  }
  if (lt->kind == TypeKind::Float && op == BinaryOp::Rem) {
    spelling_.useHeader("<cmath>");
    return make("std::fmod(" + value(a, lt) + ", " + value(b, rt) + ")");
  }
  // String `+` needs a std::string on the left; Float, Instant and
  // Duration use C++'s own operators.
  std::string left = lt->kind == TypeKind::String ? exactOperand(a, prec, lt)
                                                  : operand(a, prec, lt);
  Prec right = prec == Prec::Add ? Prec::Mul : Prec::Unary;
  return make(left + " " + sym + " " + operand(b, right, rt), prec);
}

Cpp Lowerer::fields(const Inst& i) {
  const Type* t = type(i.type);
  const std::vector<check::FieldInfo>& declared =
      i.kind == InstKind::EventLit ? t->event->fields : t->named->fields;
  llvm::ArrayRef<InstId> ops =
      list(i.kind == InstKind::EventLit ? i.as<check::EventLit>().fields
                                        : i.as<check::RecordLit>().fields);
  std::string text = spelling_.type(t) + "{";
  for (std::size_t k = 0; k < ops.size() && k < declared.size(); ++k) {
    if (k != 0) text += ", ";
    text += "." + cppName(declared[k].name) + " = " +
            value(ops[k], declared[k].type);
  }
  return make(text + "}");
}

Cpp Lowerer::envelope(const Inst& i) {
  const check::EnvelopeGet get = i.as<check::EnvelopeGet>();
  std::string env = operand(get.envelope, Prec::Primary);
  switch (get.field) {
    case check::EnvelopeField::EventId:
      return make(env + ".eventId.str()");
    case check::EnvelopeField::EventType:
      return make("std::string(" + env + ".eventType)");
    case check::EnvelopeField::PublisherId:
      return make("std::string(" + env + ".publisherId)");
    case check::EnvelopeField::Sequence:
      return make(env + ".sequence");
    case check::EnvelopeField::EmittedAt:
      return make(env + ".emittedAt");
    case check::EnvelopeField::SchemaVersion:
      return make(env + ".schemaVersion");
    case check::EnvelopeField::CausationId:
      spelling_.useHeader("<optional>");
      return make(env + ".causationId ? std::optional<std::string>(" + env +
                      ".causationId->str()) : std::nullopt",
                  Prec::Ternary);
    case check::EnvelopeField::CorrelationId:
      return make(env + ".correlationId.str()");
    case check::EnvelopeField::Depth:
      return make(env + ".depth");
  }
  return make(env);
}

Cpp Lowerer::expr(InstId id, const Type* want) {
  const Inst& i = inst(id);
  const Type* t = type(i.type);
  const check::BodyIr& ir = program_.bodies;
  switch (i.kind) {
    case InstKind::Invalid:
      // Only under a value of type Never (`fail(...).len()`), which faults
      // before this is reached.
      spelling_.useHeader("<herald/ops.hpp>");
      return make("herald::fail<" + spelling_.type(want != nullptr ? want : t) +
                  ">(\"unreachable: a value after a failure\")");
    case InstKind::IntLit:
    case InstKind::FloatLit:
    case InstKind::BoolLit:
    case InstKind::StringLit:
    case InstKind::UnitLit:
    case InstKind::DurationLit:
      return literal(i);
    case InstKind::Interpolate: {
      spelling_.useHeader("<herald/text.hpp>");
      llvm::ArrayRef<InstId> parts = list(i.as<check::Interpolate>().parts);
      return sequence(
          parts, {}, t,
          [&](std::size_t k) {
            const Inst& p = inst(parts[k]);
            return p.kind == InstKind::StringLit ? literal(p).text
                                                 : exact(parts[k]);
          },
          [&](std::vector<std::string> texts) {
            std::string text = "herald::text(";
            for (std::size_t k = 0; k < texts.size(); ++k)
              text += (k == 0 ? "" : ", ") + texts[k];
            return make(text + ")");
          });
    }
    case InstKind::ListLit: {
      std::string text = spelling_.type(t) + "{";
      bool first = true;
      for (InstId item : list(i.as<check::ListLit>().elements)) {
        if (!first) text += ", ";
        first = false;
        text += value(item, t->arg0);
      }
      return make(text + "}");
    }
    case InstKind::MapLit: {
      llvm::ArrayRef<InstId> ops = list(i.as<check::MapLit>().entries);
      std::string entries;
      for (std::size_t k = 0; k + 1 < ops.size(); k += 2) {
        if (k != 0) entries += ", ";
        entries += "{" + value(ops[k], t->arg0) + ", " +
                   value(ops[k + 1], t->arg1) + "}";
      }
      if (ops.size() <= 2) return make(spelling_.type(t) + "{" + entries + "}");
      // A later entry replaces an earlier one with an equal key, which
      // std::map's list constructor does not do.
      spelling_.useHeader("<herald/ops.hpp>");
      return make("herald::ops::map_of<" + spelling_.type(t->arg0) + ", " +
                  spelling_.type(t->arg1) + ">({" + entries + "})");
    }
    case InstKind::RecordLit:
    case InstKind::EventLit:
      return fields(i);
    case InstKind::FieldDefault: {
      const check::FieldDefault d = i.as<check::FieldDefault>();
      const check::FieldInfo& field = ir.events[d.event]->fields[d.field];
      return make(Lowerer(program_, spelling_, field.defaultBody).expression());
    }
    case InstKind::ParamRef:
      return make(
          cppName(body_.owner.params()[i.as<check::ParamRef>().param].name));
    case InstKind::KeyRef:
      return make(keyName());
    case InstKind::StoreRef:
      return make(
          "s." +
          cppName(
              body_.agent->stores[i.as<check::StoreRef>().store].field.name));
    case InstKind::LocalRef:
      return make(slotName(i.as<check::LocalRef>().slot));
    case InstKind::ActorRef:
      return make(cppName(body_.owner.handler()->byBinder));
    case InstKind::Dependency:
      if (t->kind == TypeKind::Capability)
        return make(capability(*t->capability));
      return make(spelling_.type(t));
    case InstKind::CapabilityName:
      return make(capability(
          *ir.capabilities[i.as<check::CapabilityName>().capability]));
    case InstKind::Block: {
      llvm::ArrayRef<InstId> ops = list(i.as<check::Block>().stmts);
      if (ops.size() == 1 && plain(ops[0])) return expr(ops[0], want);
      return lambda(id, want);
    }
    case InstKind::IfElse: {
      const check::IfElse ifElse = i.as<check::IfElse>();
      llvm::ArrayRef<InstId> branches = list(ifElse.branches);
      if (plain(branches[0]) && plain(branches[1]))
        return make(operand(ifElse.cond, Prec::Or) + " ? " +
                        exact(branches[0], t) + " : " + exact(branches[1], t),
                    Prec::Ternary);
      return lambda(id, want);
    }
    case InstKind::Let:
    case InstKind::StoreWrite:
    case InstKind::If:
    case InstKind::Match:
      return lambda(id, want);
    case InstKind::MatchArm:
    case InstKind::PatWildcard:
    case InstKind::PatBind:
    case InstKind::PatLiteral:
    case InstKind::PatRange:
    case InstKind::PatNone:
    case InstKind::PatSome:
    case InstKind::PatVariant:
    case InstKind::PatRecord:
    case InstKind::PatOr:
      // Arms and patterns are not values: match() lowers them.
      return make("");
    case InstKind::Fail: {
      spelling_.useHeader("<herald/ops.hpp>");
      std::string message = value(i.as<check::Fail>().message);
      if (want != nullptr && !isUnit(want) && !isNever(want))
        return make("herald::fail<" + spelling_.type(want) + ">(" + message +
                    ")");
      Cpp c = make("herald::fail(" + message + ")");
      c.isVoid = true;
      return c;
    }
    case InstKind::Unary:
      return unary(i, want);
    case InstKind::Binary:
      return binary(i, want);
    case InstKind::CallFn:
      return call(i);
    case InstKind::Variant:
      return variant(i);
    case InstKind::OptionSome:
      spelling_.useHeader("<optional>");
      return make(spelling_.type(t) + "(" +
                  value(i.as<check::OptionSome>().value, t->arg0) + ")");
    case InstKind::OptionNone: {
      spelling_.useHeader("<optional>");
      Cpp c = make("std::nullopt");
      c.exact = false;
      return c;
    }
    case InstKind::OpaqueBuild:
      return make(spelling_.type(t) + "::from_raw(" +
                  value(i.as<check::OpaqueBuild>().value, t->named->base) +
                  ")");
    case InstKind::OpaqueRaw:
      return make(operand(i.as<check::OpaqueRaw>().value, Prec::Primary) +
                  ".raw()");
    case InstKind::FieldGet: {
      const check::FieldGet get = i.as<check::FieldGet>();
      const Type* base = typeOf(get.base);
      const std::vector<check::FieldInfo>* declared = nullptr;
      if (base->kind == TypeKind::Named) declared = &base->named->fields;
      if (base->kind == TypeKind::Event) declared = &base->event->fields;
      if (base->kind == TypeKind::Actor) declared = &base->actor->params;
      std::string name = declared != nullptr && get.field < declared->size()
                             ? cppName((*declared)[get.field].name)
                             : std::string("?");
      return make(operand(get.base, Prec::Primary) + "." + name);
    }
    case InstKind::EnvelopeGet:
      return envelope(i);
    case InstKind::AgentRef: {
      const check::AgentInfo* agent = t->agent;
      const Type* key = agent->key ? agent->key->type : nullptr;
      return make(spelling_.type(t) + "{" +
                  value(i.as<check::AgentRef>().key, key) + "}");
    }
    case InstKind::Message:
      return message(i);
    case InstKind::CapCall:
      return capCall(i);
    case InstKind::Emit: {
      Cpp c =
          make("tx.events().emit(" + value(i.as<check::Emit>().value) + ")");
      c.isVoid = true;
      return c;
    }
    case InstKind::Method:
      return method(i);
    case InstKind::RefineCheck:
      return make(spelling_.type(t) + "::from(" +
                  value(i.as<check::RefineCheck>().value, t->named->base) +
                  ")");
    case InstKind::Unrefine:
      return make(operand(i.as<check::Unrefine>().value, Prec::Primary) +
                  ".value()");
  }
  return make("");
}

}  // namespace herald::codegen::lower
