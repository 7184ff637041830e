#include "tools/heraldc/commands.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "frontend/ast_dump.h"
#include "frontend/format.h"
#include "frontend/lexer.h"
#include "tools/heraldc/outputs.h"
#include "tools/heraldc/pipeline.h"
#include "tools/heraldc/session.h"

namespace herald::driver {
namespace {

void writeOut(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
}

// With several files, each file's output is introduced by a header line, so
// the concatenation stays readable; one file's output is printed bare.
void writeFileOutput(std::size_t index, std::size_t count,
                     const SourceFile& file, std::string_view text) {
  if (count > 1) {
    if (index > 0) writeOut("\n");
    writeOut(fmt::format("==> {} <==\n", file.name()));
  }
  writeOut(text);
}

// JSON diagnostics own stdout; a command that prints there cannot share it.
bool rejectJsonWithOutput(const GlobalOptions& global, std::string_view what) {
  if (global.format != DiagnosticsFormat::Json) return false;
  printError(fmt::format(
      "--diagnostics-format=json writes to standard output and cannot be "
      "combined with {}",
      what));
  return true;
}

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

int runCheck(const GlobalOptions& global, const CheckOptions& options) {
  Session session(global);
  if (!session.load(options.paths)) return kExitUsage;
  std::vector<ParsedFile> parsed =
      runFrontEnd(session.sources(), session.diags());
  return session.finish();
}

int runFmt(const GlobalOptions& global, const FmtOptions& options) {
  if (!options.write &&
      rejectJsonWithOutput(global, options.check ? "fmt --check" : "fmt"))
    return kExitUsage;
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
    int status = session.finish();
    for (std::size_t i = 0; i < parsed.size(); ++i) {
      if (printed[i] == parsed[i].source->text()) continue;
      if (std::optional<std::string> error =
              replaceFile(parsed[i].source->name(), printed[i])) {
        printError(fmt::format("cannot write '{}': {}",
                               parsed[i].source->name(), *error));
        status = kExitUsage;
      }
    }
    return status;
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
