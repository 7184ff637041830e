#include "tools/lsp/workspace_symbols.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include <llvm/Support/Casting.h>

#include "tools/lsp/symbol_kinds.h"

namespace herald::lsp {
namespace {

using check::DeclInfo;
using check::DeclInfoKind;
using check::FieldInfo;

// How well a name matches the query: lower is better.
enum class Match : std::uint8_t { Exact, Prefix, Substring, Subsequence };

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

std::optional<Match> match(const std::string& name, const std::string& query) {
  if (query.empty()) return Match::Subsequence;
  std::string folded(name.size(), '\0');
  std::transform(name.begin(), name.end(), folded.begin(), lower);
  if (folded == query) return Match::Exact;
  std::size_t at = folded.find(query);
  if (at == 0) return Match::Prefix;
  if (at != std::string::npos) return Match::Substring;
  std::size_t i = 0;
  for (char c : folded)
    if (i < query.size() && c == query[i]) ++i;
  if (i == query.size()) return Match::Subsequence;
  return std::nullopt;
}

struct Symbol {
  Match match;
  std::string name;
  int kind;
  std::string container;
  SourceRange range;
};

class Collector {
 public:
  explicit Collector(std::string query) : query_(std::move(query)) {}

  void add(const std::string& name, int kind, const std::string& container,
           SourceRange range) {
    if (range.begin >= range.end) return;
    if (std::optional<Match> m = match(name, query_))
      found_.push_back({*m, name, kind, container, range});
  }

  void decl(const DeclInfo& decl) {
    std::string container = decl.context != nullptr ? decl.context->name : "";
    auto fields = [&](const std::vector<FieldInfo>& list,
                      const std::string& owner) {
      for (const FieldInfo& f : list) add(f.name, kField, owner, f.nameRange);
    };
    auto fns = [&](const std::vector<std::unique_ptr<check::FnInfo>>& list) {
      for (const auto& fn : list)
        add(fn->name, kFunction, decl.qualified, fn->nameRange);
    };
    auto handlers = [&](const std::vector<check::HandlerInfo>& list) {
      for (const check::HandlerInfo& h : list)
        add(h.name, kMethod, decl.qualified, h.nameRange);
    };
    switch (decl.kind) {
      case DeclInfoKind::Type: {
        const auto& type = llvm::cast<check::TypeInfo>(decl);
        add(decl.name, typeKind(type.def), container, decl.nameRange);
        fields(type.fields, decl.qualified);
        for (const check::VariantInfo& v : type.variants) {
          add(v.name, kEnumMember, decl.qualified, v.nameRange);
          fields(v.fields, decl.qualified + "." + v.name);
        }
        return;
      }
      case DeclInfoKind::Event:
        add(decl.name, kEvent, container, decl.nameRange);
        fields(llvm::cast<check::EventInfo>(decl).fields, decl.qualified);
        return;
      case DeclInfoKind::Actor:
        add(decl.name, kClass, container, decl.nameRange);
        return;
      case DeclInfoKind::Capability:
        add(decl.name, kInterface, container, decl.nameRange);
        for (const check::CapabilityOp& op :
             llvm::cast<check::CapabilityInfo>(decl).ops)
          add(op.name, kFunction, decl.qualified, op.nameRange);
        return;
      case DeclInfoKind::Fn: {
        const auto& fn = llvm::cast<check::FnInfo>(decl);
        if (fn.ownerType != nullptr)
          add(fn.ownerType->name + "." + fn.name, kMethod, container,
              decl.nameRange);
        else
          add(decl.name, kFunction, container, decl.nameRange);
        return;
      }
      case DeclInfoKind::Agent: {
        const auto& agent = llvm::cast<check::AgentInfo>(decl);
        add(decl.name, kClass, container, decl.nameRange);
        if (agent.key)
          add(agent.key->name, kKey, decl.qualified, agent.key->nameRange);
        for (const check::StoreInfo& s : agent.stores)
          add(s.field.name, kProperty, decl.qualified, s.field.nameRange);
        handlers(agent.handlers);
        fns(agent.fns);
        return;
      }
      case DeclInfoKind::Service: {
        const auto& service = llvm::cast<check::ServiceInfo>(decl);
        add(decl.name, kModule, container, decl.nameRange);
        handlers(service.handlers);
        fns(service.fns);
        return;
      }
    }
  }

  std::vector<Symbol> take() { return std::move(found_); }

 private:
  static int typeKind(check::TypeDefKind def) {
    switch (def) {
      case check::TypeDefKind::Record:
        return kStruct;
      case check::TypeDefKind::Sum:
        return kEnum;
      case check::TypeDefKind::Opaque:
      case check::TypeDefKind::Refined:
      case check::TypeDefKind::Alias:
        return kTypeParameter;
    }
    return kTypeParameter;
  }

  std::string query_;
  std::vector<Symbol> found_;
};

}  // namespace

nlohmann::json workspaceSymbols(const CheckedWorkspace& checked,
                                const std::string& query) {
  std::string folded(query.size(), '\0');
  std::transform(query.begin(), query.end(), folded.begin(), lower);
  Collector collector(folded);
  for (const auto& context : checked.program().contexts) {
    // A context opened in several files: where each opens it.
    for (const ast::ContextDecl* part : context->parts)
      collector.add(context->name, kNamespace, "", part->name.range);
    for (const auto& decl : context->decls) collector.decl(*decl);
  }
  std::vector<Symbol> found = collector.take();
  auto order = [](const Symbol& s) {
    return std::tie(s.match, s.name, s.container, s.range.file, s.range.begin);
  };
  std::size_t keep = std::min(found.size(), kMaxWorkspaceSymbols);
  std::partial_sort(
      found.begin(), found.begin() + static_cast<std::ptrdiff_t>(keep),
      found.end(),
      [&](const Symbol& a, const Symbol& b) { return order(a) < order(b); });
  nlohmann::json symbols = nlohmann::json::array();
  for (std::size_t i = 0; i < keep; ++i) {
    nlohmann::json s = {{"name", found[i].name},
                        {"kind", found[i].kind},
                        {"location", checked.location(found[i].range)}};
    if (!found[i].container.empty()) s["containerName"] = found[i].container;
    symbols.push_back(std::move(s));
  }
  return symbols;
}

}  // namespace herald::lsp
