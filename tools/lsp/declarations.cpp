#include "tools/lsp/declarations.h"

#include <algorithm>
#include <tuple>

#include <llvm/Support/Casting.h>

namespace herald::lsp {
namespace {

using check::DeclInfo;
using check::DeclInfoKind;
using check::FieldInfo;

auto key(const SourceRange& r) { return std::tie(r.file, r.begin, r.end); }

}  // namespace

void DeclarationIndex::add(Declared entry) {
  if (entry.name.begin >= entry.name.end) return;
  entries_.push_back(entry);
}

void DeclarationIndex::addDecl(const DeclInfo& decl) {
  add({Declared::Kind::Decl, decl.nameRange, &decl});
  auto members = [&](const std::vector<FieldInfo>& fields) {
    for (const FieldInfo& f : fields)
      add({Declared::Kind::Member, f.nameRange, &decl, &f});
  };
  auto handlers = [&](const std::vector<check::HandlerInfo>& list) {
    for (const check::HandlerInfo& h : list) {
      add({Declared::Kind::Handler, h.nameRange, &decl, nullptr, nullptr, &h});
      members(h.params);
    }
  };
  auto fns = [&](const std::vector<std::unique_ptr<check::FnInfo>>& list) {
    for (const auto& fn : list) addDecl(*fn);
  };
  switch (decl.kind) {
    case DeclInfoKind::Type: {
      const auto& type = llvm::cast<check::TypeInfo>(decl);
      members(type.fields);
      for (const check::VariantInfo& v : type.variants) {
        add({Declared::Kind::Variant, v.nameRange, &decl, nullptr, &v});
        members(v.fields);
      }
      return;
    }
    case DeclInfoKind::Event:
      members(llvm::cast<check::EventInfo>(decl).fields);
      return;
    case DeclInfoKind::Actor:
      members(llvm::cast<check::ActorInfo>(decl).params);
      return;
    case DeclInfoKind::Capability:
      for (const check::CapabilityOp& op :
           llvm::cast<check::CapabilityInfo>(decl).ops) {
        add({Declared::Kind::Op, op.nameRange, &decl, nullptr, nullptr, nullptr,
             &op});
        members(op.sig.params);
      }
      return;
    case DeclInfoKind::Fn:
      members(llvm::cast<check::FnInfo>(decl).sig.params);
      return;
    case DeclInfoKind::Agent: {
      const auto& agent = llvm::cast<check::AgentInfo>(decl);
      if (agent.key)
        add({Declared::Kind::Member, agent.key->nameRange, &decl, &*agent.key});
      for (const check::StoreInfo& s : agent.stores)
        add({Declared::Kind::Member, s.field.nameRange, &decl, &s.field});
      handlers(agent.handlers);
      fns(agent.fns);
      return;
    }
    case DeclInfoKind::Service: {
      const auto& service = llvm::cast<check::ServiceInfo>(decl);
      handlers(service.handlers);
      fns(service.fns);
      return;
    }
  }
}

DeclarationIndex::DeclarationIndex(const check::Program& program) {
  for (const auto& context : program.contexts) {
    if (!context->parts.empty())
      add({Declared::Kind::Context, context->parts.front()->name.range, nullptr,
           nullptr, nullptr, nullptr, nullptr, context.get()});
    for (const auto& decl : context->decls) addDecl(*decl);
  }
  std::sort(entries_.begin(), entries_.end(),
            [](const Declared& a, const Declared& b) {
              return key(a.name) < key(b.name);
            });
}

const Declared* DeclarationIndex::find(SourceRange name) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                             [](const Declared& d, const SourceRange& n) {
                               return key(d.name) < key(n);
                             });
  if (it == entries_.end() || !(it->name == name)) return nullptr;
  return &*it;
}

const Declared* DeclarationIndex::at(FileId file, std::uint32_t offset) const {
  // Names never overlap: the last one beginning at or before `offset` is
  // the only candidate.
  auto it = std::upper_bound(
      entries_.begin(), entries_.end(), std::make_tuple(file, offset),
      [](const std::tuple<FileId, std::uint32_t>& pos, const Declared& d) {
        return pos < std::make_tuple(d.name.file, d.name.begin);
      });
  if (it == entries_.begin()) return nullptr;
  --it;
  if (it->name.file != file || offset > it->name.end) return nullptr;
  return &*it;
}

}  // namespace herald::lsp
