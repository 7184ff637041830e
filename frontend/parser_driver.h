// The parser driver: feeds tokens from the Lexer to the Bison parser
// generated from lang/parser.y, builds AST nodes into the arena for the
// grammar's actions, groups declarations into contexts, and turns syntax
// errors into diagnostics. Only the parser uses it; everyone else calls
// herald::parse() (frontend/parser.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Allocator.h>

#include "frontend/ast.h"
#include "frontend/diagnostic.h"
#include "frontend/lexer.h"
#include "frontend/source.h"
#include "frontend/token.h"
#include "lang/parser.hpp"

namespace herald {

// The parser's state stack as it was when the lookahead was read. Bison
// reduces on a default action before it sees that the lookahead does not
// fit, so at the error the stack has lost the states that tell which tokens
// would have fitted. Each reduction hands over the states it pops that were
// on the stack at the read (one comparison for most reductions); the error
// reporter puts them back.
class LookaheadStack {
 public:
  using State = short;
  // A token is read: the stack as it stands is the one to remember.
  void read(std::size_t stackSize) {
    size_ = savedFrom_ = static_cast<std::uint32_t>(stackSize);
  }
  // Recovery has changed the stack: there is nothing to restore.
  void forget() { size_ = savedFrom_ = 0; }
  // `symbols`: the `popped` entries leaving the stack, bottom first.
  template <typename Symbol>
  void save(std::size_t stackSize, int popped, const Symbol* symbols) {
    const std::uint32_t low = static_cast<std::uint32_t>(stackSize) -
                              static_cast<std::uint32_t>(popped);
    if (low >= savedFrom_) return;
    if (saved_.size() < size_) saved_.resize(size_ + 32);
    // Positions below savedFrom_ still hold the states of the read.
    State* out = saved_.data();
    for (std::uint32_t pos = low; pos < savedFrom_; ++pos)
      out[pos] = static_cast<State>(symbols[pos - low].state);
    savedFrom_ = low;
  }
  // `current`: the stack now, bottom first; returns it as it was at the read.
  [[nodiscard]] std::vector<State> restore(std::vector<State> current) const {
    if (size_ == 0 || savedFrom_ > current.size()) return current;
    // Above size_: states pushed by reductions (of empty rules) since.
    current.resize(size_);
    for (std::uint32_t pos = savedFrom_; pos < size_; ++pos)
      current[pos] = saved_[pos];
    return current;
  }

 private:
  std::uint32_t size_ = 0;  // 0: unknown
  std::uint32_t savedFrom_ = 0;
  std::vector<State> saved_;
};

// Where recovery after a syntax error resumes, found by reading ahead: the
// first token that starts a declaration on a new line or closes a bracket
// open before the error (none if the file ends first).
struct SyncPoint {
  bool found = false;
  yy::Parser::symbol_kind_type kind = yy::Parser::symbol_kind::S_YYEOF;
  bool isLookahead = false;  // the token the error was found at
  bool startsDecl = false;
  std::uint32_t offset = 0;
  std::uint32_t skipEnd = 0;  // end of the last token before it
  // The parser's own recovery resumes before the sync point, at the token
  // `offset` gives; the other fields are then those of that token.
  bool resumesEarlier = false;
};

// What the driver keeps track of for a token kind.
enum class TokenRole : std::uint8_t { Plain, Opener, Closer, Condition };

class ParserDriver {
 public:
  ParserDriver(const SourceFile& file, DiagnosticEngine& diags,
               ast::Arena& arena);

  // Parses the whole file; never returns null.
  ast::File* run();

  // --- called by the generated parser --------------------------------------
  [[nodiscard]] FileId fileId() const { return file_.id(); }
  // The range of a rule's children `first`..`last` (of `n`); `at(k)` gives
  // child k. Empty children (`%empty` rules) do not count, so an optional
  // part that is absent does not stretch a node over white space.
  template <typename At>
  static SourceRange joinRange(const SourceRange& first,
                               const SourceRange& last, At at, int n,
                               std::uint32_t before, FileId file) {
    if (first.begin != first.end && last.begin != last.end)
      return {first.file, first.begin, last.end};
    int lo = 1;
    int hi = n;
    while (lo <= hi && at(lo).begin == at(lo).end) ++lo;
    while (hi >= lo && at(hi).begin == at(hi).end) --hi;
    if (lo > hi) {
      // Only empty children: an empty range where they stand.
      (void)before;
      return {file, at(n).end, at(n).end};
    }
    return {file, at(lo).begin, at(hi).end};
  }
  // The next token's symbol; its value and range go to `value` and
  // `location`.
  int lex(yy::Value& value, SourceRange& location);
  // `expected`: the tokens the parser could have gone on with.
  void syntaxError(SourceRange at,
                   const std::vector<yy::Parser::symbol_kind_type>& expected);
  void parserError(SourceRange at, const std::string& message);

