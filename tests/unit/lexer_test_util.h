// Shared by the lexer test files.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/diagnostic.h"
#include "frontend/lexer.h"

namespace lexer_test {

using herald::DiagnosticEngine;
using herald::SourceFile;
using herald::Token;
using herald::TokenKind;

struct Lexed {
  std::unique_ptr<SourceFile> file;
  DiagnosticEngine diags;
  std::vector<Token> tokens;

  [[nodiscard]] std::string_view text(const Token& token) const {
    return file->text().substr(token.range.begin,
                               token.range.end - token.range.begin);
  }
  [[nodiscard]] std::string_view docText(const Token& token) const {
    return file->text().substr(token.doc.begin,
                               token.doc.end - token.doc.begin);
  }
  [[nodiscard]] std::vector<TokenKind> kinds() const {
    std::vector<TokenKind> out;
    for (const Token& token : tokens) {
      if (token.kind != TokenKind::EndOfFile) out.push_back(token.kind);
    }
    return out;
  }
  // "E0004@3-4" per diagnostic, in report order.
  [[nodiscard]] std::vector<std::string> errors() const {
    std::vector<std::string> out;
    for (const herald::Diagnostic& d : diags.diagnostics()) {
      out.push_back(std::string(herald::diagInfo(d.kind).code) + "@" +
                    std::to_string(d.range.begin) + "-" +
                    std::to_string(d.range.end));
    }
    return out;
  }
  [[nodiscard]] std::string message(std::size_t i = 0) const {
    REQUIRE(i < diags.diagnostics().size());
    return diags.diagnostics()[i].message;
  }
};

inline Lexed lex(std::string text) {
  Lexed out;
  out.file = std::make_unique<SourceFile>(0, "test.herald", std::move(text));
  out.tokens = herald::lexAll(*out.file, out.diags);
  return out;
}

}  // namespace lexer_test
