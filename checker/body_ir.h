// What the checker learnt about the bodies of functions, handlers, store
// initialisers and invariants, kept beside the AST (which stays immutable):
// each expression's type and what each name, field access and call refers
// to. Code generation reads bodies through these tables and never resolves a
// name itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringRef.h>

#include "checker/types.h"
#include "frontend/ast.h"

namespace herald::check {

struct DeclInfo;
struct FnInfo;
struct VariantInfo;
struct CapabilityInfo;
struct HandlerInfo;
struct CapabilityOp;

// What an expression names or does, beyond its type.
enum class RefKind : std::uint8_t {
  None,           // literals, operators, blocks, ...
  Local,          // a `let` or match binding
  Param,          // a parameter of the enclosing handler or fn (`index`)
  Key,            // the agent's key
  Store,          // an agent store (`index`)
  ActorBinder,    // `c` of `by c: Customer`
  Dependency,     // a `given Name: Type` dependency (`Rooms`, `Fx`)
  Capability,     // a capability given by name (`Logger`), `decl`
  Function,       // a call target or fn reference: `fn`
  TypeName,       // a type or event used as a prefix or literal: `decl`
  Variant,        // a variant value or constructor: `decl` + `variant`
  OptionSome,     // `Some(...)`
  OptionNone,     // `None`
  OpaqueBuild,    // `OrderId("a-1")`: `decl` is the opaque/refined type
  OpaqueRaw,      // `id.raw`
  FieldAccess,    // `base.name` of a record, event, or actor binder
  EnvelopeField,  // `env.eventId`
  CapabilityOp,   // `Logger.info`, `Fx.convert`: `decl` is the capability
  Emit,           // `Events.emit(...)`: `decl` is the emitted event
  AgentRef,       // `Rooms(id)`: a Ref to an agent instance
  Message,        // `Rooms(id).post(...)`: a one-way message, `handler`
  Method,         // a built-in operation on String, List, Option or Map
};

// How a value is adapted where it is used.
enum class Coercion : std::uint8_t {
  None,
  RefineCheck,  // a base value used as a refined type: checked at runtime
};

// One per expression of every body (millions in a large project), so it
// stays small and owns no heap memory.
// 32 bytes: what `ref` points at beyond `decl` shares one pointer, read
// through the accessor of that kind. The name of a built-in method or a
// capability operation is the callee's field name in the AST.
struct ExprInfo {
  const Type* type = nullptr;
  const DeclInfo* decl = nullptr;

  // Variant: the variant; null for any other kind.
  [[nodiscard]] const VariantInfo* variant() const {
    return ref == RefKind::Variant ? static_cast<const VariantInfo*>(target_)
                                   : nullptr;
  }
  // Function: the fn called or named.
  [[nodiscard]] const FnInfo* fn() const {
    return ref == RefKind::Function ? static_cast<const FnInfo*>(target_)
                                    : nullptr;
  }
  // Message: the handler the message invokes.
  [[nodiscard]] const HandlerInfo* handler() const {
    return ref == RefKind::Message ? static_cast<const HandlerInfo*>(target_)
                                   : nullptr;
  }
  // CapabilityOp: the operation called.
  [[nodiscard]] const CapabilityOp* op() const {
    return ref == RefKind::CapabilityOp
               ? static_cast<const CapabilityOp*>(target_)
               : nullptr;
  }
  // Set after `ref` is set to the matching kind.
  void setTarget(const void* target) { target_ = target; }

  std::uint32_t index = 0;
  RefKind ref = RefKind::None;
  Coercion coercion = Coercion::None;

 private:
  const void* target_ = nullptr;
};
static_assert(sizeof(ExprInfo) <= 32, "one per expression: keep it small");

struct BodyInfo {
  // Indexed by [file][expression id] (ast::Expr::id is dense per file), so
  // recording and reading a fact is an array access. An entry whose `type`
  // is null was never recorded.
  std::vector<std::vector<ExprInfo>> exprs;
  llvm::DenseMap<const ast::Stmt*, const Type*> lets;  // type of each `let`
  // Match-arm bindings: the type bound by each binding pattern.
  llvm::DenseMap<const ast::Pattern*, const Type*> bindings;

  // Sizes the table of `file` for its `count` expressions.
  void reserveFile(FileId file, std::uint32_t count) {
    if (exprs.size() <= file) exprs.resize(file + 1);
    exprs[file].resize(count);
  }
  // The entry of `e`, created (empty) when needed.
  [[nodiscard]] ExprInfo& at(const ast::Expr* e) {
    if (exprs.size() <= e->range.file) exprs.resize(e->range.file + 1);
    std::vector<ExprInfo>& table = exprs[e->range.file];
    if (table.size() <= e->id) table.resize(e->id + 1);
    return table[e->id];
  }
  [[nodiscard]] const ExprInfo* find(const ast::Expr* e) const {
    if (exprs.size() <= e->range.file) return nullptr;
    const std::vector<ExprInfo>& table = exprs[e->range.file];
    if (table.size() <= e->id || table[e->id].type == nullptr) return nullptr;
    return &table[e->id];
  }
  // Recorded entries, and the bytes the table holds.
  [[nodiscard]] std::size_t size() const {
    std::size_t n = 0;
    for (const std::vector<ExprInfo>& table : exprs)
      for (const ExprInfo& info : table) n += info.type != nullptr ? 1 : 0;
    return n;
  }
  [[nodiscard]] std::size_t bytes() const {
    std::size_t n = 0;
    for (const std::vector<ExprInfo>& table : exprs)
      n += table.capacity() * sizeof(ExprInfo);
    return n;
  }
};

}  // namespace herald::check
