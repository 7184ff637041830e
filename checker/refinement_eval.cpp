// Compile-time evaluation of `where` predicates, on their lowered form
// (TypeInfo::predicate, built by decl_rules_refinement.cpp: comparisons,
// `&&`, `||`, `!`, `-`, `len(self)`, literals, Int and Duration
// arithmetic). Arithmetic is checked:
// an overflow or a division by zero makes the predicate Unknown, so no
// verdict is ever reached on a wrapped value.
// `len(self)` of a String counts Unicode scalar values, not bytes, so
// `len(self) <= 254` means the same for "é" as for "e"; of a List it counts
// elements. Strings order by code point (byte order of their UTF-8). An Int
// literal compares with a Float `self` as the same number.
#include <cstdint>
#include <limits>
#include <string>

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "checker/eval.h"

namespace herald::check {

namespace {

constexpr std::size_t kMaxLayers = 64;

// A value while evaluating a predicate; strings point into the constant or
// the source, so evaluation allocates nothing.
struct Scalar {
  enum class Kind : std::uint8_t {
    Unknown,
    Int,
    Float,
    Bool,
    String,
    Duration
  };
  Kind kind = Kind::Unknown;
  std::int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  llvm::StringRef text;
};

Scalar boolean(bool b) {
  Scalar s;
  s.kind = Scalar::Kind::Bool;
  s.boolean = b;
  return s;
}

// The innermost value of a refined or opaque constant.
const ConstValue& core(const ConstValue& value) {
  const ConstValue* v = &value;
  for (std::size_t depth = 0; v->kind == ConstValue::Kind::Opaque &&
                              !v->children.empty() && depth < kMaxLayers;
       ++depth)
    v = &v->children[0];
  return *v;
}

Scalar scalarOf(const ConstValue& value) {
  Scalar s;
  switch (value.kind) {
    case ConstValue::Kind::Int:
      s.kind = Scalar::Kind::Int;
      s.integer = value.integer;
      return s;
    case ConstValue::Kind::Float:
      s.kind = Scalar::Kind::Float;
      s.real = value.real;
      return s;
    case ConstValue::Kind::Bool:
      return boolean(value.boolean);
    case ConstValue::Kind::String:
      s.kind = Scalar::Kind::String;
      s.text = value.text;
      return s;
    case ConstValue::Kind::Duration:
      s.kind = Scalar::Kind::Duration;
      s.integer = value.integer;
      return s;
    case ConstValue::Kind::Unit:
    case ConstValue::Kind::None:
    case ConstValue::Kind::Some:
    case ConstValue::Kind::Variant:
    case ConstValue::Kind::Record:
    case ConstValue::Kind::Opaque:
    case ConstValue::Kind::List:
    case ConstValue::Kind::Map:
      return s;
  }
  return s;
}

std::int64_t scalarCount(llvm::StringRef text) {
  std::int64_t count = 0;
  for (char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  return count;
}

// -1, 0, 1, or nullopt when the two cannot be compared.
std::optional<int> compare(const Scalar& a, const Scalar& b) {
  using K = Scalar::Kind;
  auto order = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (a.kind == K::Float || b.kind == K::Float) {
    auto real = [](const Scalar& s) -> std::optional<double> {
      if (s.kind == K::Float) return s.real;
      if (s.kind == K::Int) return static_cast<double>(s.integer);
      return std::nullopt;
    };
    std::optional<double> x = real(a);
    std::optional<double> y = real(b);
    if (!x || !y) return std::nullopt;
    return order(*x, *y);
  }
  if (a.kind != b.kind) return std::nullopt;
  switch (a.kind) {
    case K::Int:
    case K::Duration:
      return order(a.integer, b.integer);
    case K::Bool:
      return order(a.boolean, b.boolean);
    case K::String:
      return a.text.compare(b.text);
    case K::Float:
    case K::Unknown:
      break;
  }
  return std::nullopt;
}

Scalar unknown() { return {}; }

Scalar unary(RefinementNode::Kind kind, Scalar operand) {
  if (kind == RefinementNode::Kind::Not) {
    if (operand.kind != Scalar::Kind::Bool) return unknown();
    return boolean(!operand.boolean);
  }
  if (operand.kind == Scalar::Kind::Float) {
    operand.real = -operand.real;
    return operand;
  }
  if (operand.kind != Scalar::Kind::Int &&
      operand.kind != Scalar::Kind::Duration)
    return unknown();
  Folded folded = foldNegation(operand.integer);
  if (folded.status != Folded::Status::Value) return unknown();
  operand.integer = folded.value;
  return operand;
}

// Three-valued: a known false (for &&) or true (for ||) decides even when
// the other side cannot be evaluated.
Scalar logical(bool decisive, const Scalar& lhs, const Scalar& rhs) {
  bool lhsKnown = lhs.kind == Scalar::Kind::Bool;
  bool rhsKnown = rhs.kind == Scalar::Kind::Bool;
  if ((lhsKnown && lhs.boolean == decisive) ||
      (rhsKnown && rhs.boolean == decisive))
    return boolean(decisive);
  if (lhsKnown && rhsKnown) return boolean(!decisive);
  return unknown();
}

// Checked, as constant arithmetic is: an overflow or a division by zero
// leaves the predicate to the runtime rather than deciding it on a wrapped
// value.
Scalar arithmetic(ast::BinaryOp op, const Scalar& lhs, const Scalar& rhs) {
  if (lhs.kind != rhs.kind) return unknown();
  FoldDomain domain = FoldDomain::Int;
  if (lhs.kind == Scalar::Kind::Duration)
    domain = FoldDomain::Duration;
  else if (lhs.kind != Scalar::Kind::Int)
    return unknown();
  Folded folded = foldBinary(op, domain, lhs.integer, rhs.integer);
  if (folded.status != Folded::Status::Value) return unknown();
  Scalar s;
  s.kind = lhs.kind;
  s.integer = folded.value;
  return s;
}

Scalar comparison(RefinementNode::Kind kind, const Scalar& lhs,
                  const Scalar& rhs) {
  using K = RefinementNode::Kind;
  std::optional<int> order = compare(lhs, rhs);
  if (!order) return unknown();
  switch (kind) {
    case K::Eq:
      return boolean(*order == 0);
    case K::Ne:
      return boolean(*order != 0);
    case K::Lt:
      return boolean(*order < 0);
    case K::Le:
      return boolean(*order <= 0);
    case K::Gt:
      return boolean(*order > 0);
    case K::Ge:
      return boolean(*order >= 0);
    case K::Literal:
    case K::Self:
    case K::Len:
    case K::Not:
    case K::Neg:
    case K::And:
    case K::Or:
    case K::Add:
    case K::Sub:
    case K::Mul:
    case K::Div:
    case K::Rem:
      break;
  }
  return unknown();
}

// `len(self)`: Unicode scalar values of a String, elements of a List, entries
// of a Map.
Scalar length(const ConstValue& value) {
  Scalar s;
  s.kind = Scalar::Kind::Int;
  if (value.kind == ConstValue::Kind::String)
    s.integer = scalarCount(value.text);
  else if (value.kind == ConstValue::Kind::List)
    s.integer = static_cast<std::int64_t>(value.children.size());
  else if (value.kind == ConstValue::Kind::Map)
    s.integer = static_cast<std::int64_t>(value.children.size() / 2);
  else
    return unknown();
  return s;
}

// The lowered predicate with `self` bound to `self`: one pass over its
// nodes, operands before their users, the root last.
Scalar evalPredicate(const RefinementExpr& predicate, const ConstValue& self) {
  using K = RefinementNode::Kind;
  llvm::SmallVector<Scalar, 16> values;
  values.reserve(predicate.nodes.size());
  const ConstValue& bound = core(self);
  for (const RefinementNode& node : predicate.nodes) {
    const Scalar lhs = node.lhs < values.size() ? values[node.lhs] : unknown();
    const Scalar rhs = node.rhs < values.size() ? values[node.rhs] : unknown();
    Scalar out;
    switch (node.kind) {
      case K::Literal:
        out = scalarOf(node.value);
        break;
      case K::Self:
        out = scalarOf(bound);
        break;
      case K::Len:
        out = length(bound);
        break;
      case K::Not:
      case K::Neg:
        out = unary(node.kind, lhs);
        break;
      case K::And:
        out = logical(false, lhs, rhs);
        break;
      case K::Or:
        out = logical(true, lhs, rhs);
        break;
      case K::Eq:
      case K::Ne:
      case K::Lt:
      case K::Le:
      case K::Gt:
      case K::Ge:
        out = comparison(node.kind, lhs, rhs);
        break;
      case K::Add:
        out = arithmetic(ast::BinaryOp::Add, lhs, rhs);
        break;
      case K::Sub:
        out = arithmetic(ast::BinaryOp::Sub, lhs, rhs);
        break;
      case K::Mul:
        out = arithmetic(ast::BinaryOp::Mul, lhs, rhs);
        break;
      case K::Div:
        out = arithmetic(ast::BinaryOp::Div, lhs, rhs);
        break;
      case K::Rem:
        out = arithmetic(ast::BinaryOp::Rem, lhs, rhs);
        break;
    }
    values.push_back(out);
  }
  return values.empty() ? unknown() : values.back();
}

// The opaque or refined layers of `type`, outermost first.
void collectLayers(const TypeInfo& type,
                   llvm::SmallVectorImpl<const TypeInfo*>& layers) {
  const TypeInfo* t = &type;
  while (t != nullptr && layers.size() < kMaxLayers &&
         (t->def == TypeDefKind::Opaque || t->def == TypeDefKind::Refined)) {
    layers.push_back(t);
    const Type* base = t->base;
    t = base != nullptr && base->kind == TypeKind::Named ? base->named
                                                         : nullptr;
  }
}

RefinementViolation findIn(const ConstValue& value, std::size_t depth) {
  if (depth > kMaxLayers * 4) return {};
  // Parts first, so the innermost violation is the one named.
  for (const ConstValue& child : value.children) {
    RefinementViolation found = findIn(child, depth + 1);
    if (found.type != nullptr) return found;
  }
  if (value.kind == ConstValue::Kind::Opaque && value.type != nullptr &&
      value.type->kind == TypeKind::Named &&
      checkOwnRefinement(*value.type->named, value) ==
          RefinementResult::Violated)
    return {value.type->named, &value};
  return {};
}

}  // namespace

RefinementResult checkOwnRefinement(const TypeInfo& type,
                                    const ConstValue& value) {
  if (type.refinement == nullptr) return RefinementResult::Holds;
  // A predicate that was not well-formed was reported and is not lowered.
  Scalar result = evalPredicate(type.predicate, value);
  if (result.kind != Scalar::Kind::Bool) return RefinementResult::Unknown;
  return result.boolean ? RefinementResult::Holds : RefinementResult::Violated;
}

RefinementResult checkRefinement(const TypeInfo& type,
                                 const ConstValue& value) {
  llvm::SmallVector<const TypeInfo*, 4> layers;
  collectLayers(type, layers);
  RefinementResult result = RefinementResult::Holds;
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
    switch (checkOwnRefinement(**it, value)) {
      case RefinementResult::Violated:
        return RefinementResult::Violated;
      case RefinementResult::Unknown:
        result = RefinementResult::Unknown;
        break;
      case RefinementResult::Holds:
        break;
    }
  }
  return result;
}

RefinementViolation findViolatedRefinement(const ConstValue& value) {
  return findIn(value, 0);
}

const Type* refinementSelfType(const TypeInfo& type) {
  const TypeInfo* t = &type;
  for (std::size_t depth = 0; depth < kMaxLayers; ++depth) {
    const Type* base = t->base;
    if (base == nullptr) return nullptr;
    if (base->kind != TypeKind::Named ||
        (base->named->def != TypeDefKind::Opaque &&
         base->named->def != TypeDefKind::Refined))
      return base;
    t = base->named;
    if (t == &type) return nullptr;
  }
  return nullptr;
}

std::string exprText(const SourceManager& sources, const ast::Expr& expr) {
  return exprText(sources, expr.range);
}

std::string exprText(const SourceManager& sources, SourceRange range) {
  std::string_view text = sources.textOf(range);
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string refinementText(const SourceManager& sources, const TypeInfo& type) {
  llvm::SmallVector<const TypeInfo*, 4> layers;
  collectLayers(type, layers);
  std::size_t count = 0;
  for (const TypeInfo* layer : layers)
    if (layer->refinement != nullptr) ++count;
  std::string out;
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
    if ((*it)->refinement == nullptr) continue;
    if (!out.empty()) out += " && ";
    std::string text = exprText(sources, *(*it)->refinement);
    out += count > 1 ? "(" + text + ")" : text;
  }
  return out;
}

}  // namespace herald::check
