// `heraldc fmt` for one file: its canonical text, holding every comment of
// the source exactly once. The check is made on the output itself (its
// comments, found by the scanner, against the source's), so no printer bug
// can lose a comment silently.
#pragma once

#include <string>

#include "frontend/ast.h"
#include "frontend/source.h"

namespace herald {

struct FormatResult {
  std::string text;
  // Empty on success; otherwise `line N: ...` (a line of the source) and
  // `text` must not be used.
  std::string error;
};

// `file` is the error-free parse of `source`. The output keeps the source's
// line ends: CRLF when its first line ends in CRLF, LF otherwise.
[[nodiscard]] FormatResult formatFile(const ast::File& file,
                                      const SourceFile& source);

}  // namespace herald
