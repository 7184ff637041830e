// Literal and range patterns: the field's built-in type under any opaque or
// refined wrappers, the literal's constant value, and refinement checks.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/const_eval.h"
#include "checker/pattern_check.h"

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

const Type* PatternChecker::unwrap(const Type* type, SourceRange range,
                                   const std::string& text,
                                   std::vector<Wrapper>& chain) {
  const Type* t = type;
  while (t != nullptr && t->kind == TypeKind::Named && t->named != nullptr &&
         (t->named->def == TypeDefKind::Opaque ||
          t->named->def == TypeDefKind::Refined)) {
    const TypeInfo* info = t->named;
    if (info->def == TypeDefKind::Opaque && info->context != &from_) {
      sema_.diags
          .report<diag::PatternTypeMismatch>(range, text, displayName(type))
          .note(info->nameRange,
                "'{}' is opaque outside its context '{}': its values cannot "
                "be written here",
                info->name, info->context != nullptr ? info->context->name : "")
          .note("match it with '_' and compare it in the handler");
      return nullptr;
    }
    chain.push_back(Wrapper{t, info});
    if (chain.size() > kMaxWrappers) return nullptr;
    t = info->base;
  }
  if (t == nullptr || !isWellFormed(t)) return nullptr;
  return t;
}

bool PatternChecker::satisfies(const ConstValue& v,
                               llvm::ArrayRef<Wrapper> chain, SourceRange range,
                               const std::string& text) {
  // Innermost first: the base's refinement is the one a value breaks first.
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (it->info->refinement == nullptr) continue;
    if (checkRefinement(*it->info, v) != RefinementResult::Violated) continue;
    sema_.diags
        .report<diag::PatternUnsatisfiable>(
            range, text,
            fmt::format("{} does not satisfy the refinement of '{}'", render(v),
                        it->info->name))
        .note(it->info->nameRange, "'{}' requires {}", it->info->name,
              refinementText(sema_.sources, *it->info));
    return false;
  }
  return true;
}

Predicate PatternChecker::literal(const ast::Expr* lit, SourceRange range,
                                  const Type* type, const Path& path,
                                  const std::string& text) {
  TypeKind kind = literalKind(lit);
  if (kind == TypeKind::Error) return Predicate{};
  std::vector<Wrapper> chain;
  const Type* base = unwrap(type, range, text, chain);
  if (base == nullptr) return Predicate{};
  if (base->kind != kind) {
    mismatch(range, text, type);
    return Predicate{};
  }
  std::optional<ConstValue> v = evalConstant(sema_, from_, lit, base);
  if (!v) {
    mismatch(range, text, type);
    return Predicate{};
  }
  if (!satisfies(*v, chain, range, text)) return Predicate{};
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
  Predicate out;
  out.kind = Predicate::Kind::Equals;
  out.path = path;
  out.value = std::move(value);
  return out;
}

Predicate PatternChecker::range(const ast::RangePattern& p, const Type* type,
                                const Path& path, const std::string& text) {
  std::vector<Wrapper> chain;
  const Type* base = unwrap(type, p.range, text, chain);
  if (base == nullptr) return Predicate{};
  if (base->kind != TypeKind::Int) {
    sema_.diags
        .report<diag::PatternTypeMismatch>(p.range, text, displayName(type))
        .note("a range matches 'Int' values only")
        .note("{}", howToMatch(type, from_));
    return Predicate{};
  }
  std::optional<std::int64_t> low;
  std::optional<std::int64_t> high;
  for (auto [bound, out] : {std::pair{p.low, &low}, std::pair{p.high, &high}}) {
    if (bound == nullptr) continue;
    *out = intBound(bound);
    if (*out) continue;
    sema_.diags
        .report<diag::PatternTypeMismatch>(bound->range, text,
                                           displayName(type))
        .note("'{}' does not fit in an 'Int'",
              sema_.sources.textOf(bound->range));
    return Predicate{};
  }
  if (low && high && *low > *high) {
    std::string swapped =
        fmt::format("{}..{}", sema_.sources.textOf(p.high->range),
                    sema_.sources.textOf(p.low->range));
    sema_.diags
        .report<diag::PatternUnsatisfiable>(
            p.range, text,
            fmt::format("the range {}..{} is empty", *low, *high))
        .note("write the smaller bound first: '{}'", swapped)
        .fixit(p.range, swapped);
    return Predicate{};
  }
  bool refined = false;
  for (const Wrapper& w : chain) refined = refined || w.info->refinement;
  // A short closed range can be decided exactly: is any value in it allowed?
  if (refined && low && high &&
      static_cast<std::uint64_t>(*high) - static_cast<std::uint64_t>(*low) <
          static_cast<std::uint64_t>(kRefinementScan)) {
    bool anyAllowed = false;
    for (std::int64_t n = *low; !anyAllowed; ++n) {
      ConstValue v;
      v.kind = ConstValue::Kind::Int;
      v.type = sema_.program.types.intType();
      v.integer = n;
      bool allowed = true;
      for (const Wrapper& w : chain)
        if (w.info->refinement != nullptr &&
            checkRefinement(*w.info, v) == RefinementResult::Violated)
          allowed = false;
      anyAllowed = allowed;
      if (n == *high) break;
    }
    if (!anyAllowed) {
      const TypeInfo& outer = *chain.front().info;
      sema_.diags
          .report<diag::PatternUnsatisfiable>(
              p.range, text,
              fmt::format("no value in {}..{} satisfies the refinement of "
                          "'{}'",
                          *low, *high, outer.name))
          .note(outer.nameRange, "'{}' requires {}", outer.name,
                refinementText(sema_.sources, outer));
      return Predicate{};
    }
  }
  Predicate out;
  out.kind = Predicate::Kind::IntRange;
  out.path = path;
  out.low = low;
  out.high = high;
  return out;
}

}  // namespace herald::check
