#include "roundtrip.h"

#include <optional>

#include "frontend/ast_dump.h"
#include "frontend/ast_print.h"
#include "frontend/diagnostic_render.h"
#include "frontend/format.h"
#include "frontend/parser.h"
#include "line_diff.h"

namespace herald::golden {
namespace {

constexpr AstDumpOptions kCompare{.locations = false, .spelling = false};

struct Reparsed {
  std::optional<ParseResult> parse;
  std::string dump;
  std::string problem;
};

// Parses `printed` (the printing of `original`, which dumps as `expected`)
// and compares its AST with the original's.
Reparsed reparse(SourceManager& sources, const std::string& name,
                 const std::string& printed, const std::string& expected,
                 const std::string& what) {
  FileId id = sources.addFile(name + " (" + what + ")", printed);
  DiagnosticEngine diags;
  ParseResult result = parse(sources.file(id), diags);
  diags.finalize();
  if (diags.hasErrors()) {
    return {std::nullopt, "",
            "the " + what + " does not parse:\n" +
                renderText(sources, diags.diagnostics()) + what + ":\n" +
                printed};
  }
  std::string dump = dumpAst(*result.file, sources.file(id), kCompare);
  if (dump != expected) {
    return {std::nullopt, "",
            "re-parsing the " + what + " gives a different AST:\n" +
                lineDiff(expected, dump) + what + ":\n" + printed};
  }
  return {std::move(result), std::move(dump), ""};
}

}  // namespace

RoundTripResult checkRoundTrip(const std::string& name,
                               const std::string& text) {
  SourceManager sources;
  FileId original = sources.addFile(name, text);
  DiagnosticEngine diags;
  ParseResult first = parse(sources.file(original), diags);
  // Only inputs without errors have a printing to check.
  if (diags.hasErrors()) return {RoundTripStatus::Skipped, ""};
  const std::string firstDump =
      dumpAst(*first.file, sources.file(original), kCompare);

  Reparsed bare = reparse(sources, name, printFile(*first.file), firstDump,
                          "printing without comments");
  if (!bare.problem.empty()) return {RoundTripStatus::Failed, bare.problem};

  FormatResult formatted = formatFile(*first.file, sources.file(original));
  if (!formatted.error.empty())
    return {RoundTripStatus::Failed, "cannot format it: " + formatted.error};
  Reparsed second =
      reparse(sources, name, formatted.text, firstDump, "formatted source");
  if (!second.problem.empty()) return {RoundTripStatus::Failed, second.problem};

  const SourceFile& secondSource = sources.file(sources.size() - 1);
  FormatResult again = formatFile(*second.parse->file, secondSource);
  if (!again.error.empty()) {
    return {RoundTripStatus::Failed,
            "cannot format the formatted source: " + again.error +
                "\nformatted source:\n" + formatted.text};
  }
  if (again.text != formatted.text) {
    return {RoundTripStatus::Failed, "formatting is not idempotent:\n" +
                                         lineDiff(formatted.text, again.text)};
  }
  return {RoundTripStatus::Passed, ""};
}

}  // namespace herald::golden
