// Name lookup across contexts: bare names, names qualified by a context
// (`commerce.order.PaymentConfirmed`, consumed or not) or by a `consumes
// ... as` alias (`order.PaymentConfirmed`), and the `consumes X { A, B }`
// restriction of bare and alias-qualified names.
// Lookup itself reports nothing; the resolve* helpers report unknown and
// ambiguous names with candidates and "did you mean" suggestions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include "checker/sema.h"
#include "checker/spelling.h"
#include "frontend/ast.h"
#include "ir/program.h"

namespace herald::check {

struct LookupResult {
  enum class Status : std::uint8_t {
    Found,      // decl, after consuming `partsUsed` leading parts
    NotFound,   // nothing visible by that name
    Ambiguous,  // a bare name declared by several consumed contexts
  };
  Status status = Status::NotFound;
  DeclInfo* decl = nullptr;
  std::size_t partsUsed = 0;  // parts after these are member accesses
};

// Resolves the longest prefix of `parts` that names a declaration visible
// from `from`: the context's own names first, then bare names of consumed
// contexts, then `alias.Name` and `full.context.Name` (any context, consumed
// or not). Reports nothing.
[[nodiscard]] LookupResult lookupDecl(const Program& program,
                                      const ContextInfo& from,
                                      llvm::ArrayRef<ast::Ident> parts);

// The declarations an Ambiguous lookup of `parts` (which used `partsUsed`
// parts) chose between, sorted by qualified name. Lookups are hot and
// ambiguity is an error, so only the report collects them.
[[nodiscard]] std::vector<DeclInfo*> ambiguousCandidates(
    const ContextInfo& from, llvm::ArrayRef<ast::Ident> parts,
    std::size_t partsUsed);

// For a NotFound lookup: the declarations named `name` in contexts `from`
// does not consume (all of), sorted by qualified name, so that a message
// can say which `consumes` line would make one visible.
[[nodiscard]] std::vector<DeclInfo*> hiddenDeclarations(const Program& program,
                                                        const ContextInfo& from,
                                                        llvm::StringRef name);

// `full.context.Name` for any context: the declaration named right after
// the longest leading parts that spell a context's name, or null.
[[nodiscard]] DeclInfo* lookupQualified(const Program& program,
                                        llvm::ArrayRef<ast::Ident> parts);

// Like lookupDecl, but every part must be used, and unknown or ambiguous
// names are reported (`what` is "type", "event", "actor", ... for
// messages). Returns null after reporting.
DeclInfo* resolveDecl(Sema& sema, const ContextInfo& from,
                      const ast::QualifiedName& name, llvm::StringRef what);

// Resolves a type expression written in `from`: built-ins, generics (with
// argument counts), declared types (aliases seen through), events, `Ref[A]`
// of an agent, capabilities. Reports problems and returns the error type.
const Type* resolveType(Sema& sema, const ContextInfo& from,
                        const ast::TypeExpr* type);

// resolveType for a position that holds a value (a parameter, result,
// record field, key, store or `let`): a capability there is not-a-type,
// since capabilities are given to handlers, never passed or stored.
const Type* resolveValueType(Sema& sema, const ContextInfo& from,
                             const ast::TypeExpr* type);

// Every name visible bare from `from` (for suggestions), sorted, unique.
[[nodiscard]] std::vector<std::string> visibleNames(const Program& program,
                                                    const ContextInfo& from);

// "type", "event", "agent", ... for messages such as "'X' is an agent".
[[nodiscard]] llvm::StringRef describeKind(DeclInfoKind kind);

}  // namespace herald::check
