// The subcommands of heraldc, one file each (parse_command.cpp, ...). Each
// returns the process exit code.
#pragma once

#include "tools/heraldc/options.h"

namespace herald::driver {

[[nodiscard]] int runParse(const GlobalOptions& global,
                           const ParseOptions& options);
[[nodiscard]] int runCheck(const GlobalOptions& global,
                           const CheckOptions& options);
[[nodiscard]] int runGraph(const GlobalOptions& global,
                           const GraphOptions& options);
[[nodiscard]] int runBuild(const GlobalOptions& global,
                           const BuildOptions& options);
[[nodiscard]] int runFmt(const GlobalOptions& global,
                         const FmtOptions& options);
// The language server on standard input and output (tools/lsp).
[[nodiscard]] int runLsp(const LspOptions& options);

}  // namespace herald::driver
