// Helpers shared by the name passes (collect, consumes, lookup,
// signatures): spelling dotted names, source order, duplicate reports and
// the lazy resolution of type aliases. Internal to checker/.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>

#include "checker/lookup.h"
#include "checker/sema.h"
#include "frontend/ast.h"
#include "ir/program.h"

namespace herald::check {

// `commerce.order.PaymentConfirmed` from its parts.
[[nodiscard]] std::string joinName(llvm::ArrayRef<ast::Ident> parts);

// `prefix.name` in one allocation.
[[nodiscard]] std::string qualify(llvm::StringRef prefix, llvm::StringRef name);

// True when `a` comes before `b` in source order (file id, then offset).
[[nodiscard]] inline bool sourceBefore(const SourceRange& a,
                                       const SourceRange& b) {
  if (a.file != b.file) return a.file < b.file;
  return a.begin < b.begin;
}

// Whether a `consumes` line lets `name` through its `{ A, B }` list.
[[nodiscard]] bool admits(const ConsumesInfo& line, llvm::StringRef name);

// How many leading parts spell the dotted `contextName`; 0 when they do
// not all match.
[[nodiscard]] std::size_t matchContextName(llvm::StringRef contextName,
                                           llvm::ArrayRef<ast::Ident> parts);

// The context named `name`, by binary search: Program::contexts is sorted
// by name once collection is done. Null when there is none.
[[nodiscard]] ContextInfo* findContext(const Program& program,
                                       llvm::StringRef name);

// "an agent", "a type", ...: describeKind with its article.
[[nodiscard]] std::string describeWithArticle(DeclInfoKind kind);

// The first declaration of each name among the members of one declaration
// (fields, parameters, stores, ...). Members are few, so a linear scan
// beats hashing and allocates nothing until there are many.
class FirstSeen {
 public:
  // The range `name` was first seen at, or null after recording `at`.
  const SourceRange* insert(llvm::StringRef name, SourceRange at);

 private:
  static constexpr std::size_t kLinear = 16;
  llvm::SmallVector<std::pair<llvm::StringRef, SourceRange>, kLinear> few_;
  llvm::StringMap<SourceRange> many_;
};

// Reports duplicate-member for `what` `name` at `second`, noting `first`.
void reportDuplicateMember(Sema& sema, llvm::StringRef what,
                           llvm::StringRef name, SourceRange second,
                           SourceRange first);

// A Path type expression without arguments, naming a declaration: the
// parts, or empty when `type` is anything else.
[[nodiscard]] llvm::ArrayRef<ast::Ident> plainPath(const ast::TypeExpr* type);

// Reports a name that `r` did not resolve to a declaration using all of
// `parts`: unknown (unknown-type for `what` "type", unknown-actor for
// "actor", else unknown-name) with "did you mean" and which `consumes` line
// would make a hidden declaration visible; or ambiguous, with a note per
// candidate. Quiet about malformed names.
void reportUnresolved(Sema& sema, const ContextInfo& from,
                      const LookupResult& r, llvm::ArrayRef<ast::Ident> parts,
                      SourceRange range, llvm::StringRef what);

// Reports an Ambiguous lookup `r` of `parts` at `range`: the contexts that
// declare the name, a note per candidate and the qualified spelling. The
// one report of an ambiguous name, in declarations and in bodies alike.
void reportAmbiguous(Sema& sema, const ContextInfo& from, const LookupResult& r,
                     llvm::ArrayRef<ast::Ident> parts, SourceRange range);

// Makes sure `info`, an alias, has its target resolved (reporting a cycle
// once); afterwards `info.type` is set, to the error type on failure.
void resolveAlias(Sema& sema, TypeInfo& info);

// Makes sure the base of `info` (opaque or refined) is resolved, and that
// no chain of bases leads back to it (reported as a type-alias-cycle).
void resolveBase(Sema& sema, TypeInfo& info);

}  // namespace herald::check
