#include "tools/lsp/rename.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "frontend/diagnostic.h"
#include "frontend/lexer.h"
#include "ir/text.h"
#include "tools/lsp/declarations.h"
#include "tools/lsp/position.h"
#include "tools/lsp/protocol.h"

namespace herald::lsp {
namespace {

using check::DeclInfo;
using check::FieldInfo;

[[noreturn]] void refuse(const std::string& reason) {
  throw RpcError(ErrorCode::RequestFailed, reason);
}

// What is renamed: the declaration as the use table names it, and the
// characters of its name there (a named dependency's range is the whole
// `Name: Ref[A]`).
struct Target {
  SourceRange decl;
  SourceRange name;
  std::string oldName;
  const Declared* declared = nullptr;  // null for a local or a dependency
  SourceRange at;                      // the name under the cursor
  // A dependency named by the capability it gives: its uses are renamed
  // with the capability's.
  std::optional<SourceRange> alias;
};

// The declared name's characters and text, and what declares it.
void readName(const CheckedWorkspace& checked, Target& target) {
  target.declared = checked.declarations().find(target.decl);
  std::string_view text = checked.sources().textOf(target.decl);
  std::size_t length = 0;
  while (length < text.size() && isWordChar(text[length])) ++length;
  if (length == 0) refuse("there is no declared name here");
  target.name = {target.decl.file, target.decl.begin,
                 target.decl.begin + static_cast<std::uint32_t>(length)};
  target.oldName = std::string(text.substr(0, length));
}

// Every use of the target, those of its alias included.
std::vector<check::NameUse> usesOf(const CheckedWorkspace& checked,
                                   const Target& target) {
  std::vector<check::NameUse> uses = checked.program().uses.usesOf(target.decl);
  if (target.alias) {
    std::vector<check::NameUse> more =
        checked.program().uses.usesOf(*target.alias);
    uses.insert(uses.end(), more.begin(), more.end());
  }
  return uses;
}

Target findTarget(const CheckedWorkspace& checked, const std::string& uri,
                  TextPosition position) {
  std::optional<FileId> file = checked.file(uri);
  if (!file) refuse("the document is not part of the workspace");
  std::uint32_t offset =
      toOffset(checked.source(*file), position.line, position.character);
  Target target;
  if (const check::NameUse* use = checked.program().uses.at(*file, offset)) {
    target.decl = use->decl;
    target.at = use->use;
  } else if (const Declared* d = checked.declarations().at(*file, offset)) {
    target.decl = d->name;
    target.at = d->name;
  } else {
    refuse("there is no declared name here");
  }
  if (const Declared* d = checked.declarations().find(target.decl);
      d != nullptr && d->kind == Declared::Kind::Context)
    refuse(
        "a context is not renamed here: its qualified name is spelt in "
        "names and `consumes` lines, and it names the deployed context");
  readName(checked, target);
  // A name that is itself a use of another declaration (a bare capability
  // in `given`, which `Mailer.send` names): that declaration is renamed,
  // with the uses of the first.
  if (const check::NameUse* other =
          checked.program().uses.at(target.name.file, target.name.begin);
      other != nullptr && other->use == target.name &&
      !(other->decl == target.decl)) {
    target.alias = target.decl;
    target.decl = other->decl;
    readName(checked, target);
  }
  if (target.at == target.decl) target.at = target.name;
  return target;
}

void checkIdentifier(const std::string& name) {
  SourceFile source(0, "new name", name);
  DiagnosticEngine diags;
  std::vector<Token> tokens = lexAll(source, diags);
  if (!tokens.empty() && tokens.back().kind == TokenKind::EndOfFile)
    tokens.pop_back();
  bool one = tokens.size() == 1 && tokens[0].range.begin == 0 &&
             tokens[0].range.end == name.size() && !diags.hasErrors();
  if (one && tokens[0].kind == TokenKind::Identifier) return;
  if (one && !name.empty() && std::isalpha(static_cast<unsigned char>(name[0])))
    refuse(fmt::format("'{}' is a keyword", name));
  refuse(fmt::format("'{}' is not an identifier", name));
}

// The names that share a scope with the member `d` (its siblings in its
// owner).
std::vector<std::string> siblings(const Declared& d) {
  std::vector<std::string> names;
  auto fieldList = [&](const std::vector<FieldInfo>& list) {
    if (d.field < list.data() || d.field >= list.data() + list.size()) return;
    for (const FieldInfo& f : list) names.push_back(f.name);
  };
  auto handlers = [&](const std::vector<check::HandlerInfo>& list) {
    for (const check::HandlerInfo& h : list) {
      if (d.kind == Declared::Kind::Handler) names.push_back(h.name);
      if (d.kind == Declared::Kind::Member) fieldList(h.params);
    }
  };
  switch (d.decl->kind) {
    case check::DeclInfoKind::Type: {
      const auto& type = llvm::cast<check::TypeInfo>(*d.decl);
      if (d.kind == Declared::Kind::Member) {
        fieldList(type.fields);
        for (const check::VariantInfo& v : type.variants) fieldList(v.fields);
      }
      if (d.kind == Declared::Kind::Variant)
        for (const check::VariantInfo& v : type.variants)
          names.push_back(v.name);
      break;
    }
    case check::DeclInfoKind::Event:
      fieldList(llvm::cast<check::EventInfo>(*d.decl).fields);
      break;
    case check::DeclInfoKind::Actor:
      fieldList(llvm::cast<check::ActorInfo>(*d.decl).params);
      break;
    case check::DeclInfoKind::Capability:
      for (const check::CapabilityOp& op :
           llvm::cast<check::CapabilityInfo>(*d.decl).ops) {
        if (d.kind == Declared::Kind::Op) names.push_back(op.name);
        if (d.kind == Declared::Kind::Member) fieldList(op.sig.params);
      }
      break;
    case check::DeclInfoKind::Fn:
      fieldList(llvm::cast<check::FnInfo>(*d.decl).sig.params);
      break;
    case check::DeclInfoKind::Agent: {
      const auto& agent = llvm::cast<check::AgentInfo>(*d.decl);
      if (d.kind == Declared::Kind::Member &&
          ((agent.key && &*agent.key == d.field) ||
           std::any_of(agent.stores.begin(), agent.stores.end(),
                       [&](const check::StoreInfo& s) {
                         return &s.field == d.field;
                       }))) {
        if (agent.key) names.push_back(agent.key->name);
        for (const check::StoreInfo& s : agent.stores)
          names.push_back(s.field.name);
      }
      handlers(agent.handlers);
      break;
    }
    case check::DeclInfoKind::Service:
      handlers(llvm::cast<check::ServiceInfo>(*d.decl).handlers);
      break;
  }
  return names;
}

// The context-level declaration whose source holds `range`, or null.
const DeclInfo* enclosing(const check::Program& program, SourceRange range) {
  for (const auto& context : program.contexts)
    for (const auto& decl : context->decls)
      if (decl->decl != nullptr && decl->decl->range.file == range.file &&
          decl->decl->range.begin <= range.begin &&
          range.end <= decl->decl->range.end)
        return decl.get();
  return nullptr;
}

void checkClash(const CheckedWorkspace& checked, const Target& target,
                const std::string& newName) {
  const check::Program& program = checked.program();
  const Declared* d = target.declared;
  bool local =
      d == nullptr || (d->kind == Declared::Kind::Member &&
                       (d->decl->kind == check::DeclInfoKind::Fn ||
                        d->decl->kind == check::DeclInfoKind::Agent ||
                        d->decl->kind == check::DeclInfoKind::Service));
  if (d != nullptr && d->kind == Declared::Kind::Decl &&
      d->decl->context != nullptr) {
    const check::ContextInfo* home = d->decl->context;
    if (home->lookup(newName) != nullptr)
      refuse(
          fmt::format("context {} already declares '{}'", home->name, newName));
    for (const auto& context : program.contexts)
      for (const check::ConsumesInfo& c : context->consumes)
        if (c.target == home && context->lookup(newName) != nullptr)
          refuse(fmt::format("context {}, which consumes {}, declares '{}'",
                             context->name, home->name, newName));
  }
  if (d != nullptr && d->kind != Declared::Kind::Decl) {
    std::vector<std::string> names = siblings(*d);
    if (std::find(names.begin(), names.end(), newName) != names.end())
      refuse(fmt::format("{} already has a member named '{}'",
                         check::declText(d->decl), newName));
  }
  if (!local) return;
  // A local, a parameter, a key, a store or a dependency: any name written
  // in the declaration around it may be one the new name would capture or
  // shadow.
  const DeclInfo* around = enclosing(program, target.name);
  if (around == nullptr) return;
  SourceRange scope = around->decl->range;
  for (const check::NameUse& use : program.uses.all())
    if (use.use.file == scope.file && scope.begin <= use.use.begin &&
        use.use.end <= scope.end &&
        checked.sources().textOf(use.use) == newName)
      refuse(fmt::format("'{}' is already used in {}", newName,
                         check::declText(around)));
}

// An event or one of its fields that a subscription outside the event's
// context names: refused (see rename.h).
void checkSubscriptions(const CheckedWorkspace& checked, const Target& target,
                        const std::vector<check::NameUse>& uses) {
  const Declared* d = target.declared;
  if (d == nullptr || d->decl->kind != check::DeclInfoKind::Event ||
      (d->kind != Declared::Kind::Decl && d->kind != Declared::Kind::Member))
    return;
  for (const auto& context : checked.program().contexts) {
    if (context.get() == d->decl->context) continue;
    for (const auto& decl : context->decls) {
      const auto* service = llvm::dyn_cast<check::ServiceInfo>(decl.get());
      if (service == nullptr || !service->subscription ||
          service->subscription->syntax == nullptr)
        continue;
      SourceRange from = service->subscription->syntax->range;
      for (const check::NameUse& use : uses)
        if (use.use.file == from.file && from.begin <= use.use.begin &&
            use.use.end <= from.end)
          refuse(fmt::format(
              "'{}' is named by the subscription of {}: an event's name and "
              "fields are its contract with the contexts subscribing to it; "
              "add a new event or field instead",
              target.oldName, check::declText(service)));
    }
  }
}

}  // namespace

nlohmann::json prepareRename(const CheckedWorkspace& checked,
                             const std::string& uri, TextPosition position) {
  Target target = findTarget(checked, uri, position);
  checkSubscriptions(checked, target, usesOf(checked, target));
  return {{"range", toRange(checked.source(target.at.file), target.at)},
          {"placeholder", target.oldName}};
}

nlohmann::json rename(const CheckedWorkspace& checked, const std::string& uri,
                      TextPosition position, const std::string& newName) {
  Target target = findTarget(checked, uri, position);
  checkIdentifier(newName);
  std::vector<check::NameUse> uses = usesOf(checked, target);
  checkSubscriptions(checked, target, uses);
  if (newName != target.oldName) checkClash(checked, target, newName);
  auto order = [](const SourceRange& r) { return std::tie(r.file, r.begin); };
  std::vector<SourceRange> ranges{target.name};
  for (const check::NameUse& use : uses) ranges.push_back(use.use);
  std::sort(ranges.begin(), ranges.end(),
            [&](const SourceRange& a, const SourceRange& b) {
              return order(a) < order(b);
            });
  ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
  nlohmann::json changes = nlohmann::json::object();
  for (const SourceRange& range : ranges) {
    nlohmann::json location = checked.location(range);
    nlohmann::json edit = {{"range", location["range"]}, {"newText", newName}};
    changes[location["uri"].get<std::string>()].push_back(std::move(edit));
  }
  return {{"changes", std::move(changes)}};
}

}  // namespace herald::lsp
