#include "tools/lsp/hover.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "frontend/lexer.h"
#include "frontend/source.h"
#include "ir/text.h"
#include "tools/lsp/declarations.h"
#include "tools/lsp/position.h"

namespace herald::lsp {
namespace {

using check::DeclInfoKind;

// A signature longer than this is cut, as a hover is a glance.
constexpr std::size_t kMaxLine = 200;

// Cut before a character, not inside one: the bytes after the cut that
// continue a UTF-8 sequence go with the character they belong to.
std::string clip(std::string line) {
  if (line.size() <= kMaxLine) return line;
  std::size_t cut = kMaxLine;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0U) == 0x80U)
    --cut;
  line.resize(cut);
  return line + " ...";
}

std::string code(const std::string& lines) {
  return "```herald\n" + lines + "\n```";
}

std::string result(const check::Type* type) {
  return type == nullptr || type->kind == check::TypeKind::Unit
             ? std::string()
             : " -> " + check::typeText(type);
}

// The context a declaration belongs to, for the line under its signature.
std::string contextLine(const check::DeclInfo& decl) {
  if (decl.context == nullptr) return {};
  return fmt::format("\n\ncontext `{}`", decl.context->name);
}

std::string doc(const ast::Decl* decl) {
  if (decl == nullptr || decl->doc.empty()) return {};
  return "\n\n" + llvm::StringRef(decl->doc).trim().str();
}

std::string describeDecl(const check::DeclInfo& decl,
                         const SourceManager& sources) {
  std::string qualified = check::declText(&decl);
  std::string text;
  switch (decl.kind) {
    case DeclInfoKind::Type:
      text = code(decl.decl != nullptr
                      ? clip(check::oneLine(sources, decl.decl->range))
                      : "type " + qualified);
      break;
    case DeclInfoKind::Event: {
      text = code("event " + qualified);
      text += doc(decl.decl);
      std::string fields;
      for (const check::FieldInfo& f :
           llvm::cast<check::EventInfo>(decl).fields)
        fields += (fields.empty() ? "" : "\n") +
                  clip(check::oneLine(sources, f.range));
      text += "\n\nFields:\n" + code(fields.empty() ? "(none)" : fields);
      return text + contextLine(decl);
    }
    case DeclInfoKind::Actor: {
      const auto& actor = llvm::cast<check::ActorInfo>(decl);
      text =
          code("actor " + qualified +
               (actor.params.empty() ? "" : check::paramsText(actor.params)));
      break;
    }
    case DeclInfoKind::Capability: {
      std::string lines = "capability " + qualified;
      for (const check::CapabilityOp& op :
           llvm::cast<check::CapabilityInfo>(decl).ops)
        lines += "\n  fn " + op.name + check::paramsText(op.sig.params) +
                 result(op.sig.result);
      text = code(lines);
      break;
    }
    case DeclInfoKind::Fn: {
      const auto& fn = llvm::cast<check::FnInfo>(decl);
      std::string owner =
          fn.ownerType != nullptr ? fn.ownerType->name + "." : "";
      text = code("fn " + owner + fn.name + check::paramsText(fn.sig.params) +
                  result(fn.sig.result));
      break;
    }
    case DeclInfoKind::Agent: {
      const auto& agent = llvm::cast<check::AgentInfo>(decl);
      std::string lines = "agent " + qualified;
      if (agent.key)
        lines += "\n  key " + agent.key->name + ": " +
                 check::typeText(agent.key->type);
      text = code(lines);
      break;
    }
    case DeclInfoKind::Service: {
      const auto& service = llvm::cast<check::ServiceInfo>(decl);
      text = code("service " + qualified);
      text += doc(decl.decl);
      if (const auto& sub = service.subscription) {
        std::string from = "from Events(" + check::declText(sub->event);
        if (!sub->patternText.empty()) from += " " + sub->patternText;
        from += ")";
        if (sub->via) from += " via " + check::viaText(*sub->via);
        text += "\n\nSubscribes:\n" + code(from);
      }
      return text + contextLine(decl);
    }
  }
  return text + doc(decl.decl) + contextLine(decl);
}

