#include "codegen/predicate.h"

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "codegen/emit.h"

namespace herald::codegen {

namespace {

using check::ConstValue;
using check::Predicate;
using check::RefinementNode;
using check::Type;
using check::TypeDefKind;
using check::TypeKind;

// One opaque or refined layer off: `x.raw()` or `x.value()`.
std::string unwrap(const Type* t, const std::string& expr) {
  return expr + (t->named->def == TypeDefKind::Opaque ? ".raw()" : ".value()");
}

std::string intText(Spelling& sp, std::int64_t v) {
  if (v == std::numeric_limits<std::int64_t>::min()) {
    sp.useHeader("<limits>");
    return "std::numeric_limits<std::int64_t>::min()";
  }
  return std::to_string(v);
}

std::string floatText(Spelling& sp, double d) {
  if (std::isinf(d)) {
    sp.useHeader("<limits>");
    return std::string(d < 0 ? "-" : "") +
           "std::numeric_limits<double>::infinity()";
  }
  if (std::isnan(d)) {
    sp.useHeader("<limits>");
    return "std::numeric_limits<double>::quiet_NaN()";
  }
  std::string text = fmt::format("{}", d);
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

std::string durationText(Spelling& sp, std::int64_t ms) {
  sp.useHeader("<chrono>");
  constexpr std::int64_t kMaxMs =
      std::numeric_limits<std::int64_t>::max() / 1000000;
  if (ms > kMaxMs || ms < -kMaxMs) {
    sp.useHeader("<herald/ops.hpp>");
    return "herald::ops::milliseconds(" + std::to_string(ms) + ")";
  }
  return "herald::Duration(std::chrono::milliseconds(" + std::to_string(ms) +
         "))";
}

// The value at the end of `path`, from `event` of type `t`.
std::string pathText(Spelling& sp, const std::vector<check::PathStep>& path,
                     const Type* t, const std::string& event) {
  std::string out = event;
  for (const check::PathStep& step : path) {
    switch (step.kind) {
      case check::PathStep::Kind::Field:
        out += "." + cppName(step.name);
        break;
      case check::PathStep::Kind::SomePayload:
        out.insert(0, "(*");
        out += ')';
        break;
      case check::PathStep::Kind::VariantField: {
        // The guarding VariantIs has tested the alternative.
        std::string alt = sp.type(t) + "::" + cppName(step.variant->name);
        sp.useHeader("<variant>");
        out.insert(0, "std::get<" + alt + ">(");
        out += ".value).";
        out += cppName(step.name);
        break;
      }
    }
    t = step.type;
  }
  return out;
}

const Type* pathType(const std::vector<check::PathStep>& path, const Type* t) {
  return path.empty() ? t : path.back().type;
}

std::string variantIs(Spelling& sp, const Type* t, const std::string& value,
                      llvm::StringRef variant) {
  std::string s = sp.type(t);
  if (isEnumSum(*t->named)) return value + " == " + s + "::" + cppName(variant);
  sp.useHeader("<variant>");
  return "std::holds_alternative<" + s + "::" + cppName(variant) + ">(" +
         value + ".value)";
}

}  // namespace

bool layered(const Type* t) {
  return t != nullptr && t->kind == TypeKind::Named &&
         (t->named->def == TypeDefKind::Opaque ||
          t->named->def == TypeDefKind::Refined);
}

std::string coreValue(const Type* type, const std::string& expr) {
  std::string out = expr;
  for (std::size_t depth = 0; layered(type) && depth < 64; ++depth) {
    out = unwrap(type, out);
    type = type->named->base;
  }
  return out;
}

std::string constant(Spelling& sp, const ConstValue& v) {
  switch (v.kind) {
    case ConstValue::Kind::Int:
      sp.useHeader("<cstdint>");
      return "std::int64_t{" + intText(sp, v.integer) + "}";
    case ConstValue::Kind::Float:
      return floatText(sp, v.real);
    case ConstValue::Kind::Bool:
      return v.boolean ? "true" : "false";
    case ConstValue::Kind::String:
      sp.useHeader("<string>");
      return "std::string(" + cppStringLiteral(v.text) + ", " +
             std::to_string(v.text.size()) + ")";
    case ConstValue::Kind::Unit:
      sp.useHeader("<herald/ops.hpp>");
      return "herald::Unit{}";
    case ConstValue::Kind::Duration:
      return durationText(sp, v.integer);
    case ConstValue::Kind::None:
      return sp.type(v.type) + "()";
    case ConstValue::Kind::Some:
      return sp.type(v.type) + "(" + constant(sp, v.children.at(0)) + ")";
    case ConstValue::Kind::Variant: {
      std::string s = sp.type(v.type);
      if (isEnumSum(*v.type->named)) return s + "::" + cppName(v.variant);
      std::string out = s + "{" + s + "::" + cppName(v.variant) + "{";
      for (std::size_t k = 0; k < v.children.size(); ++k) {
        if (k != 0) out += ", ";
        out += "." + cppName(v.names[k]) + " = " + constant(sp, v.children[k]);
      }
      return out + "}}";
    }
    case ConstValue::Kind::Record: {
      std::string out = sp.type(v.type) + "{";
      for (std::size_t k = 0; k < v.children.size(); ++k) {
        if (k != 0) out += ", ";
        out += "." + cppName(v.names[k]) + " = " + constant(sp, v.children[k]);
      }
      return out + "}";
    }
    case ConstValue::Kind::Opaque: {
      bool opaque = v.type->named->def == TypeDefKind::Opaque;
      return sp.type(v.type) + (opaque ? "::from_raw(" : "::from(") +
             constant(sp, v.children.at(0)) + ")";
    }
    case ConstValue::Kind::List: {
      std::string out = sp.type(v.type) + "{";
      for (std::size_t k = 0; k < v.children.size(); ++k) {
        if (k != 0) out += ", ";
        out += constant(sp, v.children[k]);
      }
      return out + "}";
    }
    case ConstValue::Kind::Map: {
      if (v.children.empty()) return sp.type(v.type) + "{}";
      sp.useHeader("<herald/ops.hpp>");
      std::string out = "herald::ops::map_of<" + sp.type(v.type->arg0) + ", " +
                        sp.type(v.type->arg1) + ">({";
      for (std::size_t k = 0; k + 1 < v.children.size(); k += 2) {
        if (k != 0) out += ", ";
        out += "{" + constant(sp, v.children[k]) + ", " +
               constant(sp, v.children[k + 1]) + "}";
      }
      return out + "})";
    }
  }
  return "{}";
}

std::string refinementTest(Spelling& sp, const check::TypeInfo& type,
                           const std::string& base) {
  const check::RefinementExpr& pred = type.predicate;
  if (pred.empty()) return {};
  std::string self = coreValue(type.base, base);
  // Nodes come operands first, so one pass in order builds every text.
  std::vector<std::string> text(pred.nodes.size());
  auto binary = [&](const RefinementNode& n, const char* op) {
    return "(" + text[n.lhs] + " " + op + " " + text[n.rhs] + ")";
  };
  auto checked = [&](const RefinementNode& n, const char* name,
                     const char* op) {
    if (n.type->kind == TypeKind::Int) {
      sp.useHeader("<herald/ops.hpp>");
      return std::string("herald::ops::") + name + "(" + text[n.lhs] + ", " +
             text[n.rhs] + ")";
    }
    return binary(n, op);
  };
  for (std::size_t i = 0; i < pred.nodes.size(); ++i) {
    const RefinementNode& n = pred.nodes[i];
    std::string t;
    switch (n.kind) {
      case RefinementNode::Kind::Literal:
        switch (n.value.kind) {
          case ConstValue::Kind::Int:
            t = intText(sp, n.value.integer);
            if (n.value.integer < 0) {
              t.insert(0, "(");
              t += ')';
            }
            break;
          case ConstValue::Kind::String:
            t = "std::string_view(" + cppStringLiteral(n.value.text) + ", " +
                std::to_string(n.value.text.size()) + ")";
            sp.useHeader("<string_view>");
            break;
          case ConstValue::Kind::Float:
            t = "(" + floatText(sp, n.value.real) + ")";
            break;
          case ConstValue::Kind::Bool:
          case ConstValue::Kind::Unit:
          case ConstValue::Kind::Duration:
          case ConstValue::Kind::None:
          case ConstValue::Kind::Some:
          case ConstValue::Kind::Variant:
          case ConstValue::Kind::Record:
          case ConstValue::Kind::Opaque:
          case ConstValue::Kind::List:
          case ConstValue::Kind::Map:
            t = constant(sp, n.value);
            break;
        }
        break;
      case RefinementNode::Kind::Self:
        t = self;
        break;
      case RefinementNode::Kind::Len:
        sp.useHeader("<herald/ops.hpp>");
        t = "herald::ops::len(" + self + ")";
        break;
      case RefinementNode::Kind::Not:
        t = "!" + text[n.lhs];
        break;
      case RefinementNode::Kind::Neg:
        if (n.type->kind == TypeKind::Int) {
          sp.useHeader("<herald/ops.hpp>");
          t = "herald::ops::neg(" + text[n.lhs] + ")";
        } else {
          t = "(-" + text[n.lhs] + ")";
        }
        break;
      case RefinementNode::Kind::And:
        t = binary(n, "&&");
        break;
      case RefinementNode::Kind::Or:
        t = binary(n, "||");
        break;
      case RefinementNode::Kind::Eq:
        t = binary(n, "==");
        break;
      case RefinementNode::Kind::Ne:
        t = binary(n, "!=");
        break;
      case RefinementNode::Kind::Lt:
        t = binary(n, "<");
        break;
      case RefinementNode::Kind::Le:
        t = binary(n, "<=");
        break;
      case RefinementNode::Kind::Gt:
        t = binary(n, ">");
        break;
      case RefinementNode::Kind::Ge:
        t = binary(n, ">=");
        break;
      case RefinementNode::Kind::Add:
        t = checked(n, "add", "+");
        break;
      case RefinementNode::Kind::Sub:
        t = checked(n, "sub", "-");
        break;
      case RefinementNode::Kind::Mul:
        t = checked(n, "mul", "*");
        break;
      case RefinementNode::Kind::Div:
        t = checked(n, "div", "/");
        break;
      case RefinementNode::Kind::Rem:
        t = checked(n, "rem", "%");
        break;
    }
    text[i] = std::move(t);
  }
  return std::move(text[pred.root()]);
}

std::string predicateTest(Spelling& sp, const Predicate& p,
                          const Type* eventType, const std::string& event) {
  switch (p.kind) {
    case Predicate::Kind::True:
      return "true";
    case Predicate::Kind::And:
    case Predicate::Kind::Or: {
      if (p.children.empty())
        return p.kind == Predicate::Kind::And ? "true" : "false";
      const char* op = p.kind == Predicate::Kind::And ? " && " : " || ";
      std::string out;
      for (const Predicate& child : p.children) {
        if (!out.empty()) out += op;
        out += "(" + predicateTest(sp, child, eventType, event) + ")";
      }
      return out;
    }
    case Predicate::Kind::Equals: {
      std::string value = pathText(sp, p.path, eventType, event);
      const Type* t = pathType(p.path, eventType);
      // A constant of the base compares with the unwrapped value.
      for (std::size_t depth = 0; layered(t) && t != p.value.type && depth < 64;
           ++depth) {
        value = unwrap(t, value);
        t = t->named->base;
      }
      return value + " == " + constant(sp, p.value);
    }
    case Predicate::Kind::IntRange: {
      const Type* t = pathType(p.path, eventType);
      std::string value = coreValue(t, pathText(sp, p.path, eventType, event));
      std::string out;
      if (p.low) out = value + " >= " + intText(sp, *p.low);
      if (p.high) {
        if (!out.empty()) out += " && ";
        out += value + " <= " + intText(sp, *p.high);
      }
      return out.empty() ? "true" : out;
    }
    case Predicate::Kind::VariantIs:
      return variantIs(sp, pathType(p.path, eventType),
                       pathText(sp, p.path, eventType, event), p.variant);
    case Predicate::Kind::IsNone:
      return "!" + pathText(sp, p.path, eventType, event) + ".has_value()";
    case Predicate::Kind::IsSome:
      return pathText(sp, p.path, eventType, event) + ".has_value()";
  }
  return "true";
}

}  // namespace herald::codegen
