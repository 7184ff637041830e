#include "tools/lsp/document_symbols.h"

#include <string_view>

#include <llvm/Support/Casting.h>

#include "frontend/ast.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "tools/lsp/position.h"
#include "tools/lsp/symbol_kinds.h"

namespace herald::lsp {
namespace {

class Outline {
 public:
  explicit Outline(const SourceFile& source) : source_(source) {}

  nlohmann::json file(const ast::File& file) {
    nlohmann::json symbols = nlohmann::json::array();
    for (const ast::ContextDecl* context : file.contexts) {
      if (context->name.parts.empty()) continue;
      nlohmann::json children = nlohmann::json::array();
      for (const ast::Decl* decl : context->decls) add(*decl, children);
      symbols.push_back(symbol(text(context->name.range), kNamespace,
                               context->range, context->name.range, "",
                               std::move(children)));
    }
    return symbols;
  }

 private:
  [[nodiscard]] std::string text(SourceRange range) const {
    std::string_view all = source_.text();
    if (range.begin > range.end || range.end > all.size()) return {};
    return std::string(all.substr(range.begin, range.end - range.begin));
  }

  // `selection` must lie within `range`, as LSP requires; a recovered node
  // whose parts disagree selects all of itself.
  nlohmann::json symbol(std::string name, int kind, SourceRange range,
                        SourceRange selection, std::string detail,
                        nlohmann::json children) const {
    if (selection.begin < range.begin || selection.end > range.end)
      selection = range;
    nlohmann::json s = {{"name", std::move(name)},
                        {"kind", kind},
                        {"range", toRange(source_, range)},
                        {"selectionRange", toRange(source_, selection)},
                        {"children", std::move(children)}};
    if (!detail.empty()) s["detail"] = std::move(detail);
    return s;
  }

  void leaf(const ast::Ident& name, int kind, SourceRange range,
            std::string detail, nlohmann::json& out) const {
    if (name.empty()) return;
    out.push_back(symbol(name.name.str(), kind, range, name.range,
                         std::move(detail), nlohmann::json::array()));
  }

  // `: T` of a field, key or store, as written.
  [[nodiscard]] std::string typeOf(const ast::TypeExpr* type) const {
    return type == nullptr ? std::string() : text(type->range);
  }

  nlohmann::json fields(llvm::ArrayRef<ast::FieldDecl> fields) const {
    nlohmann::json out = nlohmann::json::array();
    for (const ast::FieldDecl& field : fields)
      leaf(field.name, kField, field.range, typeOf(field.type), out);
    return out;
  }

  // `(a: T, b: U)` as written.
  [[nodiscard]] std::string params(llvm::ArrayRef<ast::Param> params) const {
    std::string out = "(";
    for (const ast::Param& param : params) {
      if (out.size() > 1) out += ", ";
      out += text(param.range);
    }
    return out + ")";
  }

  void named(const ast::Ident& name, int kind, const ast::Decl& decl,
             std::string detail, nlohmann::json children,
             nlohmann::json& out) const {
    if (name.empty()) return;
    out.push_back(symbol(name.name.str(), kind, decl.range, name.range,
                         std::move(detail), std::move(children)));
  }

