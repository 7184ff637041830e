#include <utility>

#include "ir/dump.h"
#include "tools/heraldc/commands.h"
#include "tools/heraldc/heap.h"
#include "tools/heraldc/pipeline.h"
#include "tools/heraldc/schema_lock.h"
#include "tools/heraldc/session.h"
#include "tools/heraldc/stdout_output.h"

namespace herald::driver {

int runCheck(const GlobalOptions& global, const CheckOptions& options) {
  if (options.dumpIr && rejectJsonWithOutput(global, "--dump-ir"))
    return kExitUsage;
  Session session(global);
  if (!session.load(options.paths)) return kExitUsage;
  CheckedProgram checked = runChecker(session.sources(), session.diags());
  if (!session.diags().hasErrors() && checked.program != nullptr &&
      !irComplete(*checked.program)) {
    (void)session.finish();
    return kExitInternal;
  }
  // The registry's diagnostics too; `check` never writes the lock.
  if (!session.diags().hasErrors() && checked.program != nullptr)
    (void)runSchemaLock(session, options.paths,
                        {options.schemaLock.path, options.schemaLock.locked},
                        *checked.program);
  // With errors the IR is incomplete; the diagnostics say why.
  if (options.dumpIr && !session.diags().hasErrors())
    writeOut(check::dumpIr(*checked.program, session.sources()));
  keepUntilExit(std::move(checked));
  return session.finish();
}

}  // namespace herald::driver
