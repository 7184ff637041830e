// Statements: `let` (with an optional type) and store writes `name := e`.
#include <string>
#include <vector>

#include "checker/body_checker.h"

namespace herald::check {

void BodyChecker::bind(llvm::StringRef name, const Type* type,
                       SourceRange range) {
  if (name.empty() || name == "_") return;
  locals_.push_back(Local{name, type, range});
}

void BodyChecker::checkLet(const ast::Stmt* stmt) {
  TypeTable& tt = types();
  const Type* declared = nullptr;
  if (stmt->type != nullptr)
    declared = resolveValueType(sema(), context_, stmt->type);
  const Type* t = declared != nullptr ? checkAgainst(stmt->value, declared)
                                      : checkUsed(stmt->value, nullptr);
  if (declared != nullptr) t = declared;
  if (t == nullptr) t = tt.error();
  if (declared == nullptr && t->kind == TypeKind::Capability)
    t = tt.error();  // already reported as not-a-value where it was named
  pass_.sema.program.bodies.lets[stmt] = t;
  bind(stmt->name.name, t, stmt->name.range);
}

void BodyChecker::checkAssign(const ast::Stmt* stmt) {
  TypeTable& tt = types();
  bool agentBody = agent != nullptr &&
                   (role_ == BodyRole::AgentFn || role_ == BodyRole::Handler);
  if (!agentBody) {
    auto report =
        sema().diags.report<diag::StoreWriteOutsideAgent>(stmt->range);
    switch (role_) {
      case BodyRole::PureFn:
        report.note("'{}' is a pure function; return the new value instead",
                    ownerName.str());
        break;
      case BodyRole::Handler:
        report.note(
            "a service is stateless; send a message to an agent "
            "that owns the store");
        break;
      case BodyRole::AgentFn:
      case BodyRole::StoreInit:
      case BodyRole::Invariant:
        break;
    }
    checkUsed(stmt->value, nullptr);
    return;
  }
  const StoreInfo* store = agent->store(stmt->name.name);
  if (store == nullptr) {
    checkUsed(stmt->value, nullptr);
    if (stmt->name.empty()) return;
    auto report = sema().diags.report<diag::UnknownStore>(
        stmt->name.range, agent->name, stmt->name.name);
    ScopeHit hit;
    if (lookupScoped(stmt->name.name, hit)) {
      if (hit.ref == RefKind::Key)
        report.note(hit.declRange,
                    "'{}' is the agent's key, which never "
                    "changes",
                    stmt->name.name.str());
      else if (hit.ref == RefKind::Param)
        report.note(hit.declRange,
                    "'{}' is a parameter; only stores can "
                    "be written with ':='",
                    stmt->name.name.str());
      else if (hit.ref == RefKind::Local)
        report.note(hit.declRange,
                    "'{}' is a local binding; bind a new "
                    "value with 'let' instead",
                    stmt->name.name.str());
      else
        report.note(hit.declRange, "only stores can be written with ':='");
      return;
    }
    std::vector<std::string> stores;
    for (const StoreInfo& s : agent->stores) stores.push_back(s.field.name);
    std::string best = closestName(stmt->name.name, stores);
    if (!best.empty()) {
      report.note("did you mean '{}'?", best);
      report.fixit(stmt->name.range, best);
    }
    return;
  }
  const Type* storeType =
      store->field.type != nullptr ? store->field.type : tt.error();
  checkAgainst(stmt->value, storeType);
  effects.addWrite(llvm::StringRef(store->field.name));
}

}  // namespace herald::check
