// bad-refinement: a `where` predicate is checked at compile time for
// constants and at run time at every boundary, so it is kept to what both
// can evaluate without effects: a Bool expression over `self` using
// comparisons, `&&`, `||`, `!`, `len(self)`, literals and parentheses, each
// comparison fitting the base type. A predicate that passes is lowered to
// TypeInfo::predicate as it is checked, for code generation.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "checker/decl_rules.h"
#include "checker/eval.h"

namespace herald::check {

namespace {

using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;

constexpr std::size_t kMaxDepth = 256;

const ast::Expr* stripParens(const ast::Expr* e) {
  while (e != nullptr) {
    const auto* paren = dyn_cast<ast::ParenExpr>(e);
    if (paren == nullptr) break;
    e = paren->inner;
  }
  return e;
}

bool isSelf(const ast::Expr* e) {
  const auto* name = dyn_cast_or_null<ast::NameExpr>(stripParens(e));
  return name != nullptr && name->name.name == "self";
}

bool ordered(const Type* t) {
  switch (t->kind) {
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::String:
    case TypeKind::Instant:
    case TypeKind::Duration:
      return true;
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Unit:
    case TypeKind::Bool:
    case TypeKind::Envelope:
    case TypeKind::Option:
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Ref:
    case TypeKind::Named:
    case TypeKind::Event:
    case TypeKind::Capability:
    case TypeKind::Actor:
      return false;
  }
  return false;
}

// How an expression's kind is named in a message: "a call", "a block".
std::string_view describeExpr(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::IntLit:
      return "an Int literal";
    case ast::ExprKind::FloatLit:
      return "a Float literal";
    case ast::ExprKind::BoolLit:
      return "a Bool literal";
    case ast::ExprKind::StringLit:
      return "a String literal";
    case ast::ExprKind::UnitLit:
      return "'()'";
    case ast::ExprKind::DurationLit:
      return "a Duration literal";
    case ast::ExprKind::Name:
      return "a name";
    case ast::ExprKind::Field:
      return "a field access";
    case ast::ExprKind::Call:
      return "a call";
    case ast::ExprKind::TypeApply:
      return "a type application";
    case ast::ExprKind::RecordLit:
      return "a record literal";
    case ast::ExprKind::ListLit:
      return "a list literal";
    case ast::ExprKind::MapLit:
      return "a map literal";
    case ast::ExprKind::If:
      return "an 'if' expression";
    case ast::ExprKind::Match:
      return "a 'match' expression";
    case ast::ExprKind::Block:
      return "a block";
    case ast::ExprKind::Unary:
      return "an operator";
    case ast::ExprKind::Binary:
      return "an operator";
    case ast::ExprKind::Paren:
      return "a parenthesised expression";
    case ast::ExprKind::Fail:
      return "'fail'";
    case ast::ExprKind::Error:
      return "an invalid expression";
  }
  return "an expression";
}

using Node = RefinementNode;

class PredicateChecker {
 public:
  PredicateChecker(Sema& sema, const TypeInfo& type, const Type* self)
      : sema_(sema), types_(sema.program.types), type_(type), self_(self) {}

  // The lowered predicate; empty when it is not well-formed.
  RefinementExpr check(const ast::Expr& predicate) {
    Operand result = visit(&predicate, 0);
    if (result.type != nullptr && result.type->kind != TypeKind::Bool)
      report(predicate.range,
             fmt::format("the refinement of '{}' must be a Bool condition on "
                         "'self', but this is '{}'",
                         type_.name, displayName(result.type)))
          .note("compare 'self' with a literal, e.g. 'where self > 0'");
    RefinementExpr lowered;
    if (result.type != nullptr && !failed_ && !nodes_.empty() &&
        result.node == nodes_.size() - 1)
      lowered.nodes = std::move(nodes_);
    return lowered;
  }

 private:
  // The type of a sub-expression, null after an error (reported or not),
  // and its lowered node.
  struct Operand {
    const Type* type = nullptr;
    bool intLiteral = false;  // may stand for a Float
    std::uint32_t node = 0;
  };

