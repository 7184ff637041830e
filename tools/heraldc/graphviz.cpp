#include "tools/heraldc/graphviz.h"

#include <system_error>

#include <fmt/format.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/ErrorOr.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FileUtilities.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

namespace herald::driver {

namespace {

// A temporary file named `heraldc-graph-*.<suffix>`, removed on scope exit.
struct TempFile {
  llvm::SmallString<128> path;
  std::error_code error;
  llvm::FileRemover remover;

  explicit TempFile(llvm::StringRef suffix) {
    error = llvm::sys::fs::createTemporaryFile("heraldc-graph", suffix, path);
    if (!error) remover.setFile(path);
  }
};

}  // namespace

std::optional<std::string> findOnPath(std::string_view program) {
  llvm::ErrorOr<std::string> found =
      llvm::sys::findProgramByName(llvm::StringRef(program));
  if (!found) return std::nullopt;
  return *found;
}

RenderResult renderWithDot(const std::string& dotPath, std::string_view dot,
                           std::string_view format) {
  RenderResult result;
  TempFile input("dot");
  TempFile output{llvm::StringRef(format)};
  if (input.error || output.error) {
    result.error =
        fmt::format("cannot create a temporary file: {}",
                    (input.error ? input.error : output.error).message());
    return result;
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream in(input.path, ec);
    if (!ec) {
      in << dot;
      in.close();
      ec = in.error();
    }
    if (ec) {
      result.error = fmt::format("cannot write temporary file '{}': {}",
                                 input.path.str(), ec.message());
      return result;
    }
  }
  const std::string type = fmt::format("-T{}", format);
  const llvm::StringRef args[] = {dotPath, type, "-o", output.path, input.path};
  std::string message;
  // Graphviz's own messages reach stderr unredirected.
  const int status = llvm::sys::ExecuteAndWait(
      dotPath, args, /*Env=*/llvm::None, /*Redirects=*/{}, 0, 0, &message);
  if (status != 0) {
    result.error =
        status < 0
            ? fmt::format("cannot run '{}': {}", dotPath, message)
            : fmt::format("'{}' failed with exit status {}", dotPath, status);
    return result;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> rendered =
      llvm::MemoryBuffer::getFile(output.path);
  if (!rendered) {
    result.error = fmt::format("cannot read what '{}' wrote: {}", dotPath,
                               rendered.getError().message());
    return result;
  }
  result.output = (*rendered)->getBuffer().str();
  return result;
}

}  // namespace herald::driver
