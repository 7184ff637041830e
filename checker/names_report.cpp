// Reports for names that lookup did not resolve: unknown names with "did
// you mean" and the `consumes` line that would make a hidden declaration
// visible, and ambiguous bare names with their candidates.
#include <algorithm>
#include <string>
#include <vector>

#include "checker/consumes_hint.h"
#include "checker/lookup.h"
#include "checker/names_util.h"

namespace herald::check {

namespace {

// Which declarations make sense as suggestions for `what`.
bool fits(llvm::StringRef what, DeclInfoKind kind) {
  if (what == "type")
    return kind == DeclInfoKind::Type || kind == DeclInfoKind::Event ||
           kind == DeclInfoKind::Capability;
  if (what == "actor") return kind == DeclInfoKind::Actor;
  if (what == "capability") return kind == DeclInfoKind::Capability;
  if (what == "event") return kind == DeclInfoKind::Event;
  if (what == "agent") return kind == DeclInfoKind::Agent;
  return true;
}

constexpr const char* kBuiltinTypes[] = {
    "Int",    "Float",         "Bool", "String", "Instant", "Duration",
    "Option", "EventEnvelope", "List", "Map",    "Ref"};

void addNames(std::vector<std::string>& out, const ContextInfo& ctx,
              const ConsumesInfo* line, llvm::StringRef what) {
  for (const auto& entry : ctx.byName) {
    if (line != nullptr && !admits(*line, entry.getKey())) continue;
    if (!fits(what, entry.getValue()->kind)) continue;
    out.push_back(entry.getKey().str());
  }
}

// The last parts `from` could have meant after the other parts of `parts`,
// for "did you mean".
std::vector<std::string> suggestionsFor(const Program& program,
                                        const ContextInfo& from,
                                        llvm::ArrayRef<ast::Ident> parts,
                                        llvm::StringRef what) {
  std::vector<std::string> out;
  if (parts.size() == 1) {
    addNames(out, from, nullptr, what);
    for (const ConsumesInfo& line : from.consumes)
      if (line.target != nullptr)
        addNames(out, *line.target, line.target == &from ? nullptr : &line,
                 what);
    for (const auto& cap : program.firstParty)
      if (fits(what, DeclInfoKind::Capability)) out.push_back(cap->name);
    if (what == "type")
      for (const char* name : kBuiltinTypes) out.emplace_back(name);
  } else {
    // A qualified name: suggest within the context its prefix names.
    const llvm::StringRef first = parts.front().name;
    for (const ConsumesInfo& line : from.consumes)
      if (line.target != nullptr && line.alias == first && parts.size() == 2)
        addNames(out, *line.target, line.target == &from ? nullptr : &line,
                 what);
    // `full.context.Name` in any context, consumed or not.
    if (const ContextInfo* ctx =
            findContext(program, joinName(parts.drop_back())))
      addNames(out, *ctx, nullptr, what);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// `context.Name` for every context declaring `last`, and `alias.Name` for
// every alias that admits it: what a qualified name with a misspelt prefix
// may have meant.
std::vector<std::string> qualifiedSpellings(const Program& program,
                                            const ContextInfo& from,
                                            llvm::StringRef last,
                                            llvm::StringRef what) {
  std::vector<std::string> out;
  auto it = program.declsNamed.find(last);
  if (it != program.declsNamed.end())
    for (const DeclInfo* d : it->second)
      if (d->context != nullptr && fits(what, d->kind))
        out.push_back(d->qualified);
  for (const ConsumesInfo& line : from.consumes) {
    if (line.target == nullptr || line.alias.empty()) continue;
    const DeclInfo* d = line.target->lookup(last);
    if (d == nullptr || !fits(what, d->kind)) continue;
    if (line.target != &from && !admits(line, last)) continue;
    out.push_back(qualify(line.alias, last));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

DiagnosticBuilder reportUnknown(Sema& sema, SourceRange range,
                                llvm::StringRef what, const std::string& name) {
  if (what == "type") return sema.diags.report<diag::UnknownType>(range, name);
  if (what == "actor")
    return sema.diags.report<diag::UnknownActor>(range, name);
  return sema.diags.report<diag::UnknownName>(range, name);
}

std::string contextList(const std::vector<DeclInfo*>& candidates) {
  std::string out = "contexts ";
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (i != 0) out += i + 1 == candidates.size() ? " and " : ", ";
    out += "'";
    out += candidates[i]->context != nullptr ? candidates[i]->context->name
                                             : candidates[i]->qualified;
    out += "'";
  }
  return out;
}

// A `consumes` line of `from` names a context that does not exist (E0203
// reported it): any bare name may be that context's.
bool consumesUnknownContext(const ContextInfo& from) {
  for (const ConsumesInfo& line : from.consumes)
    if (line.target == nullptr) return true;
  return false;
}

// Whether the prefix of a qualified name names a context or an alias of
// `from`; when it does not, the prefix itself is the mistake.
bool prefixNamesSomething(const Program& program, const ContextInfo& from,
                          llvm::ArrayRef<ast::Ident> prefix) {
  if (prefix.size() == 1)
    for (const ConsumesInfo& line : from.consumes)
      if (line.alias == prefix.front().name) return true;
  return findContext(program, joinName(prefix)) != nullptr;
}

// One mistake, one diagnostic: a bare name in a context that consumes an
// unknown context, or a second use of a prefix that names nothing, is
// covered by the report already made.
bool coveredByEarlierReport(Sema& sema, const ContextInfo& from,
                            llvm::ArrayRef<ast::Ident> parts) {
  if (parts.size() == 1) return consumesUnknownContext(from);
  llvm::ArrayRef<ast::Ident> prefix = parts.drop_back();
  if (prefixNamesSomething(sema.program, from, prefix)) return false;
  std::string key = from.name;
  key += ' ';
  key += joinName(prefix);
  return !sema.unknownPrefixes.insert(key).second;
}

// Whether `from` has a `consumes` line for `target` (which may not list
// every name).
bool consumedBy(const ContextInfo& from, const ContextInfo& target) {
  for (const ConsumesInfo& line : from.consumes)
    if (line.target == &target) return true;
  return false;
}

}  // namespace

void reportAmbiguous(Sema& sema, const ContextInfo& from, const LookupResult& r,
                     llvm::ArrayRef<ast::Ident> parts, SourceRange range) {
  const std::string name = joinName(parts.take_front(r.partsUsed));
  const std::vector<DeclInfo*> candidates =
      ambiguousCandidates(from, parts, r.partsUsed);
  auto report = sema.diags.report<diag::AmbiguousName>(range, name,
                                                       contextList(candidates));
  for (const DeclInfo* c : candidates)
    report.note(c->nameRange, "candidate '{}' is declared here", c->qualified);
  if (!candidates.empty())
    report.note("write the qualified name to choose one, e.g. '{}'",
                candidates.front()->qualified);
}

void reportUnresolved(Sema& sema, const ContextInfo& from,
                      const LookupResult& r, llvm::ArrayRef<ast::Ident> parts,
                      SourceRange range, llvm::StringRef what) {
  if (parts.empty()) return;
  for (const ast::Ident& part : parts)
    if (part.empty()) return;
  switch (r.status) {
    case LookupResult::Status::Ambiguous:
      reportAmbiguous(sema, from, r, parts, range);
      return;
    case LookupResult::Status::Found: {
      // `Region.Domestic` where a declaration is wanted.
      auto report = reportUnknown(sema, range, what, joinName(parts));
      if (r.decl != nullptr)
        report.note("'{}' is {}; '{}' is not a declaration",
                    joinName(parts.take_front(r.partsUsed)),
                    describeWithArticle(r.decl->kind), joinName(parts));
      return;
    }
    case LookupResult::Status::NotFound:
      break;
  }
  if (coveredByEarlierReport(sema, from, parts)) return;
  const std::vector<DeclInfo*> hidden =
      hiddenDeclarations(sema.program, from, parts.front().name);
  for (const DeclInfo* d : hidden)
    if (d->context != nullptr && !consumedBy(from, *d->context) &&
        missingConsumesReported(sema, from, *d->context))
      return;
  auto report = reportUnknown(sema, range, what, joinName(parts));
  std::string meant;
  if (sema.speller.admit()) {
    const std::string close = sema.speller.closest(
        parts.back().name, suggestionsFor(sema.program, from, parts, what));
    if (!close.empty())
      meant =
          parts.size() == 1 ? close : joinName(parts.drop_back()) + "." + close;
    else if (parts.size() > 1)
      meant = sema.speller.closest(
          joinName(parts),
          qualifiedSpellings(sema.program, from, parts.back().name, what));
  }
  if (!meant.empty()) {
    report.note("did you mean '{}'?", meant);
    report.fixit(range, meant);
  }
  // A name declared in many contexts would otherwise get a note for each.
  constexpr std::size_t kMaxHiddenNotes = 3;
  std::size_t noted = 0;
  bool hinted = false;
  for (const DeclInfo* d : hidden) {
    if (d->context == nullptr) continue;
    if (noted == kMaxHiddenNotes) {
      report.note("'{}' is declared in {} more contexts", d->name,
                  hidden.size() - noted);
      break;
    }
    ++noted;
    if (consumedBy(from, *d->context)) {
      report.note(
          "'{}' is declared in context '{}', but its `consumes` line does "
          "not list it; add '{}' to the list, or write '{}'",
          d->name, d->context->name, d->name, d->qualified);
      continue;
    }
    report.note(
        "'{}' is declared in context '{}'; add 'consumes {}' or write "
        "'{}' to use it",
        d->name, d->context->name, d->context->name, d->qualified);
    if (hinted) continue;
    // One `consumes` line makes every name of that context visible, so it
    // is suggested once, here, and the names it would also make visible
    // are not reported again.
    hinted = true;
    report.note(
        "a 'consumes {}' line makes every name of that context visible; "
        "other names it hides in '{}' are not reported",
        d->context->name, from.name);
    if (auto fix = consumesFixIt(sema, from, range, d->context->name))
      report.fixit(fix->range, fix->replacement);
    recordMissingConsumes(sema, from, *d->context);
  }
}

}  // namespace herald::check
