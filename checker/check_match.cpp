// `match`: each arm's pattern resolved by the one pattern checker
// (pattern_resolve.h) against the scrutinee's type and lowered to the body
// IR's `pat_*` instructions (binding names to slots); exhaustiveness and
// unreachable arms through payloads (exhaustiveness.h); the arms' types
// agreeing, refined arms unrefined to the joined base.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "checker/body_checker.h"
#include "checker/exhaustiveness.h"
#include "checker/pattern_resolve.h"

namespace herald::check {

namespace {

std::string listed(llvm::ArrayRef<std::string> names, bool more) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i != 0) out += i + 1 == names.size() && !more ? " and " : ", ";
    out += "'" + names[i] + "'";
  }
  if (more) out += " and others";
  return out;
}

}  // namespace

InstId BodyChecker::lowerPattern(const ResolvedPattern* p) {
  if (p == nullptr) return invalid(SourceRange{});
  switch (p->kind) {
    case ResolvedPattern::Kind::Wildcard:
      return emit(InstKind::PatWildcard, p->type, p->range);
    case ResolvedPattern::Kind::Binding: {
      SlotId slot = bind(p->name, p->type, p->nameRange, true);
      if (quiet(p->type)) return invalid(p->range);
      return emit(InstKind::PatBind, p->type, p->range, slot.index());
    }
    case ResolvedPattern::Kind::Invalid:
      for (const SubPattern& s : p->subs) (void)lowerPattern(s.pattern);
      return invalid(p->range);
    case ResolvedPattern::Kind::Literal: {
      InstId value = check(p->literal, nullptr);
      return emit(InstKind::PatLiteral, p->type, p->range, value.index());
    }
    case ResolvedPattern::Kind::Range: {
      InstId low = p->low != nullptr ? checkAgainst(p->low, p->base) : InstId{};
      InstId high =
          p->high != nullptr ? checkAgainst(p->high, p->base) : InstId{};
      return emit(InstKind::PatRange, p->type, p->range, low.index(),
                  high.index());
    }
    case ResolvedPattern::Kind::None:
      return emit(InstKind::PatNone, p->type, p->range);
    case ResolvedPattern::Kind::Some: {
      InstId sub = lowerPattern(p->subs.front().pattern);
      return emit(InstKind::PatSome, p->type, p->range, sub.index());
    }
    case ResolvedPattern::Kind::Variant:
    case ResolvedPattern::Kind::Record:
      return lowerPatternFields(p);
    case ResolvedPattern::Kind::Or: {
      // `pat_or` is binary: the alternatives fold from the left, each
      // spanning the source up to its right-hand alternative.
      InstId acc = lowerPattern(p->subs.front().pattern);
      for (const SubPattern& alt : p->subs.drop_front()) {
        InstId rhs = lowerPattern(alt.pattern);
        SourceRange at{p->range.file, p->range.begin, alt.pattern->range.end};
        acc = emit(InstKind::PatOr, p->type, at, acc.index(), rhs.index());
      }
      return acc;
    }
  }
  return invalid(p->range);
}

InstId BodyChecker::lowerPatternFields(const ResolvedPattern* p) {
  llvm::ArrayRef<FieldInfo> declared = p->fields();
  llvm::SmallVector<InstId, 8> subs(declared.size(), InstId{});
  for (const SubPattern& s : p->subs) {
    InstId id = lowerPattern(s.pattern);
    if (s.field < declared.size()) subs[s.field] = id;
  }
  // A field the pattern does not mention (after `..`) matches anything.
  for (std::size_t j = 0; j < declared.size(); ++j)
    if (!subs[j].valid())
      subs[j] = emit(InstKind::PatWildcard, declared[j].type, p->range);
  if (p->kind == ResolvedPattern::Kind::Record)
    return emit(InstKind::PatRecord, p->type, p->range, list(subs));
  return emit(InstKind::PatVariant, p->type, p->range,
              ir().variants.intern({p->type->named, p->variant}).index(),
              list(subs));
}

InstId BodyChecker::checkMatch(const ast::MatchExpr* e, const Type* expected,
                               bool discard) {
  TypeTable& tt = types();
  InstId scrutineeValue = checkUsed(e->scrutinee, nullptr);
  const Type* scrutinee = typeOf(scrutineeValue);
  // Nothing to say about the arms of a value that is an error or never
  // exists.
  bool silent = quiet(scrutinee) || scrutinee->kind == TypeKind::Never;
  PatternText text(
      e->scrutinee != nullptr
          ? llvm::StringRef(sema().sources.textOf(e->scrutinee->range))
          : llvm::StringRef("the value matched"));
  PatternResolver patterns(sema(), context_, PatternUse::MatchArm, nullptr);
  ArmMatrix matrix(scrutinee);
  llvm::SmallVector<InstId, 8> arms;
  llvm::SmallVector<InstId, 8> bodies;
  llvm::SmallVector<InstId, 8> patternIds;
  const Type* want = expected;
  const Type* result = nullptr;
  for (const ast::MatchArm& arm : e->arms) {
    std::size_t mark = locals_.size();
    const ResolvedPattern* resolved =
        patterns.resolve(arm.pattern, scrutinee, text);
    patternIds.push_back(lowerPattern(resolved));
    // Once a pattern was reported, coverage is unknown and saying more
    // about it (unreachable, non-exhaustive) would be a cascade.
    if (!silent && !patterns.reported() && !matrix.addArm(resolved) &&
        arm.pattern != nullptr)
      sema().diags.report<diag::UnreachableArm>(arm.pattern->range);
    // Without an expected type, the earlier arms tell a later one their
    // type without its refinement (the arms are joined below), so a nested
    // `match` or `if` in it is not held to a refined first arm's refinement.
    const Type* hint = expected != nullptr ? want : stripRefined(want);
    InstId body;
    if (discard) {
      body = check(arm.body, hint, true);
    } else {
      body = checkUsed(arm.body, hint);
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
    bodies.push_back(body);
  }
  if (!silent && !patterns.reported()) {
    std::vector<std::string> missing = matrix.missing();
    if (!missing.empty()) {
      bool other = missing.size() == 1 && missing.front() == "_";
      bool more = matrix.moreMissing();
      std::string what = other ? "other values" : listed(missing, more);
      auto report = sema().diags.report<diag::NonExhaustiveMatch>(
          e->scrutinee != nullptr ? e->scrutinee->range : e->range,
          displayName(scrutinee), what);
      if (other)
        report.note(
            "add a '_ =>' arm or a binding that takes every other value");
      else
        report.note("add {} for {}, or a '_ =>' arm",
                    missing.size() == 1 && !more ? "an arm" : "arms", what);
      if (matrix.capped())
        report.note(
            "this match is too large to check through its payloads; only "
            "arms that match every value of a variant were counted");
    }
  }
  // Arms of different refinements are unrefined to the joined base.
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Type* t = typeOf(bodies[i]);
    if (expected == nullptr && result != nullptr && !quiet(result) &&
        !quiet(t) && t != result && t->kind != TypeKind::Never &&
        stripRefined(t) == result)
      bodies[i] = coerce(e->arms[i].body, bodies[i], result);
    arms.push_back(emit(InstKind::MatchArm, typeOf(bodies[i]), e->arms[i].range,
                        patternIds[i].index(), bodies[i].index()));
  }
  if (result == nullptr) result = e->arms.empty() ? tt.unit() : tt.never();
  if (expected != nullptr && !quiet(result) && result->kind != TypeKind::Never)
    result = expected;
  return emit(InstKind::Match, result, e->range, scrutineeValue.index(),
              list(arms));
}

}  // namespace herald::check
