#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "codegen/codegen.h"
#include "registry/report.h"
#include "tools/heraldc/commands.h"
#include "tools/heraldc/display_paths.h"
#include "tools/heraldc/heap.h"
#include "tools/heraldc/outputs.h"
#include "tools/heraldc/pipeline.h"
#include "tools/heraldc/schema_lock.h"
#include "tools/heraldc/session.h"
#include "tools/heraldc/stdout_output.h"

namespace herald::driver {

int runBuild(const GlobalOptions& global, const BuildOptions& options) {
  if (options.listOutputs &&
      rejectJsonWithOutput(global, "build --list-outputs"))
    return kExitUsage;
  if (!options.listOutputs && options.outputDir.empty()) {
    printError("build needs an output directory (-o DIR) or --list-outputs");
    return kExitUsage;
  }
  Session session(global);
  if (!session.load(options.paths)) return kExitUsage;
  CheckedProgram checked = runChecker(session.sources(), session.diags());
  // Code generation needs complete IR: with errors nothing is written, so a
  // build never leaves half a program behind.
  if (session.diags().hasErrors() || checked.program == nullptr)
    return session.finish();
  if (!irComplete(*checked.program)) {
    (void)session.finish();
    return kExitInternal;
  }

  codegen::Options codegenOptions;
  // Before the schema lock joins the sources: it is not an input.
  codegenOptions.displayPaths = displayPaths(session.sources());
  // The registry gives every event its version; with an error in it
  // nothing is written, the lock included.
  std::optional<SchemaLockRun> lock = runSchemaLock(
      session, options.paths,
      {options.schemaLock.path, options.schemaLock.locked}, *checked.program);
  if (!lock || session.diags().hasErrors()) return session.finish();
  std::vector<codegen::GeneratedFile> files =
      codegen::generate(*checked.program, session.sources(), codegenOptions);

  if (options.listOutputs) {
    const int status = session.finish();
    if (status == kExitOk)
      for (const codegen::GeneratedFile& file : files)
        writeOut(fmt::format("{}\n", file.path));
    return status;
  }
  const std::filesystem::path root(options.outputDir);
  for (const codegen::GeneratedFile& file : files) {
    const std::string path = (root / file.path).string();
    if (std::optional<std::string> error = updateFile(path, file.content))
      session.fail(fmt::format("cannot write '{}': {}", path, *error));
  }
  // The lock records what the generated code stamps: it changes only
  // with the generated files written, and never under --locked, which
  // only verifies it.
  if (!session.failed() && !options.schemaLock.locked)
    writeSchemaLock(session, *lock);
  keepUntilExit(std::move(checked));
  const int status = session.finish();
  // The evolution report: on stdout, unless stdout holds the JSON
  // diagnostics.
  if (status == kExitOk) {
    std::string report =
        registry::evolutionReport(lock->result.changes) +
        registry::stateEvolutionReport(lock->result.stateChanges);
    switch (global.format) {
      case DiagnosticsFormat::Text:
        writeOut(report);
        break;
      case DiagnosticsFormat::Json:
        std::fwrite(report.data(), 1, report.size(), stderr);
        break;
    }
  }
  return status;
}

}  // namespace herald::driver
