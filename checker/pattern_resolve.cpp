// The structure of patterns: records, variants and their payloads, options,
// names. Literals and ranges are in pattern_values.cpp; the wording of the
// problems that differ between match arms and subscriptions is in
// pattern_report.cpp.
#include "checker/pattern_resolve.h"

#include <algorithm>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "checker/lookup.h"
#include "checker/record_use.h"

namespace herald::check {

namespace {

std::string writtenName(const ast::QualifiedName& n) {
  std::string out;
  for (const ast::Ident& part : n.parts) {
    if (!out.empty()) out += '.';
    out += part.name.str();
  }
  return out;
}

bool hasEmptyPart(const ast::QualifiedName& n) {
  if (n.parts.empty()) return true;
  for (const ast::Ident& part : n.parts)
    if (part.empty()) return true;
  return false;
}

const TypeInfo* namedInfo(const Type* type, TypeDefKind def) {
  if (type == nullptr || type->kind != TypeKind::Named ||
      type->named == nullptr || type->named->def != def)
    return nullptr;
  return type->named;
}

bool isUpperInitial(llvm::StringRef name) {
  return !name.empty() && name.front() >= 'A' && name.front() <= 'Z';
}

// A lower-case name that is no variant of `sum` and resembles none.
bool resemblesNoVariant(const TypeInfo& sum, llvm::StringRef name) {
  std::vector<std::string> names;
  for (const VariantInfo& v : sum.variants) names.push_back(v.name);
  return closestName(name, names).empty();
}

// Whether the written fields of `p` cover every one of `fields` (each
// field is matched at most once: fieldList drops duplicates).
bool listsEvery(const ResolvedPattern& p, llvm::ArrayRef<FieldInfo> fields) {
  std::size_t listed = 0;
  for (const SubPattern& s : p.subs)
    if (s.field != SubPattern::kNoField) ++listed;
  return listed == fields.size();
}

std::vector<std::string> unlistedNames(const ResolvedPattern& p,
                                       llvm::ArrayRef<FieldInfo> fields) {
  std::vector<std::string> unlisted;
  for (std::uint32_t i = 0; i < fields.size(); ++i) {
    bool listed = false;
    for (const SubPattern& s : p.subs) listed = listed || s.field == i;
    if (!listed) unlisted.push_back(fields[i].name);
  }
  return unlisted;
}

}  // namespace

std::string PatternShape::owner() const {
  return fmt::format("{} '{}'", ownerKind.str(), ownerName.str());
}

std::string PatternText::str() const {
  if (parent_ == nullptr) return step_.str();
  std::string out = parent_->str();
  if (some_) return out + "?";
  if (out.empty()) return step_.str();
  out += '.';
  out += step_.str();
  return out;
}

bool PatternText::throughSome() const {
  for (const PatternText* t = this; t != nullptr; t = t->parent_)
    if (t->some_) return true;
  return false;
}

std::string PatternText::describe() const {
  if (!throughSome()) return fmt::format("field '{}'", str());
  if (some_) return "the value inside 'Some' of " + parent_->describe();
  return fmt::format("field '{}' of {}", step_.str(), parent_->describe());
}

llvm::ArrayRef<FieldInfo> ResolvedPattern::fields() const {
  if (kind == Kind::Variant && variant != nullptr) return variant->fields;
  if (kind != Kind::Record || type == nullptr) return {};
  if (type->kind == TypeKind::Event && type->event != nullptr)
    return type->event->fields;
  if (type->kind == TypeKind::Named && type->named != nullptr)
    return type->named->fields;
  return {};
}

PatternResolver::Rules PatternResolver::rules() const {
  switch (use_) {
    case PatternUse::MatchArm:
      return Rules{true, false};
    case PatternUse::Subscription:
      return Rules{false, true};
  }
  return Rules{false, true};
}

ResolvedPattern* PatternResolver::make(ResolvedPattern::Kind kind,
                                       const Type* type, SourceRange range) {
  static_assert(std::is_trivially_destructible_v<ResolvedPattern>);
  auto* p = new (arena_.Allocate<ResolvedPattern>()) ResolvedPattern();
  p->kind = kind;
  p->type = type;
  p->range = range;
  return p;
}

llvm::ArrayRef<SubPattern> PatternResolver::keep(
    llvm::ArrayRef<SubPattern> subs) {
  if (subs.empty()) return {};
  SubPattern* data = arena_.Allocate<SubPattern>(subs.size());
  std::uninitialized_copy(subs.begin(), subs.end(), data);
  return {data, subs.size()};
}

const ResolvedPattern* PatternResolver::invalid(SourceRange range) {
  return make(ResolvedPattern::Kind::Invalid, nullptr, range);
}

const ResolvedPattern* PatternResolver::resolve(const ast::Pattern* p,
                                                const Type* type,
                                                const PatternText& text) {
  if (p == nullptr) return invalid(SourceRange{});
  // Errors in the type are reported elsewhere; names still bind, so that
  // the arm's body does not report them as unknown.
  if (type == nullptr || !isWellFormed(type)) {
    const auto* n = llvm::dyn_cast<ast::NamePattern>(p);
    if (n != nullptr && rules().bindings && orDepth_ == 0 &&
        n->name.parts.size() == 1 && !n->name.parts[0].empty()) {
      ResolvedPattern* b = make(ResolvedPattern::Kind::Binding,
                                sema_.program.types.error(), p->range);
      b->name = n->name.parts[0].name;
      b->nameRange = n->name.parts[0].range;
      return b;
    }
    return invalid(p->range);
  }
  switch (p->kind) {
    case ast::PatternKind::Wildcard:
      return make(ResolvedPattern::Kind::Wildcard, type, p->range);
    case ast::PatternKind::Error:
      return invalid(p->range);
    case ast::PatternKind::Or: {
      // `a | b | c` is a left-deep chain of any length: its alternatives
      // are collected in a loop, and none of them is an Or.
      llvm::SmallVector<const ast::Pattern*, 8> alternatives;
      const ast::Pattern* q = p;
      for (const auto* o = llvm::dyn_cast<ast::OrPattern>(q); o != nullptr;
           o = llvm::dyn_cast_or_null<ast::OrPattern>(q)) {
        alternatives.push_back(o->rhs);
        q = o->lhs;
      }
      alternatives.push_back(q);
      std::reverse(alternatives.begin(), alternatives.end());
      llvm::SmallVector<SubPattern, 8> subs;
      ++orDepth_;
      for (const ast::Pattern* alternative : alternatives)
        subs.push_back(SubPattern{static_cast<std::uint32_t>(subs.size()),
                                  resolve(alternative, type, text)});
      --orDepth_;
      ResolvedPattern* out = make(ResolvedPattern::Kind::Or, type, p->range);
      out->subs = keep(subs);
      return out;
    }
    case ast::PatternKind::Literal: {
      const auto* l = llvm::cast<ast::LiteralPattern>(p);
      return literal(l->literal, p->range, type, text);
    }
    case ast::PatternKind::Range:
      return range(*llvm::cast<ast::RangePattern>(p), type, text);
    case ast::PatternKind::Name:
      return name(*llvm::cast<ast::NamePattern>(p), type, text);
    case ast::PatternKind::Constructor:
      return constructor(*llvm::cast<ast::ConstructorPattern>(p), type, text);
    case ast::PatternKind::Record:
      return nestedRecord(*llvm::cast<ast::RecordPattern>(p), type, text);
  }
  return invalid(p->range);
}

const ResolvedPattern* PatternResolver::record(const ast::RecordPattern& p,
                                               const Type* type,
                                               const PatternShape& shape,
                                               const PatternText& text) {
  ResolvedPattern* out = make(ResolvedPattern::Kind::Record, type, p.range);
  fieldList(p.fields, shape, false, text, *out);
  if (!p.hasRest && (rules().requireRest || !listsEvery(*out, shape.fields)))
    missingFields(p.fields, p.range, shape, unlistedNames(*out, shape.fields));
  return out;
}

const ResolvedPattern* PatternResolver::nestedRecord(
    const ast::RecordPattern& p, const Type* type, const PatternText& text) {
  PatternShape shape;
  if (const TypeInfo* record = namedInfo(type, TypeDefKind::Record)) {
    shape = {record->fields, "type", record->name, record->nameRange};
  } else if (type->kind == TypeKind::Event && type->event != nullptr) {
    shape = {type->event->fields, "event", type->event->name,
             type->event->nameRange};
  } else {
    mismatch(p.range, text, type,
             "a record pattern matches a record or an event, but the value "
             "matched has type '" +
                 displayName(type) + "'");
    return invalid(p.range);
  }
  // A nested `{ .. }` constrains nothing, like `_`.
  if (p.fields.empty() && p.hasRest)
    return make(ResolvedPattern::Kind::Record, type, p.range);
  return record(p, type, shape, text);
}

void PatternResolver::fieldList(llvm::ArrayRef<ast::PatternField> items,
                                const PatternShape& shape, bool positional,
                                const PatternText& text, ResolvedPattern& out) {
  // Where each declared field is first matched, by field index.
  llvm::SmallVector<std::optional<SourceRange>, 8> seen(shape.fields.size());
  llvm::SmallVector<SubPattern, 8> subs;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const ast::PatternField& item = items[i];
    // A field the parser could not read is already reported.
    if (item.value == nullptr) continue;
    const FieldInfo* field = nullptr;
    if (item.label.empty()) {
      // A record field the parser could not read is already reported.
      if (!positional) continue;
      // A positional payload pattern matches the field at its position.
      if (i >= shape.fields.size()) {
        mismatch(item.range, text, out.type,
                 fmt::format("'{}' has only {} field(s)", shape.ownerName,
                             shape.fields.size()));
        continue;
      }
      field = &shape.fields[i];
    } else {
      for (const FieldInfo& f : shape.fields)
        if (f.name == item.label.name) field = &f;
    }
    PatternText fieldText = text.field(
        field != nullptr ? llvm::StringRef(field->name) : item.label.name);
    if (field == nullptr) {
      unknownField(item.label, shape, fieldText);
      // Bindings inside still bind, so the arm's body is checked as written.
      subs.push_back(SubPattern{
          SubPattern::kNoField,
          resolve(item.value, sema_.program.types.error(), fieldText)});
      continue;
    }
    SourceRange at = item.label.empty() ? item.range : item.label.range;
    auto index = static_cast<std::uint32_t>(field - shape.fields.data());
    if (seen[index]) {
      duplicateField(at, *seen[index], field->name, fieldText);
      continue;
    }
    seen[index] = at;
    if (!item.label.empty())
      sema_.program.uses.record(item.label.range, field->nameRange,
                                field->type);
    subs.push_back(
        SubPattern{index, resolve(item.value, field->type, fieldText)});
  }
  out.subs = keep(subs);
}

