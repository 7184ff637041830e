#include "tools/heraldc/session.h"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "frontend/diagnostic_render.h"
#include "tools/heraldc/heap.h"
#include "tools/heraldc/inputs.h"
#include <unistd.h>

namespace herald::driver {

void printError(std::string_view message) {
  fmt::print(stderr, "heraldc: error: {}\n", message);
}

bool colorEnabled(ColorMode mode) {
  switch (mode) {
    case ColorMode::Always:
      return true;
    case ColorMode::Never:
      return false;
    case ColorMode::Auto: {
      const char* noColor = std::getenv("NO_COLOR");
      if (noColor != nullptr && *noColor != '\0') return false;
      const char* term = std::getenv("TERM");
      if (term != nullptr && std::string_view(term) == "dumb") return false;
      return isatty(fileno(stderr)) != 0;
    }
  }
  return false;
}

Session::Session(GlobalOptions options) : options_(options) {
  diags_.setErrorLimit(options_.errorLimit);
}

void Session::fail(std::string message) {
  failed_ = true;
  switch (options_.format) {
    case DiagnosticsFormat::Text:
      printError(message);
      return;
    case DiagnosticsFormat::Json:
      run_.push_back({Severity::Error, "io-error", std::move(message)});
      return;
  }
}

bool Session::load(const std::vector<std::string>& paths) {
  Inputs inputs = readInputs(paths);
  if (!inputs.errors.empty()) {
    for (std::string& error : inputs.errors) fail(std::move(error));
    (void)finish();
    return false;
  }
  std::size_t bytes = 0;
  for (const InputFile& file : inputs.files) bytes += file.text.size();
  prepareHeap(bytes);
  for (InputFile& file : inputs.files)
    sources_.addFile(std::move(file.name), std::move(file.text));
  return true;
}

int Session::finish() {
  diags_.finalize();
  if (std::optional<RunMessage> note = errorLimitNote(diags_))
    run_.push_back(std::move(*note));
  switch (options_.format) {
    case DiagnosticsFormat::Text: {
      std::string text = renderText(
          sources_, diags_.diagnostics(),
          TextRenderOptions{.color = colorEnabled(options_.color)}, run_);
      std::fwrite(text.data(), 1, text.size(), stderr);
      break;
    }
    case DiagnosticsFormat::Json: {
      std::string json = renderJson(sources_, diags_.diagnostics(), run_);
      std::fwrite(json.data(), 1, json.size(), stdout);
      break;
    }
  }
  run_.clear();
  std::fflush(stdout);
  if (failed_) return kExitUsage;
  return diags_.hasErrors() ? kExitErrors : kExitOk;
}

}  // namespace herald::driver
