// The declaration rules that need no bodies, run once signatures are
// resolved: refinement predicates, `@schema` annotations, field defaults
// and serialisable event fields.
#include "checker/decl_rules.h"

#include <cstdint>
#include <limits>
#include <optional>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/sema.h"

namespace herald::check {

namespace {

// The version `@schema(N)` pins: its one argument, a positive Int literal.
std::optional<std::int64_t> schemaVersion(const ast::Annotation& annotation) {
  if (!annotation.hasParens || annotation.args.size() != 1) return std::nullopt;
  const auto* lit = llvm::dyn_cast_or_null<ast::IntLitExpr>(annotation.args[0]);
  if (lit == nullptr || lit->value == 0 ||
      lit->value >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return std::nullopt;
  return static_cast<std::int64_t>(lit->value);
}

bool hasErrorArg(const ast::Annotation& annotation) {
  for (const ast::Expr* arg : annotation.args)
    if (arg == nullptr || llvm::isa<ast::ErrorExpr>(arg)) return true;
  return false;
}

void checkSchemaAnnotations(Sema& sema, EventInfo& event) {
  const auto* decl = llvm::dyn_cast_or_null<ast::EventDecl>(event.decl);
  if (decl == nullptr) return;
  const ast::Annotation* first = nullptr;
  bool anySchema = false;
  for (const ast::Annotation& annotation : decl->annotations)
    anySchema = anySchema || annotation.name.name == "schema";
  for (const ast::Annotation& annotation : decl->annotations) {
    if (annotation.name.empty() || hasErrorArg(annotation)) continue;
    std::optional<std::int64_t> version = schemaVersion(annotation);
    if (annotation.name.name != "schema") {
      DiagnosticBuilder report = sema.diags.report<diag::BadSchemaAnnotation>(
          annotation.name.range,
          fmt::format("unknown annotation '@{}' on event '{}'",
                      annotation.name.name, event.name));
      report.note(
          "the only annotation on an event is '@schema(N)', which "
          "pins its schema version");
      // A lone version number was most likely meant as the schema version.
      if (version && !anySchema) report.fixit(annotation.name.range, "schema");
      continue;
    }
    if (first != nullptr) {
      sema.diags
          .report<diag::BadSchemaAnnotation>(
              annotation.range,
              fmt::format("'@schema' is given twice on event '{}'", event.name))
          .note(first->range, "first given here")
          .fixit(annotation.range, "");
      continue;
    }
    first = &annotation;
    if (!version) {
      SourceRange at = annotation.args.size() == 1 ? annotation.args[0]->range
                                                   : annotation.range;
      sema.diags
          .report<diag::BadSchemaAnnotation>(
              at,
              "'@schema' takes one positive integer, the event's schema "
              "version")
          .note("write e.g. '@schema(2)'; versions start at 1");
      continue;
    }
    event.pinnedSchema = *version;
  }
}

}  // namespace

void checkDeclarationRules(Sema& sema) {
  SerialisableChecker serialisable(sema);
  for (const auto& context : sema.program.contexts) {
    for (const auto& decl : context->decls) {
      if (auto* type = llvm::dyn_cast<TypeInfo>(decl.get())) {
        checkRefinementPredicate(sema, *type);
        checkDefaultsOutsideEvents(sema, *type);
      } else if (auto* event = llvm::dyn_cast<EventInfo>(decl.get())) {
        checkSchemaAnnotations(sema, *event);
        serialisable.check(*event);
        checkEventDefaults(sema, *event);
      }
    }
  }
}

}  // namespace herald::check
