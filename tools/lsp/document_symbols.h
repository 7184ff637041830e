// textDocument/documentSymbol: the outline of one document, from its AST.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace herald::lsp {

// An array of DocumentSymbol, nested: contexts; in them types (with their
// fields or variants), events (with their fields), actors, capabilities
// (with their operations), functions, agents and services (with their keys,
// stores, invariants, handlers and functions). A document with syntax
// errors gives the outline of what parsed.
[[nodiscard]] nlohmann::json documentSymbols(const std::string& name,
                                             const std::string& text);

}  // namespace herald::lsp
