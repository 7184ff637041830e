// Field defaults. An event field default is what decoding an older event
// that lacks the field fills in, so it must be a constant of the field's
// type, refinements included (bad-field-default); nothing else has defaults
// (default-outside-event).
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/const_eval.h"
#include "checker/const_eval_detail.h"
#include "checker/decl_rules.h"

namespace herald::check {

namespace {

void reportDefaultOutsideEvent(Sema& sema, const ast::TypeDecl& type,
                               const ast::FieldDecl& field,
                               const ast::VariantDecl* variant) {
  const ast::Expr* value = field.defaultValue;
  if (value == nullptr || llvm::isa<ast::ErrorExpr>(value)) return;
  std::string owner = variant != nullptr
                          ? fmt::format("variant '{}' of sum type '{}'",
                                        variant->name.name, type.name.name)
                          : fmt::format("record type '{}'", type.name.name);
  DiagnosticBuilder report = sema.diags.report<diag::DefaultOutsideEvent>(
      value->range, field.name.name, owner);
  report.note(
      "a default fills in a field that an older event lacks; a "
      "'{}' value always gives all its fields, so remove the default "
      "(or put it on the event field that holds a '{}')",
      type.name.name, type.name.name);
  if (field.type != nullptr && field.type->range.file == value->range.file &&
      field.type->range.end <= value->range.begin)
    report.fixit({value->range.file, field.type->range.end, value->range.end},
                 "");
}

// `note: String = None`: a field that may be absent is an Option, so the
// fix is to make the field one (its readers then see the Option).
void suggestOptional(Sema& sema, DiagnosticBuilder& report,
                     const EventInfo& event, const FieldInfo& field) {
  const ast::FieldDecl* decl = fieldDeclOf(event, field);
  const bool written = decl != nullptr && decl->type != nullptr;
  std::string optional =
      fmt::format("Option[{}]",
                  written ? std::string(sema.sources.textOf(decl->type->range))
                          : displayName(field.type));
  report.note(
      "a field that may have no value is an Option: declare it '{}: {}'",
      field.name, optional);
  if (written) report.fixit(decl->type->range, optional);
}

}  // namespace

void checkDefaultsOutsideEvents(Sema& sema, const TypeInfo& type) {
  const auto* decl = llvm::dyn_cast_or_null<ast::TypeDecl>(type.decl);
  if (decl == nullptr) return;
  switch (decl->def) {
    case ast::TypeDefKind::Record:
      for (const ast::FieldDecl& field : decl->fields)
        reportDefaultOutsideEvent(sema, *decl, field, nullptr);
      return;
    case ast::TypeDefKind::Sum:
      for (const ast::VariantDecl& variant : decl->variants)
        for (const ast::FieldDecl& field : variant.fields)
          reportDefaultOutsideEvent(sema, *decl, field, &variant);
      return;
    case ast::TypeDefKind::Opaque:
    case ast::TypeDefKind::Alias:
      return;
  }
}

void checkEventDefaults(Sema& sema, EventInfo& event) {
  if (event.context == nullptr) return;
  for (FieldInfo& field : event.fields) {
    const ast::Expr* expr = field.defaultExpr;
    if (expr == nullptr) {
      const ast::FieldDecl* decl = fieldDeclOf(event, field);
      expr = decl != nullptr ? decl->defaultValue : nullptr;
    }
    if (expr == nullptr || !isWellFormed(field.type)) continue;
    ConstFailure why;
    std::optional<ConstValue> value =
        evalConstantExplained(sema, *event.context, expr, field.type, why);
    if (!value) {
      if (why.quiet || reportConstFold(sema.diags, why)) continue;
      DiagnosticBuilder report = sema.diags.report<diag::BadFieldDefault>(
          expr->range, field.name, displayName(field.type));
      if (why.set && why.range == expr->range)
        report.note("{}", why.message);
      else if (why.set)
        report.note(why.range, "{}", why.message);
      if (why.optionWhereNotOptional && why.range == expr->range)
        suggestOptional(sema, report, event, field);
      continue;
    }
    RefinementViolation violation = findViolatedRefinement(*value);
    if (violation.type != nullptr) {
      DiagnosticBuilder report = sema.diags.report<diag::BadFieldDefault>(
          expr->range, field.name, displayName(field.type));
      const ast::Expr* predicate = violation.type->refinement;
      // A refined value is written as its base value; an opaque one with
      // its constructor.
      const ConstValue& part = *violation.value;
      std::string shown =
          violation.type->def == TypeDefKind::Refined && !part.children.empty()
              ? render(part.children[0])
              : render(part);
      if (predicate != nullptr)
        report.note(predicate->range,
                    "{} does not satisfy the refinement of '{}': {}", shown,
                    violation.type->name, exprText(sema.sources, *predicate));
      report.note(
          "use a value for which the refinement holds, or remove "
          "the default");
      continue;
    }
    field.defaultValue = std::make_shared<const ConstValue>(std::move(*value));
  }
}

}  // namespace herald::check
