#include "roundtrip.h"

#include "frontend/ast_dump.h"
#include "frontend/ast_print.h"
#include "frontend/diagnostic_render.h"
#include "frontend/parser.h"
#include "line_diff.h"

namespace herald::golden {
namespace {

constexpr AstDumpOptions kCompare{.locations = false, .spelling = false};

}  // namespace

RoundTripResult checkRoundTrip(const std::string& name,
                               const std::string& text) {
  SourceManager sources;
  FileId original = sources.addFile(name, text);
  DiagnosticEngine diags;
  ParseResult first = parse(sources.file(original), diags);
  // Only inputs without errors have a printing to check.
  if (diags.hasErrors()) return {RoundTripStatus::Skipped, ""};
  std::string firstDump =
      dumpAst(*first.file, sources.file(original), kCompare);
  std::string printed = printFile(*first.file);

  FileId reprinted = sources.addFile(name + " (printed)", printed);
  DiagnosticEngine rediags;
  ParseResult second = parse(sources.file(reprinted), rediags);
  rediags.finalize();
  if (rediags.hasErrors()) {
    return {RoundTripStatus::Failed,
            "the printed source does not parse:\n" +
                renderText(sources, rediags.diagnostics()) +
                "printed source:\n" + printed};
  }
  std::string secondDump =
      dumpAst(*second.file, sources.file(reprinted), kCompare);
  if (secondDump != firstDump) {
    return {RoundTripStatus::Failed,
            "re-parsing the printed source gives a different AST:\n" +
                lineDiff(firstDump, secondDump) + "printed source:\n" +
                printed};
  }
  std::string printedAgain = printFile(*second.file);
  if (printedAgain != printed) {
    return {RoundTripStatus::Failed,
            "printing is not idempotent:\n" + lineDiff(printed, printedAgain)};
  }
  return {RoundTripStatus::Passed, ""};
}

}  // namespace herald::golden
