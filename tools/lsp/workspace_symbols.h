// `workspace/symbol`: the declarations of the checked workspace whose name
// matches a query: contexts, context-level declarations and their members
// (fields, variants, keys, stores, handlers, capability operations, agent
// and service fns), with their kind, container and location.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "tools/lsp/check.h"

namespace herald::lsp {

// At most this many symbols are answered, the best matches first.
inline constexpr std::size_t kMaxWorkspaceSymbols = 200;

// An array of SymbolInformation. A name matches when the query's
// characters occur in it in order, ignoring case (a subsequence: `pdevt`
// matches `PaidEvent`); the empty query matches every name. The exact
// names come first, then those the query begins, then those containing it,
// then the other subsequences; within each, by name, container and
// position.
[[nodiscard]] nlohmann::json workspaceSymbols(const CheckedWorkspace& checked,
                                              const std::string& query);

}  // namespace herald::lsp
