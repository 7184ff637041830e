#include "tools/lsp/references.h"

#include <optional>
#include <vector>

#include "tools/lsp/declarations.h"
#include "tools/lsp/position.h"

namespace herald::lsp {

nlohmann::json references(const CheckedWorkspace& checked,
                          const std::string& uri, TextPosition position,
                          bool includeDeclaration) {
  std::optional<FileId> file = checked.file(uri);
  if (!file) return nullptr;
  std::uint32_t offset =
      toOffset(checked.source(*file), position.line, position.character);
  SourceRange target;
  if (const check::NameUse* use = checked.program().uses.at(*file, offset))
    target = use->decl;
  else if (const Declared* declared = checked.declarations().at(*file, offset))
    target = declared->name;
  else
    return nullptr;
  nlohmann::json locations = nlohmann::json::array();
  if (includeDeclaration) locations.push_back(checked.location(target));
  // A local's binding is recorded as a use of itself: it is the
  // declaration, listed above or not at all.
  for (const check::NameUse& use : checked.program().uses.usesOf(target))
    if (!(use.use == target)) locations.push_back(checked.location(use.use));
  return locations;
}

}  // namespace herald::lsp
