// Rendering diagnostics for people (text with source excerpts) and for
// tools (JSON).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/diagnostic.h"
#include "frontend/source.h"

namespace herald {

struct TextRenderOptions {
  bool color = false;
};

// A message about the run rather than about the sources: an input that
// cannot be read, or how many errors the error limit held back. In JSON it
// is an object like a diagnostic's, with a null code and location.
struct RunMessage {
  Severity severity = Severity::Error;
  std::string name;  // kebab-case kind, e.g. "io-error"
  std::string message;
};

// After finalize() under an error limit that held something back: the note
// saying how much, for the end of the output.
[[nodiscard]] std::optional<RunMessage> errorLimitNote(
    const DiagnosticEngine& diags);

// `file:line:col: error[E0100]: message`, the source line with a caret and
// underline, then `note:` lines and fix-it suggestions; then each run
// message as `note: ...` / `error: ...`. Ends with a summary line (`2 errors,
// 1 warning generated.`, counting the diagnostics shown) when anything was
// reported.
[[nodiscard]] std::string renderText(const SourceManager& sources,
                                     const std::vector<Diagnostic>& diags,
                                     TextRenderOptions options = {},
                                     const std::vector<RunMessage>& run = {});

// What a fix-it does, as both renderers label it: `insert ';'`,
// `insert line 'consumes a.b'`, `remove 'x'`, `replace with 'y'`. None for
// an edit that changes nothing.
[[nodiscard]] std::optional<std::string> fixitLabel(
    const SourceManager& sources, const FixIt& f);

// Bumped whenever a field of the JSON format changes meaning or goes away;
// adding a field keeps the version.
inline constexpr int kJsonFormatVersion = 1;

// One JSON array: an object per diagnostic (severity, code, name, message,
// location, notes, fixits), then one per run message. lang/README.md
// documents the fields.
[[nodiscard]] std::string renderJson(const SourceManager& sources,
                                     const std::vector<Diagnostic>& diags,
                                     const std::vector<RunMessage>& run = {});

}  // namespace herald