  Operand add(Node node, bool intLiteral = false) {
    const Type* type = node.type;
    nodes_.push_back(std::move(node));
    return {type, intLiteral, static_cast<std::uint32_t>(nodes_.size() - 1)};
  }
  Operand literal(ConstValue value, bool intLiteral = false) {
    Node node;
    node.kind = Node::Kind::Literal;
    node.type = value.type;
    node.value = std::move(value);
    return add(std::move(node), intLiteral);
  }
  Operand intLiteral(std::uint64_t magnitude, bool negative) {
    constexpr auto kMax =
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    // The lexer reports a literal that does not fit.
    if (magnitude > kMax + (negative ? 1 : 0)) {
      failed_ = true;
      return {types_.intType(), true};
    }
    ConstValue v;
    v.kind = ConstValue::Kind::Int;
    v.type = types_.intType();
    v.integer = negative ? (magnitude == kMax + 1
                                ? std::numeric_limits<std::int64_t>::min()
                                : -static_cast<std::int64_t>(magnitude))
                         : static_cast<std::int64_t>(magnitude);
    return literal(std::move(v), true);
  }
  Operand floatLiteral(double value) {
    ConstValue v;
    v.kind = ConstValue::Kind::Float;
    v.type = types_.floatType();
    v.real = value;
    return literal(std::move(v));
  }
  Operand unaryNode(Node::Kind kind, Operand operand, const Type* type) {
    Node node;
    node.kind = kind;
    node.type = type;
    node.lhs = operand.node;
    return add(std::move(node));
  }
  Operand binaryNode(Node::Kind kind, Operand lhs, Operand rhs,
                     const Type* type, bool intLiteral = false) {
    Node node;
    node.kind = kind;
    node.type = type;
    node.lhs = lhs.node;
    node.rhs = rhs.node;
    return add(std::move(node), intLiteral);
  }
  static Node::Kind kindOf(ast::BinaryOp op) {
    switch (op) {
      case ast::BinaryOp::Or:
        return Node::Kind::Or;
      case ast::BinaryOp::And:
        return Node::Kind::And;
      case ast::BinaryOp::Eq:
        return Node::Kind::Eq;
      case ast::BinaryOp::Ne:
        return Node::Kind::Ne;
      case ast::BinaryOp::Lt:
        return Node::Kind::Lt;
      case ast::BinaryOp::Le:
        return Node::Kind::Le;
      case ast::BinaryOp::Gt:
        return Node::Kind::Gt;
      case ast::BinaryOp::Ge:
        return Node::Kind::Ge;
      case ast::BinaryOp::Add:
        return Node::Kind::Add;
      case ast::BinaryOp::Sub:
        return Node::Kind::Sub;
      case ast::BinaryOp::Mul:
        return Node::Kind::Mul;
      case ast::BinaryOp::Div:
        return Node::Kind::Div;
      case ast::BinaryOp::Rem:
        return Node::Kind::Rem;
    }
    return Node::Kind::Eq;
  }

  DiagnosticBuilder report(SourceRange range, const std::string& message) {
    failed_ = true;
    DiagnosticBuilder builder =
        sema_.diags.report<diag::BadRefinement>(range, message);
    return builder;
  }
  // `detail`, when given, is a note about this case before the rule.
  DiagnosticBuilder reportWithRule(SourceRange range,
                                   const std::string& message,
                                   const std::string& detail = {}) {
    DiagnosticBuilder builder = report(range, message);
    if (!detail.empty()) builder.note("{}", detail);
    builder.note(
        "a refinement is a Bool expression over 'self' using "
        "comparisons, '&&', '||', '!', 'len(self)', literals and Int or "
        "Duration arithmetic");
    return builder;
  }

