// `textDocument/prepareRename` and `textDocument/rename`: a declaration or
// a member (field, variant, handler, operation, parameter, key, store,
// local, named dependency) renamed at its declaration and at every use the
// checker recorded (Program::uses), across the workspace.
//
// A bare capability in `given` is a dependency named by its capability:
// renaming either renames the capability and the uses of both.
//
// Refused with a RequestFailed error saying why: where no declared name
// is; a context; a new name that is not an identifier
// or is a keyword; a new name that something in the same scope already
// has (a context-level name in the declaration's context or in a context
// consuming it, a member of the same owner, any name used in the
// declaration enclosing a local); and an event, or a field of one, that a
// subscription of another context names in its `from Events(...)`: the
// event's name and fields are its contract with other contexts and
// deployed subscribers, which a rename in this workspace does not reach.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tools/lsp/check.h"
#include "tools/lsp/params.h"

namespace herald::lsp {

// {range, placeholder} of the name at `position`.
[[nodiscard]] nlohmann::json prepareRename(const CheckedWorkspace& checked,
                                           const std::string& uri,
                                           TextPosition position);

// A WorkspaceEdit: `changes` by document URI, each document's edits in
// source order.
[[nodiscard]] nlohmann::json rename(const CheckedWorkspace& checked,
                                    const std::string& uri,
                                    TextPosition position,
                                    const std::string& newName);

}  // namespace herald::lsp
