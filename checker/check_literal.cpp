// Literals with structure: record and event literals (missing, unknown and
// duplicated fields), list literals (element type from the expected type or
// the first element) and string interpolation (printable types only).
#include <string>
#include <vector>

#include <llvm/Support/Casting.h>

#include "checker/body_checker.h"
#include "checker/record_use.h"

namespace herald::check {

using llvm::dyn_cast;

bool BodyChecker::checkFieldInits(const ast::RecordLitExpr* e,
                                  llvm::StringRef typeName,
                                  const std::vector<FieldInfo>& fields,
                                  const MemberIndex& fieldIndex,
                                  const EventInfo* event,
                                  llvm::SmallVectorImpl<InstId>& out) {
  bool eventDefaults = event != nullptr;
  llvm::SmallVector<const ast::FieldInit*, 8> given(fields.size(), nullptr);
  out.assign(fields.size(), InstId{});
  for (const ast::FieldInit& init : e->fields) {
    const FieldInfo* field = fieldIndex.find(fields, init.name.name);
    const std::size_t index =
        field != nullptr ? static_cast<std::size_t>(field - fields.data())
                         : fields.size();
    if (index == fields.size()) {
      if (!init.name.empty()) {
        std::vector<std::string> names;
        names.reserve(fields.size());
        for (const FieldInfo& f : fields) names.push_back(f.name);
        auto report = sema().diags.report<diag::UnknownField>(
            init.name.range, typeName, init.name.name);
        if (names.empty())
          report.note("'{}' has no fields", typeName.str());
        else
          report.note("'{}' has {} {}", typeName.str(),
                      names.size() == 1 ? "field" : "fields",
                      quotedList(names));
        std::string best = closestName(init.name.name, names);
        if (!best.empty()) {
          report.note("did you mean '{}'?", best);
          report.fixit(init.name.range, best);
        }
      }
      checkUsed(init.value, nullptr);
      continue;
    }
    if (given[index] != nullptr) {
      sema()
          .diags
          .report<diag::DuplicateFieldInit>(init.name.range, init.name.name)
          .note(given[index]->name.range, "'{}' is first given here",
                init.name.name.str());
      checkUsed(init.value, fields[index].type);
      continue;
    }
    given[index] = &init;
    sema().program.uses.record(init.name.range, fields[index].nameRange,
                               fields[index].type);
    out[index] = checkAgainst(init.value, fields[index].type);
  }
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (given[i] != nullptr) continue;
    if (eventDefaults && fields[i].defaultExpr != nullptr)
      out[i] = emit(InstKind::FieldDefault, fields[i].type, e->range,
                    ir().events.intern(event).index(),
                    static_cast<std::uint32_t>(i));
    else
      missing.push_back(fields[i].name);
    // The literal keeps its type so that its uses are still checked.
    if (!out[i].valid()) out[i] = invalid(e->range);
  }
  if (missing.empty()) return true;
  SourceRange at = e->type != nullptr ? e->type->range : e->range;
  auto report = sema().diags.report<diag::MissingFields>(
      at, typeName,
      (missing.size() == 1 ? "field " : "fields ") + quotedList(missing));
  if (!eventDefaults) report.note("every field of a record must be given");
  return false;
}

