#include "tools/lsp/completion.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <llvm/Support/Casting.h>

#include "frontend/diagnostic.h"
#include "frontend/lexer.h"
#include "ir/text.h"
#include "tools/lsp/declarations.h"
#include "tools/lsp/position.h"
#include "tools/lsp/symbol_kinds.h"

namespace herald::lsp {
namespace {

using check::DeclInfo;
using check::DeclInfoKind;
using check::FieldInfo;

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

bool isOpener(TokenKind k) {
  return k == TokenKind::LBrace || k == TokenKind::LParen ||
         k == TokenKind::LBracket;
}
bool isCloser(TokenKind k) {
  return k == TokenKind::RBrace || k == TokenKind::RParen ||
         k == TokenKind::RBracket;
}

// Keywords that begin a statement or a declaration: a list of fields
// being written does not reach past one.
constexpr std::array kStatementStarts = {
    TokenKind::KwContext, TokenKind::KwConsumes,  TokenKind::KwType,
    TokenKind::KwEvent,   TokenKind::KwActor,     TokenKind::KwCapability,
    TokenKind::KwFn,      TokenKind::KwAgent,     TokenKind::KwKey,
    TokenKind::KwStore,   TokenKind::KwInvariant, TokenKind::KwService,
    TokenKind::KwOn,      TokenKind::KwLet,
};
bool beginsStatement(TokenKind k) {
  return std::find(kStatementStarts.begin(), kStatementStarts.end(), k) !=
         kStatementStarts.end();
}

int typeItemKind(check::TypeDefKind def) {
  switch (def) {
    case check::TypeDefKind::Record:
      return kItemStruct;
    case check::TypeDefKind::Sum:
      return kItemEnum;
    case check::TypeDefKind::Opaque:
    case check::TypeDefKind::Refined:
    case check::TypeDefKind::Alias:
      return kItemTypeParameter;
  }
  return kItemTypeParameter;
}

std::string handlerDetail(const check::HandlerInfo& h) {
  std::string text = std::string(h.isCall ? "on call " : "on ") + h.name +
                     check::paramsText(h.params);
  if (h.result != nullptr && h.result->kind != check::TypeKind::Unit)
    text += " -> " + check::typeText(h.result);
  return text;
}

std::string fnDetail(const std::string& name, const check::FnSignature& sig) {
  std::string text = "fn " + name + check::paramsText(sig.params);
  if (sig.result != nullptr && sig.result->kind != check::TypeKind::Unit)
    text += " -> " + check::typeText(sig.result);
  return text;
}

class Completer {
 public:
  Completer(const CheckedWorkspace& checked, FileId file, std::uint32_t offset)
      : checked_(checked),
        program_(checked.program()),
        source_(checked.source(file)),
        file_(file),
        offset_(offset),
        wordBegin_(offset),
        wordEnd_(offset) {}

  nlohmann::json run() {
    if (locate()) complete();
    return {{"isIncomplete", false}, {"items", std::move(items_)}};
  }

 private:
  // Lexes the file and finds the tokens before the cursor and the word
  // being typed; false where nothing is completed (in a comment, a
  // string, a keyword or a number).
  bool locate() {
    for (SourceRange comment : collectComments(source_))
      if (comment.begin < offset_ && offset_ <= comment.end) return false;
    DiagnosticEngine ignored;
    tokens_ = lexAll(source_, ignored);
    while (!tokens_.empty() && tokens_.back().kind == TokenKind::EndOfFile)
      tokens_.pop_back();
    n_ = 0;
    while (n_ < tokens_.size() && tokens_[n_].range.end < offset_) ++n_;
    if (n_ < tokens_.size() && tokens_[n_].range.begin < offset_) {
      const Token& at = tokens_[n_];
      if (at.kind != TokenKind::Identifier) {
        // Inside or just after another token: only punctuation ending at
        // the cursor leaves a place to complete.
        if (at.range.end > offset_ ||
            isWordChar(source_.text()[at.range.end - 1]))
          return false;
        ++n_;
      } else {
        partial_ = true;
        wordBegin_ = at.range.begin;
        wordEnd_ = at.range.end;
      }
    }
    // The context opened last before the cursor in this file.
    std::uint32_t opened = 0;
    for (const auto& context : program_.contexts)
      for (const ast::ContextDecl* part : context->parts)
        if (part->range.file == file_ && part->range.begin <= offset_ &&
            (context_ == nullptr || opened <= part->range.begin)) {
          context_ = context.get();
          opened = part->range.begin;
        }
    return true;
  }

