// The parser on arbitrary text: it always yields an AST, whose dump never
// fails. A file without syntax errors must survive printing: the printing
// without comments and `heraldc fmt`'s output re-parse without errors to the
// same AST, and formatting is idempotent. (fmt may refuse a file whose
// comments it cannot place; that is reported to the user, not a finding.)
#include "frontend/ast_dump.h"
#include "frontend/ast_print.h"
#include "frontend/diagnostic_render.h"
#include "frontend/format.h"
#include "frontend/parser.h"
#include "tests/fuzz/fuzz_target.h"

using herald::fuzz::require;

namespace {

constexpr herald::AstDumpOptions kCompare{.locations = false,
                                          .spelling = false};

struct Parsed {
  herald::ParseResult result;
  bool clean = false;
};

Parsed parseText(herald::SourceManager& sources, std::string text) {
  const herald::FileId id = sources.addFile("fuzz.herald", std::move(text));
  herald::DiagnosticEngine diags;
  Parsed parsed{herald::parse(sources.file(id), diags), false};
  require(parsed.result.file != nullptr);
  diags.finalize();
  herald::fuzz::requireRangesInside(sources, diags);
  parsed.clean = !diags.hasErrors();
  return parsed;
}

// Re-parses a printing of a file that dumped as `expected`.
const herald::SourceFile& requireSameAst(herald::SourceManager& sources,
                                         std::string printed,
                                         const std::string& expected,
                                         Parsed& reparsed) {
  reparsed = parseText(sources, std::move(printed));
  const herald::SourceFile& source = sources.file(sources.size() - 1);
  require(reparsed.clean);
  require(herald::dumpAst(*reparsed.result.file, source, kCompare) == expected);
  return source;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  herald::SourceManager sources;
  Parsed first = parseText(sources, herald::fuzz::inputText(data, size));
  const herald::SourceFile& source = sources.file(0);
  (void)herald::dumpAst(*first.result.file, source);
  if (!first.clean) return 0;

  const std::string expected =
      herald::dumpAst(*first.result.file, source, kCompare);
  Parsed bare;
  (void)requireSameAst(sources, herald::printFile(*first.result.file), expected,
                       bare);

  const herald::FormatResult formatted =
      herald::formatFile(*first.result.file, source);
  if (!formatted.error.empty()) return 0;
  Parsed second;
  const herald::SourceFile& secondSource =
      requireSameAst(sources, formatted.text, expected, second);
  const herald::FormatResult again =
      herald::formatFile(*second.result.file, secondSource);
  require(again.error.empty() && again.text == formatted.text);
  return 0;
}
