// Subscription patterns (language.md section 4, rules of section 6.5):
// checked against the event's shape and lowered to the predicate IR.
// Literals and ranges are in pattern_values.cpp.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Casting.h>

#include "checker/lookup.h"
#include "checker/pattern_check.h"
#include "checker/subscription_check.h"

namespace herald::check {

namespace {

std::string joinNames(llvm::ArrayRef<FieldInfo> fields) {
  std::string out;
  for (const FieldInfo& f : fields) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

std::vector<std::string> namesOf(llvm::ArrayRef<FieldInfo> fields) {
  std::vector<std::string> names;
  names.reserve(fields.size());
  for (const FieldInfo& f : fields) names.push_back(f.name);
  return names;
}

const FieldInfo* findField(llvm::ArrayRef<FieldInfo> fields,
                           llvm::StringRef name) {
  for (const FieldInfo& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

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

// Where a closing `}`, `>` or `)` is: the last byte of its pattern.
SourceRange closingOf(SourceRange whole) {
  SourceRange r = whole;
  if (r.end > r.begin) r.begin = r.end - 1;
  return r;
}

const TypeInfo* namedInfo(const Type* type, TypeDefKind def) {
  if (type == nullptr || type->kind != TypeKind::Named ||
      type->named == nullptr || type->named->def != def)
    return nullptr;
  return type->named;
}

// Values are lowerCamel by convention, so a lower-case name in a pattern is
// meant as a binding, as it would be in a `match` arm.
bool isLowerInitial(llvm::StringRef name) {
  return !name.empty() && name.front() >= 'a' && name.front() <= 'z';
}

// A lower-case name that is no variant of `sum` and resembles none.
bool looksLikeBinding(const TypeInfo& sum, llvm::StringRef name) {
  if (!isLowerInitial(name)) return false;
  std::vector<std::string> names;
  for (const VariantInfo& v : sum.variants) names.push_back(v.name);
  return closestName(name, names).empty();
}

}  // namespace

Path extend(const Path& path, PathStep step) {
  Path out = path;
  out.push_back(std::move(step));
  return out;
}

Predicate makeAnd(std::vector<Predicate> children) {
  Predicate out;
  out.kind = Predicate::Kind::And;
  for (Predicate& c : children) {
    if (c.kind == Predicate::Kind::True) continue;
    if (c.kind == Predicate::Kind::And) {
      for (Predicate& g : c.children) out.children.push_back(std::move(g));
      continue;
    }
    out.children.push_back(std::move(c));
  }
  if (out.children.empty()) return Predicate{};
  if (out.children.size() == 1) return std::move(out.children.front());
  return out;
}

Predicate makeOr(Predicate lhs, Predicate rhs) {
  // Either side matching everything makes the whole alternative do so.
  if (lhs.kind == Predicate::Kind::True || rhs.kind == Predicate::Kind::True)
    return Predicate{};
  Predicate out;
  out.kind = Predicate::Kind::Or;
  for (Predicate* side : {&lhs, &rhs}) {
    if (side->kind == Predicate::Kind::Or) {
      for (Predicate& g : side->children) out.children.push_back(std::move(g));
    } else {
      out.children.push_back(std::move(*side));
    }
  }
  return out;
}

Predicate checkSubscriptionPattern(Sema& sema, const ContextInfo& from,
                                   const EventInfo& event,
                                   const ast::RecordPattern& p,
                                   SourceRange eventRange) {
  PatternChecker checker(sema, from, event);
  return checker.eventPattern(p, eventRange);
}

Predicate PatternChecker::eventPattern(const ast::RecordPattern& p,
                                       SourceRange eventRange) {
  if (p.fields.empty()) {
    // `E { .. }` and `E {}` both match every event: the braces say nothing.
    SourceRange braces{p.range.file, eventRange.end, p.range.end};
    sema_.diags.report<diag::PatternEmpty>(p.range, event_.name)
        .fixit(braces, "");
    return Predicate{};
  }
  PatternShape shape{event_.fields, fmt::format("event '{}'", event_.name),
                     event_.nameRange};
  std::vector<Predicate> tests;
  fieldList(p.fields, shape, Path{}, std::string(), tests);
  if (!p.hasRest) {
    std::vector<std::string> unlisted;
    for (const FieldInfo& f : event_.fields) {
      bool listed = false;
      for (const ast::PatternField& item : p.fields)
        listed = listed || item.label.name == f.name;
      if (!listed) unlisted.push_back(f.name);
    }
    missingRest(p.fields, p.range, unlisted);
  }
  return makeAnd(std::move(tests));
}

void PatternChecker::fieldList(llvm::ArrayRef<ast::PatternField> items,
                               const PatternShape& shape, const Path& path,
                               const std::string& text,
                               std::vector<Predicate>& out) {
  llvm::StringMap<SourceRange> seen;
  for (const ast::PatternField& item : items) {
    // A field the parser could not read is already reported.
    if (item.label.empty() || item.value == nullptr) continue;
    std::string fieldText =
        text.empty() ? item.label.name.str()
                     : fmt::format("{}.{}", text, item.label.name.str());
    const FieldInfo* field = findField(shape.fields, item.label.name);
    if (field == nullptr) {
      auto report = sema_.diags.report<diag::PatternUnknownField>(
          item.label.range, event_.name, fieldText);
      std::string closest = closestName(item.label.name, namesOf(shape.fields));
      if (!closest.empty()) {
        report.note("did you mean '{}'?", closest);
        report.fixit(item.label.range, closest);
      }
      if (shape.fields.empty()) {
        report.note(shape.declRange, "{} has no fields", shape.owner);
      } else {
        report.note(shape.declRange, "{} has fields: {}", shape.owner,
                    joinNames(shape.fields));
      }
      continue;
    }
    auto [it, inserted] = seen.try_emplace(field->name, item.label.range);
    if (!inserted) {
      sema_.diags
          .report<diag::PatternDuplicateField>(item.label.range, fieldText)
          .note(it->second, "'{}' is first matched here", fieldText)
          .note("combine both patterns into one, with '|' for alternatives");
      continue;
    }
    PathStep step{PathStep::Kind::Field, field->name, field->type, nullptr,
                  static_cast<std::uint32_t>(field - shape.fields.data())};
    out.push_back(
        value(item.value, field->type, extend(path, step), fieldText));
  }
}

void PatternChecker::missingRest(llvm::ArrayRef<ast::PatternField> items,
                                 SourceRange whole,
                                 llvm::ArrayRef<std::string> unlisted) {
  SourceRange close = closingOf(whole);
  auto report = sema_.diags.report<diag::PatternMissingRest>(close);
  if (items.empty()) {
    report.fixit(SourceRange{close.file, close.begin, close.begin}, "..");
  } else {
    // After a trailing comma only the marker is missing.
    std::uint32_t lastEnd = std::min(items.back().range.end, close.begin);
    std::string_view between =
        sema_.sources.textOf(SourceRange{close.file, lastEnd, close.begin});
    std::size_t comma = between.find(',');
    if (comma == std::string_view::npos) {
      report.fixit(SourceRange{close.file, lastEnd, lastEnd}, ", ..");
    } else {
      auto at = static_cast<std::uint32_t>(lastEnd + comma + 1);
      report.fixit(SourceRange{close.file, at, at}, " ..");
    }
  }
  if (!unlisted.empty()) {
    std::string names;
    for (const std::string& n : unlisted) {
      if (!names.empty()) names += ", ";
      names += n;
    }
    report.note("with '..' the fields not listed ({}) match any value", names);
  }
}

void PatternChecker::mismatch(SourceRange range, const std::string& text,
                              const Type* type) {
  sema_.diags.report<diag::PatternTypeMismatch>(range, text, displayName(type))
      .note("{}", howToMatch(type, from_));
}

Predicate PatternChecker::value(const ast::Pattern* p, const Type* type,
                                const Path& path, const std::string& text) {
  // Errors in the field's type or in the pattern are reported elsewhere.
  if (p == nullptr || type == nullptr || !isWellFormed(type))
    return Predicate{};
  switch (p->kind) {
    case ast::PatternKind::Wildcard:
    case ast::PatternKind::Error:
      return Predicate{};
    case ast::PatternKind::Or: {
      const auto* o = llvm::cast<ast::OrPattern>(p);
      Predicate lhs = value(o->lhs, type, path, text);
      Predicate rhs = value(o->rhs, type, path, text);
      return makeOr(std::move(lhs), std::move(rhs));
    }
    case ast::PatternKind::Literal: {
      const auto* l = llvm::cast<ast::LiteralPattern>(p);
      return literal(l->literal, p->range, type, path, text);
    }
    case ast::PatternKind::Range:
      return range(*llvm::cast<ast::RangePattern>(p), type, path, text);
    case ast::PatternKind::Name:
      return name(*llvm::cast<ast::NamePattern>(p), type, path, text);
    case ast::PatternKind::Constructor:
      return constructor(*llvm::cast<ast::ConstructorPattern>(p), type, path,
                         text);
    case ast::PatternKind::Record:
      return nestedRecord(*llvm::cast<ast::RecordPattern>(p), type, path, text);
  }
  return Predicate{};
}

Predicate PatternChecker::nestedRecord(const ast::RecordPattern& p,
                                       const Type* type, const Path& path,
                                       const std::string& text) {
  PatternShape shape;
  if (const TypeInfo* record = namedInfo(type, TypeDefKind::Record)) {
    shape = {record->fields, fmt::format("type '{}'", record->name),
             record->nameRange};
  } else if (type->kind == TypeKind::Event && type->event != nullptr) {
    shape = {type->event->fields, fmt::format("event '{}'", type->event->name),
             type->event->nameRange};
  } else {
    mismatch(p.range, text, type);
    return Predicate{};
  }
  // A nested `{ .. }` constrains nothing, like `_`.
  if (p.fields.empty() && p.hasRest) return Predicate{};
  std::vector<Predicate> tests;
  fieldList(p.fields, shape, path, text, tests);
  if (!p.hasRest) {
    std::vector<std::string> unlisted;
    for (const FieldInfo& f : shape.fields) {
      bool listed = false;
      for (const ast::PatternField& item : p.fields)
        listed = listed || item.label.name == f.name;
      if (!listed) unlisted.push_back(f.name);
    }
    missingRest(p.fields, p.range, unlisted);
  }
  return makeAnd(std::move(tests));
}

const VariantInfo* PatternChecker::resolveVariant(const ast::QualifiedName& n,
                                                  const Type* type,
                                                  const std::string& text) {
  const TypeInfo* sum = type->named;
  const ast::Ident& last = n.parts.back();
  if (n.parts.size() > 1) {
    llvm::ArrayRef<ast::Ident> prefix = n.parts.drop_back();
    ast::QualifiedName prefixName{
        prefix, SourceRange::join(prefix.front().range, prefix.back().range)};
    LookupResult found = lookupDecl(sema_.program, from_, prefix);
    if (found.status != LookupResult::Status::Found) {
      // Reports the unknown or ambiguous type with its suggestions.
      (void)resolveDecl(sema_, from_, prefixName, "type");
      return nullptr;
    }
    const auto* owner = llvm::dyn_cast<TypeInfo>(found.decl);
    if (owner == nullptr || found.partsUsed != prefix.size() ||
        owner->def != TypeDefKind::Sum) {
      sema_.diags
          .report<diag::PatternTypeMismatch>(prefixName.range, text,
                                             displayName(type))
          .note("'{}' is not a type with variants; {}", writtenName(prefixName),
                howToMatch(type, from_));
      return nullptr;
    }
    if (owner->type != type) {
      sema_.diags
          .report<diag::PatternTypeMismatch>(n.range, text, displayName(type))
          .note("'{}' is a variant of '{}', but field '{}' has type '{}'",
                writtenName(n), owner->name, text, displayName(type))
          .note("{}", howToMatch(type, from_));
      return nullptr;
    }
  }
  if (const VariantInfo* v = sum->variant(last.name)) return v;
  std::vector<std::string> names;
  std::string list;
  for (const VariantInfo& v : sum->variants) {
    names.push_back(v.name);
    if (!list.empty()) list += ", ";
    list += v.name;
  }
  auto report = sema_.diags.report<diag::PatternUnknownVariant>(
      last.range, displayName(type), last.name);
  std::string closest = closestName(last.name, names);
  if (!closest.empty()) {
    report.note("did you mean '{}'?", closest);
    report.fixit(last.range, closest);
  }
  report.note(sum->nameRange, "'{}' has variants: {}", sum->name, list);
  return nullptr;
}

Predicate PatternChecker::name(const ast::NamePattern& p, const Type* type,
                               const Path& path, const std::string& text) {
  if (hasEmptyPart(p.name)) return Predicate{};
  const ast::Ident& last = p.name.parts.back();
  bool single = p.name.parts.size() == 1;
  if (const TypeInfo* sum = namedInfo(type, TypeDefKind::Sum)) {
    if (single && sum->variant(last.name) == nullptr &&
        looksLikeBinding(*sum, last.name))
      return binding(p, text);
    const VariantInfo* v = resolveVariant(p.name, type, text);
    if (v == nullptr) return Predicate{};
    if (!v->fields.empty()) {
      std::string written = writtenName(p.name);
      sema_.diags.report<diag::PatternVariantPayload>(p.range, v->name, written)
          .fixit(SourceRange{p.range.file, p.range.end, p.range.end}, "(..)");
      return Predicate{};
    }
    Predicate out;
    out.kind = Predicate::Kind::VariantIs;
    out.path = path;
    out.variant = v->name;
    out.variantInfo = v;
    return out;
  }
  if (type->kind == TypeKind::Option && single && last.name == "None") {
    Predicate out;
    out.kind = Predicate::Kind::IsNone;
    out.path = path;
    return out;
  }
  if (single && isLowerInitial(last.name)) return binding(p, text);
  mismatch(p.range, text, type);
  return Predicate{};
}

Predicate PatternChecker::binding(const ast::NamePattern& p,
                                  const std::string& text) {
  // In a `match` a lone name binds the value; a subscription pattern only
  // tests values, so there is nothing to bind it to.
  sema_.diags
      .report<diag::InvalidPattern>(
          p.range,
          fmt::format("a subscription pattern cannot bind a name; '{}' would "
                      "bind field '{}'",
                      writtenName(p.name), text))
      .note("use '_' to match any value of '{}'", text)
      .fixit(p.range, "_");
  return Predicate{};
}

Predicate PatternChecker::constructor(const ast::ConstructorPattern& p,
                                      const Type* type, const Path& path,
                                      const std::string& text) {
  if (hasEmptyPart(p.name)) return Predicate{};
  if (type->kind == TypeKind::Option && p.name.parts.size() == 1 &&
      p.name.parts.front().name == "Some")
    return somePattern(p, type, path, text);
  if (namedInfo(type, TypeDefKind::Sum) != nullptr) {
    const VariantInfo* v = resolveVariant(p.name, type, text);
    if (v == nullptr) return Predicate{};
    if (v->fields.empty()) {
      std::string written = writtenName(p.name);
      sema_.diags
          .report<diag::PatternTypeMismatch>(p.range, text, displayName(type))
          .note("variant '{}' carries no fields; write '{}'", v->name, written)
          .fixit(p.range, written);
      return Predicate{};
    }
    return variantPayload(p, *v, type, path, text);
  }
  if (std::optional<Predicate> built = builtValue(p, type, path, text))
    return std::move(*built);
  mismatch(p.range, text, type);
  return Predicate{};
}

Predicate PatternChecker::somePattern(const ast::ConstructorPattern& p,
                                      const Type* type, const Path& path,
                                      const std::string& text) {
  Predicate isSome;
  isSome.kind = Predicate::Kind::IsSome;
  isSome.path = path;
  // `Some(..)` tests presence only.
  if (p.fields.empty() && p.hasRest) return isSome;
  if (p.fields.size() != 1 || p.hasRest || !p.fields.front().label.empty()) {
    sema_.diags
        .report<diag::PatternTypeMismatch>(p.range, text, displayName(type))
        .note(
            "'Some' takes exactly one unlabelled pattern: 'Some(_)' or "
            "'Some(<pattern>)'");
    return Predicate{};
  }
  Predicate inner =
      value(p.fields.front().value, type->arg0,
            extend(path, PathStep{PathStep::Kind::SomePayload, "", type->arg0}),
            text + "?");
  std::vector<Predicate> tests;
  tests.push_back(std::move(isSome));
  tests.push_back(std::move(inner));
  return makeAnd(std::move(tests));
}

Predicate PatternChecker::variantPayload(const ast::ConstructorPattern& p,
                                         const VariantInfo& variant,
                                         const Type* type, const Path& path,
                                         const std::string& text) {
  std::vector<Predicate> tests;
  Predicate is;
  is.kind = Predicate::Kind::VariantIs;
  is.path = path;
  is.variant = variant.name;
  is.variantInfo = &variant;
  tests.push_back(std::move(is));
  PatternShape shape{variant.fields, fmt::format("variant '{}'", variant.name),
                     variant.nameRange};
  llvm::StringMap<SourceRange> seen;
  for (std::size_t i = 0; i < p.fields.size(); ++i) {
    const ast::PatternField& item = p.fields[i];
    if (item.value == nullptr) continue;
    const FieldInfo* field = nullptr;
    if (item.label.empty()) {
      // A positional payload pattern matches the field at its position.
      if (i >= variant.fields.size()) {
        sema_.diags
            .report<diag::PatternTypeMismatch>(item.range, text,
                                               displayName(type))
            .note(variant.nameRange, "variant '{}' has {} field(s): {}",
                  variant.name, variant.fields.size(),
                  joinNames(variant.fields));
        continue;
      }
      field = &variant.fields[i];
    } else {
      field = findField(variant.fields, item.label.name);
      if (field == nullptr) {
        std::string fieldText =
            fmt::format("{}.{}", text, item.label.name.str());
        auto report = sema_.diags.report<diag::PatternUnknownField>(
            item.label.range, event_.name, fieldText);
        std::string closest =
            closestName(item.label.name, namesOf(variant.fields));
        if (!closest.empty()) {
          report.note("did you mean '{}'?", closest);
          report.fixit(item.label.range, closest);
        }
        report.note(shape.declRange, "{} has fields: {}", shape.owner,
                    joinNames(variant.fields));
        continue;
      }
    }
    std::string fieldText = fmt::format("{}.{}", text, field->name);
    SourceRange at = item.label.empty() ? item.range : item.label.range;
    auto [it, inserted] = seen.try_emplace(field->name, at);
    if (!inserted) {
      sema_.diags.report<diag::PatternDuplicateField>(at, fieldText)
          .note(it->second, "'{}' is first matched here", fieldText)
          .note("combine both patterns into one, with '|' for alternatives");
      continue;
    }
    PathStep step{PathStep::Kind::VariantField, field->name, field->type,
                  &variant,
                  static_cast<std::uint32_t>(field - variant.fields.data())};
    tests.push_back(
        value(item.value, field->type, extend(path, step), fieldText));
  }
  // `..` may be left out of a payload that lists every field.
  if (!p.hasRest && seen.size() < variant.fields.size()) {
    std::vector<std::string> unlisted;
    for (const FieldInfo& f : variant.fields)
      if (seen.find(f.name) == seen.end()) unlisted.push_back(f.name);
    missingRest(p.fields, p.range, unlisted);
  }
  return makeAnd(std::move(tests));
}

std::optional<Predicate> PatternChecker::builtValue(
    const ast::ConstructorPattern& p, const Type* type, const Path& path,
    const std::string& text) {
  if (type->kind != TypeKind::Named || type->named == nullptr) return {};
  TypeDefKind def = type->named->def;
  if (def != TypeDefKind::Opaque && def != TypeDefKind::Refined) return {};
  LookupResult found = lookupDecl(sema_.program, from_, p.name.parts);
  if (found.status != LookupResult::Status::Found ||
      found.partsUsed != p.name.parts.size() || found.decl != type->named)
    return {};
  if (p.fields.size() != 1 || p.hasRest || !p.fields.front().label.empty())
    return {};
  const ast::Pattern* inner = p.fields.front().value;
  if (const auto* lit = llvm::dyn_cast_or_null<ast::LiteralPattern>(inner))
    return literal(lit->literal, p.range, type, path, text);
  if (const auto* r = llvm::dyn_cast_or_null<ast::RangePattern>(inner))
    return range(*r, type, path, text);
  return {};
}

}  // namespace herald::check
