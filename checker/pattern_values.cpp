// Literal and range patterns: the field's built-in type under any opaque or
// refined wrappers, the literal's constant value, and refinement checks (a
// literal or any range, closed, open or wide, that no allowed value can
// match is pattern-unsatisfiable).
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/eval.h"
#include "checker/pattern_resolve.h"

namespace herald::check {

namespace {

// Ranges at most this wide are checked value by value against a refinement.
constexpr std::int64_t kRefinementScan = 4096;
// Wrapper chains are short; the bound only guards against malformed types.
constexpr std::size_t kMaxWrappers = 64;

TypeKind literalKind(const ast::Expr* e) {
  if (e == nullptr) return TypeKind::Error;
  switch (e->kind) {
    case ast::ExprKind::IntLit:
      return TypeKind::Int;
    case ast::ExprKind::FloatLit:
      return TypeKind::Float;
    case ast::ExprKind::BoolLit:
      return TypeKind::Bool;
    case ast::ExprKind::StringLit:
      return TypeKind::String;
    case ast::ExprKind::Unary: {
      const auto* u = llvm::cast<ast::UnaryExpr>(e);
      TypeKind inner = literalKind(u->operand);
      bool numeric = inner == TypeKind::Int || inner == TypeKind::Float;
      return u->op == ast::UnaryOp::Neg && numeric ? inner : TypeKind::Error;
    }
    case ast::ExprKind::UnitLit:
    case ast::ExprKind::DurationLit:
    case ast::ExprKind::Name:
    case ast::ExprKind::Field:
    case ast::ExprKind::Call:
    case ast::ExprKind::TypeApply:
    case ast::ExprKind::RecordLit:
    case ast::ExprKind::ListLit:
    case ast::ExprKind::MapLit:
    case ast::ExprKind::If:
    case ast::ExprKind::Match:
    case ast::ExprKind::Block:
    case ast::ExprKind::Binary:
    case ast::ExprKind::Paren:
    case ast::ExprKind::Fail:
    case ast::ExprKind::Error:
      return TypeKind::Error;
  }
  return TypeKind::Error;
}

// The value of an integer bound (`5`, `-3`), or nullopt when it does not fit
// in an Int.
std::optional<std::int64_t> intBound(const ast::Expr* e) {
  constexpr auto kMax =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (const auto* lit = llvm::dyn_cast_or_null<ast::IntLitExpr>(e)) {
    if (lit->value > kMax) return std::nullopt;
    return static_cast<std::int64_t>(lit->value);
  }
  const auto* u = llvm::dyn_cast_or_null<ast::UnaryExpr>(e);
  if (u == nullptr || u->op != ast::UnaryOp::Neg) return std::nullopt;
  const auto* lit = llvm::dyn_cast_or_null<ast::IntLitExpr>(u->operand);
  if (lit == nullptr || lit->value > kMax + 1) return std::nullopt;
  if (lit->value == kMax + 1) return std::numeric_limits<std::int64_t>::min();
  return -static_cast<std::int64_t>(lit->value);
}

// The value of a literal pattern (`3`, `-3`, `1.5`, `true`, `"EUR"`) of
// `base`, a built-in type of the literal's kind; nullopt for an Int that
// does not fit and a string with interpolated parts.
std::optional<ConstValue> literalValue(const ast::Expr* lit, const Type* base) {
  ConstValue value;
  value.type = base;
  switch (base->kind) {
    case TypeKind::Int: {
      std::optional<std::int64_t> v = intBound(lit);
      if (!v) return std::nullopt;
      value.kind = ConstValue::Kind::Int;
      value.integer = *v;
      return value;
    }
    case TypeKind::Float: {
      const auto* u = llvm::dyn_cast<ast::UnaryExpr>(lit);
      const auto* f = llvm::dyn_cast_or_null<ast::FloatLitExpr>(
          u != nullptr ? u->operand : lit);
      if (f == nullptr) return std::nullopt;
      value.kind = ConstValue::Kind::Float;
      value.real = u != nullptr ? -f->value : f->value;
      return value;
    }
    case TypeKind::Bool: {
      const auto* b = llvm::dyn_cast<ast::BoolLitExpr>(lit);
      if (b == nullptr) return std::nullopt;
      value.kind = ConstValue::Kind::Bool;
      value.boolean = b->value;
      return value;
    }
    case TypeKind::String: {
      const auto* str = llvm::dyn_cast<ast::StringLitExpr>(lit);
      if (str == nullptr) return std::nullopt;
      value.kind = ConstValue::Kind::String;
      for (const ast::StringPart& part : str->parts) {
        if (part.expr != nullptr) return std::nullopt;
        value.text += part.text;
      }
      return value;
    }
    case TypeKind::Unit:
    case TypeKind::Duration:
    case TypeKind::Instant:
    case TypeKind::Envelope:
    case TypeKind::Never:
    case TypeKind::Error:
    case TypeKind::Option:
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Ref:
    case TypeKind::Named:
    case TypeKind::Event:
    case TypeKind::Capability:
    case TypeKind::Actor:
      break;
  }
  return std::nullopt;
}

std::string variantList(const TypeInfo& sum) {
  std::string out;
  for (const VariantInfo& v : sum.variants) {
    if (!out.empty()) out += ", ";
    out += v.name;
    if (!v.fields.empty()) out += "(..)";
  }
  return out;
}

std::string howToMatchAt(const Type* type, const ContextInfo& from,
                         std::size_t depth) {
  std::string onlyWildcard = fmt::format(
      "a field of type '{}' can only be matched with '_'", displayName(type));
  if (type == nullptr || depth > kMaxWrappers) return onlyWildcard;
  switch (type->kind) {
    case TypeKind::Option:
      return "match an optional value with 'None', 'Some(_)' or "
             "'Some(<pattern>)'";
    case TypeKind::Event:
      return fmt::format(
          "match the fields of '{}' with "
          "'{{ <field>: <pattern>, .. }}'",
          displayName(type));
    case TypeKind::Int:
      return "match an 'Int' with a literal such as '3' or a range such as "
             "'1..10'";
    case TypeKind::Float:
      return "match a 'Float' with a literal such as '2.5'";
    case TypeKind::Bool:
      return "match a 'Bool' with 'true' or 'false'";
    case TypeKind::String:
      return "match a 'String' with a literal such as \"text\"";
    case TypeKind::Named:
      break;
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Unit:
    case TypeKind::Instant:
    case TypeKind::Duration:
    case TypeKind::Envelope:
    case TypeKind::List:
    case TypeKind::Map:
    case TypeKind::Ref:
    case TypeKind::Capability:
    case TypeKind::Actor:
      return onlyWildcard;
  }
  const TypeInfo* info = type->named;
  if (info == nullptr) return onlyWildcard;
  switch (info->def) {
    case TypeDefKind::Record:
      return fmt::format(
          "match the fields of '{}' with "
          "'{{ <field>: <pattern>, .. }}'",
          info->name);
    case TypeDefKind::Sum:
      return fmt::format("match a '{}' with one of its variants: {}",
                         info->name, variantList(*info));
    case TypeDefKind::Opaque:
      if (info->context != &from) {
        return fmt::format(
            "'{}' is opaque outside its context '{}', so only '_' matches "
            "it here",
            info->name, info->context != nullptr ? info->context->name : "");
      }
      return howToMatchAt(info->base, from, depth + 1);
    case TypeDefKind::Refined:
    case TypeDefKind::Alias:
      return howToMatchAt(info->base, from, depth + 1);
  }
  return onlyWildcard;
}

}  // namespace

std::string howToMatch(const Type* type, const ContextInfo& from) {
  return howToMatchAt(type, from, 0);
}

namespace {

// Refinements are short; the bounds only guard against hostile input.
constexpr std::size_t kMaxConstants = 256;
constexpr int kMaxDepth = 64;

// True when `e` decides membership only by comparing `self` with integer
// constants, joined by `&&`, `||` and `!`: its truth is then constant
// between consecutive constants, so testing each constant, its neighbours
// and the range's ends decides whether any value of a range satisfies it.
bool comparesSelfWithConstants(const ast::Expr* e,
                               std::vector<std::int64_t>& constants,
                               int depth) {
  if (e == nullptr || depth > kMaxDepth || constants.size() > kMaxConstants)
    return false;
  if (const auto* p = llvm::dyn_cast<ast::ParenExpr>(e))
    return comparesSelfWithConstants(p->inner, constants, depth + 1);
  if (llvm::isa<ast::BoolLitExpr>(e)) return true;
  if (const auto* u = llvm::dyn_cast<ast::UnaryExpr>(e))
    return u->op == ast::UnaryOp::Not &&
           comparesSelfWithConstants(u->operand, constants, depth + 1);
  const auto* b = llvm::dyn_cast<ast::BinaryExpr>(e);
  if (b == nullptr) return false;
  switch (b->op) {
    case ast::BinaryOp::And:
    case ast::BinaryOp::Or:
      return comparesSelfWithConstants(b->lhs, constants, depth + 1) &&
             comparesSelfWithConstants(b->rhs, constants, depth + 1);
    case ast::BinaryOp::Eq:
    case ast::BinaryOp::Ne:
    case ast::BinaryOp::Lt:
    case ast::BinaryOp::Le:
    case ast::BinaryOp::Gt:
    case ast::BinaryOp::Ge:
      break;
    case ast::BinaryOp::Add:
    case ast::BinaryOp::Sub:
    case ast::BinaryOp::Mul:
    case ast::BinaryOp::Div:
    case ast::BinaryOp::Rem:
      return false;
  }
  auto isSelf = [](const ast::Expr* x) {
    const auto* n = llvm::dyn_cast_or_null<ast::NameExpr>(x);
    return n != nullptr && n->name.name == "self";
  };
  const ast::Expr* other = nullptr;
  if (isSelf(b->lhs)) other = b->rhs;
  if (isSelf(b->rhs)) other = b->lhs;
  if (other == nullptr) return false;
  while (const auto* p = llvm::dyn_cast_or_null<ast::ParenExpr>(other))
    other = p->inner;
  std::optional<std::int64_t> c = intBound(other);
  if (!c) return false;
  constants.push_back(*c);
  return true;
}

std::string rangeText(std::optional<std::int64_t> lo,
                      std::optional<std::int64_t> hi) {
  return fmt::format("{}..{}", lo ? std::to_string(*lo) : std::string(),
                     hi ? std::to_string(*hi) : std::string());
}

}  // namespace

const Type* PatternResolver::unwrap(const Type* type, SourceRange range,
                                    const PatternText& text,
                                    std::vector<Wrapper>& chain) {
  const Type* t = type;
  while (t != nullptr && t->kind == TypeKind::Named && t->named != nullptr &&
         (t->named->def == TypeDefKind::Opaque ||
          t->named->def == TypeDefKind::Refined)) {
    const TypeInfo* info = t->named;
    if (info->def == TypeDefKind::Opaque && info->context != &from_) {
      reported_ = true;
      std::string_view owner = info->context != nullptr
                                   ? std::string_view(info->context->name)
                                   : std::string_view();
      switch (use_) {
        case PatternUse::MatchArm: {
          // A named message: clang 14 gives a temporary here a lifetime
          // that AddressSanitizer reports on the other case's path.
          std::string message = fmt::format(
              "'{}' is opaque outside its context '{}': its values cannot "
              "be written here",
              info->name, owner);
          sema_.diags.report<diag::InvalidPattern>(range, message)
              .note(
                  "match it with '_' or a binding and compare it with a "
                  "function of '{}'",
                  owner);
          break;
        }
        case PatternUse::Subscription:
          sema_.diags
              .report<diag::PatternTypeMismatch>(range, text.describe(),
                                                 displayName(type))
              .note(info->nameRange,
                    "'{}' is opaque outside its context '{}': its values "
                    "cannot be written here",
                    info->name, owner)
              .note("match it with '_' and compare it in the handler");
          break;
      }
      return nullptr;
    }
    chain.push_back(Wrapper{t, info});
    if (chain.size() > kMaxWrappers) return nullptr;
    t = info->base;
  }
  if (t == nullptr || !isWellFormed(t)) return nullptr;
  return t;
}

bool PatternResolver::satisfies(const ConstValue& v,
                                llvm::ArrayRef<Wrapper> chain,
                                SourceRange range, const PatternText& text) {
  // Innermost first: the base's refinement is the one a value breaks first.
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (it->info->refinement == nullptr) continue;
    if (checkRefinement(*it->info, v) != RefinementResult::Violated) continue;
    reported_ = true;
    sema_.diags
        .report<diag::PatternUnsatisfiable>(
            range, text.describe(),
            fmt::format("{} does not satisfy the refinement of '{}'", render(v),
                        it->info->name))
        .note(it->info->nameRange, "'{}' requires {}", it->info->name,
              refinementText(sema_.sources, *it->info));
    return false;
  }
  return true;
}