  [[nodiscard]] TokenKind kind(std::size_t i) const {
    return i < tokens_.size() ? tokens_[i].kind : TokenKind::EndOfFile;
  }
  [[nodiscard]] std::string text(std::size_t i) const {
    return std::string(checked_.sources().textOf(tokens_[i].range));
  }

  // The first token of the dotted name `a.b.c` that ends before `end`.
  [[nodiscard]] std::size_t dottedStart(std::size_t end) const {
    std::size_t q = end;
    if (q >= 1 && kind(q - 1) == TokenKind::Identifier) --q;
    while (q >= 2 && kind(q - 1) == TokenKind::Dot &&
           kind(q - 2) == TokenKind::Identifier)
      q -= 2;
    return q;
  }
  [[nodiscard]] std::vector<std::string> parts(std::size_t from,
                                               std::size_t to) const {
    std::vector<std::string> out;
    for (std::size_t i = from; i < to; ++i)
      if (kind(i) == TokenKind::Identifier) out.push_back(text(i));
    return out;
  }

  // The bracket before the cursor that is not closed before it.
  [[nodiscard]] std::size_t unclosed() const {
    int depth = 0;
    for (std::size_t i = n_; i-- > 0;) {
      if (isCloser(kind(i))) ++depth;
      if (isOpener(kind(i)) && depth-- == 0) return i;
    }
    return kNone;
  }

  void complete() {
    std::size_t q = dottedStart(n_);
    if (q >= 1 && kind(q - 1) == TokenKind::KwConsumes) {
      contexts(q);
      return;
    }
    if (n_ >= 1 && kind(n_ - 1) == TokenKind::Dot) {
      members(n_ - 1);
      return;
    }
    std::size_t open = unclosed();
    if (open != kNone && kind(open) == TokenKind::LBracket && open >= 1 &&
        kind(open - 1) == TokenKind::Identifier && text(open - 1) == "Ref") {
      agents();
      return;
    }
    if (inGiven()) return;
    if (open != kNone && kind(open) == TokenKind::LBrace) braces(open);
    if (open != kNone && kind(open) == TokenKind::LParen) arguments(open);
  }

  // `f(label: |`: the variants of the labelled parameter's sum type.
  void arguments(std::size_t open) {
    if (open == 0 || kind(open - 1) != TokenKind::Identifier || n_ < 2 ||
        kind(n_ - 1) != TokenKind::Colon ||
        kind(n_ - 2) != TokenKind::Identifier)
      return;
    const std::vector<FieldInfo>* params = paramsOf(open - 1);
    if (params == nullptr) return;
    std::string label = text(n_ - 2);
    for (const FieldInfo& p : *params)
      if (p.name == label) variantsOf(p.type);
  }

  void variantsOf(const check::Type* type) {
    if (type == nullptr || type->kind != check::TypeKind::Named ||
        type->named == nullptr)
      return;
    for (const check::VariantInfo& v : type->named->variants)
      add(v.name, kItemEnumMember, check::typeText(type));
  }

  // The parameters of what the callee token `i` names: a fn, a handler, a
  // capability's operation or a variant.
  [[nodiscard]] const std::vector<FieldInfo>* paramsOf(std::size_t i) const {
    const DeclInfo* decl = nullptr;
    if (const check::NameUse* use = useAt(i)) {
      const Declared* d = checked_.declarations().find(use->decl);
      if (d == nullptr) return nullptr;
      switch (d->kind) {
        case Declared::Kind::Handler:
          return &d->handler->params;
        case Declared::Kind::Op:
          return &d->op->sig.params;
        case Declared::Kind::Variant:
          return &d->variant->fields;
        case Declared::Kind::Decl:
          decl = d->decl;
          break;
        case Declared::Kind::Member:
        case Declared::Kind::Context:
          return nullptr;
      }
    } else if (kind(i - 1) != TokenKind::Dot) {
      decl = resolve({text(i)});
    }
    if (const auto* fn = llvm::dyn_cast_or_null<check::FnInfo>(decl))
      return &fn->sig.params;
    return nullptr;
  }

  void add(const std::string& label, int itemKind, const std::string& detail) {
    if (!seen_.insert(label).second) return;
    nlohmann::json item = {{"label", label}, {"kind", itemKind}};
    if (!detail.empty()) item["detail"] = detail;
    items_.push_back(std::move(item));
  }

  // Context names after `consumes`, replacing the dotted name typed so far.
  void contexts(std::size_t q) {
    std::uint32_t begin = q < n_ ? tokens_[q].range.begin : wordBegin_;
    for (const auto& context : program_.contexts) {
      if (context.get() == context_) continue;
      nlohmann::json item = {{"label", context->name},
                             {"kind", kItemModule},
                             {"textEdit",
                              {{"range", toRange(source_, begin, wordEnd_)},
                               {"newText", context->name}}}};
      items_.push_back(std::move(item));
    }
  }

