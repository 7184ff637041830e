#include <optional>
#include <string>

#include <fmt/format.h>

#include "checker/flow_dot.h"
#include "tools/heraldc/commands.h"
#include "tools/heraldc/graphviz.h"
#include "tools/heraldc/outputs.h"
#include "tools/heraldc/pipeline.h"
#include "tools/heraldc/session.h"
#include "tools/heraldc/stdout_output.h"

namespace herald::driver {
namespace {

// The graph in the requested format, or nullopt after reporting why not.
std::optional<std::string> render(Session& session, GraphFormat format,
                                  std::string dot) {
  switch (format) {
    case GraphFormat::Dot:
      return dot;
    case GraphFormat::Svg: {
      std::optional<std::string> dotPath = findOnPath("dot");
      if (!dotPath) {
        session.fail(
            "Graphviz 'dot' not found on PATH; install graphviz or use "
            "--format=dot");
        return std::nullopt;
      }
      RenderResult svg = renderWithDot(*dotPath, dot, "svg");
      if (!svg.error.empty()) {
        session.fail(
            fmt::format("cannot render the graph as SVG: {}", svg.error));
        return std::nullopt;
      }
      return std::move(svg.output);
    }
  }
  return std::nullopt;
}

}  // namespace

int runGraph(const GlobalOptions& global, const GraphOptions& options) {
  const bool toStdout = options.output.empty();
  if (toStdout && rejectJsonWithOutput(global, "graph without -o"))
    return kExitUsage;
  Session session(global);
  if (!session.load(options.paths)) return kExitUsage;
  CheckedProgram checked = runChecker(session.sources(), session.diags());
  // A program with errors has no trustworthy flow graph: nothing is written.
  if (session.diags().hasErrors()) return session.finish();

  std::optional<std::string> text =
      render(session, options.format, check::flowGraphDot(*checked.program));
  if (text && !toStdout) {
    if (std::optional<std::string> error = writeFile(options.output, *text))
      session.fail(
          fmt::format("cannot write '{}': {}", options.output, *error));
  }
  const int status = session.finish();
  if (text && toStdout && status == kExitOk) writeOut(*text);
  return status;
}

}  // namespace herald::driver