const VariantInfo* PatternResolver::resolveVariant(const ast::QualifiedName& n,
                                                   const Type* type,
                                                   const PatternText& text) {
  const ast::Ident& last = n.parts.back();
  if (n.parts.size() > 1) {
    llvm::ArrayRef<ast::Ident> prefix = n.parts.drop_back();
    ast::QualifiedName prefixName{
        prefix, SourceRange::join(prefix.front().range, prefix.back().range)};
    LookupResult found = lookupDecl(sema_.program, from_, prefix);
    if (found.status != LookupResult::Status::Found) {
      reported_ = true;
      // Reports the unknown or ambiguous type with its suggestions.
      (void)resolveDecl(sema_, from_, prefixName, "type");
      return nullptr;
    }
    const auto* owner = llvm::dyn_cast<TypeInfo>(found.decl);
    if (owner == nullptr || found.partsUsed != prefix.size() ||
        owner->def != TypeDefKind::Sum) {
      mismatch(prefixName.range, text, type,
               fmt::format("'{}' is not a type with variants",
                           writtenName(prefixName)));
      return nullptr;
    }
    if (owner->type != type) {
      mismatch(n.range, text, type,
               fmt::format("'{}' is a '{}', but the value matched has type "
                           "'{}'",
                           writtenName(n), owner->name, displayName(type)));
      return nullptr;
    }
    recordDeclUse(sema_.program, prefix, owner);
  }
  const TypeInfo* sum = namedInfo(type, TypeDefKind::Sum);
  if (sum == nullptr) {
    mismatch(n.range, text, type,
             fmt::format("'{}' is not a value of type '{}'", writtenName(n),
                         displayName(type)));
    return nullptr;
  }
  if (const VariantInfo* v = sum->variant(last.name)) {
    sema_.program.uses.record(last.range, v->nameRange);
    return v;
  }
  unknownVariant(last, type);
  return nullptr;
}