  // The contexts whose declarations a bare name here may denote: the
  // cursor's own, then those it consumes.
  [[nodiscard]] std::vector<const check::ContextInfo*> visible() const {
    std::vector<const check::ContextInfo*> out;
    if (context_ == nullptr) return out;
    out.push_back(context_);
    for (const check::ConsumesInfo& c : context_->consumes)
      if (c.target != nullptr) out.push_back(c.target);
    return out;
  }

  // What a name written `a.b.C` denotes as the cursor's context sees it.
  [[nodiscard]] const DeclInfo* resolve(
      const std::vector<std::string>& name) const {
    if (name.empty()) return nullptr;
    if (name.size() == 1) {
      for (const check::ContextInfo* c : visible())
        if (const DeclInfo* d = c->lookup(name[0])) return d;
      for (const auto& capability : program_.firstParty)
        if (capability->name == name[0]) return capability.get();
      return nullptr;
    }
    std::string prefix;
    for (std::size_t i = 0; i + 1 < name.size(); ++i)
      prefix += (i == 0 ? "" : ".") + name[i];
    if (context_ != nullptr)
      for (const check::ConsumesInfo& c : context_->consumes)
        if (c.target != nullptr && c.alias == prefix)
          return c.target->lookup(name.back());
    if (const check::ContextInfo* c = program_.context(prefix))
      return c->lookup(name.back());
    return nullptr;
  }

  // The declaration the checker says the name token `i` denotes.
  [[nodiscard]] const check::NameUse* useAt(std::size_t i) const {
    const check::NameUse* use = program_.uses.at(file_, tokens_[i].range.begin);
    return use != nullptr && use->use == tokens_[i].range ? use : nullptr;
  }

  // A `given` item named `name` declared before the cursor in this file
  // (the nearest), for a dependency whose use the parser did not recover.
  [[nodiscard]] const check::DependencyInfo* dependency(
      const std::string& name) const {
    const check::DependencyInfo* best = nullptr;
    auto consider = [&](const std::vector<check::DependencyInfo>& given) {
      for (const check::DependencyInfo& d : given)
        if (d.name == name && d.range.file == file_ &&
            d.range.begin <= offset_ &&
            (best == nullptr || best->range.begin < d.range.begin))
          best = &d;
    };
    auto handlers = [&](const std::vector<check::HandlerInfo>& list) {
      for (const check::HandlerInfo& h : list) consider(h.given);
    };
    for (const check::ContextInfo* c : visible()) {
      for (const auto& decl : c->decls) {
        if (const auto* service = llvm::dyn_cast<check::ServiceInfo>(&*decl)) {
          consider(service->given);
          handlers(service->handlers);
        } else if (const auto* agent =
                       llvm::dyn_cast<check::AgentInfo>(&*decl)) {
          handlers(agent->handlers);
        }
      }
    }
    return best;
  }

  void fields(const std::vector<FieldInfo>& list,
              const std::set<std::string>& written) {
    for (const FieldInfo& f : list)
      if (!written.contains(f.name))
        add(f.name, kItemField, check::typeText(f.type));
  }

  void ops(const check::CapabilityInfo& capability) {
    for (const check::CapabilityOp& op : capability.ops)
      add(op.name, kItemFunction, fnDetail(op.name, op.sig));
  }

  void typeMembers(const check::Type* type) {
    if (type == nullptr) return;
    switch (type->kind) {
      case check::TypeKind::Ref:
        if (type->agent != nullptr)
          for (const check::HandlerInfo& h : type->agent->handlers)
            add(h.name, kItemMethod, handlerDetail(h));
        return;
      case check::TypeKind::Named:
        if (type->named != nullptr) fields(type->named->fields, {});
        return;
      case check::TypeKind::Event:
        if (type->event != nullptr) fields(type->event->fields, {});
        return;
      case check::TypeKind::Capability:
        if (type->capability != nullptr) ops(*type->capability);
        return;
      case check::TypeKind::Error:
      case check::TypeKind::Never:
      case check::TypeKind::Unit:
      case check::TypeKind::Int:
      case check::TypeKind::Float:
      case check::TypeKind::Bool:
      case check::TypeKind::String:
      case check::TypeKind::Instant:
      case check::TypeKind::Duration:
      case check::TypeKind::Envelope:
      case check::TypeKind::Option:
      case check::TypeKind::List:
      case check::TypeKind::Map:
      case check::TypeKind::Actor:
        return;
    }
  }

