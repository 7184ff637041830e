// Name lookup across contexts, and the reports for names that do not
// resolve. Lookup allocates nothing on the found path: it compares parts
// against dotted context names in place and probes StringMaps.
#include "checker/lookup.h"

#include <algorithm>
#include <string>
#include <vector>

#include <llvm/ADT/SmallVector.h>

#include "checker/names_util.h"
#include "checker/record_use.h"

namespace herald::check {

namespace {

LookupResult found(DeclInfo* decl, std::size_t parts) {
  LookupResult r;
  r.status = LookupResult::Status::Found;
  r.decl = decl;
  r.partsUsed = parts;
  return r;
}

bool byQualified(const DeclInfo* a, const DeclInfo* b) {
  return a->qualified < b->qualified;
}

void sortUnique(llvm::SmallVectorImpl<DeclInfo*>& hits) {
  std::sort(hits.begin(), hits.end(), byQualified);
  hits.erase(std::unique(hits.begin(), hits.end()), hits.end());
}

// Several distinct declarations for one name: ambiguous, or the one.
LookupResult pick(llvm::SmallVectorImpl<DeclInfo*>& hits, std::size_t parts) {
  sortUnique(hits);
  if (hits.size() == 1) return found(hits.front(), parts);
  LookupResult r;
  r.status = LookupResult::Status::Ambiguous;
  r.partsUsed = parts;
  return r;
}

// Is `ctx` reachable from `from` for `name` through any `consumes` line?
bool consumedFor(const ContextInfo& from, const ContextInfo& ctx,
                 llvm::StringRef name) {
  for (const ConsumesInfo& line : from.consumes)
    if (line.target == &ctx && admits(line, name)) return true;
  return false;
}

// Declarations named `name` in the contexts `from` consumes bare.
void consumedHits(const ContextInfo& from, llvm::StringRef name,
                  llvm::SmallVectorImpl<DeclInfo*>& hits) {
  for (const ConsumesInfo& line : from.consumes) {
    if (line.target == nullptr || line.target == &from) continue;
    if (!admits(line, name)) continue;
    if (DeclInfo* d = line.target->lookup(name)) hits.push_back(d);
  }
}

// `alias.Name`: the declarations `Name` of the contexts consumed `as alias`.
void aliasHits(const ContextInfo& from, llvm::ArrayRef<ast::Ident> parts,
               llvm::SmallVectorImpl<DeclInfo*>& hits) {
  for (const ConsumesInfo& line : from.consumes) {
    if (line.target == nullptr || line.alias != parts[0].name) continue;
    if (line.target != &from && !admits(line, parts[1].name)) continue;
    if (DeclInfo* d = line.target->lookup(parts[1].name)) hits.push_back(d);
  }
}

}  // namespace

LookupResult lookupDecl(const Program& program, const ContextInfo& from,
                        llvm::ArrayRef<ast::Ident> parts) {
  if (parts.empty() || parts.front().empty()) return {};
  const llvm::StringRef first = parts.front().name;

  // The context's own names shadow everything else, then the bare names of
  // consumed contexts; what they say about `first` is memoised, as most
  // names are looked up many times.
  llvm::SmallVector<DeclInfo*, 4> hits;
  auto [memo, fresh] = from.bareNames.try_emplace(first);
  if (fresh) {
    if (DeclInfo* d = from.lookup(first)) {
      memo->second = {ContextInfo::BareName::Found, d};
    } else {
      consumedHits(from, first, hits);
      sortUnique(hits);
      if (hits.size() == 1)
        memo->second = {ContextInfo::BareName::Found, hits.front()};
      else if (hits.size() > 1)
        memo->second = {ContextInfo::BareName::Ambiguous, nullptr};
    }
  }
  switch (memo->second.first) {
    case ContextInfo::BareName::Found:
      return found(memo->second.second, 1);
    case ContextInfo::BareName::Ambiguous: {
      LookupResult r;
      r.status = LookupResult::Status::Ambiguous;
      r.partsUsed = 1;
      return r;
    }
    case ContextInfo::BareName::None:
      break;
  }

  for (const auto& cap : program.firstParty)
    if (cap->name == first) return found(cap.get(), 1);

  if (parts.size() >= 2 && !parts[1].empty()) {
    // `alias.Name`: an alias is local to the context, so it wins over a
    // context of the same name.
    aliasHits(from, parts, hits);
    if (!hits.empty()) return pick(hits, 2);
  }
  // `full.context.Name` names that context's declaration whether or not
  // `from` consumes it, as a Java or Rust path does; the longest context
  // name wins. Probing declsNamed by each part keeps this independent of
  // the number of contexts.
  if (DeclInfo* d = lookupQualified(program, parts)) {
    const std::size_t k = matchContextName(d->context->name, parts);
    return found(d, k + 1);
  }

  return {};
}

std::vector<DeclInfo*> ambiguousCandidates(const ContextInfo& from,
                                           llvm::ArrayRef<ast::Ident> parts,
                                           std::size_t partsUsed) {
  llvm::SmallVector<DeclInfo*, 4> hits;
  if (parts.empty()) return {};
  if (partsUsed >= 2 && parts.size() >= 2)
    aliasHits(from, parts, hits);
  else
    consumedHits(from, parts.front().name, hits);
  sortUnique(hits);
  return {hits.begin(), hits.end()};
}

// Qualified names never need a `consumes` line, so only a bare first part
// can be hidden.
std::vector<DeclInfo*> hiddenDeclarations(const Program& program,
                                          const ContextInfo& from,
                                          llvm::StringRef name) {
  std::vector<DeclInfo*> hidden;
  auto it = program.declsNamed.find(name);
  if (it == program.declsNamed.end()) return hidden;
  for (DeclInfo* d : it->second) {
    if (d->context == nullptr || d->context == &from) continue;
    if (consumedFor(from, *d->context, name)) continue;
    hidden.push_back(d);
  }
  // declsNamed is sorted by qualified name, so hidden is too.
  return hidden;
}

DeclInfo* lookupQualified(const Program& program,
                          llvm::ArrayRef<ast::Ident> parts) {
  for (std::size_t k = parts.size(); k-- > 1;) {
    if (parts[k].empty()) continue;
    auto it = program.declsNamed.find(parts[k].name);
    if (it == program.declsNamed.end()) continue;
    for (DeclInfo* d : it->second)
      if (d->context != nullptr &&
          matchContextName(d->context->name, parts) == k)
        return d;
  }
  return nullptr;
}

std::string closestName(llvm::StringRef name,
                        llvm::ArrayRef<std::string> candidates,
                        SpellingStats* stats) {
  // About one edit in three characters, rounded up: `Logr` finds
  // `Logger`, while short names only suggest near-identical ones.
  const unsigned limit =
      std::max<unsigned>(1, static_cast<unsigned>((name.size() + 2) / 3));
  const std::string* best = nullptr;
  unsigned bestDistance = limit + 1;
  std::size_t compared = 0;
  for (const std::string& c : candidates) {
    if (c == name) continue;
    // The distance is at least the difference in length.
    const std::size_t gap = c.size() > name.size() ? c.size() - name.size()
                                                   : name.size() - c.size();
    if (gap >= bestDistance) continue;
    if (compared == kMaxComparedPerLookup) break;
    ++compared;
    const unsigned d = llvm::StringRef(c).edit_distance(name, true, limit);
    if (d < bestDistance) {
      bestDistance = d;
      best = &c;
    }
  }
  if (stats != nullptr) stats->compared += compared;
  return best != nullptr ? *best : std::string();
}

std::vector<std::string> visibleNames(const Program& program,
                                      const ContextInfo& from) {
  std::vector<std::string> names;
  for (const auto& entry : from.byName) names.push_back(entry.getKey().str());
  for (const ConsumesInfo& line : from.consumes) {
    if (line.target == nullptr) continue;
    for (const auto& entry : line.target->byName)
      if (admits(line, entry.getKey())) names.push_back(entry.getKey().str());
  }
  for (const auto& cap : program.firstParty) names.push_back(cap->name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

llvm::StringRef describeKind(DeclInfoKind kind) {
  switch (kind) {
    case DeclInfoKind::Type:
      return "type";
    case DeclInfoKind::Event:
      return "event";
    case DeclInfoKind::Actor:
      return "actor";
    case DeclInfoKind::Capability:
      return "capability";
    case DeclInfoKind::Fn:
      return "function";
    case DeclInfoKind::Agent:
      return "agent";
    case DeclInfoKind::Service:
      return "service";
  }
  return "declaration";
}

DeclInfo* resolveDecl(Sema& sema, const ContextInfo& from,
                      const ast::QualifiedName& name, llvm::StringRef what) {
  LookupResult r = lookupDecl(sema.program, from, name.parts);
  if (r.status == LookupResult::Status::Found &&
      r.partsUsed == name.parts.size()) {
    recordDeclUse(sema.program, name.parts, r.decl);
    return r.decl;
  }
  reportUnresolved(sema, from, r, name.parts, name.range, what);
  return nullptr;
}

}  // namespace herald::check
