// `textDocument/completion` where it saves typing: the fields of a record,
// event or variant inside its braces (a literal or a subscription's
// pattern) not yet written, the variants of a field's sum type after
// `field:` and of a parameter's after a call's `label:`, members after
// `Name.` (a sum's variants and static fns, a capability's operations, a
// value's fields, the handlers of a `Ref`), context names after
// `consumes`, the names a `consumes X { A, B }` may import, capabilities
// in `given` and agents in `Ref[...]`.
//
// The user is typing, so the document usually does not parse at the
// cursor. What the cursor stands in is read from the document's tokens
// before it (the lexer recovers from anything), and what the names there
// denote from the check of the workspace with that text: the checker's
// use table where the parser recovered the name's expression, otherwise
// the declarations by name as the file's context sees them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tools/lsp/check.h"
#include "tools/lsp/params.h"

namespace herald::lsp {

// A CompletionList, complete (the client filters it by what is typed);
// items carry a kind and, for fields, their type as detail. Empty where
// nothing is offered.
[[nodiscard]] nlohmann::json completion(const CheckedWorkspace& checked,
                                        const std::string& uri,
                                        TextPosition position);

}  // namespace herald::lsp
