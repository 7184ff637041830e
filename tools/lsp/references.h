// `textDocument/references`: every use of the declaration named at a
// position (its own name or a use of it), across the workspace, from the
// checker's use table (Program::uses).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tools/lsp/check.h"
#include "tools/lsp/params.h"

namespace herald::lsp {

// The Locations of the uses, in workspace order (files by path, then
// position), led by the declaration itself when `includeDeclaration`; null
// where no declared or resolved name is.
[[nodiscard]] nlohmann::json references(const CheckedWorkspace& checked,
                                        const std::string& uri,
                                        TextPosition position,
                                        bool includeDeclaration);

}  // namespace herald::lsp
