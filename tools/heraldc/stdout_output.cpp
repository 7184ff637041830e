#include "tools/heraldc/stdout_output.h"

#include <cstdio>

#include <fmt/format.h>

#include "tools/heraldc/session.h"

namespace herald::driver {

void writeOut(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
}

void writeFileOutput(std::size_t index, std::size_t count,
                     const SourceFile& file, std::string_view text) {
  if (count > 1) {
    if (index > 0) writeOut("\n");
    writeOut(fmt::format("==> {} <==\n", file.name()));
  }
  writeOut(text);
}

bool rejectJsonWithOutput(const GlobalOptions& global, std::string_view what) {
  if (global.format != DiagnosticsFormat::Json) return false;
  printError(fmt::format(
      "--diagnostics-format=json writes to standard output and cannot be "
      "combined with {}",
      what));
  return true;
}

}  // namespace herald::driver
