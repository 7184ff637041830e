// LSP's SymbolKind and CompletionItemKind numbers the server answers with,
// shared by the outline, the workspace symbols and completion.
#pragma once

namespace herald::lsp {

enum SymbolKind : int {
  kModule = 2,
  kNamespace = 3,
  kClass = 5,
  kMethod = 6,
  kProperty = 7,
  kField = 8,
  kEnum = 10,
  kInterface = 11,
  kFunction = 12,
  kBoolean = 17,
  kKey = 20,
  kEnumMember = 22,
  kStruct = 23,
  kEvent = 24,
  kTypeParameter = 26,
};

enum CompletionItemKind : int {
  kItemMethod = 2,
  kItemFunction = 3,
  kItemField = 5,
  kItemClass = 7,
  kItemInterface = 8,
  kItemModule = 9,
  kItemEnum = 13,
  kItemEnumMember = 20,
  kItemStruct = 22,
  kItemEvent = 23,
  kItemTypeParameter = 25,
};

}  // namespace herald::lsp
