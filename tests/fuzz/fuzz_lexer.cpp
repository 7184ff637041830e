// The lexer on arbitrary bytes: every token lies inside the file, in order,
// and the stream ends with exactly one EndOfFile; the token dump, the
// comment scan and the rendering of the lexical diagnostics never fail.
#include "frontend/diagnostic_render.h"
#include "frontend/lexer.h"
#include "tests/fuzz/fuzz_target.h"

using herald::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  herald::SourceManager sources;
  const herald::FileId id =
      sources.addFile("fuzz.herald", herald::fuzz::inputText(data, size));
  const herald::SourceFile& file = sources.file(id);
  const auto length = static_cast<std::uint32_t>(file.text().size());

  herald::DiagnosticEngine diags;
  const std::vector<herald::Token> tokens = herald::lexAll(file, diags);
  require(!tokens.empty());
  require(tokens.back().kind == herald::TokenKind::EndOfFile);
  std::uint32_t previousEnd = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const herald::Token& t = tokens[i];
    require(t.kind != herald::TokenKind::EndOfFile || i + 1 == tokens.size());
    require(t.range.file == id);
    require(t.range.begin <= t.range.end && t.range.end <= length);
    require(t.range.begin >= previousEnd);
    previousEnd = t.range.end;
  }
  (void)herald::dumpTokens(file, tokens);

  for (const herald::SourceRange& c : herald::collectComments(file)) {
    require(c.begin < c.end && c.end <= length);
    require(sources.textOf(c).substr(0, 2) == "--");
  }

  diags.finalize();
  herald::fuzz::requireRangesInside(sources, diags);
  (void)herald::renderText(sources, diags.diagnostics());
  (void)herald::renderJson(sources, diags.diagnostics());
  return 0;
}
