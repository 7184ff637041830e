// `match`: each arm's pattern against the scrutinee's type (binding names,
// recording their types), the arms' types agreeing, exhaustiveness for sums,
// Option and Bool (other types need `_` or a binding), and arms that can
// never be reached.
//
// Coverage is tracked per "slot" of the scrutinee's type: one per variant
// of a sum, None/Some for Option, false/true for Bool. A constructor pattern
// covers its slot only when every sub-pattern is irrefutable; nested
// refutable payload patterns are conservatively treated as partial.
#include <string>
#include <vector>

#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"

namespace herald::check {

using llvm::dyn_cast;
using llvm::dyn_cast_or_null;

namespace {

struct Cover {
  bool irrefutable = false;
  llvm::SmallVector<std::uint32_t, 2> slots;  // slots covered completely
  InstId pattern;                             // the lowered pattern
};

class PatternChecker {
 public:
  PatternChecker(BodyChecker& body) : body_(body) {}

  Cover check(const ast::Pattern* p, const Type* t, bool allowBind);
  Cover lower(const ast::Pattern* p, const Type* t, bool allowBind);
  // Set once a pattern was reported: coverage is then unknown, and saying
  // more about it (unreachable, non-exhaustive) would be a cascade.
  bool reported = false;

 private:
  void invalid(SourceRange at, const std::string& message) {
    reported = true;
    body_.sema().diags.report<diag::InvalidPattern>(at, message);
  }
  InstId wildcard(const Type* t, SourceRange at) {
    return body_.emit(InstKind::PatWildcard, t, at);
  }
  // One sub-pattern per declared field, in declaration order.
  Cover fields(const ast::Pattern* p, llvm::ArrayRef<ast::PatternField> given,
               bool hasRest, llvm::StringRef owner,
               llvm::ArrayRef<FieldInfo> declared, bool positional,
               bool allowBind, llvm::SmallVectorImpl<InstId>& subs);
  Cover literal(const ast::LiteralPattern* p, const Type* t);
  Cover name(const ast::NamePattern* p, const Type* t, bool allowBind);
  Cover constructor(const ast::ConstructorPattern* p, const Type* t,
                    bool allowBind);
  Cover record(const ast::RecordPattern* p, const Type* t, bool allowBind);
  // The variant a pattern name refers to, for a scrutinee of type `t`;
  // reports and returns null when it does not fit.
  const VariantInfo* variant(const ast::QualifiedName& name, const Type* t);