const ResolvedPattern* PatternResolver::literal(const ast::Expr* lit,
                                                SourceRange range,
                                                const Type* type,
                                                const PatternText& text) {
  TypeKind kind = literalKind(lit);
  if (kind == TypeKind::Error) return invalid(range);
  std::vector<Wrapper> chain;
  const Type* base = unwrap(type, range, text, chain);
  if (base == nullptr) return invalid(range);
  TypeTable& tt = sema_.program.types;
  const Type* written = kind == TypeKind::Int     ? tt.intType()
                        : kind == TypeKind::Float ? tt.floatType()
                        : kind == TypeKind::Bool  ? tt.boolType()
                                                  : tt.string();
  std::string message =
      fmt::format("a '{}' literal cannot match a value of type '{}'",
                  displayName(written), displayName(type));
  if (base->kind != kind) {
    mismatch(range, text, type, message);
    return invalid(range);
  }
  std::optional<ConstValue> v = literalValue(lit, base);
  if (!v) {
    mismatch(range, text, type, message);
    return invalid(range);
  }
  if (!satisfies(*v, chain, range, text)) return invalid(range);
  // The value carries the field's own type, wrapped as the runtime decodes
  // it: an opaque or refined value around its base.
  ConstValue value = std::move(*v);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    ConstValue wrapped;
    wrapped.kind = ConstValue::Kind::Opaque;
    wrapped.type = it->type;
    wrapped.children.push_back(std::move(value));
    value = std::move(wrapped);
  }
  ResolvedPattern* out = make(ResolvedPattern::Kind::Literal, type, range);
  out->base = base;
  values_.push_back(std::make_unique<ConstValue>(std::move(value)));
  out->value = values_.back().get();
  out->literal = lit;
  return out;
}

