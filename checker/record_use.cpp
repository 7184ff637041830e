#include "checker/record_use.h"

namespace herald::check {

void recordDeclUse(Program& program, llvm::ArrayRef<ast::Ident> parts,
                   const DeclInfo* decl) {
  if (parts.empty() || decl == nullptr) return;
  program.uses.record(parts.back().range, decl->nameRange);
}

void recordLabelUse(Program& program, const ast::Ident& label,
                    SourceRange param) {
  program.uses.record(label.range, param);
}

void recordConsumesUses(Program& program, const ast::ConsumesDecl& decl,
                        const ContextInfo& target) {
  if (!target.parts.empty())
    program.uses.record(decl.context.range, target.parts.front()->name.range);
  for (const ast::Ident& name : decl.only)
    if (!name.empty()) recordDeclUse(program, name, target.lookup(name.name));
}

void recordResolution(Program& program, llvm::ArrayRef<ast::Ident> parts,
                      const Resolution& r) {
  if (r.partsUsed == 0 || r.partsUsed > parts.size()) return;
  const ast::Ident& last = parts[r.partsUsed - 1];
  // The type or capability before a member (`T.Variant`, `Cap.op`).
  auto owner = [&] {
    if (r.partsUsed >= 2 && r.decl != nullptr)
      recordDeclUse(program, parts.take_front(r.partsUsed - 1), r.decl);
  };
  UseTable& uses = program.uses;
  switch (r.kind) {
    case NameKind::Local:
    case NameKind::Param:
    case NameKind::Key:
    case NameKind::Store:
    case NameKind::ActorBinder:
    case NameKind::Dependency:
    case NameKind::AgentRefDependency:
      uses.record(parts.front().range, r.declRange, r.type);
      return;
    case NameKind::Fn:
    case NameKind::AgentFn:
      if (r.fn != nullptr) uses.record(last.range, r.fn->nameRange);
      return;
    case NameKind::Type:
    case NameKind::Constructor:
    case NameKind::RecordType:
    case NameKind::Event:
    case NameKind::Capability:
    case NameKind::Agent:
    case NameKind::Actor:
    case NameKind::Service:
      recordDeclUse(program, parts.take_front(r.partsUsed), r.decl);
      return;
    case NameKind::Variant:
      owner();
      if (r.variant != nullptr) uses.record(last.range, r.variant->nameRange);
      return;
    case NameKind::StaticFn:
      owner();
      if (r.fn != nullptr) uses.record(last.range, r.fn->nameRange);
      return;
    case NameKind::CapabilityOp:
      if (r.viaDependency)
        uses.record(parts.front().range, r.declRange);
      else
        owner();
      if (r.op != nullptr) uses.record(last.range, r.op->nameRange);
      return;
    case NameKind::UnknownMember:
      owner();
      return;
    case NameKind::Some:
    case NameKind::None:
    case NameKind::ContextPrefix:
    case NameKind::NotFound:
    case NameKind::Ambiguous:
      return;
  }
}

}  // namespace herald::check
