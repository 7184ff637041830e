// The declaration rules that need no bodies, run once signatures are
// resolved: refinement predicates, `@schema` and `@cycle` annotations, field
// defaults, serialisable event fields and store initialisers present.
#include "checker/decl_rules.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

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
      if (annotation.name.name == "cycle")
        report.note(
            "'@cycle' marks a subscribing service whose cycle of the event "
            "flow is intended; put it on the service");
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
    event.pinnedRange = annotation.args[0]->range;
    event.schemaVersion = *version;
  }
}

// The value a fix-it offers as a store's initial value: the obvious empty
// or zero value of its type, or empty when the type has none (a record, a
// sum, a refined or opaque type: only the author knows where it starts).
std::string initialValueFor(const Type* type) {
  if (type == nullptr) return {};
  if (type->kind == TypeKind::Int) return "0";
  if (type->kind == TypeKind::Float) return "0.0";
  if (type->kind == TypeKind::Bool) return "false";
  if (type->kind == TypeKind::String) return "\"\"";
  if (type->kind == TypeKind::List) return "[]";
  if (type->kind == TypeKind::Option) return "None";
  return {};
}

// store-without-initialiser: a store's value before the agent's first
// handler runs is its initialiser; there is no implicit zero, so a store
// without `= e` would have no value at all.
void checkStoreInitialisers(Sema& sema, const AgentInfo& agent) {
  const auto* decl = llvm::dyn_cast_or_null<ast::AgentDecl>(agent.decl);
  if (decl == nullptr) return;
  for (const ast::Decl* m : decl->members) {
    const auto* s = llvm::dyn_cast_or_null<ast::StoreDecl>(m);
    if (s == nullptr || s->init != nullptr || s->name.empty() ||
        s->type == nullptr)
      continue;
    const StoreInfo* info = agent.store(s->name.name);
    const Type* type = info != nullptr ? info->field.type : nullptr;
    if (type != nullptr && !isWellFormed(type)) continue;
    auto report = sema.diags.report<diag::StoreWithoutInitialiser>(
        s->name.range, s->name.name);
    const std::string value = initialValueFor(type);
    const std::uint32_t end = s->type->range.end;
    if (!value.empty()) {
      report.note("a store starts with the value of its initialiser");
      report.fixit(SourceRange{s->range.file, end, end}, " = " + value);
    } else {
      report.note(
          "a store starts with the value of its initialiser; write "
          "'= e' after its type");
    }
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
      } else if (const auto* agent = llvm::dyn_cast<AgentInfo>(decl.get())) {
        checkStoreInitialisers(sema, *agent);
      } else if (auto* service = llvm::dyn_cast<ServiceInfo>(decl.get())) {
        checkServiceAnnotations(sema, *service);
      }
    }
  }
}

}  // namespace herald::check
