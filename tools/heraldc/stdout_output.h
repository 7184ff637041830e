// What the subcommands print on standard output.
#pragma once

#include <cstddef>
#include <string_view>

#include "frontend/source.h"
#include "tools/heraldc/options.h"

namespace herald::driver {

void writeOut(std::string_view text);

// With several files, each file's output is introduced by a header line, so
// the concatenation stays readable; one file's output is printed bare.
void writeFileOutput(std::size_t index, std::size_t count,
                     const SourceFile& file, std::string_view text);

// JSON diagnostics own stdout; a command that prints there cannot share it.
// Prints why and returns true when `global` asks for JSON.
[[nodiscard]] bool rejectJsonWithOutput(const GlobalOptions& global,
                                        std::string_view what);

}  // namespace herald::driver
