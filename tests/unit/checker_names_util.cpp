#include "checker_names_util.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>

#include "checker/sema.h"

namespace herald::test {

namespace {

std::string where(const SourceManager& sources, SourceRange r) {
  const SourceFile& file = sources.file(r.file);
  LineColumn lc = file.lineColumn(r.begin);
  return fmt::format("{}:{}:{}", file.name(), lc.line, lc.column);
}

}  // namespace

std::vector<std::string> NamesRun::diagnostics() const {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags->diagnostics())
    out.push_back(fmt::format("{} {} {}", diagInfo(d.kind).code,
                              where(*sources, d.range), d.message));
  return out;
}

std::vector<std::string> NamesRun::codes() const {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags->diagnostics())
    out.emplace_back(diagInfo(d.kind).code);
  return out;
}

std::vector<std::string> NamesRun::notes(std::string_view code) const {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags->diagnostics()) {
    if (diagInfo(d.kind).code != code) continue;
    for (const DiagnosticNote& n : d.notes)
      out.push_back(n.hasRange ? where(*sources, n.range) + " " + n.message
                               : "help: " + n.message);
  }
  return out;
}

const check::ContextInfo& NamesRun::context(std::string_view name) const {
  const check::ContextInfo* ctx = program->context(name);
  if (ctx == nullptr)
    throw std::runtime_error("no context " + std::string(name));
  return *ctx;
}

llvm::ArrayRef<ast::Ident> NamesRun::parts(std::string_view dotted) {
  const std::string& text = spellings.emplace_back(dotted);
  std::vector<ast::Ident>& idents = identLists_.emplace_back();
  llvm::StringRef rest = text;
  while (true) {
    auto [head, tail] = rest.split('.');
    idents.push_back({head, {}});
    if (tail.empty() && rest.size() == head.size()) break;
    rest = tail;
  }
  return idents;
}

check::LookupResult NamesRun::lookup(std::string_view from,
                                     std::string_view dotted) {
  return check::lookupDecl(*program, context(from), parts(dotted));
}

std::vector<check::DeclInfo*> NamesRun::candidates(std::string_view from,
                                                   std::string_view dotted) {
  const check::LookupResult r = lookup(from, dotted);
  return check::ambiguousCandidates(context(from), parts(dotted), r.partsUsed);
}

std::vector<check::DeclInfo*> NamesRun::hidden(std::string_view from,
                                               std::string_view dotted) {
  return check::hiddenDeclarations(*program, context(from),
                                   parts(dotted).front().name);
}

std::unique_ptr<NamesRun> runNames(
    const std::vector<std::pair<std::string, std::string>>& files) {
  auto run = std::make_unique<NamesRun>();
  for (const auto& [name, text] : files) {
    FileId id = run->sources->addFile(name, text);
    run->parses.push_back(parse(run->sources->file(id), *run->diags));
    run->files.push_back(run->parses.back().file);
  }
  run->parseErrors = run->diags->hasErrors();
  check::Sema sema{*run->program, *run->diags, *run->sources, run->files};
  check::collectDeclarations(sema);
  check::resolveConsumes(sema);
  check::resolveSignatures(sema);
  run->spelling = sema.speller.stats();
  run->diags->finalize();
  return run;
}

std::unique_ptr<NamesRun> runNames(std::string text) {
  return runNames({{"test.herald", std::move(text)}});
}

}  // namespace herald::test
