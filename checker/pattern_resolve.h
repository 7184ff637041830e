// The one pattern checker: resolves an `ast::Pattern` against the type of
// the value it matches, for a `match` arm or a subscription pattern, with one
// set of rules. Its result, a ResolvedPattern tree, is what both uses lower:
// match arms to the body IR's `pat_*` instructions (check_match.cpp) and
// subscriptions to predicates (patterns.cpp); exhaustiveness.cpp reads it
// too. Internal to checker/.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include "checker/sema.h"
#include "frontend/ast.h"
#include "frontend/page_pool.h"
#include "ir/const_value.h"
#include "ir/program.h"

namespace herald::check {

// Where a pattern is written. Everything the two uses do differently is
// decided by this value, in PatternResolver::rules and pattern_report.cpp:
//
// - a match arm may bind names; a subscription pattern only tests values
//   (the runtime decides it on the decoded event, before any handler runs);
// - a subscription's record patterns end with `..` even when they list
//   every field, so a reader sees that nothing else is constrained;
// - diagnostics: a match arm reports in the body catalogue (E0305, E0306,
//   E0317, E0320), a subscription in the pattern catalogue (E0510-E0516);
//   both report pattern-variant-payload (E0514) and pattern-unsatisfiable
//   (E0517).
enum class PatternUse : std::uint8_t { MatchArm, Subscription };

struct ResolvedPattern;

// A written sub-pattern of a record, a variant payload, `Some`, or `|`.
struct SubPattern {
  // The declared field it matches; kNoField for one that names no field
  // (reported; kept so its bindings still bind).
  static constexpr std::uint32_t kNoField = 0xffffffffu;
  std::uint32_t field = kNoField;
  const ResolvedPattern* pattern = nullptr;
};

struct ResolvedPattern {
  enum class Kind : std::uint8_t {
    Wildcard,  // `_`, `{ .. }` nested, `Some(..)`'s payload
    Binding,   // a name (match arms only)
    Literal,   // `value`, in the field's own type
    Range,     // `lo..hi`, either end open
    None,
    Some,     // subs: [payload]
    Variant,  // `variant`; subs: the written payload fields, in source order
    Record,   // a record or event; subs: the written fields, in source order
    Or,       // subs: the alternatives, in source order (none is an Or)
    Invalid,  // reported (or unreadable): matches as `_` would, silently;
              // subs: parts whose bindings still bind
  };
  Kind kind = Kind::Invalid;
  const Type* type = nullptr;  // the value matched
  SourceRange range;
  // Literal, Range: the built-in type the value is written in, under the
  // opaque and refined types of `type`.
  const Type* base = nullptr;
  // Literal: the constant, wrapped in `type`'s opaque and refined layers as
  // the runtime decodes it, and the expression it was written as.
  const ConstValue* value = nullptr;
  const ast::Expr* literal = nullptr;
  // Range: the bounds as written and their values.
  const ast::Expr* low = nullptr;
  const ast::Expr* high = nullptr;
  std::optional<std::int64_t> lo;
  std::optional<std::int64_t> hi;
  const VariantInfo* variant = nullptr;  // Variant
  llvm::StringRef name;                  // Binding
  SourceRange nameRange;                 // Binding
  llvm::ArrayRef<SubPattern> subs;       // in the resolver's arena

  // The declared fields of a Variant or Record pattern.
  [[nodiscard]] llvm::ArrayRef<FieldInfo> fields() const;
};

// The fields a record-like pattern is matched against, and how messages
// name their owner.
struct PatternShape {
  llvm::ArrayRef<FieldInfo> fields;
  llvm::StringRef ownerKind;  // "event", "type", "variant"
  llvm::StringRef ownerName;  // "PaymentConfirmed", "Money"
  SourceRange declRange;      // where the owner is declared, if known

  // "event 'PaymentConfirmed'", "type 'Money'".
  [[nodiscard]] std::string owner() const;
};

// How messages name the value a pattern matches (`amount.cents`,
// `order.note?`): steps linked on the stack while the pattern is resolved,
// spelt out only when a problem is reported.
class PatternText {
 public:
  explicit PatternText(llvm::StringRef root) : step_(root) {}
  // The named field of this value, and the value inside this `Some`.
  [[nodiscard]] PatternText field(llvm::StringRef name) const {
    return PatternText(this, name, false);
  }
  [[nodiscard]] PatternText some() const { return PatternText(this, {}, true); }
  // The path in dotted form, `a.b` (`a?` for the value inside a `Some`),
  // for the IR; the root's text alone for the root.
  [[nodiscard]] std::string str() const;
  // The path in words, for messages: `field 'a.b'`, `the value inside
  // 'Some' of field 'a'`.
  [[nodiscard]] std::string describe() const;

 private:
  PatternText(const PatternText* parent, llvm::StringRef step, bool some)
      : parent_(parent), step_(step), some_(some) {}
  [[nodiscard]] bool throughSome() const;
  const PatternText* parent_ = nullptr;
  llvm::StringRef step_;  // the root's text, or the field's name
  bool some_ = false;
};

// One opaque or refined type between a field's type and the built-in type
// its values are written in.
struct Wrapper {
  const Type* type = nullptr;
  const TypeInfo* info = nullptr;
};

class PatternResolver {
 public:
  // `event` names the event in subscription messages (null for a match).
  PatternResolver(Sema& sema, const ContextInfo& from, PatternUse use,
                  const EventInfo* event)
      : sema_(sema), from_(from), use_(use), event_(event) {}