  Operand visit(const ast::Expr* expr, std::size_t depth) {
    const ast::Expr* e = stripParens(expr);
    if (e == nullptr || depth > kMaxDepth) return {};
    switch (e->kind) {
      case ast::ExprKind::IntLit:
        return intLiteral(cast<ast::IntLitExpr>(e)->value, false);
      case ast::ExprKind::FloatLit:
        return floatLiteral(cast<ast::FloatLitExpr>(e)->value);
      case ast::ExprKind::BoolLit: {
        ConstValue v;
        v.kind = ConstValue::Kind::Bool;
        v.type = types_.boolType();
        v.boolean = cast<ast::BoolLitExpr>(e)->value;
        return literal(std::move(v));
      }
      case ast::ExprKind::UnitLit: {
        ConstValue v;
        v.kind = ConstValue::Kind::Unit;
        v.type = types_.unit();
        return literal(std::move(v));
      }
      case ast::ExprKind::DurationLit: {
        const auto* lit = cast<ast::DurationLitExpr>(e);
        std::optional<std::int64_t> millis =
            durationMillis(lit->value, lit->unit);
        if (!millis) {
          // The lexer reports a Duration that does not fit.
          failed_ = true;
          return {types_.duration()};
        }
        ConstValue v;
        v.kind = ConstValue::Kind::Duration;
        v.type = types_.duration();
        v.integer = *millis;
        return literal(std::move(v));
      }
      case ast::ExprKind::StringLit: {
        ConstValue v;
        v.kind = ConstValue::Kind::String;
        v.type = types_.string();
        for (const ast::StringPart& part : cast<ast::StringLitExpr>(e)->parts) {
          if (part.expr != nullptr) {
            reportWithRule(part.range,
                           "an interpolated string cannot be "
                           "used in a refinement");
            return {};
          }
          v.text += part.text.str();
        }
        return literal(std::move(v));
      }
      case ast::ExprKind::Name: {
        const auto* name = cast<ast::NameExpr>(e);
        if (name->name.name == "self") {
          Node node;
          node.kind = Node::Kind::Self;
          node.type = self_;
          return add(std::move(node));
        }
        if (name->name.empty()) return {};
        reportWithRule(e->range,
                       fmt::format("'{}' cannot be used in a refinement: "
                                   "only 'self' can be named",
                                   name->name.name));
        return {};
      }
      case ast::ExprKind::Call:
        return visitCall(cast<ast::CallExpr>(*e));
      case ast::ExprKind::Unary:
        return visitUnary(cast<ast::UnaryExpr>(*e), depth);
      case ast::ExprKind::Binary:
        return visitBinary(cast<ast::BinaryExpr>(*e), depth);
      case ast::ExprKind::Error:
        return {};
      case ast::ExprKind::Field:
        reportWithRule(e->range,
                       "a field access cannot be used in a "
                       "refinement");
        return {};
      case ast::ExprKind::TypeApply:
      case ast::ExprKind::RecordLit:
      case ast::ExprKind::ListLit:
      case ast::ExprKind::MapLit:
      case ast::ExprKind::If:
      case ast::ExprKind::Match:
      case ast::ExprKind::Block:
      case ast::ExprKind::Paren:
      case ast::ExprKind::Fail:
        break;
    }
    reportWithRule(e->range, fmt::format("{} cannot be used in a refinement",
                                         describeExpr(*e)));
    return {};
  }

