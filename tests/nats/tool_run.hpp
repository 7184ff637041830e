#pragma once
// The built `herald` operator tool run from the nats tests, and the text
// tables it prints.
#include <string>
#include <vector>

namespace herald::test {

struct ToolRun {
  int exit = -1;
  std::string out;
};

// The herald tool with `args` (a shell-quoted argument string); its stdout
// and exit status.
ToolRun run_herald(const std::string& args);

// The cells of the first text table row after the line starting with
// `section` whose first cell is `first`; empty when there is none.
std::vector<std::string> table_row(const std::string& text,
                                   const std::string& section,
                                   const std::string& first);

}  // namespace herald::test
