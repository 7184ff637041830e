// textDocument/formatting: the document as `heraldc fmt` prints it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace herald::lsp {

struct FormatEdits {
  // An array of TextEdit: one replacing the whole text by its canonical
  // form, none when it is canonical already or does not parse (a file with
  // syntax errors has no canonical form).
  nlohmann::json edits = nlohmann::json::array();
  // Why the formatter refused a file that parses (see frontend/format.h);
  // empty otherwise.
  std::string error;
};

// `name` names the file in diagnostics nobody sees.
[[nodiscard]] FormatEdits formatDocument(const std::string& name,
                                         const std::string& text);

}  // namespace herald::lsp
