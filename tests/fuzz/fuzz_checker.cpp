// The checker on whatever the parser makes of arbitrary text, syntax errors
// included: it always returns a program, its diagnostics point into the
// sources and render, and a program without errors dumps.
//
// A line `-- file` (a comment, so a seed still reads as Herald) starts a new
// file of the same program, so the fuzzer also reaches the rules across
// files: contexts spread over files, `consumes`, subscriptions.
#include <string_view>
#include <vector>

#include "checker/checker.h"
#include "frontend/diagnostic_render.h"
#include "frontend/parser.h"
#include "ir/dump.h"
#include "tests/fuzz/fuzz_target.h"

using herald::fuzz::require;

namespace {

constexpr std::string_view kFileSeparator = "\n-- file\n";
// More files add little beyond the second and third.
constexpr std::size_t kMaxFiles = 8;

std::vector<std::string> splitFiles(std::string_view text) {
  std::vector<std::string> files;
  while (files.size() + 1 < kMaxFiles) {
    const std::size_t at = text.find(kFileSeparator);
    if (at == std::string_view::npos) break;
    files.emplace_back(text.substr(0, at + 1));
    text.remove_prefix(at + kFileSeparator.size());
  }
  files.emplace_back(text);
  return files;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  herald::SourceManager sources;
  for (std::string& text : splitFiles(herald::fuzz::inputText(data, size))) {
    (void)sources.addFile("fuzz" + std::to_string(sources.size()) + ".herald",
                          std::move(text));
  }
  herald::DiagnosticEngine diags;
  std::vector<herald::ParseResult> parsed;
  std::vector<const herald::ast::File*> files;
  for (herald::FileId id = 0; id < sources.size(); ++id) {
    parsed.push_back(herald::parse(sources.file(id), diags));
    files.push_back(parsed.back().file);
  }
  const auto program = herald::check::checkProgram(files, sources, diags);
  require(program != nullptr);
  diags.finalize();
  herald::fuzz::requireRangesInside(sources, diags);
  (void)herald::renderText(sources, diags.diagnostics());
  if (!diags.hasErrors()) (void)herald::check::dumpIr(*program, sources);
  return 0;
}
