// `textDocument/definition`: from a name written in a document to the
// declaration it denotes, as the checker recorded it (Program::uses).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tools/lsp/check.h"
#include "tools/lsp/params.h"

namespace herald::lsp {

// The Location of the declaration the name at `position` of `uri` denotes,
// or null where no resolved name is (whitespace, a comment, a keyword, a
// name the checker could not resolve, a declaration's own name, a document
// that was not checked).
[[nodiscard]] nlohmann::json definition(const CheckedWorkspace& checked,
                                        const std::string& uri,
                                        TextPosition position);

}  // namespace herald::lsp