  void add(const ast::Decl& decl, nlohmann::json& out) const {
    switch (decl.kind) {
      case ast::DeclKind::Consumes:
      case ast::DeclKind::Error:
        return;
      case ast::DeclKind::Type: {
        const auto& type = llvm::cast<ast::TypeDecl>(decl);
        switch (type.def) {
          case ast::TypeDefKind::Record:
            named(type.name, kStruct, decl, "", fields(type.fields), out);
            return;
          case ast::TypeDefKind::Sum: {
            nlohmann::json variants = nlohmann::json::array();
            for (const ast::VariantDecl& variant : type.variants) {
              if (variant.name.empty()) continue;
              variants.push_back(symbol(variant.name.name.str(), kEnumMember,
                                        variant.range, variant.name.range, "",
                                        fields(variant.fields)));
            }
            named(type.name, kEnum, decl, "", std::move(variants), out);
            return;
          }
          case ast::TypeDefKind::Opaque:
            named(type.name, kTypeParameter, decl,
                  "opaque " + typeOf(type.base), nlohmann::json::array(), out);
            return;
          case ast::TypeDefKind::Alias:
            named(type.name, kTypeParameter, decl, typeOf(type.base),
                  nlohmann::json::array(), out);
            return;
        }
        return;
      }
      case ast::DeclKind::Event: {
        const auto& event = llvm::cast<ast::EventDecl>(decl);
        named(event.name, kEvent, decl, "", fields(event.fields), out);
        return;
      }
      case ast::DeclKind::Actor: {
        const auto& actor = llvm::cast<ast::ActorDecl>(decl);
        named(actor.name, kClass, decl,
              actor.hasParens ? "actor" + params(actor.params) : "actor",
              nlohmann::json::array(), out);
        return;
      }
      case ast::DeclKind::Capability: {
        const auto& capability = llvm::cast<ast::CapabilityDecl>(decl);
        nlohmann::json ops = nlohmann::json::array();
        for (const ast::FnDecl* op : capability.ops) add(*op, ops);
        named(capability.name, kInterface, decl, "", std::move(ops), out);
        return;
      }
      case ast::DeclKind::Fn: {
        const auto& fn = llvm::cast<ast::FnDecl>(decl);
        std::string detail = params(fn.params);
        if (fn.returnType != nullptr) detail += " -> " + typeOf(fn.returnType);
        if (!fn.ownerType.empty()) {
          if (fn.name.empty()) return;
          out.push_back(
              symbol(fn.ownerType.name.str() + "." + fn.name.name.str(),
                     kMethod, decl.range, fn.name.range, std::move(detail),
                     nlohmann::json::array()));
          return;
        }
        named(fn.name, kFunction, decl, std::move(detail),
              nlohmann::json::array(), out);
        return;
      }
      case ast::DeclKind::Agent: {
        const auto& agent = llvm::cast<ast::AgentDecl>(decl);
        nlohmann::json members = nlohmann::json::array();
        for (const ast::Decl* member : agent.members) add(*member, members);
        named(agent.name, kClass, decl, "agent", std::move(members), out);
        return;
      }
      case ast::DeclKind::Key: {
        const auto& key = llvm::cast<ast::KeyDecl>(decl);
        leaf(key.name, kKey, decl.range, "key " + typeOf(key.type), out);
        return;
      }
      case ast::DeclKind::Store: {
        const auto& store = llvm::cast<ast::StoreDecl>(decl);
        leaf(store.name, kProperty, decl.range, "store " + typeOf(store.type),
             out);
        return;
      }
      case ast::DeclKind::Invariant: {
        const auto& invariant = llvm::cast<ast::InvariantDecl>(decl);
        leaf(invariant.name, kBoolean, decl.range, "invariant", out);
        return;
      }
      case ast::DeclKind::Handler: {
        const auto& handler = llvm::cast<ast::HandlerDecl>(decl);
        std::string detail =
            (handler.isCall ? "on call " : "on ") + params(handler.params);
        if (handler.returnType != nullptr)
          detail += " -> " + typeOf(handler.returnType);
        leaf(handler.name, kMethod, decl.range, std::move(detail), out);
        return;
      }
      case ast::DeclKind::Service: {
        const auto& service = llvm::cast<ast::ServiceDecl>(decl);
        nlohmann::json members = nlohmann::json::array();
        for (const ast::Decl* member : service.members) add(*member, members);
        std::string detail = "service";
        if (service.from != nullptr) detail += " " + text(service.from->range);
        named(service.name, kModule, decl, std::move(detail),
              std::move(members), out);
        return;
      }
    }
  }

  const SourceFile& source_;
};

}  // namespace

nlohmann::json documentSymbols(const std::string& name,
                               const std::string& text) {
  SourceFile source(0, name, text);
  DiagnosticEngine diags;
  ParseResult parsed = parse(source, diags);
  return Outline(source).file(*parsed.file);
}

}  // namespace herald::lsp