const ResolvedPattern* PatternResolver::name(const ast::NamePattern& p,
                                             const Type* type,
                                             const PatternText& text) {
  if (hasEmptyPart(p.name)) return invalid(p.range);
  const ast::Ident& last = p.name.parts.back();
  bool single = p.name.parts.size() == 1;
  // `Some` alone is the Some pattern without its payload, never a binding.
  if (single && last.name == "Some") {
    reported_ = true;
    sema_.diags
        .report<diag::InvalidPattern>(p.range,
                                      "'Some' needs the pattern of its payload")
        .note("write 'Some(_)' to match any value inside 'Some'")
        .fixit(p.range, "Some(_)");
    return invalid(p.range);
  }
  if (single && last.name == "None") {
    if (type->kind == TypeKind::Option)
      return make(ResolvedPattern::Kind::None, type, p.range);
    mismatch(p.range, text, type,
             "'None' matches an Option, but the value matched has type '" +
                 displayName(type) + "'");
    return invalid(p.range);
  }
  const TypeInfo* sum = namedInfo(type, TypeDefKind::Sum);
  // Values are lowerCamel and variants UpperCamel, so the initial decides
  // whether a lone name binds or names a variant.
  const VariantInfo* direct =
      single && sum != nullptr ? sum->variant(last.name) : nullptr;
  bool variantName = !single || isUpperInitial(last.name) || direct != nullptr;
  // A subscription cannot bind, so a lower-case name that resembles a
  // variant is more likely a misspelt variant than a binding.
  if (!variantName && !rules().bindings && sum != nullptr &&
      !resemblesNoVariant(*sum, last.name))
    variantName = true;
  if (!variantName) return binding(p, type, text);
  const VariantInfo* v =
      direct != nullptr ? direct : resolveVariant(p.name, type, text);
  if (v == nullptr) return invalid(p.range);
  if (!v->fields.empty()) {
    // `Refunded(..)` says that the payload is left unconstrained.
    reported_ = true;
    std::string written = writtenName(p.name);
    sema_.diags.report<diag::PatternVariantPayload>(p.range, v->name, written)
        .fixit(SourceRange{p.range.file, p.range.end, p.range.end}, "(..)");
    return invalid(p.range);
  }
  ResolvedPattern* out = make(ResolvedPattern::Kind::Variant, type, p.range);
  out->variant = v;
  return out;
}

