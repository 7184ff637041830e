// Event field defaults, settled from their lowered bodies: the value the
// evaluator of constants (eval.cpp) computes, its refinements checked; or
// one bad-field-default whose notes say what checking the body found, or
// which part of the body is not a constant.
#include "checker/event_defaults.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/decl_rules.h"
#include "checker/eval.h"
#include "ir/inst_views.h"

namespace herald::check {

namespace {

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

// What an instruction that is not a constant is, in a note.
std::string_view describe(InstKind kind) {
  switch (kind) {
    case InstKind::Interpolate:
      return "an interpolated string";
    case InstKind::EventLit:
      return "an event literal";
    case InstKind::CallFn:
    case InstKind::Message:
    case InstKind::CapCall:
    case InstKind::Method:
      return "a call";
    case InstKind::FieldGet:
    case InstKind::EnvelopeGet:
      return "a field access";
    case InstKind::If:
    case InstKind::IfElse:
      return "an 'if' expression";
    case InstKind::Match:
    case InstKind::MatchArm:
      return "a 'match' expression";
    case InstKind::Block:
    case InstKind::Let:
      return "a block";
    case InstKind::Unary:
    case InstKind::Binary:
      return "an operator";
    case InstKind::Fail:
      return "'fail'";
    case InstKind::Invalid:
    case InstKind::IntLit:
    case InstKind::FloatLit:
    case InstKind::BoolLit:
    case InstKind::StringLit:
    case InstKind::UnitLit:
    case InstKind::DurationLit:
    case InstKind::ListLit:
    case InstKind::MapLit:
    case InstKind::RecordLit:
    case InstKind::FieldDefault:
    case InstKind::ParamRef:
    case InstKind::KeyRef:
    case InstKind::StoreRef:
    case InstKind::LocalRef:
    case InstKind::ActorRef:
    case InstKind::Dependency:
    case InstKind::CapabilityName:
    case InstKind::StoreWrite:
    case InstKind::PatWildcard:
    case InstKind::PatBind:
    case InstKind::PatLiteral:
    case InstKind::PatRange:
    case InstKind::PatNone:
    case InstKind::PatSome:
    case InstKind::PatVariant:
    case InstKind::PatRecord:
    case InstKind::PatOr:
    case InstKind::Variant:
    case InstKind::OptionSome:
    case InstKind::OptionNone:
    case InstKind::OpaqueBuild:
    case InstKind::OpaqueRaw:
    case InstKind::AgentRef:
    case InstKind::Emit:
    case InstKind::RefineCheck:
    case InstKind::Unrefine:
      break;
  }
  return "this expression";
}

// Whether a diagnostic leaves the value it is about a constant.
bool leavesConstant(const Diagnostic& d) {
  return d.severity() != Severity::Error || d.kind == DiagKind::DuplicateMapKey;
}

bool isConstFold(const Diagnostic& d) {
  return d.kind == DiagKind::ConstantOverflow ||
         d.kind == DiagKind::ConstantDivisionByZero;
}

void reportViolation(Sema& sema, const ast::Expr& expr, const FieldInfo& field,
                     const RefinementViolation& violation) {
  DiagnosticBuilder report = sema.diags.report<diag::BadFieldDefault>(
      expr.range, field.name, displayName(field.type));
  const ast::Expr* predicate = violation.type->refinement;
  // A refined value is written as its base value; an opaque one with its
  // constructor.
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
      "use a value for which the refinement holds, or remove the default");
}

// The first error checking the body reported, as the note of one
// bad-field-default.
void reportBodyError(Sema& sema, const EventInfo& event, const FieldInfo& field,
                     const ast::Expr& expr, const Diagnostic& error) {
  DiagnosticBuilder report = sema.diags.report<diag::BadFieldDefault>(
      expr.range, field.name, displayName(field.type));
  if (error.range == expr.range)
    report.note("{}", error.message);
  else
    report.note(error.range, "{}", error.message);
  for (const DiagnosticNote& note : error.notes) {
    if (note.hasRange)
      report.note(note.range, "{}", note.message);
    else
      report.note("{}", note.message);
  }
  for (const FixIt& fix : error.fixits)
    report.fixit(fix.range, fix.replacement);
  // `None` where the field is no Option.
  const auto* name = llvm::dyn_cast<ast::NameExpr>(&expr);
  if (error.kind == DiagKind::TypeMismatch && name != nullptr &&
      name->name.name == "None" && field.type->kind != TypeKind::Option)
    suggestOptional(sema, report, event, field);
}

}  // namespace

void settleEventDefault(Sema& sema, const EventInfo& event, FieldInfo& field,
                        InstId root, std::size_t mark) {
  std::vector<Diagnostic> taken = sema.diags.takeSince(mark);
  const ast::Expr& expr = *field.defaultExpr;
  InstId blocker;
  std::optional<ConstValue> value = constantOf(sema.program, root, &blocker);
  auto restoreAll = [&] {
    for (Diagnostic& d : taken) sema.diags.restore(std::move(d));
  };
  auto restoreWarnings = [&] {
    for (Diagnostic& d : taken)
      if (d.severity() != Severity::Error) sema.diags.restore(std::move(d));
  };
  auto firstError = std::find_if(taken.begin(), taken.end(), [](const auto& d) {
    return d.severity() == Severity::Error;
  });
  if (value) {
    // A constant whose body reported an error broke a refinement: said once,
    // here, with the predicate it breaks.
    RefinementViolation violation = findViolatedRefinement(*value);
    if (violation.type != nullptr) {
      reportViolation(sema, expr, field, violation);
      restoreWarnings();
      return;
    }
    // An error that leaves a constant (a map key given twice) stands as it
    // is; after any other the value is no default.
    if (std::all_of(taken.begin(), taken.end(), leavesConstant)) {
      const bool clean = firstError == taken.end();
      restoreAll();
      if (clean)
        field.defaultValue =
            std::make_shared<const ConstValue>(std::move(*value));
      return;
    }
  }
  if (firstError != taken.end()) {
    if (isConstFold(*firstError)) {
      restoreAll();
      return;
    }
    reportBodyError(sema, event, field, expr, *firstError);
    restoreWarnings();
    return;
  }
  restoreAll();
  // Quiet after an earlier error (an unresolved type, an Error node).
  if (!blocker.valid()) return;
  const Inst& stop = sema.program.bodies[blocker];
  if (stop.is<Invalid>()) return;
  std::string_view what = describe(stop.kind);
  DiagnosticBuilder report = sema.diags.report<diag::BadFieldDefault>(
      expr.range, field.name, displayName(field.type));
  if (stop.is<Interpolate>()) {
    report.note("{} is not a constant; write the text without '\\(...)'", what);
    return;
  }
  report.note(
      "{} is not a constant; a constant is a literal, a variant, 'None', "
      "'Some(...)', a record literal or a constructor applied to a "
      "constant",
      what);
}

}  // namespace herald::check