const ResolvedPattern* PatternResolver::range(const ast::RangePattern& p,
                                              const Type* type,
                                              const PatternText& text) {
  std::vector<Wrapper> chain;
  const Type* base = unwrap(type, p.range, text, chain);
  if (base == nullptr) return invalid(p.range);
  if (base->kind != TypeKind::Int) {
    reported_ = true;
    switch (use_) {
      case PatternUse::MatchArm:
        sema_.diags.report<diag::InvalidPattern>(
            p.range, fmt::format("a range pattern matches 'Int' values, but "
                                 "the value matched has type '{}'",
                                 displayName(type)));
        break;
      case PatternUse::Subscription:
        sema_.diags
            .report<diag::PatternTypeMismatch>(p.range, text.describe(),
                                               displayName(type))
            .note("a range matches 'Int' values only")
            .note("{}", howToMatch(type, from_));
        break;
    }
    return invalid(p.range);
  }
  std::optional<std::int64_t> low;
  std::optional<std::int64_t> high;
  for (auto [bound, out] : {std::pair{p.low, &low}, std::pair{p.high, &high}}) {
    if (bound == nullptr) continue;
    *out = intBound(bound);
    if (*out) continue;
    mismatch(bound->range, text, type,
             fmt::format("'{}' does not fit in an 'Int'",
                         sema_.sources.textOf(bound->range)));
    return invalid(p.range);
  }
  if (low && high && *low > *high) {
    reported_ = true;
    std::string swapped =
        fmt::format("{}..{}", sema_.sources.textOf(p.high->range),
                    sema_.sources.textOf(p.low->range));
    sema_.diags
        .report<diag::PatternUnsatisfiable>(
            p.range, text.describe(),
            fmt::format("the range {}..{} is empty", *low, *high))
        .note("write the smaller bound first: '{}'", swapped)
        .fixit(p.range, swapped);
    return invalid(p.range);
  }
  if (!rangeSatisfiable(
          p, low.value_or(std::numeric_limits<std::int64_t>::min()),
          high.value_or(std::numeric_limits<std::int64_t>::max()), chain, text))
    return invalid(p.range);
  ResolvedPattern* out = make(ResolvedPattern::Kind::Range, type, p.range);
  out->base = base;
  out->low = p.low;
  out->high = p.high;
  out->lo = low;
  out->hi = high;
  return out;
}

