// Code generation: the checked IR of a program without errors -> one C++20
// header and one source per context, against herald_runtime. A function from
// values to values; `tools/heraldc` writes the files.
#pragma once

#include <string>
#include <vector>

#include "frontend/source.h"
#include "ir/program.h"

namespace herald::codegen {

struct GeneratedFile {
  std::string path;  // relative to the output directory: `commerce/order.h`
  std::string content;
};

struct Options {
  // Per source file (indexed by FileId), the path the header comment names:
  // relative to the deepest directory holding every input.
  std::vector<std::string> displayPaths;
};

// Files sorted by path. `program` must come from a check without errors.
[[nodiscard]] std::vector<GeneratedFile> generate(const check::Program& program,
                                                  const SourceManager& sources,
                                                  const Options& options);

}  // namespace herald::codegen
