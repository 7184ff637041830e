// The body checker: one instance per fn, handler, store initialiser or
// invariant. It types every expression (bidirectionally: an expected type
// flows down to bare variants, `None`, `[]`, `Some` and refined constants),
// lowers it to the body IR (ir/body.h) as it goes, and accumulates the
// body's effects (capabilities, emits, store writes, messages, agent fns
// called). Internal to checker/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include "checker/lookup.h"
#include "checker/resolve.h"
#include "checker/sema.h"
#include "frontend/ast.h"
#include "ir/program.h"

namespace herald::check {

// The built-in operations of a String, List, Option or Map (language
// reference, section 8), sorted; empty for any other type.
[[nodiscard]] std::vector<std::string> builtinMethodNames(TypeTable& tt,
                                                          const Type* t);

// What kind of body is being checked decides what is in scope and which
// effects are allowed.
enum class BodyRole : std::uint8_t {
  PureFn,        // context-level, static (`fn T.x`) and service-local fns
  AgentFn,       // may use stores and capabilities; its caller must give them
  Handler,       // agent or service handler
  StoreInit,     // a store's initialiser: pure, no stores
  Invariant,     // pure Bool over the agent's stores and key
  FieldDefault,  // an event field's default: a constant (checked after)
};

// The effects of one body. For agent fns, after closure, the effects of
// every agent fn it calls too.
struct Effects {
  // Each capability once, with the range of its first use.
  llvm::SmallVector<std::pair<const CapabilityInfo*, SourceRange>, 2> caps;
  llvm::SmallVector<const EventInfo*, 2> emits;
  llvm::SmallVector<const StoreInfo*, 2> writes;
  std::vector<CommitShape::Message> sends;
  llvm::SmallVector<const FnInfo*, 2> callees;  // agent fns called
  // Agent fns: the `given` items of the fn and of every agent fn it calls,
  // each with the fn that declares it; a calling handler must give them.
  llvm::SmallVector<std::pair<const DependencyInfo*, const FnInfo*>, 2>
      required;

  void addCap(const CapabilityInfo* cap, SourceRange at);
  void addEmit(const EventInfo* event);
  void addWrite(const StoreInfo* store);
  void addCallee(const FnInfo* fn);
  void addRequired(const DependencyInfo* item, const FnInfo* fn);
  // Merges `other` into this one; true when something was added.
  bool merge(const Effects& other);
};

// State shared by every body of the program.
struct BodyPass {
  Sema& sema;
  llvm::DenseMap<const FnInfo*, Effects> fnEffects;  // agent fns
};

struct ResolvedPattern;

// A parameter as calls see it (fields, variant payloads, methods).
struct ParamView {
  llvm::StringRef name;
  const Type* type = nullptr;
  SourceRange nameRange{};  // empty for a built-in method's parameter
};

// Where a body lives: the declaration that owns it and the agent,
// service or event around that declaration.
struct BodySite {
  BodyOwner owner;
  const AgentInfo* agent = nullptr;      // agent members
  const ServiceInfo* service = nullptr;  // service members
  const EventInfo* event = nullptr;      // an event field's default
};

class BodyChecker {
 public:
  // Begins one body of `site.owner` in the program's body IR; one of the
  // check functions below checks it and closes it, once.
  BodyChecker(BodyPass& pass, const ContextInfo& context, const BodySite& site);

  // A fn's or handler's block against its result type (the value is
  // discarded when the result is ()); a handler's uses of capabilities it
  // does not give are reported after it. Each check function returns the
  // body's id in BodyIr::bodies.
  BodyId checkFn(const ast::BlockExpr* body, const Type* result, FileId file);
  // A store initialiser or event field default against `expected`.
  BodyId checkValue(const ast::Expr* e, const Type* expected, FileId file);
  // An invariant's condition, which must be a Bool.
  BodyId checkInvariant(const ast::Expr* condition, FileId file);
  // The effects of the body checked, moved out.
  [[nodiscard]] Effects takeEffects() { return std::move(effects_); }

 private:
  // --- a whole body (check_body.cpp) ----------------------------------------
  // A fn's or handler's block: the body's root instruction.
  InstId checkFnBody(const ast::BlockExpr* body, const Type* result);
  // Closes the body begun by the constructor.
  BodyId finish(InstId root, FileId file);

