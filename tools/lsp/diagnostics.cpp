#include "tools/lsp/diagnostics.h"

#include <optional>

#include "frontend/diagnostic_render.h"
#include "tools/lsp/position.h"

namespace herald::lsp {
namespace {

// DiagnosticSeverity of LSP.
int lspSeverity(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return 1;
    case Severity::Warning:
      return 2;
    case Severity::Note:
      return 3;
  }
  return 1;
}

}  // namespace

nlohmann::json toLspDiagnostic(const Diagnostic& diagnostic,
                               const SourceManager& sources,
                               const std::vector<std::string>& uris) {
  const SourceFile& file = sources.file(diagnostic.range.file);
  std::string message = diagnostic.message;
  nlohmann::json related = nlohmann::json::array();
  for (const DiagnosticNote& note : diagnostic.notes) {
    if (!note.hasRange) {
      message += "\nnote: " + note.message;
      continue;
    }
    related.push_back(
        {{"location",
          {{"uri", uris[note.range.file]},
           {"range", toRange(sources.file(note.range.file), note.range)}}},
         {"message", note.message}});
  }
  nlohmann::json lsp = {
      {"range", toRange(file, diagnostic.range)},
      {"severity", lspSeverity(diagnostic.severity())},
      {"code", std::string(diagInfo(diagnostic.kind).code)},
      {"source", "heraldc"},
      {"message", std::move(message)},
  };
  if (!related.empty()) lsp["relatedInformation"] = std::move(related);
  nlohmann::json fixits = nlohmann::json::array();
  for (const FixIt& fixit : diagnostic.fixits) {
    std::optional<std::string> label = fixitLabel(sources, fixit);
    if (!label) continue;
    fixits.push_back(
        {{"title", std::move(*label)},
         {"uri", uris[fixit.range.file]},
         {"edit",
          {{"range", toRange(sources.file(fixit.range.file), fixit.range)},
           {"newText", fixit.replacement}}}});
  }
  if (!fixits.empty()) lsp["data"] = {{"fixits", std::move(fixits)}};
  return lsp;
}

}  // namespace herald::lsp