const ResolvedPattern* PatternResolver::binding(const ast::NamePattern& p,
                                                const Type* type,
                                                const PatternText& text) {
  if (!rules().bindings) {
    bindingInSubscription(p, text);
    return invalid(p.range);
  }
  if (orDepth_ > 0) {
    invalidPattern(p.range,
                   "a binding cannot appear inside a '|' pattern; use '_' or "
                   "match the alternatives in separate arms");
    return invalid(p.range);
  }
  ResolvedPattern* out = make(ResolvedPattern::Kind::Binding, type, p.range);
  out->name = p.name.parts[0].name;
  out->nameRange = p.name.parts[0].range;
  return out;
}

const ResolvedPattern* PatternResolver::constructor(
    const ast::ConstructorPattern& p, const Type* type,
    const PatternText& text) {
  if (hasEmptyPart(p.name)) return invalid(p.range);
  if (p.name.parts.size() == 1 && p.name.parts.front().name == "Some") {
    if (type->kind == TypeKind::Option) return somePattern(p, type, text);
    mismatch(p.range, text, type,
             "'Some' matches an Option, but the value matched has type '" +
                 displayName(type) + "'");
    return invalid(p.range);
  }
  if (namedInfo(type, TypeDefKind::Sum) != nullptr) {
    const VariantInfo* v = resolveVariant(p.name, type, text);
    if (v == nullptr) {
      ResolvedPattern* out =
          make(ResolvedPattern::Kind::Invalid, nullptr, p.range);
      llvm::SmallVector<SubPattern, 4> parts;
      for (const ast::PatternField& f : p.fields)
        parts.push_back(
            SubPattern{SubPattern::kNoField,
                       resolve(f.value, sema_.program.types.error(), text)});
      out->subs = keep(parts);
      return out;
    }
    if (v->fields.empty()) {
      std::string written = writtenName(p.name);
      reported_ = true;
      switch (use_) {
        case PatternUse::MatchArm:
          sema_.diags
              .report<diag::InvalidPattern>(
                  p.range, fmt::format("variant '{}' carries no fields; match "
                                       "it as '{}'",
                                       v->name, written))
              .fixit(p.range, written);
          break;
        case PatternUse::Subscription:
          sema_.diags
              .report<diag::PatternTypeMismatch>(p.range, text.describe(),
                                                 displayName(type))
              .note("variant '{}' carries no fields; write '{}'", v->name,
                    written)
              .fixit(p.range, written);
          break;
      }
      return invalid(p.range);
    }
    return variantPayload(p, *v, type, text);
  }
  if (const ResolvedPattern* built = builtValue(p, type, text)) return built;
  mismatch(p.range, text, type,
           fmt::format("'{}' is not a value of type '{}'", writtenName(p.name),
                       displayName(type)));
  return invalid(p.range);
}