  // --- building the IR (check_expr.cpp) -----------------------------------
  InstId emit(InstKind kind, const Type* type, SourceRange at,
              std::uint32_t a = 0, std::uint32_t b = 0, std::uint8_t sub = 0);
  // A Unary or Binary instruction (`op` its operator), folded at once when
  // its operands are constants (check_fold.cpp).
  InstId emitOperator(InstKind kind, const Type* type, SourceRange at,
                      std::uint32_t a, std::uint32_t b, std::uint8_t op);
  // An expression an error was reported for (or that an earlier error left
  // meaningless). `type`, when given, is the type its uses assume, so that
  // they are still checked as before.
  InstId invalid(SourceRange at, const Type* type = nullptr);
  // An operand list, for an Insts argument.
  std::uint32_t list(llvm::ArrayRef<InstId> ids);
  const Type* typeOf(InstId id) const;
  SlotId newSlot(llvm::StringRef name, const Type* type, bool fromPattern);
  BodyIr& ir() { return pass_.sema.program.bodies; }

  // --- expressions (check_expr.cpp) ---------------------------------------
  // Types and lowers `e`, with `expected` (may be null) as a hint; reports
  // problems inside `e` but not a mismatch against `expected`. `discard`
  // when `e` is a statement whose value is discarded: an `if`, `match` or
  // block there passes it on to its branches.
  InstId check(const ast::Expr* e, const Type* expected, bool discard = false);
  // `v`, the value of `e`, returned as is and recorded with its type when
  // the program records expression types (Program::exprTypes). Each
  // expression node is recorded once, where its value is made: by check
  // for most kinds, by the loops over a postfix chain, an operator chain,
  // a run of `!` and `-` and an `else if` chain for each of their links.
  InstId typed(const ast::Expr* e, InstId v);
  // check + the value is used (message-result-used) + it must fit
  // `expected` (type-mismatch, refinement of constants); the value after
  // its coercion.
  InstId checkAgainst(const ast::Expr* e, const Type* expected);
  // check + the value is used; no expected type to fit.
  InstId checkUsed(const ast::Expr* e, const Type* expected);
  // Whether `value` (lowered from `e`) fits `expected`: the value wrapped
  // in its coercion; reports type-mismatch or refinement-violated.
  InstId coerce(const ast::Expr* e, InstId value, const Type* expected);
  // Joins the types of two branches (if/else, match arms). Refinements of one
  // base join at the base: the caller unrefines each branch to the result.
  const Type* join(const Type* a, const Type* b) const;

  // --- helpers shared by the construct files --------------------------------
  TypeTable& types() { return pass_.sema.program.types; }
  Sema& sema() { return pass_.sema; }
  static bool quiet(const Type* t);  // error type or null: stay silent
  static const Type* stripRefined(const Type* t);
  static bool isSum(const Type* t);
  static const ast::Expr* stripParens(const ast::Expr* e);
  // A bare name, `[]` or bare-variant call that needs an expected type.
  bool needsExpected(const ast::Expr* e);
  // "'a', 'b' and 'c'"
  static std::string quotedList(llvm::ArrayRef<std::string> names);

  // --- dispatch (check_expr.cpp) ------------------------------------------
  InstId checkBlock(const ast::BlockExpr* block, const Type* expected,
                    bool used);
  InstId checkIf(const ast::IfExpr* e, const Type* expected, bool discard);
  // One `if` of an `else if` chain once its `else` is checked.
  InstId joinIf(const ast::IfExpr* e, const Type* expected, InstId cond,
                InstId then, const Type* thenT, InstId otherwise);
  InstId checkUnary(const ast::UnaryExpr* e);
  // One operator of a run of `!` and `-` once its operand is checked.
  InstId unaryLink(const ast::UnaryExpr* e, InstId operand);
  InstId checkFail(const ast::FailExpr* e);
  // Reports `e` when its value `v` is a message's (which has none).
  void reportMessageUse(const ast::Expr* e, InstId v);
  [[nodiscard]] bool isMessage(InstId v) const;

  // --- statements (check_stmt.cpp) ----------------------------------------
  InstId checkLet(const ast::Stmt* stmt);
  InstId checkAssign(const ast::Stmt* stmt);

