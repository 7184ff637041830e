// The checked IR: the one input of code generation. Every declaration of
// every context, resolved: qualified names, types, each handler's commit
// shape, capabilities and dependencies, each subscription's pattern lowered
// to a predicate, the static event-flow graph, and every body lowered to
// the body IR (ir/body.h), so codegen never re-resolves a name.
//
// Declarations are kind-tagged (LLVM-style isa/cast/dyn_cast). Containers
// keep declaration order within a context; contexts are sorted by name, so
// anything printed from the IR is deterministic.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>

#include "frontend/ast.h"
#include "frontend/source.h"
#include "ir/body.h"
#include "ir/const_value.h"
#include "ir/expr_types.h"
#include "ir/predicate.h"
#include "ir/types.h"
#include "ir/uses.h"

namespace herald::check {

struct ContextInfo;
struct FnInfo;

enum class DeclInfoKind : std::uint8_t {
  Type,
  Event,
  Actor,
  Capability,
  Fn,
  Agent,
  Service,
};

// A declaration named at context level.
struct DeclInfo {
  DeclInfoKind kind;
  std::string name;                 // `PaymentConfirmed`
  std::string qualified;            // `commerce.order.PaymentConfirmed`
  ContextInfo* context = nullptr;   // null for first-party capabilities
  const ast::Decl* decl = nullptr;  // null for first-party capabilities
  SourceRange nameRange;

  DeclInfo(DeclInfoKind k) : kind(k) {}
  DeclInfo(const DeclInfo&) = delete;
  DeclInfo& operator=(const DeclInfo&) = delete;
  virtual ~DeclInfo() = default;
};

template <DeclInfoKind K>
struct DeclInfoOf : DeclInfo {
  static constexpr DeclInfoKind kKind = K;
  DeclInfoOf() : DeclInfo(K) {}
  static bool classof(const DeclInfo* d) { return d->kind == K; }
};

// A record field, event field, variant field, parameter, key or store.
struct FieldInfo {
  std::string name;
  const Type* type = nullptr;
  SourceRange range;  // the whole `name: T [= e]`
  SourceRange nameRange;
  const ast::Expr* defaultExpr = nullptr;  // event fields only
  // When defaultExpr is a constant. Boxed: most fields (every parameter)
  // have none, and a FieldInfo is copied and kept per parameter.
  std::shared_ptr<const ConstValue> defaultValue;
  BodyId defaultBody;  // event fields with a default
};

struct VariantInfo {
  std::string name;
  std::uint32_t index = 0;  // declaration order
  std::vector<FieldInfo> fields;
  SourceRange nameRange;
};

// A name -> position index over a declaration's member list (fields,
// variants, ops, handlers) for the lookups by name that checking does per
// use: a long list is indexed on its first lookup and the index extended
// when the list has grown since, so lookups stay O(1) however many members
// a declaration has. Short lists are scanned. The first of duplicate names
// wins, as in a scan (duplicates are reported where they are declared).
class MemberIndex {
 public:
  template <typename T>
  [[nodiscard]] const T* find(const std::vector<T>& items,
                              llvm::StringRef name) const {
    if (items.size() < kScanBelow) {
      for (const T& item : items)
        if (item.name == name) return &item;
      return nullptr;
    }
    if (indexed_ > items.size()) {  // the list was replaced: start over
      positions_.clear();
      indexed_ = 0;
    }
    for (; indexed_ < items.size(); ++indexed_)
      positions_.try_emplace(items[indexed_].name,
                             static_cast<std::uint32_t>(indexed_));
    auto it = positions_.find(name);
    if (it == positions_.end()) return nullptr;
    const T& item = items[it->second];
    return item.name == name ? &item : nullptr;
  }

