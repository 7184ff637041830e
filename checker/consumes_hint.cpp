#include "checker/consumes_hint.h"

#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace herald::check {

namespace {

std::string missingKey(const ContextInfo& from, const ContextInfo& target) {
  std::string key = from.name;
  key += ' ';
  key += target.name;
  return key;
}

bool contains(SourceRange outer, SourceRange inner) {
  return outer.file == inner.file && outer.begin <= inner.begin &&
         inner.end <= outer.end;
}

// The white space before `offset` on its line, when only white space is
// there: the indentation a line inserted beside it takes.
std::string indentOf(std::string_view text, std::uint32_t offset) {
  if (offset == 0) return {};
  std::size_t newline = text.rfind('\n', offset - 1);
  std::size_t start = newline == std::string_view::npos ? 0 : newline + 1;
  std::string_view before = text.substr(start, offset - start);
  if (before.find_first_not_of(" \t") != std::string_view::npos) return {};
  return std::string(before);
}

}  // namespace

std::optional<FixIt> consumesFixIt(const Sema& sema, const ContextInfo& ctx,
                                   SourceRange at, llvm::StringRef target) {
  for (const ast::ContextDecl* part : ctx.parts) {
    if (part == nullptr || !contains(part->range, at)) continue;
    const ast::Decl* last = nullptr;
    for (const ast::Decl* d : part->decls)
      if (d != nullptr && d->kind == ast::DeclKind::Consumes) last = d;
    std::string line = fmt::format("consumes {}", target.str());
    std::string_view text = sema.sources.file(at.file).text();
    if (last != nullptr)
      return FixIt{SourceRange{at.file, last->range.end, last->range.end},
                   "\n" + indentOf(text, last->range.begin) + line};
    std::uint32_t nameEnd = part->name.range.end;
    if (!part->blockForm)
      return FixIt{SourceRange{at.file, nameEnd, nameEnd}, "\n\n" + line};
    std::size_t brace = text.find('{', nameEnd);
    if (brace == std::string_view::npos || brace >= at.begin) return {};
    auto after = static_cast<std::uint32_t>(brace + 1);
    // Indented as the block's first declaration, else by two spaces.
    std::string indent = "  ";
    for (const ast::Decl* d : part->decls)
      if (d != nullptr) {
        indent = indentOf(text, d->range.begin);
        break;
      }
    return FixIt{SourceRange{at.file, after, after},
                 fmt::format("\n{}{}", indent, line)};
  }
  return {};
}

void recordMissingConsumes(Sema& sema, const ContextInfo& from,
                           const ContextInfo& target) {
  sema.missingConsumes.insert(missingKey(from, target));
}

bool missingConsumesReported(const Sema& sema, const ContextInfo& from,
                             const ContextInfo& target) {
  return sema.missingConsumes.contains(missingKey(from, target));
}

}  // namespace herald::check
