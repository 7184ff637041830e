#include "checker/names_util.h"

#include <algorithm>

namespace herald::check {

std::string joinName(llvm::ArrayRef<ast::Ident> parts) {
  std::string out;
  for (const ast::Ident& part : parts) {
    if (!out.empty()) out += '.';
    out += part.name.str();
  }
  return out;
}

std::string qualify(llvm::StringRef prefix, llvm::StringRef name) {
  std::string out;
  out.reserve(prefix.size() + 1 + name.size());
  out.append(prefix.data(), prefix.size());
  out += '.';
  out.append(name.data(), name.size());
  return out;
}

bool admits(const ConsumesInfo& line, llvm::StringRef name) {
  if (!line.restricted) return true;
  return std::find(line.only.begin(), line.only.end(), name) != line.only.end();
}

std::size_t matchContextName(llvm::StringRef contextName,
                             llvm::ArrayRef<ast::Ident> parts) {
  std::size_t i = 0;
  llvm::StringRef rest = contextName;
  while (i < parts.size()) {
    const std::size_t dot = rest.find('.');
    const llvm::StringRef head = rest.substr(0, dot);
    if (parts[i].name != head) return 0;
    ++i;
    if (dot == llvm::StringRef::npos) return i;
    rest = rest.substr(dot + 1);
  }
  return 0;
}

ContextInfo* findContext(const Program& program, llvm::StringRef name) {
  auto it = std::lower_bound(
      program.contexts.begin(), program.contexts.end(), name,
      [](const auto& c, llvm::StringRef n) { return c->name < n; });
  if (it == program.contexts.end() || (*it)->name != name) return nullptr;
  return it->get();
}

std::string describeWithArticle(DeclInfoKind kind) {
  const llvm::StringRef word = describeKind(kind);
  const bool vowel =
      !word.empty() && llvm::StringRef("aeiou").contains(word.front());
  return (vowel ? "an " : "a ") + word.str();
}

const SourceRange* FirstSeen::insert(llvm::StringRef name, SourceRange at) {
  if (many_.empty()) {
    for (const auto& [seen, range] : few_)
      if (seen == name) return &range;
    if (few_.size() < kLinear) {
      few_.emplace_back(name, at);
      return nullptr;
    }
    for (const auto& [seen, range] : few_) many_.try_emplace(seen, range);
  }
  auto [it, inserted] = many_.try_emplace(name, at);
  return inserted ? nullptr : &it->second;
}

void reportDuplicateMember(Sema& sema, llvm::StringRef what,
                           llvm::StringRef name, SourceRange second,
                           SourceRange first) {
  sema.diags.report<diag::DuplicateMember>(second, what, name)
      .note(first, "first declared here");
}

llvm::ArrayRef<ast::Ident> plainPath(const ast::TypeExpr* type) {
  if (type == nullptr || type->kind != ast::TypeExprKind::Path ||
      !type->args.empty())
    return {};
  for (const ast::Ident& part : type->path.parts)
    if (part.empty()) return {};
  return type->path.parts;
}

}  // namespace herald::check
