// Declaration keywords a misspelt word at declaration position is matched
// against, shared by the parser's error messages and its recovery.
#pragma once

#include <string_view>

#include <llvm/ADT/StringRef.h>

#include "frontend/parser_driver.h"

namespace herald {

// The declaration keywords a misspelling is checked against: those of at
// least four letters, since a shorter word is as close to too many names.
struct DeclKeyword {
  std::string_view spelling;
  TokenKind token;
  yy::Parser::symbol_kind_type symbol;
};

// The declaration keyword `word` is a misspelling of (`evnet`, `agnet`,
// `sevice`, `consume`, `contxt`): within about one edit in three letters,
// as the checker's "did you mean" has it. Null when none is that close.
const DeclKeyword* misspeltDeclKeyword(llvm::StringRef word);

}  // namespace herald