  // --- names (check_name.cpp) ---------------------------------------------
  InstId checkName(const ast::NameExpr* e, const Type* expected);
  // A postfix chain (field accesses and calls, `f().a().b.c()`) topped by
  // the FieldExpr or CallExpr `e`, checked in a loop over its links.
  InstId checkPostfix(const ast::Expr* e, const Type* expected);
  InstId checkValueField(const ast::FieldExpr* e, InstId base,
                         const Type* baseType);
  // The link `e` of a field chain whose path `parts` (a prefix of the
  // chain's path) the resolver read as `r`: its value when the link is
  // what `r` names, or nothing when it is a value's field.
  std::optional<InstId> pathLink(const ast::FieldExpr* e,
                                 llvm::ArrayRef<ast::Ident> parts,
                                 const Resolution& r);
  // What the body has in scope, for the resolver (resolve.h).
  BodyScope scope() const;
  Resolution resolve(llvm::ArrayRef<ast::Ident> parts,
                     const Type* expected) const;
  // The type of a name of the body's scope, and the instruction reading it
  // (for a capability operation, its dependency).
  const Type* scopedType(const Resolution& r);
  InstId scopedValue(const Resolution& r, SourceRange at);
  void reportUnknownName(const ast::Ident& name);
  void reportAmbiguous(llvm::ArrayRef<ast::Ident> parts, const Resolution& hit);
  void reportNotAValue(const ast::Expr* e, llvm::StringRef name,
                       const DeclInfo* decl);
  void reportUnknownMember(const ast::Ident& member, const TypeInfo* type);
  // `parts` (of `e`) begin with a context's name and name none of its
  // declarations; `called` when `e` is a callee.
  void reportContextPrefix(const ast::Expr* e, llvm::ArrayRef<ast::Ident> parts,
                           const Resolution& r, bool called);
  std::vector<std::string> sumsWithVariant(llvm::StringRef variant) const;
  // A variant written without arguments (`r` is a Variant).
  InstId variantValue(const ast::Expr* e, const ast::Ident& name,
                      const Resolution& r);

  // --- calls (check_call.cpp) ---------------------------------------------
  // Calls whose callee is no link of a postfix chain: a bare name, or a
  // type application (`Events.emit[E](...)`).
  InstId checkNameCall(const ast::CallExpr* e, const ast::NameExpr* callee,
                       const Type* expected);
  InstId checkAppliedCall(const ast::CallExpr* e,
                          const ast::TypeApplyExpr* callee);
  // A call whose callee is the path `parts`, resolved to `r`; `handled`
  // false when the path names no declaration call (then the caller goes
  // on).
  InstId checkPathCall(const ast::CallExpr* e, const Type* expected,
                       llvm::ArrayRef<ast::Ident> parts, const Resolution& r,
                       bool& handled);
  // `base.name(...)` once `base` is checked: a message or a built-in
  // operation.
  InstId callMember(const ast::CallExpr* e, const ast::FieldExpr* callee,
                    InstId base);
  // `v(...)` where `v` is a value: never callable.
  InstId callValue(const ast::CallExpr* e, InstId callee);
  // The arguments lowered and coerced, appended to `out`.
  void checkArgs(llvm::StringRef callee, llvm::ArrayRef<ParamView> params,
                 const ast::CallExpr* call, llvm::SmallVectorImpl<InstId>& out);
  void checkArgs(llvm::StringRef callee, llvm::ArrayRef<FieldInfo> params,
                 const ast::CallExpr* call, llvm::SmallVectorImpl<InstId>& out);
  // Whether a value of type `actual` is accepted where `expected` is, as
  // coerce accepts it (refinements checked later are accepted here).
  static bool fits(const Type* actual, const Type* expected);
  // The two arguments (by index) that fit only each other's parameter,
  // when every other argument fits its own (check_args.cpp).
  [[nodiscard]] std::optional<std::pair<std::size_t, std::size_t>>
  swappedArguments(llvm::ArrayRef<InstId> values,
                   llvm::ArrayRef<ParamView> params) const;
  // Checks the arguments of a call that is already known to be wrong; the
  // call is invalid.
  InstId checkArgsQuietly(const ast::CallExpr* call,
                          const Type* type = nullptr);
  InstId callFn(const ast::CallExpr* e, const FnInfo* fn);
  InstId callVariant(const ast::CallExpr* e, const Type* sum,
                     const VariantInfo* variant);
  InstId callSome(const ast::CallExpr* e, const Type* expected);
  InstId callOpaque(const ast::CallExpr* e, const TypeInfo* type);
  InstId callAgentRef(const ast::CallExpr* e, const Resolution& hit);
  InstId callMessage(const ast::CallExpr* e, const ast::FieldExpr* callee,
                     InstId ref);
  InstId callMethod(const ast::CallExpr* e, const ast::FieldExpr* callee,
                    InstId base);

  // --- capabilities and emit (check_effects.cpp) ----------------------------
  // A capability operation `cap.op`, called (`call`) or not; `reach` is
  // how the capability is reached: a Dependency instruction for a named
  // `given` dependency (given by definition), or an invalid id for a
  // capability named directly.
  InstId capabilityOp(const ast::Expr* e, const ast::CallExpr* call,
                      const CapabilityInfo* cap, const ast::Ident& op,
                      InstId reach, SourceRange capRange);
  void useCapability(const CapabilityInfo* cap, SourceRange at,
                     bool viaDependency);
  bool givenHere(const CapabilityInfo* cap) const;
  // Whether the handler gives a named item like `item` (same name and
  // type).
  bool givesNamed(const DependencyInfo& item) const;
  InstId checkEmit(const ast::CallExpr* call, const ast::Expr* callee,
                   const ast::TypeApplyExpr* typeArg);
  void callAgentFn(const FnInfo* callee, SourceRange at);