  Operand visitCall(const ast::CallExpr& call) {
    const auto* callee = dyn_cast_or_null<ast::NameExpr>(call.callee);
    if (callee != nullptr && callee->name.name == "len") {
      if (call.args.size() != 1 || !isSelf(call.args[0].value)) {
        reportWithRule(call.range,
                       "'len' in a refinement takes exactly 'self'");
        return {};
      }
      switch (self_->kind) {
        case TypeKind::String:
        case TypeKind::List:
        case TypeKind::Map: {
          Node node;
          node.kind = Node::Kind::Len;
          node.type = types_.intType();
          return add(std::move(node));
        }
        case TypeKind::Error:
          return {};
        case TypeKind::Never:
        case TypeKind::Unit:
        case TypeKind::Int:
        case TypeKind::Float:
        case TypeKind::Bool:
        case TypeKind::Instant:
        case TypeKind::Duration:
        case TypeKind::Envelope:
        case TypeKind::Option:
        case TypeKind::Ref:
        case TypeKind::Named:
        case TypeKind::Event:
        case TypeKind::Capability:
        case TypeKind::Actor:
          break;
      }
      reportWithRule(call.range,
                     fmt::format("'len(self)' needs a String or List base, "
                                 "but '{}' refines '{}'",
                                 type_.name, displayName(self_)));
      return {};
    }
    // `self.len()` is the method spelling of what a refinement writes
    // `len(self)`.
    if (const auto* method = dyn_cast_or_null<ast::FieldExpr>(call.callee);
        method != nullptr && method->name.name == "len" &&
        isSelf(method->base) && call.args.empty()) {
      reportWithRule(call.range,
                     "a method call cannot be used in a "
                     "refinement; write 'len(self)'")
          .fixit(call.range, "len(self)");
      return {};
    }
    if (call.callee == nullptr || llvm::isa<ast::ErrorExpr>(call.callee))
      return {};
    reportWithRule(call.range,
                   "a call cannot be used in a refinement; the "
                   "only function there is 'len(self)'");
    return {};
  }

  // A run of `!` and `-` is checked from its innermost operator out, so
  // that its length costs no stack.
  Operand visitUnary(const ast::UnaryExpr& top, std::size_t depth) {
    llvm::SmallVector<const ast::UnaryExpr*, 8> run{&top};
    for (;;) {
      const auto* inner =
          dyn_cast_or_null<ast::UnaryExpr>(stripParens(run.back()->operand));
      if (inner == nullptr) break;
      run.push_back(inner);
    }
    Operand operand = unaryLink(*run.back(), std::nullopt, depth);
    for (std::size_t i = run.size() - 1; i-- > 0;)
      operand = unaryLink(*run[i], operand, depth);
    return operand;
  }

  // One operator of a run; `below` is its operand's result when the run
  // has checked it already.
  Operand unaryLink(const ast::UnaryExpr& e, std::optional<Operand> below,
                    std::size_t depth) {
    switch (e.op) {
      case ast::UnaryOp::Not: {
        Operand operand = below ? *below : visit(e.operand, depth + 1);
        if (operand.type == nullptr) return {};
        if (operand.type->kind != TypeKind::Bool) {
          reportWithRule(e.operand->range,
                         fmt::format("'!' needs a Bool, but this is '{}'",
                                     displayName(operand.type)));
          return {};
        }
        return unaryNode(Node::Kind::Not, operand, operand.type);
      }
      case ast::UnaryOp::Neg: {
        // `-5` is a literal; negating anything else is arithmetic.
        const ast::Expr* operand = stripParens(e.operand);
        if (const auto* lit = dyn_cast_or_null<ast::IntLitExpr>(operand))
          return intLiteral(lit->value, true);
        if (const auto* lit = dyn_cast_or_null<ast::FloatLitExpr>(operand))
          return floatLiteral(-lit->value);
        if (operand == nullptr || llvm::isa<ast::ErrorExpr>(operand)) return {};
        Operand inner = below ? *below : visit(operand, depth + 1);
        if (inner.type == nullptr) return {};
        if (inner.type->kind == TypeKind::Int ||
            inner.type->kind == TypeKind::Duration)
          return unaryNode(Node::Kind::Neg, inner, inner.type);
        reportWithRule(e.range,
                       fmt::format("'-' cannot be applied to '{}' in a "
                                   "refinement",
                                   displayName(inner.type)));
        return {};
      }
    }
    return {};
  }

  // Int arithmetic, and `+ -` on Durations, as in constant expressions;
  // refinement_eval.cpp evaluates it with checked operations.
  Operand arithmetic(const ast::BinaryExpr& e, Operand lhs, Operand rhs) {
    if (lhs.type == nullptr || rhs.type == nullptr) return {};
    bool additive = e.op == ast::BinaryOp::Add || e.op == ast::BinaryOp::Sub;
    if (lhs.type == rhs.type &&
        (lhs.type->kind == TypeKind::Int ||
         (additive && lhs.type->kind == TypeKind::Duration)))
      return binaryNode(kindOf(e.op), lhs, rhs, lhs.type,
                        lhs.intLiteral && rhs.intLiteral);
    reportWithRule(e.range,
                   fmt::format("arithmetic ('{}') cannot be applied to '{}' "
                               "and '{}' in a refinement",
                               ast::spelling(e.op), displayName(lhs.type),
                               displayName(rhs.type)),
                   fmt::format("'self' is a '{}' in the refinement of '{}'",
                               displayName(self_), type_.name));
    return {};
  }

