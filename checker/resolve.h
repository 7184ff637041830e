// The one resolver of names in bodies and constants: a name or a dotted
// path, with what the body has in scope, resolves to one Resolution whose
// NameKind says what it names. Every user switches over the kind with no
// default, so a new kind of name is a compile error wherever it must be
// handled. Reports nothing. Internal to checker/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include "frontend/ast.h"
#include "ir/body.h"
#include "ir/program.h"

namespace herald::check {

// A name bound inside a body: a `let` or a match binding, and its slot.
struct Local {
  llvm::StringRef name;
  const Type* type = nullptr;
  SourceRange range;
  SlotId slot;
};

// What a body sees before declarations. Empty for a constant.
struct BodyScope {
  llvm::ArrayRef<Local> locals;  // innermost last
  llvm::ArrayRef<FieldInfo> params;
  const AgentInfo* agent = nullptr;      // its key, stores and fns are in scope
  const HandlerInfo* handler = nullptr;  // its actor binder and `given`
  const ServiceInfo* service = nullptr;  // its fns and `given`
  const FnInfo* fn = nullptr;            // an agent fn: its `given`
};

enum class NameKind : std::uint8_t {
  // The body's own names (one part; `index` and `type` set).
  Local,               // `index` is the SlotId
  Param,               // `index` into the body's parameters
  Key,                 // the agent's key
  Store,               // `index` into the agent's stores
  ActorBinder,         // `c` of `by c: Customer`
  Dependency,          // a named `given` capability (or an unresolved one);
                       // `index` is DepRef::encode
  AgentRefDependency,  // a named `given` of type `Ref[Agent]`
  // Spelled by the language.
  Some,
  None,
  // Declarations (`decl` set; `partsUsed` parts name it).
  Fn,           // `fn`: a context-level fn, or a service-local one
  AgentFn,      // `fn`: an agent fn of the body's agent
  Type,         // `typeInfo`: a sum, alias or any type without a
                // constructor or literal
  Constructor,  // `typeInfo`: an opaque or refined type (an alias seen
                // through), built by `T(value)`
  RecordType,   // `typeInfo`: a record type (an alias seen through)
  Event,
  Capability,  // `cap`: named directly (declared or first-party)
  Agent,
  Actor,
  Service,
  // Members: the last of `partsUsed` parts is the member.
  Variant,        // `typeInfo` (the sum) and `variant`; bare (one part) only
                  // when the expected type is that sum
  StaticFn,       // `fn` on `typeInfo`: `T.x`
  CapabilityOp,   // `cap` and `op` (null when it has no such operation);
                  // `viaDependency` for a named `given`
  UnknownMember,  // `typeInfo` has no variant or static fn of that name
  // The leading `partsUsed` parts spell a context's name (`context`) and
  // no declaration of it follows.
  ContextPrefix,
  // Failures.
  NotFound,
  Ambiguous,  // `candidates`, sorted by qualified name
};

struct Resolution {
  NameKind kind = NameKind::NotFound;
  std::size_t partsUsed = 0;  // parts after these are member accesses
  // Scoped names and dependencies.
  const Type* type = nullptr;
  std::uint32_t index = 0;
  SourceRange declRange;
  // Declarations and members.
  const DeclInfo* decl = nullptr;
  const FnInfo* fn = nullptr;
  const TypeInfo* typeInfo = nullptr;
  const VariantInfo* variant = nullptr;
  const CapabilityInfo* cap = nullptr;
  const CapabilityOp* op = nullptr;
  bool viaDependency = false;
  const ContextInfo* context = nullptr;
  // Ambiguous: ambiguousCandidates (lookup.h) lists the candidates, as only
  // the report needs them.
};

// Resolves the longest prefix of `parts` (at least one) visible from
// `from` with `scope`: the body's names first (locals innermost first,
// parameters, key, stores, the agent fn's `given`, actor binder, the
// handler's then the service's `given`), then `Some` and `None`, local fns, a
// bare variant of `expected` (a sum), declarations (lookup.h) and first-party
// capabilities; then one member of a type or capability.
[[nodiscard]] Resolution resolveName(const Program& program,
                                     const ContextInfo& from,
                                     const BodyScope& scope,
                                     llvm::ArrayRef<ast::Ident> parts,
                                     const Type* expected);

// A chain of names (`Region`, `order.Region.Domestic`) as parts; false
// when `e` is anything else or a name is missing.
bool namePath(const ast::Expr* e, llvm::SmallVectorImpl<ast::Ident>& parts);

}  // namespace herald::check