  // Records a capability the handler uses without giving it (once each);
  // reportMissingCapabilities reports them all, after the body.
  void reportNotGiven(const CapabilityInfo* cap, SourceRange at,
                      const SourceRange* useInFn, const FnInfo* via);
  void reportMissingCapabilities();

  // --- literals (check_literal.cpp) -----------------------------------------
  InstId checkRecordLit(const ast::RecordLitExpr* e);
  InstId checkListLit(const ast::ListLitExpr* e, const Type* expected);
  InstId checkString(const ast::StringLitExpr* e);
  // One value per declared field, in declaration order (FieldDefault for
  // an event field left to its default, Invalid for a missing one); false
  // when a field was missing. Each initialiser finds its field through the
  // declaration's `index` (one probe, not a scan of the fields).
  bool checkFieldInits(const ast::RecordLitExpr* e, llvm::StringRef typeName,
                       const std::vector<FieldInfo>& fields,
                       const MemberIndex& index, const EventInfo* event,
                       llvm::SmallVectorImpl<InstId>& out);

  // --- operators (check_operator.cpp) ---------------------------------------
  InstId checkBinary(const ast::BinaryExpr* e);

  // --- constant arithmetic (check_fold.cpp) ---------------------------------
  // Called by emit for each Unary and Binary: folds it when its operands
  // are constants, reporting an overflow or a division by zero.
  void foldConstant(InstId id, SourceRange at);
  std::optional<std::int64_t> foldedValue(InstId id) const;

  // --- map literals (check_map_literal.cpp) ---------------------------------
  InstId checkMapLit(const ast::MapLitExpr* e, const Type* expected);

  // --- match (check_match.cpp) ----------------------------------------------
  InstId checkMatch(const ast::MatchExpr* e, const Type* expected,
                    bool discard);
  // The pattern of an arm as instructions.
  InstId lowerPattern(const ResolvedPattern* p);
  // One sub-pattern per declared field, in declaration order; the written
  // ones are lowered in source order, so their bindings are too.
  InstId lowerPatternFields(const ResolvedPattern* p);

  // Binds `name` to a new slot (none for `_` or an empty name).
  SlotId bind(llvm::StringRef name, const Type* type, SourceRange range,
              bool fromPattern);
  llvm::SmallVector<Local, 16>& locals() { return locals_; }

  BodyPass& pass_;
  const ContextInfo& context_;
  BodyOwner owner_;
  const AgentInfo* agent_;
  const ServiceInfo* service_;
  const EventInfo* event_;
  const HandlerInfo* handler_;  // a handler's body
  const FnInfo* fn_;            // a fn's body
  llvm::StringRef ownerName_;   // fn, store or invariant name, for messages
  llvm::ArrayRef<FieldInfo> params_;
  BodyRole role_;
  Effects effects_;
  std::uint32_t firstInst_;
  std::uint32_t firstSlot_;
  llvm::SmallVector<Local, 16> locals_;
  // Capabilities already reported as not given in this body (once each).
  llvm::SmallVector<const CapabilityInfo*, 2> reportedCaps_;
  // Capabilities a handler uses without giving them: where, and the agent
  // fn (`via`, with its use `useInFn`) that uses it, if any.
  // A named item (`item`) of an agent fn that the handler does not give
  // has no capability to report.
  struct NotGiven {
    const CapabilityInfo* cap = nullptr;
    const DependencyInfo* item = nullptr;
    SourceRange at;
    SourceRange useInFn;
    const FnInfo* via = nullptr;
    const FnInfo* callee = nullptr;  // the agent fn called, for an item
  };
  llvm::SmallVector<NotGiven, 2> notGiven_;
  // A statement the parser could not read may have bound any name: after
  // one, unknown names are not reported (they would be cascades).
  bool sawBrokenStmt_ = false;
  // The values of the Unary and Binary instructions folded so far.
  llvm::DenseMap<std::uint32_t, std::int64_t> folded_;
};

// Finalises a commit shape from effects: emits sorted by qualified name,
// writes sorted, sends in source order; capabilities sorted by name.
void finishShape(const Effects& effects, CommitShape& shape,
                 std::vector<const CapabilityInfo*>& caps);

}  // namespace herald::check