 private:
  static constexpr std::size_t kScanBelow = 16;
  mutable llvm::StringMap<std::uint32_t> positions_;
  mutable std::size_t indexed_ = 0;
};

enum class TypeDefKind : std::uint8_t {
  Record,
  Sum,
  Opaque,   // `opaque T [where e]`
  Refined,  // `T where e`: a nominal type whose values are the base's values
            // that satisfy the predicate
  Alias,    // `T`: transparent; `type` is the aliased type itself
};

// A `where` predicate lowered for code generation, built by
// decl_rules_refinement.cpp once the expression's shape is checked. Nodes
// are flat, operands before their users and the root last, so a predicate
// of any length is built, walked and destroyed without recursion.
struct RefinementNode {
  enum class Kind : std::uint8_t {
    Literal,  // `value`
    Self,     // the value checked: the innermost base of the type's opaque
              // and refined layers
    Len,      // `len(self)`: Unicode scalar values of a String, elements of
              // a List or Map
    Not,      // `!lhs`
    Neg,      // `-lhs`, Int or Duration
    And,      // `lhs && rhs`
    Or,       // `lhs || rhs`
    Eq,       // comparisons of `lhs` with `rhs`; an Int literal compares
    Ne,       // with a Float as the same number
    Lt,
    Le,
    Gt,
    Ge,
    Add,  // arithmetic of `lhs` and `rhs`: Int, and `+ -` on Durations
    Sub,
    Mul,
    Div,
    Rem,
  };
  Kind kind = Kind::Literal;
  const Type* type = nullptr;  // the type of the node's value
  std::uint32_t lhs = 0;       // operand node indices
  std::uint32_t rhs = 0;
  ConstValue value;  // Literal: Int, Float, Bool, String or Duration
};

struct RefinementExpr {
  std::vector<RefinementNode> nodes;  // empty: no predicate
  [[nodiscard]] bool empty() const { return nodes.empty(); }
  [[nodiscard]] std::uint32_t root() const {
    return static_cast<std::uint32_t>(nodes.size() - 1);
  }
};

struct TypeInfo : DeclInfoOf<DeclInfoKind::Type> {
  TypeDefKind def = TypeDefKind::Record;
  std::vector<FieldInfo> fields;          // Record
  std::vector<VariantInfo> variants;      // Sum
  const Type* base = nullptr;             // Opaque, Refined, Alias
  const ast::Expr* refinement = nullptr;  // Opaque, Refined: `where e`
  RefinementExpr predicate;               // `refinement`, lowered
  const Type* type = nullptr;             // the Named type, or the aliased type
  std::vector<const FnInfo*> staticFns;   // `fn Type.name`

  [[nodiscard]] const FieldInfo* field(llvm::StringRef n) const;
  [[nodiscard]] const VariantInfo* variant(llvm::StringRef n) const;
  MemberIndex fieldIndex, variantIndex;  // for field() and variant()
};

struct EventInfo : DeclInfoOf<DeclInfoKind::Event> {
  std::vector<FieldInfo> fields;
  std::optional<std::int64_t> pinnedSchema;  // `@schema(N)`
  SourceRange pinnedRange;                   // its argument, when pinned
  // The version emissions are stamped with: the pinned version or 1 as the
  // checker leaves it, then the version the schema registry (registry/)
  // computes from herald.schema.lock when a build runs it.
  std::int64_t schemaVersion = 1;
  const Type* type = nullptr;

  [[nodiscard]] const FieldInfo* field(llvm::StringRef n) const;
  MemberIndex fieldIndex;  // for field()
};

struct ActorInfo : DeclInfoOf<DeclInfoKind::Actor> {
  std::vector<FieldInfo> params;  // `actor Customer(identity: UserId)`
};

struct FnSignature {
  std::vector<FieldInfo> params;
  const Type* result = nullptr;  // Unit when `-> T` is omitted
};

// First-party capabilities (`Events`, `Clock`, `Logger`, `Idempotency`,
// `Random`) have a null context and decl. `Events.emit` takes one event of
// the emitting context, of any event type: no type says that, so its
// signature lists no parameter and `anyEvent` is set; calls of it are
// checked and lowered as Emit.
struct CapabilityOp {
  std::string name;
  FnSignature sig;
  SourceRange nameRange;
  bool anyEvent = false;
};

enum class FirstParty : std::uint8_t {
  None,  // declared in a context
  Events,
  Clock,
  Logger,
  Idempotency,
  Random,
};

struct CapabilityInfo : DeclInfoOf<DeclInfoKind::Capability> {
  FirstParty firstParty = FirstParty::None;
  std::vector<CapabilityOp> ops;
  const Type* type = nullptr;