std::string describe(const Declared& d, const SourceManager& sources) {
  // What a member belongs to (a context has no owner).
  auto owner = [&] { return check::declText(d.decl); };
  switch (d.kind) {
    case Declared::Kind::Context: {
      const ast::ContextDecl* first = d.context->parts.front();
      std::string text = code("context " + d.context->name);
      if (!first->doc.empty())
        text += "\n\n" + llvm::StringRef(first->doc).trim().str();
      return text;
    }
    case Declared::Kind::Decl:
      return describeDecl(*d.decl, sources);
    case Declared::Kind::Member:
      return code(d.field->name + ": " + check::typeText(d.field->type)) +
             fmt::format("\n\nin `{}`", owner());
    case Declared::Kind::Variant:
      return code(d.variant->name +
                  (d.variant->fields.empty()
                       ? ""
                       : check::paramsText(d.variant->fields))) +
             fmt::format("\n\nvariant of `{}`", owner());
    case Declared::Kind::Handler:
      return code(std::string(d.handler->isCall ? "on call " : "on ") +
                  d.handler->name + check::paramsText(d.handler->params) +
                  result(d.handler->result)) +
             doc(d.handler->decl) + fmt::format("\n\nhandler of `{}`", owner());
    case Declared::Kind::Op:
      return code("fn " + d.op->name + check::paramsText(d.op->sig.params) +
                  result(d.op->sig.result)) +
             fmt::format("\n\noperation of capability `{}`", owner());
  }
  return {};
}

// Whether the cursor at `offset` stands on `name`, or just after it where
// the next character belongs to no expression of its own: on a blank, at
// the end of the text, or where no expression reaches (an editor's cursor
// stands after the name it was typing). A punctuation mark right after a
// name (`order.amount`, `f(x)`) belongs to the expression around both.
bool onName(SourceRange name, std::uint32_t offset, std::string_view text,
            const check::ExprType* expr) {
  return offset < name.end || expr == nullptr || offset >= text.size() ||
         std::isspace(static_cast<unsigned char>(text[offset])) != 0;
}

// The text of an expression on one line, each run of blanks one space and
// its `--` comments left out (on one line, a comment would seem to hide
// what follows it); nothing when the byte at `at` (from the expression's
// start) is in one of those comments, which are no part of it.
std::optional<std::string> exprLine(std::string_view text, std::uint32_t at) {
  std::string kept(text);
  for (SourceRange comment : collectComments(SourceFile(0, {}, kept))) {
    if (comment.begin <= at && at < comment.end) return std::nullopt;
    std::fill(kept.begin() + comment.begin, kept.begin() + comment.end, ' ');
  }
  std::string line;
  bool blank = false;
  for (char c : kept) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      blank = !line.empty();
      continue;
    }
    if (blank) line += ' ';
    blank = false;
    line += c;
  }
  return line;
}

// The innermost expression at the cursor, with its type as the checker
// inferred it; null on a blank or a comment (inside an expression or not).
nlohmann::json describeExpr(const CheckedWorkspace& checked,
                            const SourceFile& source, std::uint32_t offset,
                            const check::ExprType* expr) {
  std::string_view text = source.text();
  if (expr == nullptr || offset >= text.size() ||
      std::isspace(static_cast<unsigned char>(text[offset])) != 0)
    return nullptr;
  std::optional<std::string> line = exprLine(
      checked.sources().textOf(expr->range), offset - expr->range.begin);
  if (!line) return nullptr;
  std::string shown =
      code(clip(std::move(*line)) + ": " + check::typeText(expr->type));
  return {{"contents", {{"kind", "markdown"}, {"value", shown}}},
          {"range", toRange(source, expr->range)}};
}

}  // namespace

nlohmann::json hover(const CheckedWorkspace& checked, const std::string& uri,
                     TextPosition position) {
  std::optional<FileId> file = checked.file(uri);
  if (!file) return nullptr;
  const SourceFile& source = checked.source(*file);
  std::uint32_t offset = toOffset(source, position.line, position.character);
  const check::NameUse* use = checked.program().uses.at(*file, offset);
  const Declared* declared = use != nullptr
                                 ? checked.declarations().find(use->decl)
                                 : checked.declarations().at(*file, offset);
  const check::ExprType* expr = checked.program().exprTypes.at(*file, offset);
  if (use == nullptr && declared == nullptr)
    return describeExpr(checked, source, offset, expr);
  SourceRange range = use != nullptr ? use->use : declared->name;
  if (!onName(range, offset, source.text(), expr))
    return describeExpr(checked, source, offset, expr);
  std::string text;
  if (use != nullptr && use->type != nullptr) {
    // A value: its type, and where it is declared when that is a member.
    text = code(std::string(checked.sources().textOf(use->use)) + ": " +
                check::typeText(use->type));
    if (declared != nullptr && declared->kind == Declared::Kind::Member)
      text += fmt::format("\n\nin `{}`", check::declText(declared->decl));
  } else if (declared != nullptr) {
    text = describe(*declared, checked.sources());
  } else {
    return describeExpr(checked, source, offset, expr);
  }
  return {{"contents", {{"kind", "markdown"}, {"value", text}}},
          {"range", toRange(source, range)}};
}

}  // namespace herald::lsp