const ResolvedPattern* PatternResolver::somePattern(
    const ast::ConstructorPattern& p, const Type* type,
    const PatternText& text) {
  ResolvedPattern* out = make(ResolvedPattern::Kind::Some, type, p.range);
  // `Some(..)` tests presence only.
  if (p.fields.empty() && p.hasRest) {
    const SubPattern any{
        0, make(ResolvedPattern::Kind::Wildcard, type->arg0, p.range)};
    out->subs = keep(any);
    return out;
  }
  if (p.fields.size() != 1 || p.hasRest || !p.fields.front().label.empty()) {
    mismatch(p.range, text, type,
             "'Some' takes exactly one unlabelled pattern: 'Some(_)' or "
             "'Some(<pattern>)'");
    return invalid(p.range);
  }
  const SubPattern payload{
      0, resolve(p.fields.front().value, type->arg0, text.some())};
  out->subs = keep(payload);
  return out;
}

const ResolvedPattern* PatternResolver::variantPayload(
    const ast::ConstructorPattern& p, const VariantInfo& variant,
    const Type* type, const PatternText& text) {
  ResolvedPattern* out = make(ResolvedPattern::Kind::Variant, type, p.range);
  out->variant = &variant;
  PatternShape shape{variant.fields, "variant", variant.name,
                     variant.nameRange};
  fieldList(p.fields, shape, true, text, *out);
  // `..` may be left out of a payload that lists every field.
  if (!p.hasRest && !listsEvery(*out, variant.fields))
    missingFields(p.fields, p.range, shape,
                  unlistedNames(*out, variant.fields));
  return out;
}

const ResolvedPattern* PatternResolver::builtValue(
    const ast::ConstructorPattern& p, const Type* type,
    const PatternText& text) {
  if (type->kind != TypeKind::Named || type->named == nullptr) return nullptr;
  TypeDefKind def = type->named->def;
  if (def != TypeDefKind::Opaque && def != TypeDefKind::Refined) return nullptr;
  LookupResult found = lookupDecl(sema_.program, from_, p.name.parts);
  if (found.status != LookupResult::Status::Found ||
      found.partsUsed != p.name.parts.size() || found.decl != type->named)
    return nullptr;
  recordDeclUse(sema_.program, p.name.parts, found.decl);
  if (p.fields.size() != 1 || p.hasRest || !p.fields.front().label.empty())
    return nullptr;
  const ast::Pattern* inner = p.fields.front().value;
  if (const auto* lit = llvm::dyn_cast_or_null<ast::LiteralPattern>(inner))
    return literal(lit->literal, p.range, type, text);
  if (const auto* r = llvm::dyn_cast_or_null<ast::RangePattern>(inner))
    return range(*r, type, text);
  return nullptr;
}

}  // namespace herald::check
