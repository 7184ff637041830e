#include "frontend/format.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "frontend/ast_print.h"
#include "frontend/lexer.h"

namespace herald {
namespace {

// A file whose first line ends in CRLF is a CRLF file: its canonical form
// keeps CRLF on every line, so formatting does not rewrite every line of a
// file kept that way on purpose.
bool usesCrlf(std::string_view text) {
  const std::size_t newline = text.find('\n');
  return newline != std::string_view::npos && newline > 0 &&
         text[newline - 1] == '\r';
}

// The printer's `\n` line ends as CRLF; a `\r\n` it copied from the source
// (inside a doc comment) stays one line end.
std::string toCrlf(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

}  // namespace

FormatResult formatFile(const ast::File& file, const SourceFile& source) {
  std::vector<SourceRange> comments = collectComments(source);
  PrintedFile printed = printFile(file, source, comments);
  if (!printed.misplaced.empty()) {
    SourceRange first = printed.misplaced.front();
    return {{},
            fmt::format(
                "line {}: the formatter could not place the comment "
                "`{}`",
                source.lineColumn(first.begin).line,
                source.text().substr(first.begin, first.end - first.begin))};
  }
  if (usesCrlf(source.text())) printed.text = toCrlf(printed.text);
  SourceFile output(source.id(), source.name(), printed.text);
  std::vector<SourceRange> outputComments = collectComments(output);
  if (std::optional<std::string> problem =
          compareComments(source, comments, output, outputComments))
    return {{}, std::move(*problem)};
  return {std::move(printed.text), {}};
}

}  // namespace herald
