// Helpers shared by the parser's unit tests: parse a snippet, reach into the
// AST, and check that every node's range lies inside its parent's.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <llvm/Support/Casting.h>

#include "frontend/ast.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"

namespace herald::test {

struct Parsed {
  std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
  std::unique_ptr<DiagnosticEngine> diags =
      std::make_unique<DiagnosticEngine>();
  ParseResult result;
  FileId id = 0;

  [[nodiscard]] const ast::File& file() const { return *result.file; }
  [[nodiscard]] std::string_view text(SourceRange r) const {
    return sources->textOf(r);
  }
  [[nodiscard]] LineColumn at(std::uint32_t offset) const {
    return sources->file(id).lineColumn(offset);
  }
  // "E0100 3:5 message", one per diagnostic, in report order.
  [[nodiscard]] std::vector<std::string> diagnostics() const;
  [[nodiscard]] std::vector<std::string> codes() const;
  [[nodiscard]] const ast::ContextDecl& context(std::size_t i = 0) const {
    return *file().contexts[i];
  }
  [[nodiscard]] const ast::Decl* decl(std::size_t i,
                                      std::size_t context = 0) const {
    return file().contexts[context]->decls[i];
  }
};

Parsed parseText(std::string text);

// Parses `context t` + `fn f() { <body> }`; the function's statements.
struct Body {
  Parsed parsed;
  llvm::ArrayRef<ast::Stmt*> stmts;
};
Body parseBody(const std::string& body);
// The value of the single expression statement `source`.
struct ExprResult {
  Parsed parsed;
  const ast::Expr* expr = nullptr;
};
ExprResult parseExpr(const std::string& source);

// A fully parenthesised rendering of an expression, to check tree shape:
// `(a + (b * c))`, `-(x)`, `f(a, l: b)`, `x.y`, `T{a: 1}`.
std::string shape(const ast::Expr* e);
std::string shape(const ast::Pattern* p);

// Walks the whole AST; returns a description of the first node whose range
// is empty (where it must not be) or not inside its parent's, or "" if all
// are fine. Also checks every pointer that must be set is set.
std::string checkRanges(const ast::File& file);

}  // namespace herald::test
