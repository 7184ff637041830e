// Helpers for the schema registry's tests: one source checked and the
// registry run over it against a lock, and the codes of the diagnostics.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <llvm/Support/Casting.h>

#include "checker/checker.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "registry/lock.h"
#include "registry/registry.h"

namespace herald::registry::test {

inline std::vector<std::string> codes(const DiagnosticEngine& diags) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags.diagnostics())
    out.push_back(std::string(diagInfo(d.kind).code));
  return out;
}

// A checked program of one source, and the registry run over it.
struct Run {
  SourceManager sources;
  DiagnosticEngine diags;
  std::unique_ptr<check::Program> program;
  RegistryResult result;

  Run(std::string text, const Lock& lock, RegistryOptions options = {}) {
    FileId id = sources.addFile("input.herald", std::move(text));
    ParseResult parsed = parse(sources.file(id), diags);
    const ast::File* files[] = {parsed.file};
    program = check::checkProgram(files, sources, diags);
    REQUIRE_FALSE(diags.hasErrors());
    result = runRegistry(*program, lock, options, diags);
    diags.finalize();
  }

  // The schema version of event `name` in `context`.
  [[nodiscard]] std::int64_t version(llvm::StringRef context,
                                     llvm::StringRef name) const {
    const check::DeclInfo* decl = program->context(context)->lookup(name);
    return llvm::cast<check::EventInfo>(decl)->schemaVersion;
  }
  // Agent `name` of context `shop`, and the version its store `store` has
  // been kept since.
  [[nodiscard]] const check::AgentInfo& agent(llvm::StringRef name) const {
    return *llvm::cast<check::AgentInfo>(
        program->context("shop")->lookup(name));
  }
  [[nodiscard]] std::int64_t since(llvm::StringRef agentName,
                                   llvm::StringRef store) const {
    return agent(agentName).store(store)->since;
  }
};

}  // namespace herald::registry::test
