// The declaration rules of checkDeclarationRules, one file per rule family.
// Internal to checker/.
#pragma once

#include <cstddef>
#include <vector>

#include <llvm/ADT/DenseMap.h>

#include "checker/sema.h"
#include "frontend/ast.h"
#include "ir/program.h"

namespace herald::check {

// bad-refinement: the `where` predicate of an opaque or refined type is a
// Bool expression over `self` that fits its base. (decl_rules_refinement.cpp)
// Stores the lowered predicate in TypeInfo::predicate.
void checkRefinementPredicate(Sema& sema, TypeInfo& type);

// default-outside-event: `= e` on a record field or a variant field.
// (decl_rules_defaults.cpp)
void checkDefaultsOutsideEvents(Sema& sema, const TypeInfo& type);

// event-field-not-serialisable, remembering what it learnt about each
// record, sum, opaque and refined type across events.
// (decl_rules_serialisable.cpp)
class SerialisableChecker {
 public:
  explicit SerialisableChecker(Sema& sema) : sema_(sema) {}
  void check(const EventInfo& event);

  // One step from a type to the part of it that cannot be serialised.
  struct Step {
    const TypeInfo* owner = nullptr;
    const VariantInfo* variant = nullptr;  // a variant's field
    const FieldInfo* field = nullptr;      // null: the opaque/refined base
  };
  struct Offence {
    const Type* culprit = nullptr;  // the Ref, capability or actor type
    std::vector<Step> path;         // from the named type to the culprit
  };

 private:
  // The culprit inside `type`, appending the steps to it to `path`; null
  // when `type` can be serialised.
  const Type* find(const Type* type, std::vector<Step>& path);
  const Type* findInNamed(const TypeInfo& type, std::vector<Step>& path);

  Sema& sema_;
  // Per named type: kInProgress, kClean, kPending, or kFirstOffence plus
  // the index of its offence in offences_.
  llvm::DenseMap<const TypeInfo*, std::size_t> state_;
  std::vector<Offence> offences_;
  // Types found clean while assuming that a type still being searched (a
  // recursive type) is clean: settled when the search from the event field
  // ends.
  std::vector<const TypeInfo*> pending_;
  bool sawCycle_ = false;
};

// bad-service-annotation: `@cycle`, once and without arguments, on a
// service that subscribes; sets ServiceInfo::cycleIntended.
// (decl_rules_cycle.cpp)
void checkServiceAnnotations(Sema& sema, ServiceInfo& service);

// The AST field declaration of an event field (null when not found).
const ast::FieldDecl* fieldDeclOf(const EventInfo& event,
                                  const FieldInfo& field);

}  // namespace herald::check
