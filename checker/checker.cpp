#include "checker/checker.h"

#include "checker/sema.h"

namespace herald::check {

std::unique_ptr<Program> checkProgram(llvm::ArrayRef<const ast::File*> files,
                                      const SourceManager& sources,
                                      DiagnosticEngine& diags,
                                      CheckOptions options) {
  auto program = std::make_unique<Program>();
  if (options.recordUses) {
    program->uses.startRecording();
    program->exprTypes.startRecording();
  }
  Sema sema{*program, diags, sources, files};
  collectDeclarations(sema);
  resolveConsumes(sema);
  resolveSignatures(sema);
  checkDeclarationRules(sema);
  checkSubscriptions(sema);
  checkBodies(sema);
  buildFlowGraph(sema);
  program->uses.finish();
  program->exprTypes.finish();
  return program;
}

}  // namespace herald::check