  [[nodiscard]] static TokenRole tokenRole(TokenKind kind);
  [[nodiscard]] static bool tokenEndsExpression(TokenKind kind);

  // --- error recovery (parser_recovery.cpp) ---------------------------------
  LookaheadStack& lookaheadStack() { return lookahead_; }
  // `resumesBefore`: whether the parser's own recovery would resume at a
  // token; if it does before the sync point, SyncPoint::resumesEarlier.
  [[nodiscard]] bool lookaheadStartsDeclaration() const;
  // A misspelt `context` opening a block: reported, and to be read as one.
  bool misspeltBlockContext(const Token& token);
  [[nodiscard]] SyncPoint findSync(
      llvm::function_ref<bool(yy::Parser::symbol_kind_type)> resumesBefore);
  // The parser has dropped its stack to where it will shift `error`;
  // `popped` covers what it dropped (empty if nothing), `openBrackets` is
  // how many brackets the remaining stack holds open. With `skip`, the
  // lookahead and the tokens after it up to `sync` are dropped.
  void beginRecovery(SourceRange lookahead, SourceRange popped,
                     const SyncPoint& sync, bool skip, bool resync,
                     std::size_t openBrackets);
  // The range of the `error` token the parser shifts.
  // `drop`: the lookahead is to be dropped (see beginRecovery).
  SourceRange errorTokenRange(SourceRange first, SourceRange last,
                              bool lookaheadHeld, bool& drop);
  // In an error rule: true (once) when parsing resumes at the declaration
  // the recovery synchronised on, so that its errors are reported.
  bool resynced(bool lookaheadHeld, SourceRange lookahead);
  [[nodiscard]] ast::Ident missingIdent(SourceRange at) const;
  // A body that could not be read: one Error statement, over the tokens
  // recovery dropped, or else just after `before`.
  ast::BlockExpr* errorBlock(SourceRange before, SourceRange error);
  // The name after `keyword`, which recovery found missing at `error`.
  [[nodiscard]] ast::QualifiedName missingName(SourceRange keyword,
                                               SourceRange error) const;

  // --- contexts: items are handed over as soon as they are reduced ---------
  void openHeaderContext(ast::QualifiedName name, SourceRange head);
  void openBlockContext(ast::QualifiedName name, SourceRange head);
  void closeBlockContext(SourceRange range);
  void addDecl(ast::Decl* decl);

  // --- node builders for the grammar's actions ------------------------------
  // Copies a finished list into the AST and recycles its storage.
  template <typename T>
  llvm::ArrayRef<T> list(yy::List<T> items) {
    llvm::ArrayRef<T> copy =
        arena.copy(llvm::ArrayRef<T>(items.data, items.size));
    // T is often a node pointer: the storage holds T's, so sizeof(T) is
    // right (here and in grow()).
    release(items.data,
            items.capacity * sizeof(T));  // NOLINT(bugprone-sizeof-expression)
    return copy;
  }
  // A part of a node (an argument, a field, ...) waiting to be pushed on
  // its list; held outside the parser's stack, whose every entry is as big
  // as the largest semantic value.
  template <typename T>
  T* hold(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    return new (acquire(sizeof(T))) T(value);
  }
  template <typename T>
  T take(T* held) {
    T value = *held;
    release(held, sizeof(T));
    return value;
  }
  template <typename T>
  void push(yy::List<T>& items, const T& item) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (items.size == items.capacity) grow(items);
    items.data[items.size++] = item;
  }
  // A declaration node with its doc comment attached.
  template <typename T, typename... A>
  T* decl(SourceRange range, A&&... fields) {
    T* node = arena.node<T>(range, std::forward<A>(fields)...);
    node->doc = docAt(range.begin);
    return node;
  }
  ast::Decl* errorDecl(SourceRange range);
  ast::Decl* typeDecl(SourceRange range, ast::Ident name, yy::TypeDef def);
  ast::Decl* eventDecl(SourceRange range, ast::Ident name, bool hasEquals,
                       const yy::List<ast::Annotation>& before,
                       const yy::List<ast::Annotation>& after,
                       const yy::List<ast::FieldDecl>& fields);
  ast::FnDecl* fnDecl(SourceRange range, yy::FnName name,
                      const yy::List<ast::Param>& params,
                      ast::TypeExpr* returnType, ast::BlockExpr* body);
  ast::FnDecl* withBody(ast::FnDecl* fn, const yy::List<ast::GivenItem>& given,
                        ast::BlockExpr* body, SourceRange range);
  ast::ViaClause* viaClause(SourceRange range, ast::Ident name,
                            yy::VersionSpec spec);
  [[nodiscard]] static std::int64_t toVersion(std::uint64_t magnitude,
                                              bool negative);
  [[nodiscard]] llvm::StringRef versionDigits(SourceRange at) const;
  // Lists that drop or merge the Error nodes error recovery produces, so a
  // long stretch of skipped tokens is one Error node.
  void appendMember(yy::List<ast::Decl*>& members, ast::Decl* member);
  void appendOp(yy::List<ast::FnDecl*>& ops, ast::FnDecl* op);
  void appendStmt(yy::List<ast::Stmt*>& stmts, ast::Stmt* stmt);
  void appendArm(yy::List<ast::MatchArm>& arms, ast::MatchArm arm);

