// Statements: `let` (with an optional type) and store writes `name := e`.
#include <string>
#include <vector>

#include "checker/body_checker.h"

namespace herald::check {

SlotId BodyChecker::bind(llvm::StringRef name, const Type* type,
                         SourceRange range, bool fromPattern) {
  if (name.empty() || name == "_") return SlotId{};
  SlotId slot = newSlot(name, type, fromPattern);
  locals_.push_back(Local{name, type, range, slot});
  // The binding names itself, with the type it was given.
  sema().program.uses.record(range, range, type);
  return slot;
}

InstId BodyChecker::checkLet(const ast::Stmt* stmt) {
  TypeTable& tt = types();
  const Type* declared = nullptr;
  if (stmt->type != nullptr)
    declared = resolveValueType(sema(), context_, stmt->type);
  InstId value = declared != nullptr ? checkAgainst(stmt->value, declared)
                                     : checkUsed(stmt->value, nullptr);
  const Type* t = declared != nullptr ? declared : typeOf(value);
  if (t == nullptr) t = tt.error();
  if (declared == nullptr && t->kind == TypeKind::Capability)
    t = tt.error();  // already reported as not-a-value where it was named
  SlotId slot = bind(stmt->name.name, t, stmt->name.range, false);
  // `let _ = e` binds nothing: the value is only evaluated.
  if (!slot.valid()) return value;
  return emit(InstKind::Let, tt.unit(), stmt->range, slot.index(),
              value.index());
}

InstId BodyChecker::checkAssign(const ast::Stmt* stmt) {
  TypeTable& tt = types();
  bool agentBody = agent_ != nullptr &&
                   (role_ == BodyRole::AgentFn || role_ == BodyRole::Handler);
  if (!agentBody) {
    auto report =
        sema().diags.report<diag::StoreWriteOutsideAgent>(stmt->range);
    switch (role_) {
      case BodyRole::PureFn:
        report.note("'{}' is a pure function; return the new value instead",
                    ownerName_.str());
        break;
      case BodyRole::Handler:
        report.note(
            "a service is stateless; send a message to an agent "
            "that owns the store");
        break;
      case BodyRole::AgentFn:
      case BodyRole::StoreInit:
      case BodyRole::Invariant:
      case BodyRole::FieldDefault:
        break;
    }
    checkUsed(stmt->value, nullptr);
    return invalid(stmt->range);
  }
  const StoreInfo* store = agent_->store(stmt->name.name);
  if (store == nullptr) {
    checkUsed(stmt->value, nullptr);
    if (stmt->name.empty()) return invalid(stmt->range);
    auto report = sema().diags.report<diag::UnknownStore>(
        stmt->name.range, agent_->name, stmt->name.name);
    ast::Ident part = stmt->name;
    Resolution hit = resolve(llvm::ArrayRef<ast::Ident>(part), nullptr);
    bool scoped = true;
    switch (hit.kind) {
      case NameKind::Key:
        report.note(hit.declRange,
                    "'{}' is the agent's key, which never "
                    "changes",
                    stmt->name.name.str());
        break;
      case NameKind::Param:
        report.note(hit.declRange,
                    "'{}' is a parameter; only stores can "
                    "be written with ':='",
                    stmt->name.name.str());
        break;
      case NameKind::Local:
        report.note(hit.declRange,
                    "'{}' is a local binding; bind a new "
                    "value with 'let' instead",
                    stmt->name.name.str());
        break;
      case NameKind::Store:
      case NameKind::ActorBinder:
      case NameKind::Dependency:
      case NameKind::AgentRefDependency:
        report.note(hit.declRange, "only stores can be written with ':='");
        break;
      case NameKind::Some:
      case NameKind::None:
      case NameKind::Fn:
      case NameKind::AgentFn:
      case NameKind::Type:
      case NameKind::Constructor:
      case NameKind::RecordType:
      case NameKind::Event:
      case NameKind::Capability:
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
        scoped = false;
        break;
    }
    if (scoped) return invalid(stmt->range);
    std::vector<std::string> stores;
    for (const StoreInfo& s : agent_->stores) stores.push_back(s.field.name);
    std::string best = closestName(stmt->name.name, stores);
    if (!best.empty()) {
      report.note("did you mean '{}'?", best);
      report.fixit(stmt->name.range, best);
    }
    return invalid(stmt->range);
  }
  sema().program.uses.record(stmt->name.range, store->field.nameRange,
                             store->field.type);
  const Type* storeType =
      store->field.type != nullptr ? store->field.type : tt.error();
  InstId value = checkAgainst(stmt->value, storeType);
  effects_.addWrite(store);
  auto index = static_cast<std::uint32_t>(store - agent_->stores.data());
  return emit(InstKind::StoreWrite, tt.unit(), stmt->range, index,
              value.index());
}

}  // namespace herald::check
