#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "frontend/ast_dump.h"
#include "frontend/lexer.h"
#include "tools/heraldc/commands.h"
#include "tools/heraldc/pipeline.h"
#include "tools/heraldc/session.h"
#include "tools/heraldc/stdout_output.h"

namespace herald::driver {
namespace {

int dumpTokensOf(const GlobalOptions& global, const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    printError(fmt::format(
        "--dump-tokens needs a file, but '{}' is a directory", path));
    return kExitUsage;
  }
  Session session(global);
  if (!session.load({path})) return kExitUsage;
  const SourceFile& file = session.sources().file(0);
  std::vector<Token> tokens = lexAll(file, session.diags());
  writeOut(dumpTokens(file, tokens));
  return session.finish();
}

}  // namespace

int runParse(const GlobalOptions& global, const ParseOptions& options) {
  if (!options.dumpTokens.empty()) {
    if (rejectJsonWithOutput(global, "--dump-tokens")) return kExitUsage;
    return dumpTokensOf(global, options.dumpTokens);
  }
  if (options.paths.empty()) {
    printError("parse: no input files (give files or directories)");
    return kExitUsage;
  }
  if (options.dumpAst && rejectJsonWithOutput(global, "--dump-ast"))
    return kExitUsage;
  Session session(global);
  if (!session.load(options.paths)) return kExitUsage;
  std::vector<ParsedFile> parsed =
      runFrontEnd(session.sources(), session.diags());
  if (options.dumpAst) {
    for (std::size_t i = 0; i < parsed.size(); ++i) {
      writeFileOutput(i, parsed.size(), *parsed[i].source,
                      dumpAst(*parsed[i].parse.file, *parsed[i].source));
    }
  }
  return session.finish();
}

}  // namespace herald::driver