  // `Name.`: a sum's variants and static fns, a capability's operations.
  void declMembers(const DeclInfo& decl) {
    if (const auto* type = llvm::dyn_cast<check::TypeInfo>(&decl)) {
      for (const check::VariantInfo& v : type->variants)
        add(v.name, kItemEnumMember,
            v.fields.empty() ? "" : check::paramsText(v.fields));
      for (const check::FnInfo* fn : type->staticFns)
        add(fn->name, kItemFunction, fnDetail(fn->name, fn->sig));
    } else if (const auto* capability =
                   llvm::dyn_cast<check::CapabilityInfo>(&decl)) {
      ops(*capability);
    }
  }

  // After `x.` or `f(...).`: the members of what is before the dot.
  void members(std::size_t dot) {
    std::size_t target = dot - (dot >= 1 ? 1 : 0);
    bool called = false;
    if (kind(target) == TokenKind::RParen) {
      int depth = 0;
      std::size_t i = target + 1;
      while (i-- > 0) {
        if (isCloser(kind(i))) ++depth;
        if (isOpener(kind(i)) && --depth == 0) break;
      }
      if (i == kNone || i == 0) return;
      target = i - 1;
      called = true;
    }
    if (target >= dot || kind(target) != TokenKind::Identifier) return;
    if (const check::NameUse* use = useAt(target)) {
      if (use->type != nullptr) {
        typeMembers(use->type);
        return;
      }
      const Declared* d = checked_.declarations().find(use->decl);
      if (d == nullptr) return;
      if (d->kind == Declared::Kind::Decl) {
        if (const auto* fn = llvm::dyn_cast<check::FnInfo>(d->decl);
            fn != nullptr && called)
          typeMembers(fn->sig.result);
        else
          declMembers(*d->decl);
      } else if (d->kind == Declared::Kind::Member) {
        typeMembers(d->field->type);
      }
      return;
    }
    if (const check::DependencyInfo* dep = dependency(text(target))) {
      typeMembers(dep->type);
      return;
    }
    if (called) return;
    if (const DeclInfo* decl = resolve(parts(dottedStart(target + 1), dot)))
      declMembers(*decl);
  }

  void agents() {
    for (const check::ContextInfo* c : visible())
      for (const auto& decl : c->decls)
        if (decl->kind == DeclInfoKind::Agent)
          add(decl->name, kItemClass, check::declText(decl.get()));
  }

  // In a `given` list after `given`, `,` or `Name:`: the capabilities not
  // listed yet. True when the cursor is in one.
  bool inGiven() {
    if (n_ == 0) return false;
    TokenKind prev = kind(n_ - 1);
    if (prev != TokenKind::KwGiven && prev != TokenKind::Comma &&
        prev != TokenKind::Colon)
      return false;
    std::size_t i = n_;
    std::set<std::string> listed;
    while (i > 0) {
      TokenKind k = kind(i - 1);
      if (k == TokenKind::Identifier) {
        listed.insert(text(i - 1));
      } else if (k != TokenKind::Comma && k != TokenKind::Colon &&
                 k != TokenKind::Dot && k != TokenKind::LBracket &&
                 k != TokenKind::RBracket) {
        break;
      }
      --i;
    }
    if (i == 0 || kind(i - 1) != TokenKind::KwGiven) return false;
    auto offer = [&](const DeclInfo& decl) {
      if (!listed.contains(decl.name))
        add(decl.name, kItemInterface, check::declText(&decl));
    };
    for (const check::ContextInfo* c : visible())
      for (const auto& decl : c->decls)
        if (decl->kind == DeclInfoKind::Capability) offer(*decl);
    for (const auto& capability : program_.firstParty) offer(*capability);
    return true;
  }

  // The names written `name:` directly inside the braces opened at `open`
  // (before and after the cursor), and, with `bare`, every name.
  [[nodiscard]] std::set<std::string> written(std::size_t open,
                                              bool bare) const {
    std::set<std::string> names;
    int depth = 0;
    for (std::size_t i = open + 1; i < tokens_.size(); ++i) {
      TokenKind k = kind(i);
      if (isOpener(k)) ++depth;
      if (isCloser(k) && depth-- == 0) break;
      if (depth == 0 && beginsStatement(k)) break;
      if (depth != 0 || k != TokenKind::Identifier || (partial_ && i == n_))
        continue;
      if (bare || kind(i + 1) == TokenKind::Colon) names.insert(text(i));
    }
    return names;
  }

