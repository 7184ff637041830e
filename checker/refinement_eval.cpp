// Compile-time evaluation of `where` predicates. A predicate is a Bool
// expression over `self` (comparisons, `&&`, `||`, `!`, `len(self)`,
// literals, parentheses, Int and Duration arithmetic;
// decl_rules_refinement.cpp rejects anything else). Arithmetic is checked:
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

#include "checker/const_eval.h"
#include "checker/const_eval_detail.h"

namespace herald::check {

namespace {

using llvm::dyn_cast;
using llvm::dyn_cast_or_null;

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

const ast::Expr* stripParens(const ast::Expr* e) {
  while (e != nullptr) {
    const auto* paren = dyn_cast<ast::ParenExpr>(e);
    if (paren == nullptr) break;
    e = paren->inner;
  }
  return e;
}

bool isArithmetic(ast::BinaryOp op) {
  return op == ast::BinaryOp::Add || op == ast::BinaryOp::Sub ||
         op == ast::BinaryOp::Mul || op == ast::BinaryOp::Div ||
         op == ast::BinaryOp::Rem;
}

bool isSelf(const ast::Expr* e) {
  const auto* name = dyn_cast_or_null<ast::NameExpr>(stripParens(e));
  return name != nullptr && name->name.name == "self";
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

class PredicateEvaluator {
 public:
  explicit PredicateEvaluator(const ConstValue& self) : self_(self) {}

  Scalar eval(const ast::Expr* expr, std::size_t depth = 0) {
    const ast::Expr* e = stripParens(expr);
    if (e == nullptr || depth > kMaxDepth) return {};
    switch (e->kind) {
      case ast::ExprKind::IntLit: {
        std::uint64_t v = llvm::cast<ast::IntLitExpr>(e)->value;
        if (v > static_cast<std::uint64_t>(
                    std::numeric_limits<std::int64_t>::max()))
          return {};
        Scalar s;
        s.kind = Scalar::Kind::Int;
        s.integer = static_cast<std::int64_t>(v);
        return s;
      }
      case ast::ExprKind::FloatLit: {
        Scalar s;
        s.kind = Scalar::Kind::Float;
        s.real = llvm::cast<ast::FloatLitExpr>(e)->value;
        return s;
      }
      case ast::ExprKind::BoolLit:
        return boolean(llvm::cast<ast::BoolLitExpr>(e)->value);
      case ast::ExprKind::StringLit: {
        const auto* lit = llvm::cast<ast::StringLitExpr>(e);
        // Only a plain literal is one text part.
        if (lit->parts.size() > 1) return {};
        Scalar s;
        s.kind = Scalar::Kind::String;
        if (!lit->parts.empty()) {
          if (lit->parts[0].expr != nullptr) return {};
          s.text = lit->parts[0].text;
        }
        return s;
      }
      case ast::ExprKind::DurationLit: {
        const auto* lit = llvm::cast<ast::DurationLitExpr>(e);
        std::optional<std::int64_t> millis =
            durationMillis(lit->value, lit->unit);
        if (!millis) return {};
        Scalar s;
        s.kind = Scalar::Kind::Duration;
        s.integer = *millis;
        return s;
      }
      case ast::ExprKind::Name:
        return isSelf(e) ? scalarOf(core(self_)) : Scalar{};
      case ast::ExprKind::Call:
        return evalLen(*llvm::cast<ast::CallExpr>(e));
      case ast::ExprKind::Unary:
        return evalUnary(*llvm::cast<ast::UnaryExpr>(e), depth);
      case ast::ExprKind::Binary:
        return evalBinary(*llvm::cast<ast::BinaryExpr>(e), depth);
      case ast::ExprKind::UnitLit:
      case ast::ExprKind::Field:
      case ast::ExprKind::TypeApply:
      case ast::ExprKind::RecordLit:
      case ast::ExprKind::ListLit:
      case ast::ExprKind::MapLit:
      case ast::ExprKind::If:
      case ast::ExprKind::Match:
      case ast::ExprKind::Block:
      case ast::ExprKind::Paren:
      case ast::ExprKind::Fail:
      case ast::ExprKind::Error:
        return {};
    }
    return {};
  }

 private:
  // Deeper predicates are left to the runtime rather than risk the stack.
  static constexpr std::size_t kMaxDepth = 256;

  Scalar evalLen(const ast::CallExpr& call) {
    const auto* callee = dyn_cast_or_null<ast::NameExpr>(call.callee);
    if (callee == nullptr || callee->name.name != "len" ||
        call.args.size() != 1 || !isSelf(call.args[0].value))
      return {};
    const ConstValue& value = core(self_);
    Scalar s;
    s.kind = Scalar::Kind::Int;
    if (value.kind == ConstValue::Kind::String)
      s.integer = scalarCount(value.text);
    else if (value.kind == ConstValue::Kind::List)
      s.integer = static_cast<std::int64_t>(value.children.size());
    else
      return {};
    return s;
  }

  // A run of `!` and `-` is evaluated from its innermost operator out.
  Scalar evalUnary(const ast::UnaryExpr& top, std::size_t depth) {
    llvm::SmallVector<const ast::UnaryExpr*, 8> run{&top};
    while (const auto* inner = dyn_cast_or_null<ast::UnaryExpr>(
               stripParens(run.back()->operand)))
      run.push_back(inner);
    Scalar operand = eval(run.back()->operand, depth + 1);
    for (auto it = run.rbegin(); it != run.rend(); ++it)
      operand = unary((*it)->op, operand);
    return operand;
  }

  static Scalar unary(ast::UnaryOp op, Scalar operand) {
    switch (op) {
      case ast::UnaryOp::Not:
        if (operand.kind != Scalar::Kind::Bool) return {};
        return boolean(!operand.boolean);
      case ast::UnaryOp::Neg:
        if (operand.kind == Scalar::Kind::Float) {
          operand.real = -operand.real;
          return operand;
        }
        if (operand.kind == Scalar::Kind::Int &&
            operand.integer != std::numeric_limits<std::int64_t>::min()) {
          operand.integer = -operand.integer;
          return operand;
        }
        return {};
    }
    return {};
  }

  // A left-deep chain (`self > 0 && self < 10 && ...`) is evaluated in a
  // loop from its innermost operator out.
  Scalar evalBinary(const ast::BinaryExpr& top, std::size_t depth) {
    llvm::SmallVector<const ast::BinaryExpr*, 8> spine{&top};
    while (const auto* lhs = dyn_cast_or_null<ast::BinaryExpr>(
               stripParens(spine.back()->lhs)))
      spine.push_back(lhs);
    Scalar value = eval(spine.back()->lhs, depth + 1);
    for (auto it = spine.rbegin(); it != spine.rend(); ++it)
      value = binary((*it)->op, value, eval((*it)->rhs, depth + 1));
    return value;
  }

  static Scalar binary(ast::BinaryOp op, const Scalar& lhs, const Scalar& rhs) {
    if (op == ast::BinaryOp::And || op == ast::BinaryOp::Or) {
      // Three-valued: a known false (for &&) or true (for ||) decides even
      // when the other side cannot be evaluated.
      bool decisive = op == ast::BinaryOp::Or;
      bool lhsKnown = lhs.kind == Scalar::Kind::Bool;
      bool rhsKnown = rhs.kind == Scalar::Kind::Bool;
      if ((lhsKnown && lhs.boolean == decisive) ||
          (rhsKnown && rhs.boolean == decisive))
        return boolean(decisive);
      if (lhsKnown && rhsKnown) return boolean(!decisive);
      return {};
    }
    if (lhs.kind == Scalar::Kind::Unknown || rhs.kind == Scalar::Kind::Unknown)
      return {};
    if (isArithmetic(op)) return arithmetic(op, lhs, rhs);
    std::optional<int> order = compare(lhs, rhs);
    if (!order) return {};
    switch (op) {
      case ast::BinaryOp::Eq:
        return boolean(*order == 0);
      case ast::BinaryOp::Ne:
        return boolean(*order != 0);
      case ast::BinaryOp::Lt:
        return boolean(*order < 0);
      case ast::BinaryOp::Le:
        return boolean(*order <= 0);
      case ast::BinaryOp::Gt:
        return boolean(*order > 0);
      case ast::BinaryOp::Ge:
        return boolean(*order >= 0);
      case ast::BinaryOp::Or:
      case ast::BinaryOp::And:
      case ast::BinaryOp::Add:
      case ast::BinaryOp::Sub:
      case ast::BinaryOp::Mul:
      case ast::BinaryOp::Div:
      case ast::BinaryOp::Rem:
        return {};
    }
    return {};
  }

  // Checked, as constant arithmetic is: an overflow or a division by zero
  // leaves the predicate to the runtime rather than deciding it on a
  // wrapped value.
  static Scalar arithmetic(ast::BinaryOp op, const Scalar& lhs,
                           const Scalar& rhs) {
    if (lhs.kind != rhs.kind) return {};
    FoldDomain domain = FoldDomain::Int;
    if (lhs.kind == Scalar::Kind::Duration)
      domain = FoldDomain::Duration;
    else if (lhs.kind != Scalar::Kind::Int)
      return {};
    Folded folded = foldBinary(op, domain, lhs.integer, rhs.integer);
    if (folded.status != Folded::Status::Value) return {};
    Scalar s;
    s.kind = lhs.kind;
    s.integer = folded.value;
    return s;
  }

  const ConstValue& self_;
};

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
  Scalar result = PredicateEvaluator(value).eval(type.refinement);
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
