#include "tools/lsp/definition.h"

#include <optional>

#include "tools/lsp/position.h"

namespace herald::lsp {

nlohmann::json definition(const CheckedWorkspace& checked,
                          const std::string& uri, TextPosition position) {
  std::optional<FileId> file = checked.file(uri);
  if (!file) return nullptr;
  std::uint32_t offset =
      toOffset(checked.source(*file), position.line, position.character);
  const check::NameUse* use = checked.program().uses.at(*file, offset);
  if (use == nullptr) return nullptr;
  return checked.location(use->decl);
}

}  // namespace herald::lsp
