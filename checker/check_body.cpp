// A whole body: the body checker begun for one declaration, each kind of
// body checked against what its declaration expects, and the body closed
// in the program's body IR.
#include "checker/body_checker.h"
#include "ir/inst_views.h"

namespace herald::check {

namespace {

BodyRole roleOf(const BodySite& site) {
  switch (site.owner.kind()) {
    case BodyKind::Fn:
      return site.agent != nullptr ? BodyRole::AgentFn : BodyRole::PureFn;
    case BodyKind::Handler:
      return BodyRole::Handler;
    case BodyKind::StoreInit:
      return BodyRole::StoreInit;
    case BodyKind::Invariant:
      return BodyRole::Invariant;
    case BodyKind::FieldDefault:
      return BodyRole::FieldDefault;
  }
  return BodyRole::PureFn;
}

// The name of the body's declaration, for messages.
llvm::StringRef ownerNameOf(const BodyOwner& owner) {
  switch (owner.kind()) {
    case BodyKind::Fn:
      return owner.fn()->name;
    case BodyKind::Handler:
      return owner.handler()->name;
    case BodyKind::StoreInit:
      return owner.store()->field.name;
    case BodyKind::Invariant:
      return owner.invariant()->name;
    case BodyKind::FieldDefault:
      return owner.fieldDefault()->name;
  }
  return {};
}

}  // namespace

BodyChecker::BodyChecker(BodyPass& pass, const ContextInfo& context,
                         const BodySite& site)
    : pass_(pass),
      context_(context),
      owner_(site.owner),
      agent_(site.agent),
      service_(site.service),
      event_(site.event),
      handler_(site.owner.handler()),
      fn_(site.owner.fn()),
      ownerName_(ownerNameOf(site.owner)),
      params_(site.owner.params()),
      role_(roleOf(site)),
      firstInst_(
          static_cast<std::uint32_t>(pass.sema.program.bodies.insts.size())),
      firstSlot_(
          static_cast<std::uint32_t>(pass.sema.program.bodies.slots.size())) {}

BodyId BodyChecker::checkFn(const ast::BlockExpr* body, const Type* result,
                            FileId file) {
  InstId root = checkFnBody(body, result);
  if (role_ == BodyRole::Handler) reportMissingCapabilities();
  return finish(root, file);
}

InstId BodyChecker::checkFnBody(const ast::BlockExpr* body,
                                const Type* result) {
  TypeTable& tt = types();
  if (body == nullptr) return invalid(SourceRange{});
  if (result == nullptr || result == tt.unit() || quiet(result))
    return checkBlock(body, nullptr, false);
  InstId v = checkBlock(body, result, true);
  // Point at the expression that produced the value, not the whole body.
  const ast::Expr* at = body;
  if (!body->stmts.empty() && body->stmts.back() != nullptr &&
      body->stmts.back()->kind == ast::StmtKind::Expr &&
      body->stmts.back()->value != nullptr)
    at = body->stmts.back()->value;
  // A message there was reported as message-result-used already.
  if (at != body && isMessage(ir().list(ir()[v].as<Block>().stmts).back()))
    return v;
  return coerce(at, v, result);
}

BodyId BodyChecker::checkValue(const ast::Expr* e, const Type* expected,
                               FileId file) {
  return finish(checkAgainst(e, expected), file);
}

BodyId BodyChecker::checkInvariant(const ast::Expr* condition, FileId file) {
  TypeTable& tt = types();
  InstId root = checkUsed(condition, tt.boolType());
  const Type* t = typeOf(root);
  if (!quiet(t) && t->kind != TypeKind::Never &&
      stripRefined(t) != tt.boolType())
    sema().diags.report<diag::ImpureInvariant>(
        condition->range, ownerName_,
        "it has type '" + displayName(t) + "', not 'Bool'");
  else if (t != tt.boolType() && t->kind != TypeKind::Never)
    root = coerce(condition, root, tt.boolType());
  return finish(root, file);
}

BodyId BodyChecker::finish(InstId root, FileId file) {
  BodyIr& b = ir();
  Body body;
  body.owner = owner_;
  body.agent = agent_;
  body.service = service_;
  body.event = event_;
  body.file = file;
  body.firstInst = firstInst_;
  body.endInst = static_cast<std::uint32_t>(b.insts.size());
  body.firstSlot = firstSlot_;
  body.endSlot = static_cast<std::uint32_t>(b.slots.size());
  body.root = root;
  b.bodies.push_back(body);
  return BodyId(static_cast<std::uint32_t>(b.bodies.size() - 1));
}

}  // namespace herald::check
