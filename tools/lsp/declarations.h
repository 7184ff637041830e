// The declarations of a checked program by the range of their names: every
// context (the first `context` line opening it), every context-level
// declaration and its members (fields, variants, parameters,
// keys, stores, handlers, capability operations, agent and service fns).
// Built once per check, so what a hover says about a declaration is a
// binary search away from the name under the cursor or a use's target.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/source.h"
#include "ir/program.h"

namespace herald::lsp {

struct Declared {
  enum class Kind : std::uint8_t {
    Decl,     // `decl` itself
    Member,   // `field` of `decl`: a field, parameter, key or store
    Variant,  // `variant` of the sum `decl`
    Handler,  // `handler` of the agent or service `decl`
    Op,       // `op` of the capability `decl`
    Context,  // `context` itself, where it is first opened
  };
  Kind kind = Kind::Decl;
  SourceRange name;
  const check::DeclInfo* decl = nullptr;  // the declaration or the owner
  const check::FieldInfo* field = nullptr;
  const check::VariantInfo* variant = nullptr;
  const check::HandlerInfo* handler = nullptr;
  const check::CapabilityOp* op = nullptr;
  const check::ContextInfo* context = nullptr;
};

class DeclarationIndex {
 public:
  explicit DeclarationIndex(const check::Program& program);

  // The declaration whose name is exactly `name`, or null.
  [[nodiscard]] const Declared* find(SourceRange name) const;
  // The declaration whose name covers `offset` of `file` (its end
  // included), or null.
  [[nodiscard]] const Declared* at(FileId file, std::uint32_t offset) const;

 private:
  void add(Declared entry);
  void addDecl(const check::DeclInfo& decl);

  std::vector<Declared> entries_;  // by name, after the constructor
};

}  // namespace herald::lsp