InstId BodyChecker::checkRecordLit(const ast::RecordLitExpr* e) {
  llvm::SmallVector<ast::Ident, 4> parts;
  auto quietFields = [&] {
    for (const ast::FieldInit& init : e->fields) checkUsed(init.value, nullptr);
    return invalid(e->range);
  };
  if (!namePath(e->type, parts)) return quietFields();
  // A literal's type is a declaration: the body's own names do not hide it.
  Resolution path =
      resolveName(sema().program, context_, BodyScope{}, parts, nullptr);
  recordResolution(sema().program, parts, path);
  if (path.kind == NameKind::Ambiguous) {
    reportAmbiguous(parts, path);
    return quietFields();
  }
  if (path.kind == NameKind::NotFound || path.decl == nullptr) {
    std::vector<std::string> names = visibleNames(pass_.sema.program, context_);
    std::string text(sema().sources.textOf(e->type->range));
    auto report = sema().diags.report<diag::UnknownType>(e->type->range, text);
    std::string best = parts.size() == 1 ? closestName(text, names) : "";
    if (!best.empty()) {
      report.note("did you mean '{}'?", best);
      report.fixit(e->type->range, best);
    }
    return quietFields();
  }
  const DeclInfo* decl = path.decl;
  const Type* t = nullptr;
  switch (path.kind) {
    case NameKind::Type:
    case NameKind::Constructor:
    case NameKind::RecordType:
      if (path.partsUsed == parts.size()) t = llvm::cast<TypeInfo>(decl)->type;
      break;
    case NameKind::Event:
      if (path.partsUsed == parts.size()) t = llvm::cast<EventInfo>(decl)->type;
      break;
    case NameKind::Variant:
    case NameKind::StaticFn:
    case NameKind::UnknownMember:
    case NameKind::Fn:
    case NameKind::AgentFn:
    case NameKind::Capability:
    case NameKind::CapabilityOp:
    case NameKind::Agent:
    case NameKind::Actor:
    case NameKind::Service:
      break;
    case NameKind::Local:
    case NameKind::Param:
    case NameKind::Key:
    case NameKind::Store:
    case NameKind::ActorBinder:
    case NameKind::Dependency:
    case NameKind::AgentRefDependency:
    case NameKind::Some:
    case NameKind::None:
    case NameKind::ContextPrefix:
    case NameKind::NotFound:
    case NameKind::Ambiguous:
      break;  // reported above: no declaration
  }
  if (t != nullptr && t->kind == TypeKind::Named &&
      t->named->def == TypeDefKind::Record) {
    llvm::SmallVector<InstId, 8> values;
    checkFieldInits(e, t->named->name, t->named->fields, t->named->fieldIndex,
                    nullptr, values);
    return emit(InstKind::RecordLit, t, e->range, list(values));
  }
  if (t != nullptr && t->kind == TypeKind::Event) {
    llvm::SmallVector<InstId, 8> values;
    checkFieldInits(e, t->event->name, t->event->fields, t->event->fieldIndex,
                    t->event, values);
    return emit(InstKind::EventLit, t, e->range, list(values));
  }
  if (t != nullptr && quiet(t)) return quietFields();
  std::string text(sema().sources.textOf(e->type->range));
  auto report = sema().diags.report<diag::TypeMismatch>(
      e->type->range, "a record or event type",
      t != nullptr ? displayName(t) : text);
  report.note("'{{ ... }}' builds a record or an event; '{}' is {}", text,
              t != nullptr && t->kind == TypeKind::Named &&
                      t->named->def == TypeDefKind::Sum
                  ? std::string("a sum type: build a variant instead")
                  : "a " + describeKind(decl->kind).str());
  return quietFields();
}

