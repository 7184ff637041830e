// Helpers for the checker's name-pass tests: parse a few files, run the
// passes that build names and signatures, inspect diagnostics and lookups.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <llvm/Support/Casting.h>

#include "checker/lookup.h"
#include "frontend/ast.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "ir/program.h"

namespace herald::test {

struct NamesRun {
  std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
  std::unique_ptr<DiagnosticEngine> diags =
      std::make_unique<DiagnosticEngine>();
  std::vector<ParseResult> parses;
  std::vector<const ast::File*> files;
  std::unique_ptr<check::Program> program = std::make_unique<check::Program>();
  bool parseErrors = false;
  check::SpellingStats spelling;      // what "did you mean" cost the passes
  std::deque<std::string> spellings;  // backs the Idents made by `parts`

  // "E0204 a.herald:3:5 message", sorted by location.
  [[nodiscard]] std::vector<std::string> diagnostics() const;
  [[nodiscard]] std::vector<std::string> codes() const;
  // The notes of the only diagnostic with `code`, as "line:col message" or
  // "help: message".
  [[nodiscard]] std::vector<std::string> notes(std::string_view code) const;
  [[nodiscard]] const check::ContextInfo& context(std::string_view name) const;
  template <typename Info>
  [[nodiscard]] const Info* decl(std::string_view context,
                                 std::string_view name) const {
    return llvm::dyn_cast_or_null<Info>(this->context(context).lookup(name));
  }
  // `a.b.C` as idents (no source range).
  llvm::ArrayRef<ast::Ident> parts(std::string_view dotted);
  check::LookupResult lookup(std::string_view from, std::string_view dotted);
  // What a report of an Ambiguous or NotFound lookup lists (lookup.h).
  std::vector<check::DeclInfo*> candidates(std::string_view from,
                                           std::string_view dotted);
  std::vector<check::DeclInfo*> hidden(std::string_view from,
                                       std::string_view dotted);
  std::deque<std::vector<ast::Ident>> identLists_;
};

// Parses `files` (name, text) and runs collect, consumes and signatures.
std::unique_ptr<NamesRun> runNames(
    const std::vector<std::pair<std::string, std::string>>& files);

// One file, `test.herald`.
std::unique_ptr<NamesRun> runNames(std::string text);

}  // namespace herald::test

namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& lines) {
    std::string out = "{";
    for (const std::string& line : lines) out += "\n  " + line;
    out += "\n}";
    return out.c_str();
  }
};
}  // namespace doctest