  ast::QualifiedName qualified(ast::Ident first);
  ast::QualifiedName qualified(ast::QualifiedName prefix, ast::Ident next);
  [[nodiscard]] ast::Ident identAt(SourceRange range) const;
  ast::TypeExpr* pathType(ast::QualifiedName path,
                          const yy::List<ast::TypeExpr*>& args,
                          SourceRange range);
  ast::TypeExpr* unitType(SourceRange range);
  ast::TypeExpr* errorType(SourceRange range);

  ast::RecordPattern* recordPattern(SourceRange range,
                                    const yy::PatternFields& body, bool angle);
  ast::Pattern* constructorPattern(SourceRange range, ast::QualifiedName name,
                                   const yy::PatternFields& payload);

  ast::Stmt* stmt(ast::StmtKind kind, SourceRange range, ast::Ident name,
                  ast::TypeExpr* type, ast::Expr* value);
  ast::Expr* binary(SourceRange range, ast::BinaryOp op, ast::Expr* lhs,
                    ast::Expr* rhs);
  // Reports `a < b < c` and builds it left-associated.
  ast::Expr* comparison(SourceRange range, ast::BinaryOp op, ast::Expr* lhs,
                        ast::Expr* rhs);
  ast::Expr* negate(SourceRange range, ast::Expr* operand);
  // `p | q`: a chain of or-patterns stops the parse past a limit while the
  // checker's pattern walks recurse over it (expression chains have none).
  ast::Pattern* orPattern(SourceRange range, ast::Pattern* lhs,
                          ast::Pattern* rhs);
  ast::Expr* logicalNot(SourceRange range, ast::Expr* operand);
  // The operators of a PREFIX_RUN applied to `operand`, innermost last.
  ast::Expr* prefixRun(yy::List<yy::PrefixOp> ops, ast::Expr* operand);
  ast::Expr* duration(SourceRange range, yy::DurationValue value);
  // An Int or Float literal, or an Error node when the lexer rejected its
  // spelling (invalid-number), so no later phase reports its value again.
  ast::Expr* intLiteral(SourceRange range, std::uint64_t value);
  ast::Expr* floatLiteral(SourceRange range, double value);
  ast::Expr* recordLiteral(SourceRange range, ast::Expr* type,
                           const yy::List<ast::FieldInit>& fields,
                           bool inCondition);
  ast::Expr* plainString(SourceRange range, llvm::StringRef text);
  void stringPart(yy::List<ast::StringPart>& parts, llvm::StringRef text,
                  SourceRange textRange, ast::Expr* expr);
  ast::Expr* interpolated(SourceRange range, yy::List<ast::StringPart> parts,
                          llvm::StringRef tail, SourceRange tailRange);

  ast::Arena& arena;

 private:
  struct OpenBracket {
    TokenKind kind;
    SourceRange range;
  };
  struct PendingCondition {
    std::size_t depth;  // brackets open at the `if` / `match`
    TokenKind keyword;
  };
  struct Doc {
    std::uint32_t offset;  // the token the doc block precedes
    llvm::StringRef text;
  };
  struct ContextBuilder {
    ast::ContextDecl* node = nullptr;
    std::vector<ast::Decl*> decls;
  };