  BodyChecker& body_;
};

Cover PatternChecker::check(const ast::Pattern* p, const Type* t,
                            bool allowBind) {
  Cover out = lower(p, t, allowBind);
  if (!out.pattern.valid())
    out.pattern = body_.invalid(p != nullptr ? p->range : SourceRange{});
  return out;
}

Cover PatternChecker::lower(const ast::Pattern* p, const Type* t,
                            bool allowBind) {
  Cover all;
  all.irrefutable = true;
  if (p == nullptr || BodyChecker::quiet(t)) {
    // Bind names so the arm body does not report them as unknown.
    if (const auto* n = dyn_cast_or_null<ast::NamePattern>(p))
      if (n->name.parts.size() == 1 && allowBind)
        body_.bind(n->name.parts[0].name, body_.types().error(), p->range,
                   true);
    return all;
  }
  switch (p->kind) {
    case ast::PatternKind::Wildcard:
      all.pattern = wildcard(t, p->range);
      return all;
    case ast::PatternKind::Error:
      return all;
    case ast::PatternKind::Literal:
      return literal(llvm::cast<ast::LiteralPattern>(p), t);
    case ast::PatternKind::Name:
      return name(llvm::cast<ast::NamePattern>(p), t, allowBind);
    case ast::PatternKind::Constructor:
      return constructor(llvm::cast<ast::ConstructorPattern>(p), t, allowBind);
    case ast::PatternKind::Range: {
      const auto* r = llvm::cast<ast::RangePattern>(p);
      const Type* base = BodyChecker::stripRefined(t);
      if (base->kind != TypeKind::Int && base->kind != TypeKind::Float) {
        invalid(p->range,
                "a range pattern matches numbers, but the value "
                "matched has type '" +
                    displayName(t) + "'");
        return all;
      }
      InstId low =
          r->low != nullptr ? body_.checkAgainst(r->low, base) : InstId{};
      InstId high =
          r->high != nullptr ? body_.checkAgainst(r->high, base) : InstId{};
      Cover out;
      out.pattern =
          body_.emit(InstKind::PatRange, t, p->range, low.index, high.index);
      return out;
    }
    case ast::PatternKind::Or: {
      const auto* o = llvm::cast<ast::OrPattern>(p);
      Cover l = check(o->lhs, t, false);
      Cover r = check(o->rhs, t, false);
      Cover out;
      out.pattern = body_.emit(InstKind::PatOr, t, p->range, l.pattern.index,
                               r.pattern.index);
      out.irrefutable = l.irrefutable || r.irrefutable;
      out.slots = l.slots;
      for (std::uint32_t s : r.slots)
        if (std::find(out.slots.begin(), out.slots.end(), s) == out.slots.end())
          out.slots.push_back(s);
      return out;
    }
    case ast::PatternKind::Record:
      return record(llvm::cast<ast::RecordPattern>(p), t, allowBind);
  }
  return all;
}

Cover PatternChecker::literal(const ast::LiteralPattern* p, const Type* t) {
  Cover out;
  if (p->literal == nullptr) {
    out.irrefutable = true;
    return out;
  }
  InstId value = body_.check(p->literal, nullptr);
  const Type* lt = body_.typeOf(value);
  const Type* base = BodyChecker::stripRefined(t);
  if (BodyChecker::quiet(lt)) {
    out.irrefutable = true;
    return out;
  }
  if (lt != base) {
    invalid(p->range, "a '" + displayName(lt) +
                          "' literal cannot match a "
                          "value of type '" +
                          displayName(t) + "'");
    out.irrefutable = true;  // already reported: no coverage complaint
    return out;
  }
  if (base->kind == TypeKind::Bool)
    if (const auto* b = dyn_cast<ast::BoolLitExpr>(p->literal))
      out.slots.push_back(b->value ? 1 : 0);
  out.pattern = body_.emit(InstKind::PatLiteral, t, p->range, value.index);
  return out;
}

const VariantInfo* PatternChecker::variant(const ast::QualifiedName& name,
                                           const Type* t) {
  llvm::ArrayRef<ast::Ident> parts = name.parts;
  const ast::Ident& last = parts.back();
  if (parts.size() > 1) {
    Resolution path = body_.resolve(parts.drop_back(), nullptr);
    bool named = path.kind == NameKind::Type ||
                 path.kind == NameKind::Constructor ||
                 path.kind == NameKind::RecordType;
    const auto* type = named ? dyn_cast<TypeInfo>(path.decl) : nullptr;
    if (path.partsUsed != parts.size() - 1 || type == nullptr) {
      reported = true;
      body_.sema().diags.report<diag::UnknownType>(
          SourceRange::join(parts.front().range, parts[parts.size() - 2].range),
          std::string(body_.sema().sources.textOf(SourceRange::join(
              parts.front().range, parts[parts.size() - 2].range))));
      return nullptr;
    }
    if (type->type != t) {
      invalid(name.range,
              "'" + std::string(body_.sema().sources.textOf(name.range)) +
                  "' is a '" + type->name +
                  "', but the value matched has type '" + displayName(t) + "'");
      return nullptr;
    }
  }
  if (!BodyChecker::isSum(t)) {
    invalid(name.range, "'" + last.name.str() + "' is not a value of type '" +
                            displayName(t) + "'");
    return nullptr;
  }
  if (const VariantInfo* v = t->named->variant(last.name)) return v;
  std::vector<std::string> names;
  for (const VariantInfo& v : t->named->variants) names.push_back(v.name);
  reported = true;
  auto report = body_.sema().diags.report<diag::UnknownVariant>(
      last.range, t->named->name, last.name);
  std::string best = closestName(last.name, names);
  if (!best.empty()) {
    report.note("did you mean '{}'?", best);
    report.fixit(last.range, best);
  }
  return nullptr;
}

Cover PatternChecker::name(const ast::NamePattern* p, const Type* t,
                           bool allowBind) {
  Cover out;
  llvm::ArrayRef<ast::Ident> parts = p->name.parts;
  if (parts.empty()) {
    out.irrefutable = true;
    return out;
  }
  llvm::StringRef first = parts[0].name;
  // `Some` alone is the Some pattern without its payload, not a binding
  // named `Some`.
  if (parts.size() == 1 && first == "Some") {
    reported = true;
    body_.sema()
        .diags
        .report<diag::InvalidPattern>(p->range,
                                      "'Some' needs the pattern of its payload")
        .note("write 'Some(_)' to match any value inside 'Some'")
        .fixit(p->range, "Some(_)");
    out.irrefutable = true;
    return out;
  }
  if (parts.size() == 1 && first == "None") {
    if (t->kind == TypeKind::Option) {
      out.slots.push_back(0);
      out.pattern = body_.emit(InstKind::PatNone, t, p->range);
    } else {
      invalid(p->range,
              "'None' matches an Option, but the value matched has "
              "type '" +
                  displayName(t) + "'");
      out.irrefutable = true;
    }
    return out;
  }
  bool looksLikeVariant = !first.empty() && first[0] >= 'A' && first[0] <= 'Z';
  if (parts.size() > 1 ||
      (BodyChecker::isSum(t) &&
       (t->named->variant(first) != nullptr || looksLikeVariant))) {
    const VariantInfo* v = variant(p->name, t);
    if (v == nullptr) {
      out.irrefutable = true;
      return out;
    }
    out.slots.push_back(v->index);
    // `Refunded` for `Refunded(reason: String)` matches any payload, as
    // `Refunded(..)` does.
    llvm::SmallVector<InstId, 4> subs;
    for (const FieldInfo& f : v->fields)
      subs.push_back(wildcard(f.type, p->range));
    out.pattern =
        body_.emit(InstKind::PatVariant, t, p->range,
                   body_.ir().variants.intern({t->named, v}), body_.list(subs));
    return out;
  }
  if (looksLikeVariant) {
    std::vector<std::string> sums = body_.sumsWithVariant(first);
    if (!sums.empty()) {
      invalid(p->range, "'" + sums.front() +
                            "' cannot match a value of type '" +
                            displayName(t) + "'");
      out.irrefutable = true;
      return out;
    }
  }
  if (!allowBind) {
    invalid(p->range,
            "a binding cannot appear inside a '|' pattern; use '_' "
            "or match the alternatives in separate arms");
  } else {
    SlotId slot = body_.bind(first, t, parts[0].range, true);
    out.pattern = body_.emit(InstKind::PatBind, t, p->range, slot.index);
  }
  out.irrefutable = true;
  return out;
}

Cover PatternChecker::fields(const ast::Pattern* p,
                             llvm::ArrayRef<ast::PatternField> given,
                             bool hasRest, llvm::StringRef owner,
                             llvm::ArrayRef<FieldInfo> declared,
                             bool positional, bool allowBind,
                             llvm::SmallVectorImpl<InstId>& subs) {
  Cover out;
  out.irrefutable = true;
  llvm::SmallVector<bool, 8> seen(declared.size(), false);
  subs.assign(declared.size(), InstId{});
  for (std::size_t i = 0; i < given.size(); ++i) {
    const ast::PatternField& f = given[i];
    std::size_t index = declared.size();
    if (!f.label.empty()) {
      for (std::size_t j = 0; j < declared.size(); ++j)
        if (declared[j].name == f.label.name) index = j;
      if (index == declared.size()) {
        std::vector<std::string> names;
        for (const FieldInfo& d : declared) names.push_back(d.name);
        reported = true;
        auto report = body_.sema().diags.report<diag::UnknownField>(
            f.label.range, owner, f.label.name);
        std::string best = closestName(f.label.name, names);
        if (!best.empty()) {
          report.note("did you mean '{}'?", best);
          report.fixit(f.label.range, best);
        }
        check(f.value, body_.types().error(), allowBind);
        continue;
      }
    } else if (positional && i < declared.size()) {
      index = i;
    } else {
      invalid(f.range, positional
                           ? "'" + owner.str() + "' has only " +
                                 std::to_string(declared.size()) + " field(s)"
                           : "a record pattern names each field: "
                             "'name: pattern'");
      continue;
    }
    if (seen[index]) {
      reported = true;
      body_.sema().diags.report<diag::DuplicateFieldInit>(
          f.label.empty() ? f.range : f.label.range, declared[index].name);
      continue;
    }
    seen[index] = true;
    Cover sub = check(f.value, declared[index].type, allowBind);
    subs[index] = sub.pattern;
    if (!sub.irrefutable) out.irrefutable = false;
  }
  // A field the pattern does not mention (after `..`) matches anything.
  for (std::size_t j = 0; j < declared.size(); ++j)
    if (!subs[j].valid()) subs[j] = wildcard(declared[j].type, p->range);
  if (!hasRest) {
    std::vector<std::string> missing;
    for (std::size_t j = 0; j < declared.size(); ++j)
      if (!seen[j]) missing.push_back(declared[j].name);
    if (!missing.empty())
      invalid(p->range, "pattern for '" + owner.str() + "' does not mention " +
                            BodyChecker::quotedList(missing) +
                            "; list them or end the pattern with '..'");
  }
  return out;
}

Cover PatternChecker::constructor(const ast::ConstructorPattern* p,
                                  const Type* t, bool allowBind) {
  Cover out;
  out.irrefutable = true;
  llvm::ArrayRef<ast::Ident> parts = p->name.parts;
  if (parts.empty()) return out;
  if (parts.size() == 1 && parts[0].name == "Some") {
    if (t->kind != TypeKind::Option) {
      invalid(p->range,
              "'Some' matches an Option, but the value matched has "
              "type '" +
                  displayName(t) + "'");
      return out;
    }
    if (p->fields.size() != 1 || !p->fields[0].label.empty()) {
      invalid(p->range, "'Some' takes exactly one unlabelled pattern");
      return out;
    }
    Cover sub = check(p->fields[0].value, t->arg0, allowBind);
    Cover some;
    if (sub.irrefutable) some.slots.push_back(1);
    some.pattern =
        body_.emit(InstKind::PatSome, t, p->range, sub.pattern.index);
    return some;
  }
  const VariantInfo* v = variant(p->name, t);
  if (v == nullptr) {
    for (const ast::PatternField& f : p->fields)
      check(f.value, body_.types().error(), allowBind);
    return out;
  }
  if (v->fields.empty()) {
    invalid(p->range, "variant '" + v->name +
                          "' carries no fields; match it "
                          "as '" +
                          v->name + "'");
    out.irrefutable = false;
    out.slots.push_back(v->index);
    return out;
  }
  llvm::SmallVector<InstId, 4> subs;
  Cover sub = fields(p, p->fields, p->hasRest, v->name, v->fields, true,
                     allowBind, subs);
  out.irrefutable = false;
  if (sub.irrefutable) out.slots.push_back(v->index);
  out.pattern =
      body_.emit(InstKind::PatVariant, t, p->range,
                 body_.ir().variants.intern({t->named, v}), body_.list(subs));
  return out;
}

Cover PatternChecker::record(const ast::RecordPattern* p, const Type* t,
                             bool allowBind) {
  llvm::SmallVector<InstId, 8> subs;
  Cover out;
  if (t->kind == TypeKind::Named && t->named->def == TypeDefKind::Record)
    out = fields(p, p->fields, p->hasRest, t->named->name, t->named->fields,
                 false, allowBind, subs);
  else if (t->kind == TypeKind::Event)
    out = fields(p, p->fields, p->hasRest, t->event->name, t->event->fields,
                 false, allowBind, subs);
  if (t->kind == TypeKind::Event ||
      (t->kind == TypeKind::Named && t->named->def == TypeDefKind::Record)) {
    out.pattern =
        body_.emit(InstKind::PatRecord, t, p->range, body_.list(subs));
    return out;
  }
  invalid(p->range,
          "a record pattern matches a record or an event, but the "
          "value matched has type '" +
              displayName(t) + "'");
  out.irrefutable = true;
  return out;
}

// Slots of a type whose values a match can enumerate; 0 when it cannot.
std::size_t slotCount(const Type* t) {
  if (BodyChecker::isSum(t)) return t->named->variants.size();
  if (t->kind == TypeKind::Option || t->kind == TypeKind::Bool) return 2;
  return 0;
}

std::string slotName(const Type* t, std::size_t slot) {
  if (BodyChecker::isSum(t)) {
    const VariantInfo& v = t->named->variants[slot];
    return v.fields.empty() ? v.name : v.name + "(..)";
  }
  if (t->kind == TypeKind::Option) return slot == 0 ? "None" : "Some(_)";
  return slot == 0 ? "false" : "true";
}

}  // namespace

InstId BodyChecker::checkMatch(const ast::MatchExpr* e, const Type* expected,
                               bool discard) {
  TypeTable& tt = types();
  InstId scrutineeValue = checkUsed(e->scrutinee, nullptr);
  const Type* scrutinee = typeOf(scrutineeValue);
  llvm::SmallVector<InstId, 8> arms;
  const Type* domain = stripRefined(scrutinee);
  std::size_t slots = quiet(domain) ? 0 : slotCount(domain);
  llvm::SmallVector<bool, 8> covered(slots, false);
  bool all = quiet(scrutinee) || scrutinee->kind == TypeKind::Never;
  bool warnedUnreachable = false;
  const Type* want = expected;
  const Type* result = nullptr;
  PatternChecker patterns(*this);
  for (const ast::MatchArm& arm : e->arms) {
    std::size_t mark = locals_.size();
    Cover cover = patterns.check(arm.pattern, scrutinee, true);
    bool unreachable = all;
    if (!unreachable && !cover.irrefutable && !cover.slots.empty()) {
      unreachable = true;
      for (std::uint32_t s : cover.slots)
        if (s < slots && !covered[s]) unreachable = false;
    }
    if (patterns.reported) all = true;
    if (unreachable && !warnedUnreachable && arm.pattern != nullptr &&
        !quiet(scrutinee) && !patterns.reported) {
      sema().diags.report<diag::UnreachableArm>(arm.pattern->range);
      warnedUnreachable = true;
    }
    if (cover.irrefutable) all = true;
    for (std::uint32_t s : cover.slots)
      if (s < slots) covered[s] = true;
    if (slots > 0) {
      bool full = true;
      for (bool c : covered) full = full && c;
      if (full) all = true;
    }
    InstId body;
    if (discard) {
      discard_ = true;
      body = check(arm.body, want);
    } else {
      body = checkUsed(arm.body, want);
    }
    const Type* t = typeOf(body);
    if (expected != nullptr) {
      body = coerce(arm.body, body, expected);
    } else if (want == nullptr) {
      if (t != nullptr && t->kind != TypeKind::Never) want = t;
    } else if (t != nullptr && t->kind != TypeKind::Never && !quiet(t) &&
               !quiet(want) && stripRefined(t) != stripRefined(want)) {
      sema()
          .diags
          .report<diag::TypeMismatch>(arm.body->range, displayName(want),
                                      displayName(t))
          .note("the earlier arms have type '{}'; every arm must agree",
                displayName(want));
    }
    result = join(result, t);
    locals_.resize(mark);
    arms.push_back(emit(InstKind::MatchArm, typeOf(body), arm.range,
                        cover.pattern.index, body.index));
  }
  if (!all) {
    std::vector<std::string> missing;
    for (std::size_t s = 0; s < slots; ++s)
      if (!covered[s]) missing.push_back(slotName(domain, s));
    std::string what = slots > 0 ? quotedList(missing) : "other values";
    auto report = sema().diags.report<diag::NonExhaustiveMatch>(
        e->scrutinee != nullptr ? e->scrutinee->range : e->range,
        displayName(scrutinee), what);
    if (slots > 0)
      report.note("add {} for {}, or a '_ =>' arm",
                  missing.size() == 1 ? "an arm" : "arms", quotedList(missing));
    else
      report.note(
          "add a '_ =>' arm or a binding that takes every other "
          "value");
  }
  if (result == nullptr) result = e->arms.empty() ? tt.unit() : tt.never();
  if (expected != nullptr && !quiet(result) && result->kind != TypeKind::Never)
    result = expected;
  return emit(InstKind::Match, result, e->range, scrutineeValue.index,
              list(arms));
}

}  // namespace herald::check