  [[nodiscard]] const CapabilityOp* op(llvm::StringRef n) const;
  MemberIndex opIndex;  // for op()
};

struct AgentInfo;
struct ServiceInfo;
struct StoreInfo;
struct HandlerInfo;

// A named dependency from `given Name: Type` (a Ref[Agent] or a capability),
// or a capability given by name.
struct DependencyInfo {
  std::string name;  // `Rooms`, `Fx`; for a bare capability its own name
  const Type* type = nullptr;  // Ref[...] or Capability
  bool named = false;          // written `Name: Type`
  SourceRange range;
};

// What a handler's transaction may commit, from its body and every agent
// `fn` it calls.
struct CommitShape {
  std::vector<const EventInfo*> emits;   // sorted by qualified name, unique
  std::vector<const StoreInfo*> writes;  // sorted by name, unique
  struct Message {
    const AgentInfo* agent = nullptr;
    const HandlerInfo* handler = nullptr;
    SourceRange range;  // the call that sends it
  };
  std::vector<Message> sends;  // in source order
  [[nodiscard]] bool readOnly() const {
    return emits.empty() && writes.empty() && sends.empty();
  }
};

struct HandlerInfo {
  std::string name;  // `markPaid`, `event`
  bool isCall = false;
  const ast::HandlerDecl* decl = nullptr;
  std::vector<FieldInfo> params;
  const Type* result = nullptr;
  const ActorInfo* by = nullptr;      // `by InternalCaller`
  std::string byBinder;               // `by c: Customer` -> "c"
  std::vector<DependencyInfo> given;  // the handler's own `given`
  // Filled by body checking: capabilities used (through the service's or
  // the handler's `given`), sorted by name, and the commit shape.
  std::vector<const CapabilityInfo*> capabilitiesUsed;
  CommitShape commit;
  SourceRange nameRange;
  BodyId body;
};

struct FnInfo : DeclInfoOf<DeclInfoKind::Fn> {
  const TypeInfo* ownerType = nullptr;   // `fn Type.name`
  const AgentInfo* agent = nullptr;      // an agent-local fn
  const ServiceInfo* service = nullptr;  // a service-local fn
  FnSignature sig;
  const ast::FnDecl* fn = nullptr;
  // An agent fn's `given` items, which every handler calling it must give.
  std::vector<DependencyInfo> given;
  // Filled by body checking (agent fns): what its body commits and uses,
  // merged into every handler that calls it.
  std::vector<const CapabilityInfo*> capabilitiesUsed;
  CommitShape commit;
  BodyId body;  // none without a body
  // Pure: a context-level or static fn (no capabilities, no stores).
  [[nodiscard]] bool pure() const { return agent == nullptr; }
};

struct StoreInfo {
  FieldInfo field;
  const ast::Expr* init = nullptr;
  BodyId body;  // the initialiser's
  // The agent state version that added this store, as the schema registry
  // (registry/) records it: state of an older version decodes it from its
  // initialiser. 1 as the checker leaves it.
  std::int64_t since = 1;
};

struct InvariantInfo {
  std::string name;
  const ast::Expr* condition = nullptr;
  SourceRange nameRange;
  BodyId body;
};

struct AgentInfo : DeclInfoOf<DeclInfoKind::Agent> {
  std::optional<FieldInfo> key;
  // The version of the agent's state encoding: 1 as the checker leaves it,
  // then the version the schema registry computes from herald.schema.lock.
  std::int64_t stateVersion = 1;
  std::vector<StoreInfo> stores;
  std::vector<InvariantInfo> invariants;
  std::vector<HandlerInfo> handlers;
  std::vector<std::unique_ptr<FnInfo>> fns;  // agent-local, not in the
                                             // context's name table
  [[nodiscard]] const HandlerInfo* handler(llvm::StringRef n) const;
  MemberIndex handlerIndex;  // for handler()
  [[nodiscard]] const StoreInfo* store(llvm::StringRef n) const;
  [[nodiscard]] const FnInfo* fn(llvm::StringRef n) const;
};

// `via schema(...)`: the accepted envelope schema versions, both ends
// inclusive, absent when open.
struct VersionRange {
  std::optional<std::int64_t> low;
  std::optional<std::int64_t> high;
};

struct SubscriptionInfo {
  const EventInfo* event = nullptr;  // null when unresolved
  Predicate predicate;               // True when there is no pattern
  std::optional<VersionRange> via;   // absent: any version
  const ast::Subscription* syntax = nullptr;
  // The pattern as written (canonical brace spelling), for labels.
  std::string patternText;
};

struct ServiceInfo : DeclInfoOf<DeclInfoKind::Service> {
  std::optional<SubscriptionInfo> subscription;  // an Events service
  // `@cycle`: a cycle of the event flow through this subscription is
  // intended, so event-cycle does not report it.
  bool cycleIntended = false;
  std::vector<DependencyInfo> given;  // the service's `given`
  std::vector<HandlerInfo> handlers;
  std::vector<std::unique_ptr<FnInfo>> fns;  // service-local, pure
  [[nodiscard]] const HandlerInfo* handler(llvm::StringRef n) const;
  MemberIndex handlerIndex;  // for handler()
  [[nodiscard]] const FnInfo* fn(llvm::StringRef n) const;
};

struct ConsumesInfo {
  ContextInfo* target = nullptr;  // null when the context is unknown
  std::string alias;              // `as alias`, or empty
  bool restricted = false;        // `{ A, B }` form
  std::vector<std::string> only;  // the names of the `{ A, B }` form
  const ast::ConsumesDecl* decl = nullptr;
};

struct ContextInfo {
  std::string name;                            // `commerce.order`
  std::vector<const ast::ContextDecl*> parts;  // one per file that opens it
  std::vector<ConsumesInfo> consumes;
  // Every context-level declaration, in source order (files in file-id
  // order), and by name.
  std::vector<std::unique_ptr<DeclInfo>> decls;
  llvm::StringMap<DeclInfo*> byName;
  [[nodiscard]] DeclInfo* lookup(llvm::StringRef n) const;

