#include "golden_case.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "checker/checker.h"
#include "codegen/codegen.h"
#include "frontend/ast_dump.h"
#include "frontend/diagnostic_render.h"
#include "frontend/format.h"
#include "frontend/parser.h"
#include "ir/dump.h"
#include "ir/verify.h"
#include "registry/lock.h"
#include "registry/lock_source.h"
#include "registry/registry.h"

namespace herald::golden {

namespace fs = std::filesystem;

std::vector<GoldenCase> discoverCases(const fs::path& root,
                                      const std::vector<std::string>& filters) {
  std::vector<GoldenCase> cases;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(root, ec)) {
    if (!entry.is_directory()) continue;
    GoldenCase c{entry.path().filename().string(), entry.path(), {}};
    if (!filters.empty() &&
        std::none_of(filters.begin(), filters.end(), [&](const std::string& f) {
          return c.name.find(f) != std::string::npos;
        }))
      continue;
    for (const fs::directory_entry& file : fs::directory_iterator(c.dir, ec)) {
      if (file.is_regular_file() && file.path().extension() == ".herald" &&
          !(c.kind() == CaseKind::Fmt &&
            file.path().filename() == kFmtExpectation))
        c.inputs.push_back(file.path());
    }
    std::sort(c.inputs.begin(), c.inputs.end(),
              [](const fs::path& a, const fs::path& b) {
                return a.filename().string() < b.filename().string();
              });
    cases.push_back(std::move(c));
  }
  std::sort(
      cases.begin(), cases.end(),
      [](const GoldenCase& a, const GoldenCase& b) { return a.name < b.name; });
  return cases;
}

std::optional<std::string> readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

CaseOutput runCase(const GoldenCase& c) {
  CaseOutput out;
  SourceManager sources;
  std::vector<FileId> ids;
  for (const fs::path& input : c.inputs) {
    std::optional<std::string> text = readFile(input);
    if (!text) {
      out.problem = "cannot read " + input.string();
      return out;
    }
    ids.push_back(sources.addFile(input.filename().string(), std::move(*text)));
  }
  DiagnosticEngine diags;
  std::vector<ParseResult> results;
  results.reserve(ids.size());
  for (FileId id : ids) results.push_back(parse(sources.file(id), diags));
  std::unique_ptr<check::Program> program;
  if (c.checked()) {
    std::vector<const ast::File*> files;
    files.reserve(results.size());
    for (const ParseResult& result : results) files.push_back(result.file);
    program = check::checkProgram(files, sources, diags);
    // A case with a schema lock also runs the registry against it, as
    // `heraldc check` does.
    fs::path lock = c.dir / std::string(registry::kLockFileName);
    if (!diags.hasErrors() && fs::exists(lock)) {
      std::optional<std::string> text = readFile(lock);
      if (!text) {
        out.problem = "cannot read " + lock.string();
        return out;
      }
      const SourceFile& file = sources.file(sources.addFile(
          std::string(registry::kLockFileName), std::move(*text)));
      if (std::optional<registry::Lock> read =
              registry::readLockSource(file, diags)) {
        registry::RegistryOptions options;
        options.lockSource = &file;
        (void)registry::runRegistry(*program, *read, options, diags);
      }
    }
  }
  diags.finalize();

  out.hasErrors = diags.hasErrors();
  out.hasWarnings = std::any_of(
      diags.diagnostics().begin(), diags.diagnostics().end(),
      [](const Diagnostic& d) { return d.severity() == Severity::Warning; });
  out.diagnostics = renderText(sources, diags.diagnostics());
  switch (c.kind()) {
    case CaseKind::Fail:
    case CaseKind::Warn:
      out.text = out.diagnostics;
      return out;
    case CaseKind::Check:
      if (!out.hasErrors && !out.hasWarnings) {
        out.text = check::dumpIr(*program, sources);
        for (const std::string& p : check::verifyIr(*program))
          out.problem += "IR verifier: " + p + "\n";
      }
      return out;
    case CaseKind::Gen:
      if (!out.hasErrors && !out.hasWarnings) {
        codegen::Options options;
        for (FileId id : ids)
          options.displayPaths.push_back(sources.file(id).name());
        for (const codegen::GeneratedFile& file :
             codegen::generate(*program, sources, options))
          out.text += "=== " + file.path + "\n" + file.content;
      }
      return out;
    case CaseKind::Ast:
    case CaseKind::Fmt:
      break;
  }
  if (c.kind() == CaseKind::Fmt) {
    if (ids.size() != 1) {
      out.problem = "a fmt_ case has exactly one input besides " +
                    std::string(kFmtExpectation);
      return out;
    }
    if (out.hasErrors) return out;
    FormatResult formatted = formatFile(*results[0].file, sources.file(ids[0]));
    if (!formatted.error.empty()) {
      out.problem = "cannot format " + sources.file(ids[0]).name() + ": " +
                    formatted.error;
      return out;
    }
    out.text = std::move(formatted.text);
    return out;
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const SourceFile& file = sources.file(ids[i]);
    out.text += "=== " + file.name() + "\n";
    out.text += dumpAst(*results[i].file, file);
  }
  return out;
}

}  // namespace herald::golden