bool PatternResolver::rangeSatisfiable(const ast::RangePattern& p,
                                       std::int64_t lo, std::int64_t hi,
                                       llvm::ArrayRef<Wrapper> chain,
                                       const PatternText& text) {
  const TypeInfo* outer = nullptr;
  bool exact = true;
  std::vector<std::int64_t> constants;
  for (const Wrapper& w : chain) {
    if (w.info->refinement == nullptr) continue;
    if (outer == nullptr) outer = w.info;
    exact =
        exact && comparesSelfWithConstants(w.info->refinement, constants, 0);
  }
  if (outer == nullptr) return true;
  std::vector<std::int64_t> candidates;
  if (exact) {
    candidates = {lo, hi};
    for (std::int64_t c : constants) {
      if (c >= lo && c <= hi) candidates.push_back(c);
      if (c > lo && c - 1 <= hi) candidates.push_back(c - 1);
      if (c < hi && c + 1 >= lo) candidates.push_back(c + 1);
    }
  } else if (static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) <
             static_cast<std::uint64_t>(kRefinementScan)) {
    // Any refinement: a short range is decided value by value.
    for (std::int64_t n = lo;; ++n) {
      candidates.push_back(n);
      if (n == hi) break;
    }
  } else {
    return true;  // undecided: the runtime checks each value
  }
  for (std::int64_t n : candidates) {
    ConstValue v;
    v.kind = ConstValue::Kind::Int;
    v.type = sema_.program.types.intType();
    v.integer = n;
    bool allowed = true;
    for (const Wrapper& w : chain)
      if (w.info->refinement != nullptr &&
          checkRefinement(*w.info, v) == RefinementResult::Violated)
        allowed = false;
    if (allowed) return true;
  }
  reported_ = true;
  std::optional<std::int64_t> shownLo;
  std::optional<std::int64_t> shownHi;
  if (p.low != nullptr) shownLo = lo;
  if (p.high != nullptr) shownHi = hi;
  sema_.diags
      .report<diag::PatternUnsatisfiable>(
          p.range, text.describe(),
          fmt::format("no value in {} satisfies the refinement of '{}'",
                      rangeText(shownLo, shownHi), outer->name))
      .note(outer->nameRange, "'{}' requires {}", outer->name,
            refinementText(sema_.sources, *outer));
  return false;
}

}  // namespace herald::check
