#include "ir/text.h"

#include <cctype>

#include <fmt/format.h>

namespace herald::check {

std::string typeText(const Type* type) {
  return type == nullptr ? "{unresolved}" : qualifiedName(type);
}

std::string declText(const DeclInfo* decl) {
  if (decl == nullptr) return "{unresolved}";
  return decl->qualified.empty() ? decl->name : decl->qualified;
}

std::string paramsText(const std::vector<FieldInfo>& params) {
  std::string text = "(";
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (i > 0) text += ", ";
    text += params[i].name + ": " + typeText(params[i].type);
  }
  return text + ")";
}

std::string viaText(const VersionRange& via) {
  if (via.low && via.high && *via.low == *via.high)
    return fmt::format("schema({})", *via.low);
  return fmt::format("schema({}..{})",
                     via.low ? std::to_string(*via.low) : std::string(),
                     via.high ? std::to_string(*via.high) : std::string());
}

std::string oneLine(const SourceManager& sources, SourceRange range) {
  if (range.file >= sources.size()) return {};
  std::string text;
  bool space = false;
  for (char c : sources.textOf(range)) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      space = !text.empty();
      continue;
    }
    if (space) text += ' ';
    space = false;
    text += c;
  }
  return text;
}

}  // namespace herald::check
