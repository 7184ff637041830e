// event-field-not-serialisable: an event is data that crosses contexts and
// outlives the emitting transaction, so nothing in it may be a handle to a
// running thing (`Ref`), an effect (a capability) or the caller of a handler
// (an actor), however deeply it is nested in records, sums, options, lists,
// maps and opaque or refined types.
#include <string>

#include <llvm/Support/Casting.h>

#include "checker/decl_rules.h"

namespace herald::check {

namespace {

constexpr std::size_t kInProgress = 0;
constexpr std::size_t kClean = 1;
constexpr std::size_t kPending = 2;
constexpr std::size_t kFirstOffence = 3;

std::string_view layerWord(TypeDefKind def) {
  switch (def) {
    case TypeDefKind::Opaque:
      return "an opaque type over";
    case TypeDefKind::Refined:
      return "a refinement of";
    case TypeDefKind::Record:
    case TypeDefKind::Sum:
    case TypeDefKind::Alias:
      break;
  }
  return "defined as";
}

}  // namespace

const ast::FieldDecl* fieldDeclOf(const EventInfo& event,
                                  const FieldInfo& field) {
  const auto* decl = llvm::dyn_cast_or_null<ast::EventDecl>(event.decl);
  if (decl == nullptr) return nullptr;
  for (const ast::FieldDecl& fd : decl->fields)
    if (fd.name.range == field.nameRange && fd.name.name == field.name)
      return &fd;
  return nullptr;
}

const Type* SerialisableChecker::find(const Type* type,
                                      std::vector<Step>& path) {
  if (type == nullptr) return nullptr;
  switch (type->kind) {
    case TypeKind::Ref:
    case TypeKind::Capability:
    case TypeKind::Actor:
      return type;
    case TypeKind::Option:
    case TypeKind::List:
      return find(type->arg0, path);
    case TypeKind::Map:
      if (const Type* culprit = find(type->arg0, path)) return culprit;
      return find(type->arg1, path);
    case TypeKind::Named:
      return findInNamed(*type->named, path);
    // Another event's fields are checked on that event.
    case TypeKind::Event:
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Unit:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::String:
    case TypeKind::Instant:
    case TypeKind::Duration:
    case TypeKind::Envelope:
      return nullptr;
  }
  return nullptr;
}

const Type* SerialisableChecker::findInNamed(const TypeInfo& type,
                                             std::vector<Step>& path) {
  auto known = state_.find(&type);
  if (known != state_.end()) {
    std::size_t state = known->second;
    if (state == kInProgress || state == kPending) {
      sawCycle_ = true;
      return nullptr;
    }
    if (state == kClean) return nullptr;
    const Offence& offence = offences_[state - kFirstOffence];
    path.insert(path.end(), offence.path.begin(), offence.path.end());
    return offence.culprit;
  }
  state_[&type] = kInProgress;
  bool outerSawCycle = sawCycle_;
  sawCycle_ = false;
  std::size_t start = path.size();
  const Type* culprit = nullptr;
  auto visit = [&](Step step, const Type* part) {
    path.push_back(step);
    culprit = find(part, path);
    if (culprit == nullptr) path.pop_back();
    return culprit != nullptr;
  };
  switch (type.def) {
    case TypeDefKind::Record:
      for (const FieldInfo& field : type.fields)
        if (visit({&type, nullptr, &field}, field.type)) break;
      break;
    case TypeDefKind::Sum:
      for (const VariantInfo& variant : type.variants) {
        for (const FieldInfo& field : variant.fields)
          if (visit({&type, &variant, &field}, field.type)) break;
        if (culprit != nullptr) break;
      }
      break;
    case TypeDefKind::Opaque:
    case TypeDefKind::Refined:
      visit({&type, nullptr, nullptr}, type.base);
      break;
    case TypeDefKind::Alias:
      culprit = find(type.type, path);
      break;
  }
  if (culprit != nullptr) {
    state_[&type] = kFirstOffence + offences_.size();
    offences_.push_back(
        {culprit,
         std::vector<Step>(path.begin() + static_cast<std::ptrdiff_t>(start),
                           path.end())});
  } else if (sawCycle_) {
    state_[&type] = kPending;
    pending_.push_back(&type);
  } else {
    state_[&type] = kClean;
  }
  sawCycle_ = outerSawCycle || sawCycle_;
  return culprit;
}

void SerialisableChecker::check(const EventInfo& event) {
  std::vector<Step> path;
  for (const FieldInfo& field : event.fields) {
    if (!isWellFormed(field.type)) continue;
    path.clear();
    const Type* culprit = find(field.type, path);
    // A pending type was clean only if the types it assumed clean were:
    // true exactly when the whole search found nothing.
    for (const TypeInfo* type : pending_) {
      if (culprit == nullptr)
        state_[type] = kClean;
      else
        state_.erase(type);
    }
    pending_.clear();
    sawCycle_ = false;
    if (culprit == nullptr) continue;

    const ast::FieldDecl* decl = fieldDeclOf(event, field);
    SourceRange at = decl != nullptr && decl->type != nullptr
                         ? decl->type->range
                         : field.range;
    DiagnosticBuilder report =
        sema_.diags.report<diag::EventFieldNotSerialisable>(
            at, field.name, event.name, displayName(field.type));
    for (const Step& step : path) {
      if (step.field == nullptr) {
        report.note(step.owner->nameRange, "'{}' is {} '{}'", step.owner->name,
                    layerWord(step.owner->def), displayName(step.owner->base));
      } else if (step.variant != nullptr) {
        report.note(step.field->range,
                    "variant '{}' of '{}' has field '{}' of type '{}'",
                    step.variant->name, step.owner->name, step.field->name,
                    displayName(step.field->type));
      } else {
        report.note(step.field->range, "'{}' has field '{}' of type '{}'",
                    step.owner->name, step.field->name,
                    displayName(step.field->type));
      }
    }
    switch (culprit->kind) {
      case TypeKind::Ref: {
        const AgentInfo* agent = culprit->agent;
        if (agent != nullptr && agent->key && isWellFormed(agent->key->type))
          report.note(
              "a 'Ref' only addresses an agent inside this program: "
              "carry the agent's key '{}: {}' instead of '{}'",
              agent->key->name, displayName(agent->key->type),
              displayName(culprit));
        else
          report.note(
              "a 'Ref' only addresses an agent inside this program: "
              "carry the agent's key instead of '{}'",
              displayName(culprit));
        break;
      }
      case TypeKind::Capability:
        report.note(
            "capabilities are given to handlers, not carried in "
            "events: remove '{}' from the event and give it to the "
            "handlers that need it",
            displayName(culprit));
        break;
      case TypeKind::Actor:
        report.note(
            "an actor exists only during the call it makes: carry "
            "the value that identifies it (e.g. its 'identity') "
            "instead of '{}'",
            displayName(culprit));
        break;
      case TypeKind::Error:
      case TypeKind::Never:
      case TypeKind::Unit:
      case TypeKind::Int:
      case TypeKind::Float:
      case TypeKind::Bool:
      case TypeKind::String:
      case TypeKind::Instant:
      case TypeKind::Duration:
      case TypeKind::Envelope:
      case TypeKind::Option:
      case TypeKind::List:
      case TypeKind::Map:
      case TypeKind::Named:
      case TypeKind::Event:
        break;
    }
  }
}

}  // namespace herald::check
