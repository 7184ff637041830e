#include "frontend/format.h"

#include <optional>
#include <vector>

#include <fmt/format.h>

#include "frontend/ast_print.h"
#include "frontend/lexer.h"

namespace herald {

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
  SourceFile output(source.id(), source.name(), printed.text);
  std::vector<SourceRange> outputComments = collectComments(output);
  if (std::optional<std::string> problem =
          compareComments(source, comments, output, outputComments))
    return {{}, std::move(*problem)};
  return {std::move(printed.text), {}};
}

}  // namespace herald
