// What the command line selects, independent of how CLI11 parses it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace herald::driver {

enum class ColorMode { Auto, Always, Never };
enum class DiagnosticsFormat { Text, Json };

// Process exit codes.
enum ExitCode : int {
  kExitOk = 0,        // no errors (warnings allowed)
  kExitErrors = 1,    // diagnostics with error severity were reported
  kExitUsage = 2,     // bad command line, or an input could not be read
  kExitInternal = 3,  // a bug in heraldc
};

// clang's -ferror-limit default.
inline constexpr std::size_t kDefaultErrorLimit = 50;

struct GlobalOptions {
  ColorMode color = ColorMode::Auto;
  DiagnosticsFormat format = DiagnosticsFormat::Text;
  std::size_t errorLimit = kDefaultErrorLimit;  // 0: no limit
};

struct ParseOptions {
  std::vector<std::string> paths;
  bool dumpAst = false;
  std::string dumpTokens;  // empty: not requested
};

// Where herald.schema.lock is and whether it may change (language
// reference, section 11).
struct SchemaLockFlags {
  std::string path;     // `--schema-lock PATH`; empty: found from the inputs
  bool locked = false;  // `--locked`: a needed lock change is an error
};

struct CheckOptions {
  std::vector<std::string> paths;
  bool dumpIr = false;         // print the checked IR when there are no errors
  SchemaLockFlags schemaLock;  // read, never written
};

enum class GraphFormat { Dot, Svg };

struct GraphOptions {
  std::vector<std::string> paths;
  std::string output;  // empty: standard output
  GraphFormat format = GraphFormat::Dot;
};

struct BuildOptions {
  std::vector<std::string> paths;
  std::string outputDir;     // where the generated files go
  bool listOutputs = false;  // print their paths instead of writing them
  SchemaLockFlags schemaLock;
};

struct LspOptions {
  // A message whose content is larger is refused without being read into
  // memory.
  std::size_t maxMessageBytes = std::size_t{64} << 20;
};

struct FmtOptions {
  std::vector<std::string> paths;
  bool check = false;  // list the files not in canonical form
  bool write = false;  // rewrite the files not in canonical form
};

}  // namespace herald::driver
