// Pass 2: each `consumes` line's target context, alias and name list.
//
// A context that consumes itself gains nothing (its own names are always
// visible, bare and qualified) and loses nothing: a `{ A, B }` list on such
// a line restricts nothing, since own names never go through `consumes`.
// It is accepted silently.
#include <algorithm>
#include <string>
#include <vector>

#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Casting.h>

#include "checker/lookup.h"
#include "checker/names_util.h"
#include "checker/record_use.h"
#include "checker/sema.h"

namespace herald::check {

namespace {

std::vector<std::string> contextNames(const Program& program) {
  std::vector<std::string> names;
  names.reserve(program.contexts.size());
  for (const auto& c : program.contexts) names.push_back(c->name);
  return names;
}

std::vector<std::string> declNames(const ContextInfo& ctx) {
  std::vector<std::string> names;
  names.reserve(ctx.byName.size());
  for (const auto& entry : ctx.byName) names.push_back(entry.getKey().str());
  std::sort(names.begin(), names.end());
  return names;
}

void resolveLine(Sema& sema, ContextInfo& ctx, const ast::ConsumesDecl& decl) {
  ConsumesInfo info;
  info.decl = &decl;
  info.alias = decl.alias.name.str();
  info.restricted = decl.hasOnly;
  for (const ast::Ident& name : decl.only)
    if (!name.empty()) info.only.push_back(name.name.str());
  bool wellFormed = !decl.context.parts.empty();
  for (const ast::Ident& part : decl.context.parts)
    wellFormed = wellFormed && !part.empty();
  if (wellFormed) {
    std::string name = joinName(decl.context.parts);
    info.target = findContext(sema.program, name);
    if (info.target == nullptr) {
      auto report =
          sema.diags.report<diag::UnknownContext>(decl.context.range, name);
      std::string close;
      if (sema.speller.admit())
        close = sema.speller.closest(name, contextNames(sema.program));
      if (!close.empty()) {
        report.note("did you mean '{}'?", close);
        report.fixit(decl.context.range, close);
      }
    }
  }
  if (info.target != nullptr) {
    recordConsumesUses(sema.program, decl, *info.target);
    std::vector<std::string> candidates;
    for (const ast::Ident& name : decl.only) {
      if (name.empty() || info.target->lookup(name.name) != nullptr) continue;
      auto report = sema.diags.report<diag::UnknownConsumedName>(
          name.range, info.target->name, name.name);
      std::string close;
      if (sema.speller.admit()) {
        if (candidates.empty()) candidates = declNames(*info.target);
        close = sema.speller.closest(name.name, candidates);
      }
      if (!close.empty()) {
        report.note("did you mean '{}'?", close);
        report.fixit(name.range, close);
      }
    }
  }
  ctx.consumes.push_back(std::move(info));
}

// Two lines giving one alias to different contexts would make every
// `alias.X` ambiguous; the same context twice under one alias is harmless.
void checkAliases(Sema& sema, const ContextInfo& ctx) {
  for (std::size_t i = 0; i < ctx.consumes.size(); ++i) {
    const ConsumesInfo& line = ctx.consumes[i];
    if (line.alias.empty() || line.target == nullptr) continue;
    for (std::size_t j = 0; j < i; ++j) {
      const ConsumesInfo& earlier = ctx.consumes[j];
      if (earlier.alias != line.alias || earlier.target == nullptr) continue;
      if (earlier.target != line.target)
        reportDuplicateMember(sema, "alias", line.alias, line.decl->alias.range,
                              earlier.decl->alias.range);
      break;
    }
  }
}

}  // namespace

void resolveConsumes(Sema& sema) {
  for (const auto& ctx : sema.program.contexts) {
    for (const ast::ContextDecl* part : ctx->parts)
      for (const ast::Decl* d : part->decls)
        if (const auto* c = llvm::dyn_cast_or_null<ast::ConsumesDecl>(d))
          resolveLine(sema, *ctx, *c);
    checkAliases(sema, *ctx);
  }
}

}  // namespace herald::check