  Token pullAhead();
  int valueToken(const Token& token, bool recordBrace, bool continues,
                 yy::Value& value, SourceRange& location);
  [[nodiscard]] bool startsPrefixRun(const Token& first);
  [[nodiscard]] bool mayPrecedePrefixOp(std::uint32_t offset) const;
  // `first` (a `!` or prefix `-`) and every `!` and `-` right after it, as
  // one PREFIX_RUN token.
  int prefixOperators(const Token& first, yy::Value& value,
                      SourceRange& location);
  // END, at the end of the last token read.
  int endOfInput(SourceRange& location) const;
  void skipToSync();
  const Token& peek(std::size_t ahead);
  bool track(const Token& token, TokenRole role);
  [[nodiscard]] bool opensRecordLiteral();
  [[nodiscard]] llvm::StringRef textOf(SourceRange range) const;
  [[nodiscard]] llvm::StringRef stringValue(const Token& token);
  [[nodiscard]] llvm::StringRef docAt(std::uint32_t offset) const;
  [[nodiscard]] std::string describeFound() const;
  [[nodiscard]] std::string describeExpected(
      const std::vector<yy::Parser::symbol_kind_type>& expected) const;
  [[nodiscard]] bool mergesWith(SourceRange previousError) const {
    return previousError.begin >= recoveryBegin_;
  }
  // Whether the chain of or-patterns is past the limit.
  bool noteChain(const void* node, const void* child, SourceRange range);
  void stop(SourceRange at);

  // List storage: blocks of 2^k bytes, recycled through one free list per
  // size; all of it is released with the driver.
  template <typename T>
  void grow(yy::List<T>& items) {
    const std::uint32_t capacity = items.capacity == 0 ? 4 : items.capacity * 2;
    const std::size_t bytes =
        capacity * sizeof(T);  // NOLINT(bugprone-sizeof-expression)
    const std::size_t used =
        items.size * sizeof(T);  // NOLINT(bugprone-sizeof-expression)
    const std::size_t released =
        items.capacity * sizeof(T);  // NOLINT(bugprone-sizeof-expression)
    T* data = static_cast<T*>(acquire(bytes));
    if (used != 0) std::memcpy(static_cast<void*>(data), items.data, used);
    release(items.data, released);
    items.data = data;
    items.capacity = capacity;
  }
  void* acquire(std::size_t bytes);
  void release(void* block, std::size_t bytes);

  ContextBuilder* current();
  void closeHeader();
  ast::ContextDecl* makeContext(ast::QualifiedName name, bool blockForm,
                                SourceRange head);
  void finishContext(ContextBuilder& ctx, std::uint32_t end);
  [[nodiscard]] SourceRange headRange(const ast::Decl* decl) const;

  PooledBumpAllocator scratch_;
  std::vector<std::vector<void*>> freeBlocks_;

  const SourceFile& file_;
  DiagnosticEngine& diags_;
  Lexer lexer_;

  // Tokens read ahead of the parser (only at an `if` / `match` brace).
  std::vector<Token> ahead_;
  std::size_t aheadPos_ = 0;
  // The token last handed to the parser: the lookahead when an error is
  // reported.
  TokenKind lastKind_ = TokenKind::EndOfFile;
  SourceRange lastRange_;
  bool lastFirstOnLine_ = false;
  std::uint32_t lastEnd_ = 0;
  bool prevEndsExpr_ = false;
  std::vector<OpenBracket> open_;
  std::vector<PendingCondition> conditions_;
  TokenKind recordConditionKeyword_ = TokenKind::KwIf;
  std::vector<Doc> docs_;

  LookaheadStack lookahead_;
  // Recovery in progress: tokens to drop, the range of the next `error`
  // token, the declaration to resume at.
  bool skipping_ = false;
  std::uint32_t skipTo_ = 0;
  bool errorRangePending_ = false;
  bool dropLookahead_ = false;
  SourceRange errorRange_;
  bool resyncPending_ = false;
  // Error nodes from the current recovery start here; those before are
  // another error's and are not merged with them.
  std::uint32_t recoveryBegin_ = 0;
  std::uint32_t resyncAt_ = 0;

  // Bounds the alternatives of one or-pattern (parser_nodes.cpp).
  const void* chainEnd_ = nullptr;
  std::uint32_t chainLength_ = 0;
  bool stopped_ = false;

  std::vector<ast::ContextDecl*> contexts_;
  ContextBuilder header_;
  ContextBuilder block_;
  bool anyItem_ = false;
  bool looseRun_ = false;
  bool lastWasError_ = false;
};

}  // namespace herald
