#include <string>
#include <vector>

#include "checker/ir_dump.h"
#include "checker/ir_verify.h"
#include "tools/heraldc/commands.h"
#include "tools/heraldc/pipeline.h"
#include "tools/heraldc/session.h"
#include "tools/heraldc/stdout_output.h"

namespace herald::driver {

int runCheck(const GlobalOptions& global, const CheckOptions& options) {
  if (options.dumpIr && rejectJsonWithOutput(global, "--dump-ir"))
    return kExitUsage;
  Session session(global);
  if (!session.load(options.paths)) return kExitUsage;
  CheckedProgram checked = runChecker(session.sources(), session.diags());
  // A program without errors must give complete IR; anything missing is a
  // bug in the checker.
  if (!session.diags().hasErrors() && checked.program != nullptr) {
    std::vector<std::string> problems = check::verifyIr(*checked.program);
    if (!problems.empty()) {
      for (const std::string& p : problems)
        printError("internal error: the checked IR is incomplete: " + p);
      (void)session.finish();
      return kExitInternal;
    }
  }
  // With errors the IR is incomplete; the diagnostics say why.
  if (options.dumpIr && !session.diags().hasErrors())
    writeOut(check::dumpIr(*checked.program, session.sources()));
  return session.finish();
}

}  // namespace herald::driver
