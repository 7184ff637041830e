// `textDocument/hover`: what the name under the cursor is, in markdown. A
// name of a value (a local, a parameter, a key, a store, a dependency, a
// field) shows its type as the checker settled it; a name of a
// declaration, or a use of one, shows the declaration's signature and its
// doc comment, an event its fields and owner context, a subscribing
// service its event, pattern and `via`.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tools/lsp/check.h"
#include "tools/lsp/params.h"

namespace herald::lsp {

// A Hover ({contents: MarkupContent, range}), or null where no name the
// checker resolved or declared is.
[[nodiscard]] nlohmann::json hover(const CheckedWorkspace& checked,
                                   const std::string& uri,
                                   TextPosition position);

}  // namespace herald::lsp
