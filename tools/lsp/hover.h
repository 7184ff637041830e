// `textDocument/hover`: what is under the cursor, in markdown. A name of a
// value (a local, a parameter, a key, a store, a dependency, a field)
// shows its type as the checker settled it; a name of a declaration, or a
// use of one, shows the declaration's signature and its doc comment, an
// event its fields and owner context, a subscribing service its event,
// pattern and `via`. Anywhere else inside an expression of a body (an
// operator, a call's parentheses, a literal, the `.` of a field access, a
// `match` keyword), the innermost expression there shows its source text
// on one line (without its comments) and its type as the checker inferred
// it (Program::exprTypes), `()` included: `order.amount * 2: Int`,
// `Events.emit(...): ()`. lang/editors.md says which of the two a
// character just after a name shows.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tools/lsp/check.h"
#include "tools/lsp/params.h"

namespace herald::lsp {

// A Hover ({contents: MarkupContent, range}: the name's or the
// expression's), or null on a blank, on a comment, and where neither a
// name the checker resolved or declared nor an expression it typed is.
[[nodiscard]] nlohmann::json hover(const CheckedWorkspace& checked,
                                   const std::string& uri,
                                   TextPosition position);

}  // namespace herald::lsp
