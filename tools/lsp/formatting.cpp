#include "tools/lsp/formatting.h"

#include "frontend/diagnostic.h"
#include "frontend/format.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "tools/lsp/position.h"

namespace herald::lsp {

FormatEdits formatDocument(const std::string& name, const std::string& text) {
  FormatEdits result;
  SourceFile source(0, name, text);
  DiagnosticEngine diags;
  ParseResult parsed = parse(source, diags);
  if (diags.hasErrors()) return result;
  FormatResult formatted = formatFile(*parsed.file, source);
  if (!formatted.error.empty()) {
    result.error = std::move(formatted.error);
    return result;
  }
  if (formatted.text == text) return result;
  result.edits.push_back(
      {{"range", toRange(source, 0, static_cast<std::uint32_t>(text.size()))},
       {"newText", std::move(formatted.text)}});
  return result;
}

}  // namespace herald::lsp