  // `text` names the value matched in messages: `amount.cents` in a
  // subscription, the scrutinee in a match.
  const ResolvedPattern* resolve(const ast::Pattern* p, const Type* type,
                                 const PatternText& text);
  // A record pattern against an explicit shape (a subscription's event).
  const ResolvedPattern* record(const ast::RecordPattern& p, const Type* type,
                                const PatternShape& shape,
                                const PatternText& text);
  // Whether any pattern resolved so far was reported.
  [[nodiscard]] bool reported() const { return reported_; }

 private:
  struct Rules {
    bool bindings;     // names bind values
    bool requireRest;  // record patterns end with `..` even when complete
  };
  [[nodiscard]] Rules rules() const;

  ResolvedPattern* make(ResolvedPattern::Kind kind, const Type* type,
                        SourceRange range);
  llvm::ArrayRef<SubPattern> keep(llvm::ArrayRef<SubPattern> subs);
  const ResolvedPattern* invalid(SourceRange range);

  // pattern_resolve.cpp: records, variants, options, names.
  const ResolvedPattern* name(const ast::NamePattern& p, const Type* type,
                              const PatternText& text);
  const ResolvedPattern* binding(const ast::NamePattern& p, const Type* type,
                                 const PatternText& text);
  const ResolvedPattern* constructor(const ast::ConstructorPattern& p,
                                     const Type* type, const PatternText& text);
  const ResolvedPattern* somePattern(const ast::ConstructorPattern& p,
                                     const Type* type, const PatternText& text);
  const ResolvedPattern* variantPayload(const ast::ConstructorPattern& p,
                                        const VariantInfo& variant,
                                        const Type* type,
                                        const PatternText& text);
  const ResolvedPattern* nestedRecord(const ast::RecordPattern& p,
                                      const Type* type,
                                      const PatternText& text);
  void fieldList(llvm::ArrayRef<ast::PatternField> items,
                 const PatternShape& shape, bool positional,
                 const PatternText& text, ResolvedPattern& out);
  const VariantInfo* resolveVariant(const ast::QualifiedName& name,
                                    const Type* type, const PatternText& text);
  // `OrderId("a-1")` in the owning context: the constructor form of a
  // literal pattern of an opaque or refined type.
  const ResolvedPattern* builtValue(const ast::ConstructorPattern& p,
                                    const Type* type, const PatternText& text);

  // pattern_values.cpp
  const ResolvedPattern* literal(const ast::Expr* lit, SourceRange range,
                                 const Type* type, const PatternText& text);
  const ResolvedPattern* range(const ast::RangePattern& p, const Type* type,
                               const PatternText& text);
  // Peels the opaque and refined types off `type` (outermost first); null
  // after reporting when an opaque type is opened outside its context.
  const Type* unwrap(const Type* type, SourceRange range,
                     const PatternText& text, std::vector<Wrapper>& chain);
  // True when the value satisfies every refinement of `chain`; reports
  // pattern-unsatisfiable otherwise.
  bool satisfies(const ConstValue& v, llvm::ArrayRef<Wrapper> chain,
                 SourceRange range, const PatternText& text);
  // False (after reporting) when no value of lo..hi satisfies `chain`.
  bool rangeSatisfiable(const ast::RangePattern& p, std::int64_t lo,
                        std::int64_t hi, llvm::ArrayRef<Wrapper> chain,
                        const PatternText& text);

  // pattern_report.cpp: the problems whose wording depends on the use.
  // `matchMessage` is the invalid-pattern text of a match arm; a
  // subscription reports pattern-type-mismatch with how to match the type.
  void mismatch(SourceRange range, const PatternText& text, const Type* type,
                const std::string& matchMessage);
  void unknownField(const ast::Ident& label, const PatternShape& shape,
                    const PatternText& fieldText);
  void duplicateField(SourceRange at, SourceRange first,
                      const std::string& fieldName,
                      const PatternText& fieldText);
  void missingFields(llvm::ArrayRef<ast::PatternField> items, SourceRange whole,
                     const PatternShape& shape,
                     llvm::ArrayRef<std::string> unlisted);
  void unknownVariant(const ast::Ident& last, const Type* type);
  void bindingInSubscription(const ast::NamePattern& p,
                             const PatternText& text);
  void invalidPattern(SourceRange at, const std::string& message);

  Sema& sema_;
  const ContextInfo& from_;
  PatternUse use_;
  const EventInfo* event_;
  // Patterns and their sub-pattern lists; literal values beside them
  // (ResolvedPattern stays trivially destructible).
  PooledBumpAllocator arena_;
  std::vector<std::unique_ptr<ConstValue>> values_;
  int orDepth_ = 0;  // inside `|`: no bindings
  bool reported_ = false;
};

// How values of `type` can be matched, for help lines.
[[nodiscard]] std::string howToMatch(const Type* type, const ContextInfo& from);

}  // namespace herald::check
