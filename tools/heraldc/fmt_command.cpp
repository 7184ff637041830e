#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "frontend/format.h"
#include "tools/heraldc/commands.h"
#include "tools/heraldc/inputs.h"
#include "tools/heraldc/outputs.h"
#include "tools/heraldc/pipeline.h"
#include "tools/heraldc/session.h"
#include "tools/heraldc/stdout_output.h"

namespace herald::driver {

int runFmt(const GlobalOptions& global, const FmtOptions& options) {
  if (!options.write &&
      rejectJsonWithOutput(global, options.check ? "fmt --check" : "fmt"))
    return kExitUsage;
  if (options.write && std::find(options.paths.begin(), options.paths.end(),
                                 kStdinPath) != options.paths.end()) {
    printError("fmt --write cannot rewrite standard input; use fmt - instead");
    return kExitUsage;
  }
  Session session(global);
  if (!session.load(options.paths)) return kExitUsage;
  std::vector<ParsedFile> parsed =
      runFrontEnd(session.sources(), session.diags());
  // A file with syntax errors has no canonical form: printing its AST would
  // silently drop the malformed parts.
  if (session.diags().hasErrors()) return session.finish();

  // Every file is formatted before anything is printed or written, so a
  // file the formatter cannot handle leaves all of them untouched.
  std::vector<std::string> printed;
  printed.reserve(parsed.size());
  bool failed = false;
  for (const ParsedFile& file : parsed) {
    FormatResult result = formatFile(*file.parse.file, *file.source);
    if (!result.error.empty()) {
      printError(fmt::format("cannot format '{}': {}; no file was changed",
                             file.source->name(), result.error));
      failed = true;
    }
    printed.push_back(std::move(result.text));
  }
  if (failed) {
    (void)session.finish();
    return kExitInternal;
  }

  if (options.write) {
    for (std::size_t i = 0; i < parsed.size(); ++i) {
      if (printed[i] == parsed[i].source->text()) continue;
      if (std::optional<std::string> error =
              replaceFile(parsed[i].source->name(), printed[i])) {
        session.fail(fmt::format("cannot write '{}': {}",
                                 parsed[i].source->name(), *error));
      }
    }
    return session.finish();
  }
  if (!options.check) {
    for (std::size_t i = 0; i < parsed.size(); ++i)
      writeFileOutput(i, parsed.size(), *parsed[i].source, printed[i]);
    return session.finish();
  }
  std::size_t unformatted = 0;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    if (printed[i] == parsed[i].source->text()) continue;
    writeOut(fmt::format("{}\n", parsed[i].source->name()));
    ++unformatted;
  }
  int status = session.finish();
  if (unformatted == 0) return status;
  printError(fmt::format("{} {} not formatted", unformatted,
                         unformatted == 1 ? "file is" : "files are"));
  return kExitErrors;
}

}  // namespace herald::driver