  // Inside `{ ... }`: the names of `consumes X { A, B }`, or the fields of
  // the record, event or variant named before the brace.
  void braces(std::size_t open) {
    TokenKind prev = kind(n_ - 1);
    bool nameHere = prev == TokenKind::LBrace || prev == TokenKind::Comma;
    std::size_t q = dottedStart(open);
    if (q >= 1 && q < open && kind(q - 1) == TokenKind::KwConsumes) {
      if (!nameHere) return;
      std::string name;
      for (const std::string& p : parts(q, open))
        name += (name.empty() ? "" : ".") + p;
      const check::ContextInfo* target = program_.context(name);
      if (target == nullptr) return;
      std::set<std::string> listed = written(open, true);
      for (const auto& decl : target->decls)
        if (!listed.contains(decl->name) && !isStaticFn(*decl))
          add(decl->name, declKind(*decl), check::declText(decl.get()));
      return;
    }
    if (open == 0 || kind(open - 1) != TokenKind::Identifier) return;
    const std::vector<FieldInfo>* list = fieldsNamedBy(open - 1);
    if (list == nullptr) return;
    if (nameHere) {
      fields(*list, written(open, false));
      return;
    }
    // `field: |`: the variants of the field's sum type.
    if (prev != TokenKind::Colon || n_ < 2 ||
        kind(n_ - 2) != TokenKind::Identifier)
      return;
    std::string field = text(n_ - 2);
    for (const FieldInfo& f : *list)
      if (f.name == field) variantsOf(f.type);
  }

  // The fields of the record type, event or variant the name token `i`
  // (the last of a dotted name) denotes.
  [[nodiscard]] const std::vector<FieldInfo>* fieldsNamedBy(
      std::size_t i) const {
    if (const check::NameUse* use = useAt(i)) {
      const Declared* d = checked_.declarations().find(use->decl);
      if (d == nullptr) return nullptr;
      if (d->kind == Declared::Kind::Variant) return &d->variant->fields;
      if (d->kind == Declared::Kind::Decl) return fieldsOf(*d->decl);
      return nullptr;
    }
    std::vector<std::string> name = parts(dottedStart(i + 1), i + 1);
    if (const DeclInfo* decl = resolve(name)) return fieldsOf(*decl);
    // `Type.Variant { ... }`
    std::string variant = name.back();
    name.pop_back();
    if (const auto* type =
            llvm::dyn_cast_or_null<check::TypeInfo>(resolve(name)))
      if (const check::VariantInfo* v = type->variant(variant))
        return &v->fields;
    return nullptr;
  }

  static bool isStaticFn(const DeclInfo& decl) {
    const auto* fn = llvm::dyn_cast<check::FnInfo>(&decl);
    return fn != nullptr && fn->ownerType != nullptr;
  }

  static const std::vector<FieldInfo>* fieldsOf(const DeclInfo& decl) {
    if (const auto* type = llvm::dyn_cast<check::TypeInfo>(&decl))
      return type->def == check::TypeDefKind::Record ? &type->fields : nullptr;
    if (const auto* event = llvm::dyn_cast<check::EventInfo>(&decl))
      return &event->fields;
    return nullptr;
  }

  static int declKind(const DeclInfo& decl) {
    switch (decl.kind) {
      case DeclInfoKind::Type:
        return typeItemKind(llvm::cast<check::TypeInfo>(decl).def);
      case DeclInfoKind::Event:
        return kItemEvent;
      case DeclInfoKind::Actor:
      case DeclInfoKind::Agent:
        return kItemClass;
      case DeclInfoKind::Capability:
        return kItemInterface;
      case DeclInfoKind::Fn:
        return kItemFunction;
      case DeclInfoKind::Service:
        return kItemModule;
    }
    return kItemClass;
  }

  const CheckedWorkspace& checked_;
  const check::Program& program_;
  const SourceFile& source_;
  FileId file_;
  std::uint32_t offset_;
  std::uint32_t wordBegin_;  // the identifier being typed, if any
  std::uint32_t wordEnd_;
  std::vector<Token> tokens_;
  std::size_t n_ = 0;     // tokens before the cursor (the word excluded)
  bool partial_ = false;  // tokens_[n_] is the word being typed
  const check::ContextInfo* context_ = nullptr;
  nlohmann::json items_ = nlohmann::json::array();
  std::set<std::string> seen_;
};

}  // namespace

nlohmann::json completion(const CheckedWorkspace& checked,
                          const std::string& uri, TextPosition position) {
  std::optional<FileId> file = checked.file(uri);
  if (!file)
    return {{"isIncomplete", false}, {"items", nlohmann::json::array()}};
  std::uint32_t offset =
      toOffset(checked.source(*file), position.line, position.character);
  return Completer(checked, *file, offset).run();
}

}  // namespace herald::lsp
