// Node builders of the parser driver, called from the actions in
// lang/parser.y. Checks that need no more than the node at hand (chained
// comparisons, record literal types, statements sharing a line) are made
// here, so the grammar stays conflict-free.
#include <limits>

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Casting.h>

#include "frontend/lex_literals.h"
#include "frontend/parser_driver.h"

namespace herald {
namespace {

// Expression chains (`x + y + ...`, `a.b.c...`, `f()()...`, `else if`,
// `!!!x`) have no limit: every walk iterates over them. The walks over
// or-patterns iterate too, but every alternative stays resolved in memory
// (its pattern, and in a subscription its runtime predicate: several hundred
// bytes for a few bytes of source), so megabytes of `1 | 2 | ...` would
// break the memory bound; or-patterns longer than this stop the parse
// (E0112), and only they go through noteChain.
constexpr std::uint32_t kMaxChain = 2048;

bool isComparison(const ast::Expr* e) {
  const auto* b = llvm::dyn_cast<ast::BinaryExpr>(e);
  if (b == nullptr) return false;
  switch (b->op) {
    case ast::BinaryOp::Eq:
    case ast::BinaryOp::Ne:
    case ast::BinaryOp::Lt:
    case ast::BinaryOp::Le:
    case ast::BinaryOp::Gt:
    case ast::BinaryOp::Ge:
      return true;
    case ast::BinaryOp::Or:
    case ast::BinaryOp::And:
    case ast::BinaryOp::Add:
    case ast::BinaryOp::Sub:
    case ast::BinaryOp::Mul:
    case ast::BinaryOp::Div:
    case ast::BinaryOp::Rem:
      return false;
  }
  return false;
}

// `Money`, `order.Money`, `commerce.order.Money`.
bool isTypePath(const ast::Expr* e) {
  while (const auto* field = llvm::dyn_cast<ast::FieldExpr>(e)) e = field->base;
  return llvm::isa<ast::NameExpr>(e);
}

}  // namespace

// Past the limit each further alternative becomes an Error pattern in place
// of the chain below it, so that no later phase sees the chain's full
// length.
bool ParserDriver::noteChain(const void* node, const void* child,
                             SourceRange range) {
  chainLength_ = child != nullptr && child == chainEnd_ ? chainLength_ + 1 : 1;
  chainEnd_ = node;
  if (chainLength_ <= kMaxChain) return false;
  if (!stopped_) {
    stopped_ = true;
    diags_.report<diag::OrPatternTooLong>(range, kMaxChain);
  }
  return true;
}

ast::Pattern* ParserDriver::orPattern(SourceRange range, ast::Pattern* lhs,
                                      ast::Pattern* rhs) {
  auto* node = arena.node<ast::OrPattern>(range, lhs, rhs);
  if (!noteChain(node, lhs, range)) return node;
  ast::Pattern* error = arena.node<ast::ErrorPattern>(range);
  chainEnd_ = error;
  return error;
}

// ---------------------------------------------------------------------------
// List storage
// ---------------------------------------------------------------------------

namespace {

// The free list for blocks of `bytes` (a power of two, at least 16).
std::size_t sizeClass(std::size_t bytes) {
  std::size_t k = 0;
  while ((std::size_t{16} << k) < bytes) ++k;
  return k;
}

}  // namespace

void* ParserDriver::acquire(std::size_t bytes) {
  const std::size_t k = sizeClass(bytes);
  if (k < freeBlocks_.size() && !freeBlocks_[k].empty()) {
    void* block = freeBlocks_[k].back();
    freeBlocks_[k].pop_back();
    return block;
  }
  return scratch_.Allocate(std::size_t{16} << k, alignof(std::max_align_t));
}

void ParserDriver::release(void* block, std::size_t bytes) {
  if (block == nullptr) return;
  const std::size_t k = sizeClass(bytes);
  if (k >= freeBlocks_.size()) freeBlocks_.resize(k + 1);
  freeBlocks_[k].push_back(block);
}

// ---------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------

ast::Decl* ParserDriver::errorDecl(SourceRange range) {
  return arena.node<ast::ErrorDecl>(range);
}

ast::Decl* ParserDriver::typeDecl(SourceRange range, ast::Ident name,
                                  yy::TypeDef def) {
  return decl<ast::TypeDecl>(range, name, def.kind, list(def.fields),
                             list(def.variants), def.base, def.refinement);
}

ast::Decl* ParserDriver::eventDecl(SourceRange range, ast::Ident name,
                                   bool hasEquals,
                                   const yy::List<ast::Annotation>& before,
                                   const yy::List<ast::Annotation>& after,
                                   const yy::List<ast::FieldDecl>& fields) {
  yy::List<ast::Annotation> annotations = before;
  for (std::uint32_t i = 0; i < after.size; ++i)
    push(annotations, after.data[i]);
  release(after.data, after.capacity * sizeof(ast::Annotation));
  return decl<ast::EventDecl>(range, name, hasEquals, list(annotations),
                              list(fields));
}

ast::FnDecl* ParserDriver::fnDecl(SourceRange range, yy::FnName name,
                                  const yy::List<ast::Param>& params,
                                  ast::TypeExpr* returnType,
                                  ast::BlockExpr* body) {
  return decl<ast::FnDecl>(range, name.owner, name.name, list(params),
                           returnType, body);
}

ast::FnDecl* ParserDriver::withBody(ast::FnDecl* fn,
                                    const yy::List<ast::GivenItem>& given,
                                    ast::BlockExpr* body, SourceRange range) {
  fn->given = list(given);
  fn->body = body;
  fn->range = range;
  return fn;
}

// A bound's digits without its sign: `-` and any space after it are a
// prefix operator's, which fmt writes from the value.
llvm::StringRef ParserDriver::versionDigits(SourceRange at) const {
  if (at.begin == at.end) return {};
  return textOf(at).ltrim("- \t\r\n");
}

ast::ViaClause* ParserDriver::viaClause(SourceRange range, ast::Ident name,
                                        yy::VersionSpec spec) {
  return arena.make<ast::ViaClause>(name, spec.kind, spec.low, spec.high, range,
                                    versionDigits(spec.lowAt),
                                    versionDigits(spec.highAt));
}

// Versions beyond the signed range cannot be meant; they saturate, and the
// checker reports them as any other version it does not know.
std::int64_t ParserDriver::toVersion(std::uint64_t magnitude, bool negative) {
  constexpr auto kMax =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  const std::int64_t value =
      static_cast<std::int64_t>(magnitude > kMax ? kMax : magnitude);
  return negative ? -value : value;
}

void ParserDriver::appendMember(yy::List<ast::Decl*>& members,
                                ast::Decl* member) {
  if (member->kind == ast::DeclKind::Error && members.size != 0) {
    ast::Decl* last = members.data[members.size - 1];
    if (last->kind == ast::DeclKind::Error && mergesWith(last->range)) {
      last->range = SourceRange::join(last->range, member->range);
      return;
    }
  }
  push(members, member);
}

void ParserDriver::appendOp(yy::List<ast::FnDecl*>& ops, ast::FnDecl* op) {
  if (op != nullptr) push(ops, op);
}

void ParserDriver::appendStmt(yy::List<ast::Stmt*>& stmts, ast::Stmt* stmt) {
  if (stmts.size == 0) {
    push(stmts, stmt);
    return;
  }
  ast::Stmt* prev = stmts.data[stmts.size - 1];
  const bool prevError = prev->kind == ast::StmtKind::Error;
  const bool error = stmt->kind == ast::StmtKind::Error;
  if (prevError && error && mergesWith(prev->range)) {
    prev->range = SourceRange::join(prev->range, stmt->range);
    return;
  }
  // Statements have no separator but a line break; an error stretch has
  // been reported already.
  if (!prevError && !error && prev->range.end <= stmt->range.begin) {
    llvm::StringRef between =
        textOf({file_.id(), prev->range.end, stmt->range.begin});
    if (!between.contains('\n')) {
      diags_.report<diag::ConsecutiveStatements>(stmt->range)
          .note(prev->range, "the previous statement ends here");
    }
  }
  push(stmts, stmt);
}

void ParserDriver::appendArm(yy::List<ast::MatchArm>& arms, ast::MatchArm arm) {
  if (arms.size != 0 && llvm::isa<ast::ErrorPattern>(arm.pattern) &&
      llvm::isa<ast::ErrorPattern>(arms.data[arms.size - 1].pattern) &&
      mergesWith(arms.data[arms.size - 1].range)) {
    ast::MatchArm& prev = arms.data[arms.size - 1];
    prev.range = SourceRange::join(prev.range, arm.range);
    prev.pattern->range = prev.range;
    prev.body->range = prev.range;
    return;
  }
  push(arms, arm);
}

// ---------------------------------------------------------------------------
// Names, types, patterns
// ---------------------------------------------------------------------------

ast::QualifiedName ParserDriver::qualified(ast::Ident first) {
  return ast::QualifiedName{arena.copy(llvm::ArrayRef<ast::Ident>(first)),
                            first.range};
}

// Names are short, so growing the array by copying costs little.
ast::QualifiedName ParserDriver::qualified(ast::QualifiedName prefix,
                                           ast::Ident next) {
  llvm::SmallVector<ast::Ident, 8> parts(prefix.parts.begin(),
                                         prefix.parts.end());
  parts.push_back(next);
  return ast::QualifiedName{arena.copy(llvm::ArrayRef<ast::Ident>(parts)),
                            SourceRange::join(prefix.range, next.range)};
}

ast::Ident ParserDriver::identAt(SourceRange range) const {
  return ast::Ident{textOf(range), range};
}

ast::TypeExpr* ParserDriver::pathType(ast::QualifiedName path,
                                      const yy::List<ast::TypeExpr*>& args,
                                      SourceRange range) {
  return arena.make<ast::TypeExpr>(ast::TypeExprKind::Path, range, path,
                                   list(args));
}

ast::TypeExpr* ParserDriver::unitType(SourceRange range) {
  return arena.make<ast::TypeExpr>(ast::TypeExprKind::Unit, range,
                                   ast::QualifiedName{},
                                   llvm::ArrayRef<ast::TypeExpr*>{});
}

ast::TypeExpr* ParserDriver::errorType(SourceRange range) {
  return arena.make<ast::TypeExpr>(ast::TypeExprKind::Error, range,
                                   ast::QualifiedName{},
                                   llvm::ArrayRef<ast::TypeExpr*>{});
}

ast::RecordPattern* ParserDriver::recordPattern(SourceRange range,
                                                const yy::PatternFields& body,
                                                bool angle) {
  return arena.node<ast::RecordPattern>(range, list(body.fields), body.hasRest,
                                        body.rest, angle);
}

ast::Pattern* ParserDriver::constructorPattern(
    SourceRange range, ast::QualifiedName name,
    const yy::PatternFields& payload) {
  return arena.node<ast::ConstructorPattern>(range, name, list(payload.fields),
                                             payload.hasRest, payload.rest);
}

// ---------------------------------------------------------------------------
// Statements and expressions
// ---------------------------------------------------------------------------

ast::Stmt* ParserDriver::stmt(ast::StmtKind kind, SourceRange range,
                              ast::Ident name, ast::TypeExpr* type,
                              ast::Expr* value) {
  return arena.make<ast::Stmt>(kind, range, name, type, value);
}

ast::Expr* ParserDriver::binary(SourceRange range, ast::BinaryOp op,
                                ast::Expr* lhs, ast::Expr* rhs) {
  return arena.node<ast::BinaryExpr>(range, op, lhs, rhs);
}

ast::Expr* ParserDriver::comparison(SourceRange range, ast::BinaryOp op,
                                    ast::Expr* lhs, ast::Expr* rhs) {
  // Report a chain once, at its first link.
  if (isComparison(lhs) &&
      !isComparison(llvm::cast<ast::BinaryExpr>(lhs)->lhs)) {
    diags_.report<diag::ChainedComparison>(range).note(
        "combine two comparisons with '&&', as in 'a < b && b < c'");
  }
  return binary(range, op, lhs, rhs);
}

ast::Expr* ParserDriver::negate(SourceRange range, ast::Expr* operand) {
  return arena.node<ast::UnaryExpr>(range, ast::UnaryOp::Neg, operand);
}

ast::Expr* ParserDriver::logicalNot(SourceRange range, ast::Expr* operand) {
  return arena.node<ast::UnaryExpr>(range, ast::UnaryOp::Not, operand);
}

// Each operator's node spans from it to the end of the operand, as a
// `BANG expr` reduction's does.
ast::Expr* ParserDriver::prefixRun(yy::List<yy::PrefixOp> ops,
                                   ast::Expr* operand) {
  for (std::uint32_t i = ops.size; i-- > 0;) {
    const SourceRange range{operand->range.file, ops.data[i].begin,
                            operand->range.end};
    operand = ops.data[i].negate ? negate(range, operand)
                                 : logicalNot(range, operand);
  }
  release(ops.data, ops.capacity * sizeof(yy::PrefixOp));
  return operand;
}

// The lexer reported a malformed number once; the literal becomes an Error
// node, which every later phase accepts quietly. Its value (0 after an
// error) cannot tell, so the spelling is decoded again, but only for the
// values an error can leave.
ast::Expr* ParserDriver::intLiteral(SourceRange range, std::uint64_t value) {
  if (value == 0 || value >= lex::kMinIntMagnitude) {
    std::uint64_t decoded = 0;
    const llvm::StringRef text = textOf(range);
    if (lex::decodeInteger({text.data(), text.size()}, decoded) ||
        lex::checkIntRange(decoded,
                           lex::followsPrefixMinus(file_.text(), range.begin)))
      return arena.node<ast::ErrorExpr>(range);
  }
  return arena.node<ast::IntLitExpr>(range, value, textOf(range));
}

ast::Expr* ParserDriver::floatLiteral(SourceRange range, double value) {
  if (value == 0) {
    double decoded = 0;
    const llvm::StringRef text = textOf(range);
    if (lex::decodeFloat({text.data(), text.size()}, decoded))
      return arena.node<ast::ErrorExpr>(range);
  }
  return arena.node<ast::FloatLitExpr>(range, value, textOf(range));
}

ast::Expr* ParserDriver::duration(SourceRange range, yy::DurationValue value) {
  const llvm::StringRef digits =
      textOf(range).take_until([](char c) { return c == '.'; });
  if (value.value == 0) {
    std::uint64_t decoded = 0;
    if (lex::decodeInteger({digits.data(), digits.size()}, decoded))
      return arena.node<ast::ErrorExpr>(range);
  }
  return arena.node<ast::DurationLitExpr>(range, value.value, value.unit,
                                          digits);
}

ast::Expr* ParserDriver::recordLiteral(SourceRange range, ast::Expr* type,
                                       const yy::List<ast::FieldInit>& fields,
                                       bool inCondition) {
  if (!isTypePath(type)) {
    diags_.report<diag::RecordLiteralType>(type->range)
        .note("a '{{' on a new line would open a block instead");
  } else if (inCondition) {
    const bool isIf = recordConditionKeyword_ == TokenKind::KwIf;
    diags_
        .report<diag::RecordLiteralInCondition>(
            range,
            std::string_view(isIf ? "'if' condition" : "'match' scrutinee"))
        .note("without them, '{{' would open the {}",
              isIf ? "'if' body" : "'match' arms")
        .fixit({range.file, range.begin, range.begin}, "(")
        .fixit({range.file, range.end, range.end}, ")");
  }
  return arena.node<ast::RecordLitExpr>(range, type, list(fields));
}

ast::Expr* ParserDriver::plainString(SourceRange range, llvm::StringRef text) {
  const ast::StringPart part{text, nullptr, range};
  return arena.node<ast::StringLitExpr>(
      range, arena.copy(llvm::ArrayRef<ast::StringPart>(part)));
}

// Empty text between interpolations is left out: `"\(a)\(b)"` is two
// expression parts.
void ParserDriver::stringPart(yy::List<ast::StringPart>& parts,
                              llvm::StringRef text, SourceRange textRange,
                              ast::Expr* expr) {
  if (!text.empty()) push(parts, ast::StringPart{text, nullptr, textRange});
  push(parts, ast::StringPart{{}, expr, expr->range});
}

ast::Expr* ParserDriver::interpolated(SourceRange range,
                                      yy::List<ast::StringPart> parts,
                                      llvm::StringRef tail,
                                      SourceRange tailRange) {
  if (!tail.empty()) push(parts, ast::StringPart{tail, nullptr, tailRange});
  return arena.node<ast::StringLitExpr>(range, list(parts));
}

}  // namespace herald
