// heraldc: the Herald compiler driver.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>

#include "tools/heraldc/catalogue.h"
#include "tools/heraldc/commands.h"
#include "tools/heraldc/options.h"
#include "tools/heraldc/session.h"

namespace herald::driver {
namespace {

constexpr const char* kExitCodesHelp =
    "Exit status: 0 no errors (warnings allowed), 1 errors reported, "
    "2 usage or I/O problem.";

enum class Command { None, Parse, Check, Graph, Build, Fmt, Lsp };

// Top-level options whose value may be the next argument.
constexpr std::string_view kValueOptions[] = {"--color", "--diagnostics-format",
                                              "--error-limit", "--explain"};

// The first argument that is not an option (nor an option's value): where
// CLI11 expects the subcommand.
std::optional<std::string_view> firstWord(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") return std::nullopt;
    if (arg.size() > 1 && arg.front() == '-') {
      for (std::string_view option : kValueOptions)
        if (arg == option) ++i;
      continue;
    }
    return arg;
  }
  return std::nullopt;
}

// CLI11 would report a misspelled subcommand as an unexpected argument; the
// nearest subcommand by edit distance says what was meant.
std::optional<std::string> unknownSubcommand(
    std::string_view word, const std::vector<std::string>& names) {
  std::string nearest;
  unsigned best = 0;
  for (const std::string& name : names) {
    if (name == word) return std::nullopt;
    unsigned distance =
        llvm::StringRef(word.data(), word.size()).edit_distance(name, true, 3);
    if (nearest.empty() || distance < best) {
      nearest = name;
      best = distance;
    }
  }
  if (!nearest.empty() && best <= std::max<std::size_t>(2, word.size() / 3))
    return fmt::format("unknown subcommand '{}'; did you mean '{}'?", word,
                       nearest);
  return fmt::format("unknown subcommand '{}'; expected one of: {}", word,
                     fmt::join(names, ", "));
}

// `--schema-lock` and `--locked`, shared by check and build.
void addSchemaLockFlags(CLI::App& command, SchemaLockFlags& flags) {
  command
      .add_option("--schema-lock", flags.path,
                  "The schema lock to use (default: the nearest "
                  "herald.schema.lock above the inputs, else one beside them)")
      ->type_name("FILE");
  command.add_flag("--locked", flags.locked,
                   "Fail, naming each event, when the schema lock needs a "
                   "change (for CI)");
}

int run(int argc, char** argv) {
  CLI::App app("heraldc: the Herald compiler", "heraldc");
  app.set_version_flag("--version", std::string("heraldc ") + HERALD_VERSION);
  app.footer(kExitCodesHelp);
  // Options declared on the top-level app are also accepted after the
  // subcommand (`heraldc parse --color=never x.herald`).
  app.fallthrough();
  // One subcommand, unless --explain is given; run() checks.
  app.require_subcommand(0, 1);
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return fmt::format("heraldc: error: {}\nRun 'heraldc --help' for usage.\n",
                       e.what());
  });

  std::string color = "auto";
  app.add_option("--color", color,
                 "Color diagnostics: auto (when stderr is a terminal), "
                 "always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("WHEN")
      ->capture_default_str();
  std::string format = "text";
  app.add_option("--diagnostics-format", format,
                 "text (on stderr) or json (one array on stdout)")
      ->check(CLI::IsMember({"text", "json"}))
      ->type_name("FORMAT")
      ->capture_default_str();
  std::size_t errorLimit = kDefaultErrorLimit;
  app.add_option("--error-limit", errorLimit,
                 "Stop after N errors and say how many more there were; 0 "
                 "for no limit")
      ->type_name("N")
      ->capture_default_str();
  std::string explain;
  app.add_option("--explain", explain,
                 "Print the catalogue entry of a diagnostic code (E0510) and "
                 "exit")
      ->type_name("CODE");

  Command command = Command::None;

  ParseOptions parseOptions;
  CLI::App* parse = app.add_subcommand("parse", "Lex and parse Herald sources");
  auto* parsePaths =
      parse->add_option("paths", parseOptions.paths,
                        "Files and directories (searched for *.herald)");
  auto* dumpAst = parse->add_flag("--dump-ast", parseOptions.dumpAst,
                                  "Print the syntax tree of each file");
  auto* dumpTokens = parse
                         ->add_option("--dump-tokens", parseOptions.dumpTokens,
                                      "Print the tokens of one file")
                         ->type_name("FILE");
  dumpTokens->excludes(dumpAst)->excludes(parsePaths);
  parse->callback([&] { command = Command::Parse; });

  CheckOptions checkOptions;
  CLI::App* check = app.add_subcommand(
      "check", "Check Herald sources: names, types, effects and event rules");
  check
      ->add_option("paths", checkOptions.paths,
                   "Files and directories (searched for *.herald)")
      ->required();
  check->add_flag("--dump-ir", checkOptions.dumpIr,
                  "Print the checked IR on stdout (when there are no errors)");
  addSchemaLockFlags(*check, checkOptions.schemaLock);
  check->callback([&] { command = Command::Check; });

  GraphOptions graphOptions;
  std::string graphFormat = "dot";
  CLI::App* graph = app.add_subcommand(
      "graph",
      "Check Herald sources and write their event-flow graph (Graphviz)");
  graph
      ->add_option("paths", graphOptions.paths,
                   "Files and directories (searched for *.herald)")
      ->required();
  graph
      ->add_option("-o,--output", graphOptions.output,
                   "Write the graph to FILE instead of stdout")
      ->type_name("FILE");
  graph
      ->add_option("--format", graphFormat,
                   "dot (Graphviz source) or svg (rendered by Graphviz's "
                   "'dot', which must be on PATH)")
      ->check(CLI::IsMember({"dot", "svg"}))
      ->type_name("FORMAT")
      ->capture_default_str();
  graph->callback([&] { command = Command::Graph; });

  FmtOptions fmtOptions;
  CLI::App* fmt = app.add_subcommand(
      "fmt", "Print Herald sources in canonical form on stdout, comments kept");
  fmt->add_option("paths", fmtOptions.paths,
                  "Files and directories (searched for *.herald)")
      ->required();
  auto* fmtCheck =
      fmt->add_flag("--check", fmtOptions.check,
                    "Print nothing but the files not in canonical form; exit "
                    "1 if there are any");
  fmt->add_flag("-w,--write", fmtOptions.write,
                "Rewrite the files not in canonical form in place (only when "
                "every file parses without errors); print nothing")
      ->excludes(fmtCheck);
  fmt->callback([&] { command = Command::Fmt; });

  BuildOptions buildOptions;
  CLI::App* build = app.add_subcommand(
      "build", "Check Herald sources and generate C++20 for herald_runtime");
  build
      ->add_option("paths", buildOptions.paths,
                   "Files and directories (searched for *.herald)")
      ->required();
  auto* buildOutput =
      build
          ->add_option("-o,--output", buildOptions.outputDir,
                       "Write the generated files under DIR (only those "
                       "whose content changed)")
          ->type_name("DIR");
  build
      ->add_flag("--list-outputs", buildOptions.listOutputs,
                 "Print the paths (relative to the output directory) of the "
                 "files a build would write, one per line; write nothing")
      ->excludes(buildOutput);
  addSchemaLockFlags(*build, buildOptions.schemaLock);
  build->callback([&] { command = Command::Build; });

  LspOptions lspOptions;
  CLI::App* lsp = app.add_subcommand(
      "lsp",
      "Run the language server on standard input and output (Language "
      "Server Protocol, for editors)");
  lsp->add_option("--max-message-bytes", lspOptions.maxMessageBytes,
                  "Refuse, unread, a message whose content is larger")
      ->type_name("N")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  lsp->callback([&] { command = Command::Lsp; });

  std::vector<std::string> names;
  const CLI::App& definitions = app;
  for (const CLI::App* sub : definitions.get_subcommands(nullptr))
    names.push_back(sub->get_name());
  if (std::optional<std::string_view> word = firstWord(argc, argv)) {
    if (std::optional<std::string> error = unknownSubcommand(*word, names)) {
      printError(*error);
      fmt::print(stderr, "Run 'heraldc --help' for usage.\n");
      return kExitUsage;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  if (!explain.empty()) {
    if (command != Command::None) {
      printError("--explain takes no subcommand");
      return kExitUsage;
    }
    return runExplain(explain);
  }

  GlobalOptions global;
  global.errorLimit = errorLimit;
  global.color = color == "always"  ? ColorMode::Always
                 : color == "never" ? ColorMode::Never
                                    : ColorMode::Auto;
  global.format =
      format == "json" ? DiagnosticsFormat::Json : DiagnosticsFormat::Text;

  switch (command) {
    case Command::Parse:
      return runParse(global, parseOptions);
    case Command::Check:
      return runCheck(global, checkOptions);
    case Command::Graph:
      graphOptions.format =
          graphFormat == "svg" ? GraphFormat::Svg : GraphFormat::Dot;
      return runGraph(global, graphOptions);
    case Command::Build:
      return runBuild(global, buildOptions);
    case Command::Fmt:
      return runFmt(global, fmtOptions);
    case Command::Lsp:
      return runLsp(lspOptions);
    case Command::None:
      break;
  }
  printError("no subcommand given");
  fmt::print(stderr, "Run 'heraldc --help' for usage.\n");
  return kExitUsage;
}

}  // namespace
}  // namespace herald::driver

int main(int argc, char** argv) {
  // A failure here is a bug in heraldc, never the user's input; it still
  // must end with a message and a defined status rather than an abort.
  try {
    return herald::driver::run(argc, argv);
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "heraldc: error: out of memory\n");
  } catch (const std::exception& e) {
    fmt::print(stderr, "heraldc: internal error: {}\n", e.what());
  }
  return herald::driver::kExitInternal;
}
