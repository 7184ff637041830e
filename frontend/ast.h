// The abstract syntax tree. Nodes live in the arena of the ParseResult that
// produced them; names and literal spellings are StringRefs into the source
// text (owned by the SourceManager) or into the arena. Every node carries its
// source range. Malformed subtrees are Error nodes (or flagged `malformed`)
// so later phases can stay quiet about them.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Allocator.h>

#include "frontend/page_pool.h"
#include "frontend/source.h"
#include "frontend/token.h"

namespace herald::ast {

struct Ident {
  llvm::StringRef name;
  SourceRange range;
  [[nodiscard]] bool empty() const { return name.empty(); }
};

// `commerce.order`, `Region.Domestic`, `fx.Converter`.
struct QualifiedName {
  llvm::ArrayRef<Ident> parts;
  SourceRange range;
};

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

enum class TypeExprKind : std::uint8_t {
  Path,  // `Int`, `commerce.order.OrderId`, `Option[T]`, `Map[K, V]`
  Unit,  // `()`
  Error,
};

struct TypeExpr {
  TypeExprKind kind;
  SourceRange range;
  QualifiedName path;              // Path
  llvm::ArrayRef<TypeExpr*> args;  // Path: `[...]` arguments
};

// ---------------------------------------------------------------------------
// Patterns: subscription patterns (`from Events(E { ... })`) and `match` arms
// share one node family; the checker decides which forms are valid where.
// Nodes are kind-tagged subclasses (LLVM-style: use llvm::isa/cast/dyn_cast)
// so each costs only what its kind needs.
// ---------------------------------------------------------------------------

struct Expr;
struct Pattern;

// `name: pattern` inside a record pattern or a variant's payload; in a
// positional payload (`Some(p)`, `Refunded(p)`) `label` is empty.
struct PatternField {
  Ident label;
  Pattern* value;
  SourceRange range;
};

enum class PatternKind : std::uint8_t {
  Wildcard,     // `_`
  Literal,      // `3`, `-7`, `"x"`, `true`, `2.5`
  Name,         // `Domestic`, `Region.Domestic`, `None`, or a binding `u`
  Constructor,  // `Refunded(reason: "x", ..)`, `Some(p)`
  Range,        // `1..5`, `1..`, `..5`
  Or,           // `p | q`
  Record,       // `{ field: p, .. }` (or the angle spelling `< ... >`)
  Error,
};

struct Pattern {
  PatternKind kind;
  SourceRange range;
};

template <PatternKind K>
struct PatternOf : Pattern {
  static constexpr PatternKind kKind = K;
  static bool classof(const Pattern* p) { return p->kind == K; }
};

struct WildcardPattern : PatternOf<PatternKind::Wildcard> {};
struct ErrorPattern : PatternOf<PatternKind::Error> {};
struct LiteralPattern : PatternOf<PatternKind::Literal> {
  Expr* literal;  // a literal Expr, or Unary(Neg, IntLit/FloatLit)
};
struct NamePattern : PatternOf<PatternKind::Name> {
  QualifiedName name;
};
struct ConstructorPattern : PatternOf<PatternKind::Constructor> {
  QualifiedName name;
  llvm::ArrayRef<PatternField> fields;
  bool hasRest;
  SourceRange restRange;
};
struct RangePattern : PatternOf<PatternKind::Range> {
  Expr* low;   // null when open
  Expr* high;  // null when open
};
struct OrPattern : PatternOf<PatternKind::Or> {
  Pattern* lhs;
  Pattern* rhs;
};
struct RecordPattern : PatternOf<PatternKind::Record> {
  llvm::ArrayRef<PatternField> fields;
  bool hasRest;
  SourceRange restRange;  // the `..`, when hasRest
  bool angle;             // written `< ... >`
};

// ---------------------------------------------------------------------------
// Expressions and statements
// ---------------------------------------------------------------------------

enum class ExprKind : std::uint8_t {
  IntLit,  // `1_000` (magnitude; `-7` is Unary(Neg, 7))
  FloatLit,
  BoolLit,
  StringLit,    // parts (a plain string is one text part)
  UnitLit,      // `()`
  DurationLit,  // `250.ms`
  Name,
  Field,      // base.name
  Call,       // callee(args)
  TypeApply,  // base[typeArgs]   (`Events.emit[E]`)
  RecordLit,  // type { fields }  (type: a Name/Field chain)
  ListLit,    // [elements]
  MapLit,     // [key: value, ...], `[:]` when empty
  If,
  Match,
  Block,
  Unary,
  Binary,
  Paren,  // ( inner )
  Fail,   // fail(message)
  Error,
};

enum class UnaryOp : std::uint8_t { Neg, Not };
enum class BinaryOp : std::uint8_t {
  Or,
  And,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Add,
  Sub,
  Mul,
  Div,
  Rem,
};

// The operators as written in source: "-", "||", "<=", ...
[[nodiscard]] std::string_view spelling(UnaryOp op);
[[nodiscard]] std::string_view spelling(BinaryOp op);
// `text` escaped as the inside of a Herald string literal, on one line.
[[nodiscard]] std::string escapeStringText(llvm::StringRef text);

// The largest number of expressions one file may hold: ids are 24 bits so
// that they fit in the padding after `kind`.
inline constexpr std::uint32_t kMaxExprsPerFile = (1u << 24) - 1;

struct Expr {
  ExprKind kind;
  // Dense per parse, from 0 in creation order, so later phases keep
  // per-expression facts in arrays indexed by (file, id) instead of hash
  // maps keyed by address.
  std::uint32_t id : 24;
  SourceRange range;
};
static_assert(sizeof(Expr) == 16, "an expression id must not grow nodes");

template <ExprKind K>
struct ExprOf : Expr {
  static constexpr ExprKind kKind = K;
  static bool classof(const Expr* e) { return e->kind == K; }
};

struct StringPart {
  llvm::StringRef text;  // when expr is null: decoded text
  Expr* expr;            // an interpolation `\( expr )`, or null
  SourceRange range;
};

struct Arg {
  Ident label;  // empty when unlabelled
  Expr* value;
  SourceRange range;
};

struct FieldInit {
  Ident name;
  Expr* value;
  SourceRange range;
};

// `key: value` in a map literal.
struct MapEntry {
  Expr* key;
  Expr* value;
  SourceRange range;
};

struct MatchArm {
  Pattern* pattern;
  Expr* body;
  SourceRange range;
};

struct Stmt;

// `digits` is the literal as written (`21_000`, `1.50`), so that `heraldc
// fmt` keeps the author's digit separators; `value` is what it means.
struct IntLitExpr : ExprOf<ExprKind::IntLit> {
  std::uint64_t value;
  llvm::StringRef digits;
};
struct FloatLitExpr : ExprOf<ExprKind::FloatLit> {
  double value;
  llvm::StringRef digits;
};
struct BoolLitExpr : ExprOf<ExprKind::BoolLit> {
  bool value;
};
struct StringLitExpr : ExprOf<ExprKind::StringLit> {
  llvm::ArrayRef<StringPart> parts;
};
struct UnitLitExpr : ExprOf<ExprKind::UnitLit> {};
struct DurationLitExpr : ExprOf<ExprKind::DurationLit> {
  std::uint64_t value;
  DurationUnit unit;
  llvm::StringRef digits;  // before the `.`, as written: `1_000` of `1_000.ms`
};
struct NameExpr : ExprOf<ExprKind::Name> {
  Ident name;
};
struct FieldExpr : ExprOf<ExprKind::Field> {
  Expr* base;
  Ident name;
};
struct CallExpr : ExprOf<ExprKind::Call> {
  Expr* callee;
  llvm::ArrayRef<Arg> args;
};
struct TypeApplyExpr : ExprOf<ExprKind::TypeApply> {
  Expr* base;
  llvm::ArrayRef<TypeExpr*> typeArgs;
};
struct RecordLitExpr : ExprOf<ExprKind::RecordLit> {
  Expr* type;
  llvm::ArrayRef<FieldInit> fields;
};
struct ListLitExpr : ExprOf<ExprKind::ListLit> {
  llvm::ArrayRef<Expr*> elements;
};
struct MapLitExpr : ExprOf<ExprKind::MapLit> {
  llvm::ArrayRef<MapEntry> entries;
};
struct BlockExpr : ExprOf<ExprKind::Block> {
  llvm::ArrayRef<Stmt*> stmts;
};
struct IfExpr : ExprOf<ExprKind::If> {
  Expr* cond;
  BlockExpr* thenBlock;
  Expr* elseExpr;  // a BlockExpr, an IfExpr, or null
};
struct MatchExpr : ExprOf<ExprKind::Match> {
  Expr* scrutinee;
  llvm::ArrayRef<MatchArm> arms;
};
struct UnaryExpr : ExprOf<ExprKind::Unary> {
  UnaryOp op;
  Expr* operand;
};
struct BinaryExpr : ExprOf<ExprKind::Binary> {
  BinaryOp op;
  Expr* lhs;
  Expr* rhs;
};
struct ParenExpr : ExprOf<ExprKind::Paren> {
  Expr* inner;
};
struct FailExpr : ExprOf<ExprKind::Fail> {
  Expr* message;
};
struct ErrorExpr : ExprOf<ExprKind::Error> {};

// The child a chain of expressions continues through: the left operand of
// a binary operator, the base of a field, call, type application or record
// literal, a unary operand, the `else` of an `if`; null for every other kind
// (and for an `if` without `else`). `1 + 1 + ...`, `a.b.c...` and
// `else if ...` grow the AST only along this child, so a walk that iterates
// over it recurses only as deep as the source's true nesting.
[[nodiscard]] const Expr* chainChild(const Expr* e);

enum class StmtKind : std::uint8_t {
  Let,     // let name [: type] = value
  Assign,  // name := value
  Expr,    // value
  Error,
};

struct Stmt {
  StmtKind kind;
  SourceRange range;
  Ident name;                // Let, Assign
  TypeExpr* type = nullptr;  // Let (optional)
  Expr* value = nullptr;     // Let, Assign, Expr
};

// ---------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------

enum class DeclKind : std::uint8_t {
  Consumes,
  Type,
  Event,
  Actor,
  Capability,
  Fn,
  Agent,
  Key,        // agent member
  Store,      // agent member
  Invariant,  // agent member
  Handler,    // agent or service member: `on` / `on call`
  Service,
  Error,
};

struct Decl {
  DeclKind kind;
  SourceRange range;
  llvm::StringRef doc;  // text of the `---` block before it, if any
};

template <DeclKind K>
struct DeclOf : Decl {
  static constexpr DeclKind kKind = K;
  static bool classof(const Decl* d) { return d->kind == K; }
};

struct Param {
  Ident name;
  TypeExpr* type;
  SourceRange range;
};

// A record or event field; `defaultValue` only where the source wrote `= e`.
struct FieldDecl {
  Ident name;
  TypeExpr* type;
  Expr* defaultValue;  // or null
  SourceRange range;
};

struct VariantDecl {
  Ident name;
  bool hasParens;
  llvm::ArrayRef<FieldDecl> fields;
  SourceRange range;
};

// `@schema(3)`, `@cycle`; any name and arguments are kept for the checker.
struct Annotation {
  Ident name;
  bool hasParens;
  llvm::ArrayRef<Expr*> args;
  SourceRange range;
};

// A `given` item: `Events`, `Fx.Converter`, or `Rooms: Ref[chat.rooms.Room]`.
struct GivenItem {
  Ident name;  // empty for a bare capability
  TypeExpr* type;
  SourceRange range;
};

// `by InternalCaller` or `by c: Customer`.
struct ByClause {
  Ident binder;  // empty when absent
  QualifiedName actor;
  SourceRange range;
};

enum class VersionSpecKind : std::uint8_t {
  Exact,    // schema(2)
  AtLeast,  // schema(2..)
  AtMost,   // schema(..3)
  Between,  // schema(1..2)
  Any,      // schema(_)
};

// `via schema(...)`; versions are signed so the checker can reject 0 and -1.
struct ViaClause {
  Ident name;  // `schema`, or whatever was written (the checker rejects it)
  VersionSpecKind spec;
  std::int64_t low;
  std::int64_t high;
  SourceRange range;
  // The digits of `low` and `high` as written (without a sign), for fmt;
  // empty where the form has no such bound.
  llvm::StringRef lowDigits;
  llvm::StringRef highDigits;
};

// `from Events(E pattern?) [via ...]`
struct Subscription {
  Ident source;            // `Events`, as written
  TypeExpr* eventType;     // a Path
  RecordPattern* pattern;  // or null
  ViaClause* via;          // or null
  SourceRange range;
};

enum class TypeDefKind : std::uint8_t {
  Record,  // `{ a: T, ... }`
  Sum,     // `| A | B(x: T)`
  Opaque,  // `opaque T [where e]`
  Alias,   // `T [where e]` (a refinement when `where` is present)
};

struct ConsumesDecl : DeclOf<DeclKind::Consumes> {
  QualifiedName context;
  Ident alias;   // `as alias`, or empty
  bool hasOnly;  // `{ A, B }` form
  llvm::ArrayRef<Ident> only;
};
struct TypeDecl : DeclOf<DeclKind::Type> {
  Ident name;
  TypeDefKind def;
  llvm::ArrayRef<FieldDecl> fields;      // Record
  llvm::ArrayRef<VariantDecl> variants;  // Sum
  TypeExpr* base;                        // Opaque, Alias
  Expr* refinement;                      // Opaque, Alias: `where e`, or null
};
struct EventDecl : DeclOf<DeclKind::Event> {
  Ident name;
  bool hasEquals;
  llvm::ArrayRef<Annotation> annotations;  // before or after the name
  llvm::ArrayRef<FieldDecl> fields;
};
struct ActorDecl : DeclOf<DeclKind::Actor> {
  Ident name;
  llvm::ArrayRef<Param> params;  // `actor Customer(identity: UserId)`
  bool hasParens;
};
// Also a capability operation (body null) and an agent- or service-local fn.
struct FnDecl : DeclOf<DeclKind::Fn> {
  Ident ownerType;  // `fn Type.name`, or empty
  Ident name;
  llvm::ArrayRef<Param> params;
  TypeExpr* returnType;  // null when omitted (`-> ()`)
  BlockExpr* body;       // null for a capability operation
  // `given ...` after the result type, as on a handler; never on a
  // capability operation.
  llvm::ArrayRef<GivenItem> given;
};
struct CapabilityDecl : DeclOf<DeclKind::Capability> {
  Ident name;
  llvm::ArrayRef<FnDecl*> ops;
};
struct KeyDecl : DeclOf<DeclKind::Key> {
  Ident name;
  TypeExpr* type;
};
struct StoreDecl : DeclOf<DeclKind::Store> {
  Ident name;
  TypeExpr* type;
  Expr* init;  // `= e`, or null
};
struct InvariantDecl : DeclOf<DeclKind::Invariant> {
  Ident name;
  Expr* condition;
};
struct HandlerDecl : DeclOf<DeclKind::Handler> {
  bool isCall;  // `on call name`
  Ident name;   // `event` for `on event(...)`
  llvm::ArrayRef<Param> params;
  TypeExpr* returnType;  // null when omitted
  ByClause* by;          // or null
  llvm::ArrayRef<GivenItem> given;
  BlockExpr* body;
};
struct AgentDecl : DeclOf<DeclKind::Agent> {
  Ident name;
  llvm::ArrayRef<Decl*> members;  // Key, Store, Invariant, Handler, Fn
};
struct ServiceDecl : DeclOf<DeclKind::Service> {
  llvm::ArrayRef<Annotation> annotations;  // before `service`: `@cycle`
  Ident name;
  Subscription* from;  // or null
  llvm::ArrayRef<GivenItem> given;
  llvm::ArrayRef<Decl*> members;  // Handler, Fn
};
struct ErrorDecl : DeclOf<DeclKind::Error> {};

struct ContextDecl {
  QualifiedName name;
  bool blockForm;  // `context a.b { ... }`
  llvm::StringRef doc;
  llvm::ArrayRef<Decl*> decls;
  SourceRange range;
};

struct File {
  FileId file;
  llvm::ArrayRef<ContextDecl*> contexts;
  SourceRange range;
  std::uint32_t exprCount = 0;  // ids of this file's expressions are below
};

// Owns every node of one parse.
class Arena {
 public:
  // Nodes are never destroyed one by one, so they must not need it.
  template <typename T, typename... A>
  T* make(A&&... args) {
    static_assert(std::is_trivially_destructible_v<T>);
    return new (alloc_.Allocate<T>()) T{std::forward<A>(args)...};
  }
  // A node of a kind-tagged family: `node<CallExpr>(range, callee, args)`.
  template <typename T, typename... A>
  T* node(SourceRange range, A&&... fields) {
    static_assert(std::is_trivially_destructible_v<T>);
    if constexpr (std::is_base_of_v<Expr, T>) {
      // Past the limit ids repeat; the parser reports the file and drops
      // its AST (exprIdsExhausted), so no later phase sees a repeat.
      const std::uint32_t id =
          exprCount_ < kMaxExprsPerFile ? exprCount_ : kMaxExprsPerFile;
      ++exprCount_;
      return new (alloc_.Allocate<T>())
          T{{{T::kKind, id, range}}, std::forward<A>(fields)...};
    } else {
      return new (alloc_.Allocate<T>())
          T{{{T::kKind, range}}, std::forward<A>(fields)...};
    }
  }
  [[nodiscard]] std::uint64_t exprCount() const { return exprCount_; }
  template <typename T>
  llvm::ArrayRef<T> copy(llvm::ArrayRef<T> items) {
    if (items.empty()) return {};
    T* data = alloc_.Allocate<T>(items.size());
    std::uninitialized_copy(items.begin(), items.end(), data);
    return {data, items.size()};
  }
  llvm::StringRef copy(llvm::StringRef text) {
    if (text.empty()) return {};
    char* data = alloc_.Allocate<char>(text.size());
    std::memcpy(data, text.data(), text.size());
    return {data, text.size()};
  }
  [[nodiscard]] std::size_t bytesAllocated() const {
    return alloc_.getBytesAllocated();
  }

 private:
  PooledBumpAllocator alloc_;
  std::uint64_t exprCount_ = 0;
};

}  // namespace herald::ast
