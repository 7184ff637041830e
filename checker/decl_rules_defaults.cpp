// Field defaults outside events (default-outside-event): a default fills in
// a field an older event lacks, so nothing but an event field has one. The
// defaults of event fields are settled from their lowered bodies
// (event_defaults.cpp).
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

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

}  // namespace herald::check
