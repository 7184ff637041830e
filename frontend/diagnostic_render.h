// Rendering diagnostics for people (text with source excerpts) and for
// tools (JSON).
#pragma once

#include <string>
#include <vector>

#include "frontend/diagnostic.h"
#include "frontend/source.h"

namespace herald {

struct TextRenderOptions {
  bool color = false;
};

// `file:line:col: error[E0100]: message`, the source line with a caret and
// underline, then `note:` lines and fix-it suggestions. Ends with a summary
// line (`2 errors, 1 warning generated.`) when anything was reported.
[[nodiscard]] std::string renderText(const SourceManager& sources,
                                     const std::vector<Diagnostic>& diags,
                                     TextRenderOptions options = {});

// One JSON array; each object has severity, code, name, message, file, line,
// column, endLine, endColumn, notes (message + location) and fixits.
[[nodiscard]] std::string renderJson(const SourceManager& sources,
                                     const std::vector<Diagnostic>& diags);

}  // namespace herald
