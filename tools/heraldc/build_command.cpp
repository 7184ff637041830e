#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "codegen/codegen.h"
#include "tools/heraldc/commands.h"
#include "tools/heraldc/display_paths.h"
#include "tools/heraldc/outputs.h"
#include "tools/heraldc/pipeline.h"
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
  codegenOptions.displayPaths = displayPaths(session.sources());
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
  return session.finish();
}

}  // namespace herald::driver
