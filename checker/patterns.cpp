// Subscription patterns (language.md section 4, rules of section 6.5):
// resolved by the one pattern checker (pattern_resolve.h) against the
// event's shape, then lowered to the predicate IR.
#include <string>
#include <utility>
#include <vector>

#include "checker/pattern_resolve.h"
#include "checker/subscription_check.h"

namespace herald::check {

namespace {

using Path = std::vector<PathStep>;

Path extend(const Path& path, PathStep step) {
  Path out = path;
  out.push_back(std::move(step));
  return out;
}

// Conjunction and disjunction that flatten nested ones and drop `True`.
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

// A disjunction of `alternatives`, flattening nested ones; one that matches
// everything makes the whole disjunction do so.
Predicate makeOr(std::vector<Predicate> alternatives) {
  std::size_t count = 0;
  bool nested = false;
  for (const Predicate& a : alternatives) {
    if (a.kind == Predicate::Kind::True) return Predicate{};
    nested = nested || a.kind == Predicate::Kind::Or;
    count += a.kind == Predicate::Kind::Or ? a.children.size() : 1;
  }
  if (alternatives.size() == 1) return std::move(alternatives.front());
  Predicate out;
  out.kind = Predicate::Kind::Or;
  if (!nested) {
    out.children = std::move(alternatives);
    return out;
  }
  out.children.reserve(count);
  for (Predicate& a : alternatives) {
    if (a.kind != Predicate::Kind::Or) {
      out.children.push_back(std::move(a));
      continue;
    }
    for (Predicate& g : a.children) out.children.push_back(std::move(g));
  }
  return out;
}

Predicate lower(const ResolvedPattern* p, const Path& path) {
  if (p == nullptr) return Predicate{};
  Predicate out;
  out.path = path;
  switch (p->kind) {
    case ResolvedPattern::Kind::Wildcard:
    case ResolvedPattern::Kind::Binding:
    case ResolvedPattern::Kind::Invalid:
      return Predicate{};
    case ResolvedPattern::Kind::Literal:
      out.kind = Predicate::Kind::Equals;
      out.value = *p->value;
      return out;
    case ResolvedPattern::Kind::Range:
      out.kind = Predicate::Kind::IntRange;
      out.low = p->lo;
      out.high = p->hi;
      return out;
    case ResolvedPattern::Kind::None:
      out.kind = Predicate::Kind::IsNone;
      return out;
    case ResolvedPattern::Kind::Some: {
      out.kind = Predicate::Kind::IsSome;
      std::vector<Predicate> tests;
      tests.push_back(std::move(out));
      const Type* inner = p->type->arg0;
      for (const SubPattern& s : p->subs)
        tests.push_back(lower(
            s.pattern,
            extend(path, PathStep{PathStep::Kind::SomePayload, "", inner})));
      return makeAnd(std::move(tests));
    }
    case ResolvedPattern::Kind::Variant:
    case ResolvedPattern::Kind::Record: {
      bool variant = p->kind == ResolvedPattern::Kind::Variant;
      std::vector<Predicate> tests;
      if (variant) {
        out.kind = Predicate::Kind::VariantIs;
        out.variant = p->variant->name;
        out.variantInfo = p->variant;
        tests.push_back(std::move(out));
      }
      llvm::ArrayRef<FieldInfo> fields = p->fields();
      for (const SubPattern& s : p->subs) {
        if (s.field >= fields.size()) continue;
        const FieldInfo& f = fields[s.field];
        PathStep step{
            variant ? PathStep::Kind::VariantField : PathStep::Kind::Field,
            f.name, f.type, variant ? p->variant : nullptr, s.field};
        tests.push_back(lower(s.pattern, extend(path, std::move(step))));
      }
      return makeAnd(std::move(tests));
    }
    case ResolvedPattern::Kind::Or: {
      std::vector<Predicate> alternatives;
      alternatives.reserve(p->subs.size());
      for (const SubPattern& alt : p->subs)
        alternatives.push_back(lower(alt.pattern, path));
      return makeOr(std::move(alternatives));
    }
  }
  return Predicate{};
}

}  // namespace

Predicate checkSubscriptionPattern(Sema& sema, const ContextInfo& from,
                                   const EventInfo& event,
                                   const ast::RecordPattern& p,
                                   SourceRange eventRange) {
  if (p.fields.empty()) {
    // `E { .. }` and `E {}` both match every event: the braces say nothing.
    SourceRange braces{p.range.file, eventRange.end, p.range.end};
    sema.diags.report<diag::PatternEmpty>(p.range, event.name)
        .fixit(braces, "");
    return Predicate{};
  }
  PatternResolver resolver(sema, from, PatternUse::Subscription, &event);
  PatternShape shape{event.fields, "event", event.name, event.nameRange};
  const ResolvedPattern* resolved =
      resolver.record(p, event.type, shape, PatternText(llvm::StringRef()));
  return lower(resolved, Path{});
}

}  // namespace herald::check