InstId BodyChecker::checkListLit(const ast::ListLitExpr* e,
                                 const Type* expected) {
  TypeTable& tt = types();
  const Type* element = expected != nullptr && expected->kind == TypeKind::List
                            ? expected->arg0
                            : nullptr;
  if (e->elements.empty()) {
    if (element != nullptr)
      return emit(InstKind::ListLit, expected, e->range, list({}));
    if (expected != nullptr && quiet(expected)) return invalid(e->range);
    if (expected != nullptr && expected->kind == TypeKind::Map) {
      sema()
          .diags
          .report<diag::TypeMismatch>(e->range, displayName(expected), "[]")
          .note("'[]' is the empty list; the empty map is '[:]'")
          .fixit(e->range, "[:]");
      return invalid(e->range, expected);
    }
    sema()
        .diags.report<diag::CannotInfer>(e->range, "'[]'")
        .note("give the binding a type, e.g. 'let xs: List[String] = []'");
    return invalid(e->range);
  }
  std::size_t first = 0;
  llvm::SmallVector<InstId, 8> values;
  if (element == nullptr) {
    // The first element that says what it is decides the element type.
    while (first < e->elements.size()) {
      InstId v = checkUsed(e->elements[first], nullptr);
      values.push_back(v);
      ++first;
      const Type* t = typeOf(v);
      if (t->kind != TypeKind::Never) {
        element = t;
        break;
      }
    }
    if (element == nullptr) return invalid(e->range);
  }
  for (std::size_t i = first; i < e->elements.size(); ++i)
    values.push_back(checkAgainst(e->elements[i], element));
  if (quiet(element)) return invalid(e->range);
  return emit(InstKind::ListLit,
              expected != nullptr && element == expected->arg0 &&
                      expected->kind == TypeKind::List
                  ? expected
                  : tt.list(element),
              e->range, list(values));
}

InstId BodyChecker::checkString(const ast::StringLitExpr* e) {
  TypeTable& tt = types();
  auto text = [&](llvm::StringRef s, SourceRange at) {
    BodyIr& b = ir();
    b.strings.push_back(s);
    return emit(InstKind::StringLit, tt.string(), at,
                static_cast<std::uint32_t>(b.strings.size() - 1));
  };
  // A literal without interpolation is one string.
  if (e->parts.empty()) return text("", e->range);
  if (e->parts.size() == 1 && e->parts[0].expr == nullptr)
    return text(e->parts[0].text, e->range);
  llvm::SmallVector<InstId, 8> parts;
  bool broken = false;
  for (const ast::StringPart& part : e->parts) {
    if (part.expr == nullptr) {
      parts.push_back(text(part.text, part.range));
      continue;
    }
    // A capability named in an interpolation is the one place where it
    // reaches a value position for a reason other than a typo: say that it
    // has no text form rather than that it is not a value.
    const CapabilityInfo* cap = nullptr;
    if (const auto* name = dyn_cast<ast::NameExpr>(stripParens(part.expr))) {
      ast::Ident id = name->name;
      Resolution r = resolve(llvm::ArrayRef<ast::Ident>(id), nullptr);
      recordResolution(sema().program, llvm::ArrayRef<ast::Ident>(id), r);
      switch (r.kind) {
        case NameKind::Dependency:
          if (r.type != nullptr && r.type->kind == TypeKind::Capability)
            cap = r.type->capability;
          break;
        case NameKind::Capability:
          cap = r.cap;
          break;
        case NameKind::Local:
        case NameKind::Param:
        case NameKind::Key:
        case NameKind::Store:
        case NameKind::ActorBinder:
        case NameKind::AgentRefDependency:
        case NameKind::Some:
        case NameKind::None:
        case NameKind::Fn:
        case NameKind::AgentFn:
        case NameKind::Type:
        case NameKind::Constructor:
        case NameKind::RecordType:
        case NameKind::Event:
        case NameKind::Agent:
        case NameKind::Actor:
        case NameKind::Service:
        case NameKind::Variant:
        case NameKind::StaticFn:
        case NameKind::CapabilityOp:
        case NameKind::UnknownMember:
        case NameKind::ContextPrefix:
        case NameKind::NotFound:
        case NameKind::Ambiguous:
          break;
      }
    }
    if (cap != nullptr) {
      const Type* t = tt.capability(cap);
      sema()
          .diags.report<diag::NotPrintable>(part.expr->range, displayName(t))
          .note(
              "a capability is not a value; interpolate the result of one "
              "of its operations instead");
      broken = true;
      continue;
    }
    parts.push_back(checkUsed(part.expr, nullptr));
  }
  if (broken) return invalid(e->range);
  return emit(InstKind::Interpolate, tt.string(), e->range, list(parts));
}

}  // namespace herald::check