  // The checker's memo of what a bare name denotes here among the context's
  // own and its consumed contexts' declarations (lookup.cpp), filled on
  // first use: by then every consumes line is resolved. Not a fact of the
  // program; nothing after the checker reads it.
  enum class BareName : std::uint8_t { None, Found, Ambiguous };
  mutable llvm::StringMap<std::pair<BareName, DeclInfo*>> bareNames;
};

// The static event-flow graph (section 6, event-cycle): who emits which
// event, which subscription receives it, and which agent handlers a
// subscriber or handler messages.
struct FlowGraph {
  enum class NodeKind : std::uint8_t { Handler, Event, Subscription };
  struct Node {
    NodeKind kind;
    std::string id;  // stable: `commerce.order.Order.markPaid`, ...
    const ContextInfo* context = nullptr;
    const HandlerInfo* handler = nullptr;  // Handler, Subscription
    const EventInfo* event = nullptr;      // Event
    const ServiceInfo* service = nullptr;  // Subscription
    const AgentInfo* agent = nullptr;      // agent handlers
  };
  enum class EdgeKind : std::uint8_t {
    Emits,     // handler -> event
    Delivers,  // event -> subscription
    Sends,     // handler or subscription -> agent handler
  };
  struct Edge {
    EdgeKind kind;
    std::uint32_t from = 0;
    std::uint32_t to = 0;
    std::string label;  // Delivers: the pattern and `via`, as written
  };
  std::vector<Node> nodes;  // sorted by id
  std::vector<Edge> edges;  // sorted by (from, to, kind)
};

// The whole checked program.
struct Program {
  TypeTable types;
  std::vector<std::unique_ptr<ContextInfo>> contexts;  // sorted by name
  std::vector<std::unique_ptr<CapabilityInfo>> firstParty;
  // Every context-level declaration by bare name, over all contexts, sorted
  // by qualified name: a failed lookup finds the contexts that would make
  // a name visible without scanning every context.
  llvm::StringMap<std::vector<DeclInfo*>> declsNamed;
  BodyIr bodies;  // every body, lowered
  FlowGraph flow;
  // Every resolved use of a name and the declaration it denotes, for
  // tools that navigate the source (the language server).
  UseTable uses;
  // The type of every expression of every body, by its range, for the
  // same tools (the type of an expression under the cursor).
  ExprTypeTable exprTypes;

  [[nodiscard]] ContextInfo* context(llvm::StringRef name) const;
};

}  // namespace herald::check