  // A left-deep chain (`self > 0 && self < 10 && ...`) is checked in a
  // loop from its innermost operator out, each operator's right side
  // visited after everything on its left, as a recursive walk would.
  Operand visitBinary(const ast::BinaryExpr& top, std::size_t depth) {
    llvm::SmallVector<const ast::BinaryExpr*, 8> spine{&top};
    while (const auto* lhs = dyn_cast_or_null<ast::BinaryExpr>(
               stripParens(spine.back()->lhs)))
      spine.push_back(lhs);
    Operand value = visit(spine.back()->lhs, depth + 1);
    for (auto it = spine.rbegin(); it != spine.rend(); ++it)
      value = binaryLink(**it, value, visit((*it)->rhs, depth + 1));
    return value;
  }

  Operand binaryLink(const ast::BinaryExpr& e, Operand lhs, Operand rhs) {
    std::string_view op = ast::spelling(e.op);
    switch (e.op) {
      case ast::BinaryOp::Add:
      case ast::BinaryOp::Sub:
      case ast::BinaryOp::Mul:
      case ast::BinaryOp::Div:
      case ast::BinaryOp::Rem:
        return arithmetic(e, lhs, rhs);
      case ast::BinaryOp::And:
      case ast::BinaryOp::Or: {
        bool ok = true;
        for (auto [side, operand] : {std::pair{e.lhs, lhs}, {e.rhs, rhs}}) {
          if (operand.type == nullptr) {
            ok = false;
          } else if (operand.type->kind != TypeKind::Bool) {
            reportWithRule(side->range,
                           fmt::format("'{}' needs Bool operands, but this "
                                       "is '{}'",
                                       op, displayName(operand.type)));
            ok = false;
          }
        }
        if (!ok) return {};
        return binaryNode(kindOf(e.op), lhs, rhs, types_.boolType());
      }
      case ast::BinaryOp::Eq:
      case ast::BinaryOp::Ne:
      case ast::BinaryOp::Lt:
      case ast::BinaryOp::Le:
      case ast::BinaryOp::Gt:
      case ast::BinaryOp::Ge:
        break;
    }
    if (lhs.type == nullptr || rhs.type == nullptr) return {};
    bool equality = e.op == ast::BinaryOp::Eq || e.op == ast::BinaryOp::Ne;
    // An Int literal compares with a Float as the same number.
    bool numeric = (lhs.type->kind == TypeKind::Float && rhs.intLiteral) ||
                   (rhs.type->kind == TypeKind::Float && lhs.intLiteral);
    bool fits = (lhs.type == rhs.type || numeric) &&
                (equality || ordered(lhs.type) || numeric);
    if (!fits) {
      reportWithRule(e.range,
                     fmt::format("'{}' cannot compare '{}' with '{}'", op,
                                 displayName(lhs.type), displayName(rhs.type)),
                     fmt::format("'self' is a '{}' in the refinement of '{}'",
                                 displayName(self_), type_.name));
      return {};
    }
    return binaryNode(kindOf(e.op), lhs, rhs, types_.boolType());
  }

  Sema& sema_;
  TypeTable& types_;
  const TypeInfo& type_;
  const Type* self_;
  std::vector<Node> nodes_;
  bool failed_ = false;  // reported, or left to another report
};

}  // namespace

void checkRefinementPredicate(Sema& sema, TypeInfo& type) {
  if (type.refinement == nullptr) return;
  const Type* self = refinementSelfType(type);
  if (!isWellFormed(self)) return;
  type.predicate = PredicateChecker(sema, type, self).check(*type.refinement);
}

}  // namespace herald::check
