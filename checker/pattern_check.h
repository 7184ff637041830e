// The pattern checker shared by patterns.cpp (records, variants, options,
// names) and pattern_values.cpp (literals and ranges). Internal to
// checker/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include "checker/ir.h"
#include "checker/predicate.h"
#include "checker/sema.h"
#include "frontend/ast.h"

namespace herald::check {

using Path = std::vector<PathStep>;

// The fields a record-like pattern is matched against, and how messages
// name their owner.
struct PatternShape {
  llvm::ArrayRef<FieldInfo> fields;
  std::string owner;      // "event 'PaymentConfirmed'", "type 'Money'"
  SourceRange declRange;  // where the owner is declared, if known
};

// One opaque or refined type between a field's type and the built-in type
// its values are written in.
struct Wrapper {
  const Type* type = nullptr;
  const TypeInfo* info = nullptr;
};

class PatternChecker {
 public:
  PatternChecker(Sema& sema, const ContextInfo& from, const EventInfo& event)
      : sema_(sema), from_(from), event_(event) {}

  Predicate eventPattern(const ast::RecordPattern& p, SourceRange eventRange);

 private:
  // `text` names the field in messages: `amount.cents`.
  Predicate value(const ast::Pattern* p, const Type* type, const Path& path,
                  const std::string& text);
  void fieldList(llvm::ArrayRef<ast::PatternField> items,
                 const PatternShape& shape, const Path& path,
                 const std::string& text, std::vector<Predicate>& out);
  Predicate nestedRecord(const ast::RecordPattern& p, const Type* type,
                         const Path& path, const std::string& text);
  Predicate name(const ast::NamePattern& p, const Type* type, const Path& path,
                 const std::string& text);
  Predicate binding(const ast::NamePattern& p, const std::string& text);
  Predicate constructor(const ast::ConstructorPattern& p, const Type* type,
                        const Path& path, const std::string& text);
  Predicate somePattern(const ast::ConstructorPattern& p, const Type* type,
                        const Path& path, const std::string& text);
  Predicate variantPayload(const ast::ConstructorPattern& p,
                           const VariantInfo& variant, const Type* type,
                           const Path& path, const std::string& text);
  const VariantInfo* resolveVariant(const ast::QualifiedName& name,
                                    const Type* type, const std::string& text);
  // `OrderId("a-1")` in the owning context: the constructor form of a
  // literal pattern of an opaque or refined type.
  std::optional<Predicate> builtValue(const ast::ConstructorPattern& p,
                                      const Type* type, const Path& path,
                                      const std::string& text);

  // pattern_values.cpp
  Predicate literal(const ast::Expr* lit, SourceRange range, const Type* type,
                    const Path& path, const std::string& text);
  Predicate range(const ast::RangePattern& p, const Type* type,
                  const Path& path, const std::string& text);
  // Peels the opaque and refined types off `type` (outermost first); null
  // after reporting when an opaque type is opened outside its context.
  const Type* unwrap(const Type* type, SourceRange range,
                     const std::string& text, std::vector<Wrapper>& chain);
  // True when the value satisfies every refinement of `chain`; reports
  // pattern-unsatisfiable otherwise.
  bool satisfies(const ConstValue& v, llvm::ArrayRef<Wrapper> chain,
                 SourceRange range, const std::string& text);

  void mismatch(SourceRange range, const std::string& text, const Type* type);
  void missingRest(llvm::ArrayRef<ast::PatternField> items, SourceRange whole,
                   llvm::ArrayRef<std::string> unlisted);

  Sema& sema_;
  const ContextInfo& from_;
  const EventInfo& event_;
};

// How values of `type` can be matched, for help lines.
[[nodiscard]] std::string howToMatch(const Type* type, const ContextInfo& from);

// Conjunction and disjunction that flatten nested ones and drop `True`.
[[nodiscard]] Predicate makeAnd(std::vector<Predicate> children);
[[nodiscard]] Predicate makeOr(Predicate lhs, Predicate rhs);

// `path` followed by `step`.
[[nodiscard]] Path extend(const Path& path, PathStep step);

}  // namespace herald::check
