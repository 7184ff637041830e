#include "registry/lock_source.h"

namespace herald::registry {

SourceRange lineRange(const SourceFile& file, std::uint32_t line) {
  std::string_view text = file.lineText(line);
  auto begin = static_cast<std::uint32_t>(text.data() - file.text().data());
  return {file.id(), begin, begin + static_cast<std::uint32_t>(text.size())};
}

std::optional<Lock> readLockSource(const SourceFile& file,
                                   DiagnosticEngine& diags) {
  ParsedLock parsed = parseLock(file.text());
  if (!parsed.error) return std::move(parsed.lock);
  diags.report<diag::SchemaRegistryCorrupt>(lineRange(file, parsed.error->line),
                                            file.name(), parsed.error->message);
  return std::nullopt;
}

}  // namespace herald::registry
