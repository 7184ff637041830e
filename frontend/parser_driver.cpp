// Token feed and context grouping of the parser driver. The node builders
// are in parser_nodes.cpp, syntax errors and recovery in
// parser_recovery.cpp.
#include "frontend/parser_driver.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string_view>

#include <llvm/Support/Casting.h>

#include "frontend/parser.h"

namespace herald {
namespace {

using Sym = yy::Parser::symbol_kind;
using SymKind = yy::Parser::symbol_kind_type;
using P = yy::Parser;

// More nested brackets than any real program needs; beyond it, later
// phases would recurse too deeply.
constexpr std::uint32_t kMaxBrackets = 256;

// A run of `!` and prefix `-` at least this long reaches the grammar as one
// PREFIX_RUN token, so that its length costs one entry of the parser's
// stack; shorter runs come one operator at a time, so that a mistake among
// them (`- -5` as a pattern) is reported at the operator.
constexpr std::size_t kPrefixRun = 16;

// Tokens after which a `(`, `[`, `{` or `-` on the same line continues an
// expression (call, type application, record literal, binary minus).
constexpr bool endsExpression(TokenKind k) {
  switch (k) {
    case TokenKind::Identifier:
    case TokenKind::IntLiteral:
    case TokenKind::FloatLiteral:
    case TokenKind::DurationLiteral:
    case TokenKind::StringLiteral:
    case TokenKind::StringTail:
    case TokenKind::KwTrue:
    case TokenKind::KwFalse:
    case TokenKind::RParen:
    case TokenKind::RBracket:
    case TokenKind::RBrace:
      return true;
    case TokenKind::EndOfFile:
    case TokenKind::StringHead:
    case TokenKind::StringMiddle:
    case TokenKind::KwContext:
    case TokenKind::KwConsumes:
    case TokenKind::KwAs:
    case TokenKind::KwType:
    case TokenKind::KwEvent:
    case TokenKind::KwActor:
    case TokenKind::KwCapability:
    case TokenKind::KwFn:
    case TokenKind::KwAgent:
    case TokenKind::KwKey:
    case TokenKind::KwStore:
    case TokenKind::KwInvariant:
    case TokenKind::KwService:
    case TokenKind::KwFrom:
    case TokenKind::KwVia:
    case TokenKind::KwOn:
    case TokenKind::KwCall:
    case TokenKind::KwBy:
    case TokenKind::KwGiven:
    case TokenKind::KwLet:
    case TokenKind::KwIf:
    case TokenKind::KwElse:
    case TokenKind::KwMatch:
    case TokenKind::KwOpaque:
    case TokenKind::KwWhere:
    case TokenKind::KwFail:
    case TokenKind::LBrace:
    case TokenKind::LParen:
    case TokenKind::LBracket:
    case TokenKind::Comma:
    case TokenKind::Colon:
    case TokenKind::Dot:
    case TokenKind::DotDot:
    case TokenKind::ColonEq:
    case TokenKind::FatArrow:
    case TokenKind::Arrow:
    case TokenKind::EqEq:
    case TokenKind::NotEq:
    case TokenKind::LtEq:
    case TokenKind::GtEq:
    case TokenKind::Lt:
    case TokenKind::Gt:
    case TokenKind::AmpAmp:
    case TokenKind::PipePipe:
    case TokenKind::Pipe:
    case TokenKind::Bang:
    case TokenKind::Plus:
    case TokenKind::Minus:
    case TokenKind::Star:
    case TokenKind::Slash:
    case TokenKind::Percent:
    case TokenKind::Eq:
    case TokenKind::At:
    case TokenKind::Underscore:
      return false;
  }
  return false;
}

constexpr TokenRole roleOf(TokenKind k) {
  if (k == TokenKind::LParen || k == TokenKind::LBracket ||
      k == TokenKind::LBrace)
    return TokenRole::Opener;
  if (k == TokenKind::RParen || k == TokenKind::RBracket ||
      k == TokenKind::RBrace)
    return TokenRole::Closer;
  if (k == TokenKind::KwIf || k == TokenKind::KwMatch)
    return TokenRole::Condition;
  return TokenRole::Plain;
}

constexpr std::size_t kTokenKinds = 0
// Each macro expands to one term of a sum, so it cannot be parenthesised.
#define TOKEN(Id, Describe) +1    // NOLINT(bugprone-macro-parentheses)
#define KEYWORD(Id, Spelling) +1  // NOLINT(bugprone-macro-parentheses)
#define PUNCT(Id, Spelling) +1    // NOLINT(bugprone-macro-parentheses)
#include "frontend/token_kinds.def"
    ;

struct TokenTraits {
  bool endsExpression;
  TokenRole role;
};

// One table lookup per token instead of a chain of tests.
constexpr auto kTraits = [] {
  std::array<TokenTraits, kTokenKinds> traits{};
  for (std::size_t i = 0; i < kTokenKinds; ++i) {
    const auto kind = static_cast<TokenKind>(i);
    traits[i] = {endsExpression(kind), roleOf(kind)};
  }
  return traits;
}();

}  // namespace

TokenRole ParserDriver::tokenRole(TokenKind kind) {
  return kTraits[static_cast<std::size_t>(kind)].role;
}

bool ParserDriver::tokenEndsExpression(TokenKind kind) {
  return kTraits[static_cast<std::size_t>(kind)].endsExpression;
}

ParserDriver::ParserDriver(const SourceFile& file, DiagnosticEngine& diags,
                           ast::Arena& arena)
    : arena(arena), file_(file), diags_(diags), lexer_(file, diags) {}

ast::File* ParserDriver::run() {
  yy::Parser parser(*this);
  // A non-zero result means recovery gave up at the end of the input; every
  // item read until then has been handed over already.
  (void)parser.parse();

  if (block_.node != nullptr) {
    finishContext(block_, lastEnd_);
    block_ = {};
  }
  closeHeader();
  const auto size = static_cast<std::uint32_t>(file_.text().size());
  return arena.make<ast::File>(
      file_.id(), arena.copy(llvm::ArrayRef<ast::ContextDecl*>(contexts_)),
      SourceRange{file_.id(), 0, size});
}

// ---------------------------------------------------------------------------
// Token feed
// ---------------------------------------------------------------------------

Token ParserDriver::pullAhead() {
  Token token = std::move(ahead_[aheadPos_++]);
  if (aheadPos_ == ahead_.size()) {
    ahead_.clear();
    aheadPos_ = 0;
  }
  return token;
}

yy::Parser::symbol_type ParserDriver::prefixOperators(const Token& first) {
  yy::List<yy::PrefixOp> ops;
  push(ops, yy::PrefixOp{first.range.begin, first.kind == TokenKind::Minus});
  SourceRange range = first.range;
  // After `!` or `-` no expression has ended, so every `-` here is prefix.
  while (peek(0).kind == TokenKind::Bang || peek(0).kind == TokenKind::Minus) {
    const Token token = pullAhead();
    if (token.doc.begin != token.doc.end)
      docs_.push_back({token.range.begin, textOf(token.doc)});
    lastKind_ = token.kind;
    lastRange_ = token.range;
    lastFirstOnLine_ = token.firstOnLine;
    lastEnd_ = token.range.end;
    push(ops, yy::PrefixOp{token.range.begin, token.kind == TokenKind::Minus});
    range.end = token.range.end;
  }
  return P::make_PREFIX_RUN(ops, range);
}

const Token& ParserDriver::peek(std::size_t n) {
  while (ahead_.size() - aheadPos_ <= n) ahead_.push_back(lexer_.next());
  return ahead_[aheadPos_ + n];
}

llvm::StringRef ParserDriver::textOf(SourceRange range) const {
  std::string_view text = file_.text();
  return {text.data() + range.begin, range.end - range.begin};
}

// Keeps the bracket stack (for "unclosed" notes and the nesting limit) and
// the pending `if` / `match` conditions whose opening brace is still ahead.
// Returns whether a `{` starts a record literal used as a condition.
bool ParserDriver::track(const Token& token, TokenRole role) {
  switch (role) {
    case TokenRole::Plain:
      return false;
    case TokenRole::Condition:
      conditions_.push_back({open_.size(), token.kind});
      return false;
    case TokenRole::Opener: {
      // Classified before the brace counts as open.
      const bool recordBrace =
          token.kind == TokenKind::LBrace && opensRecordLiteral();
      open_.push_back({token.kind, token.range});
      if (open_.size() > kMaxBrackets) stop(token.range);
      return recordBrace;
    }
    case TokenRole::Closer:
      if (open_.empty()) return false;
      open_.pop_back();
      while (!conditions_.empty() && conditions_.back().depth > open_.size())
        conditions_.pop_back();
      return false;
  }
  return false;
}

// At the brace that should open an `if` / `match` body: is it instead the
// start of a record literal (`{ name: ...`)? No statement and no match arm
// can begin with `name :`, so two tokens of lookahead settle it.
bool ParserDriver::opensRecordLiteral() {
  if (conditions_.empty() || conditions_.back().depth != open_.size())
    return false;
  recordConditionKeyword_ = conditions_.back().keyword;
  conditions_.pop_back();
  return peek(0).kind == TokenKind::Identifier &&
         peek(1).kind == TokenKind::Colon;
}

void ParserDriver::stop(SourceRange at) {
  if (stopped_) return;
  stopped_ = true;
  diags_.report<diag::NestingTooDeep>(at, kMaxBrackets);
}

// Decoded string text. Most strings have no escapes, so their text is a
// piece of the source and needs no copy.
llvm::StringRef ParserDriver::stringValue(const Token& token) {
  llvm::StringRef value(token.stringValue);
  llvm::StringRef source = textOf(token.range);
  const std::size_t at = source.find(value);
  if (at != llvm::StringRef::npos) return source.substr(at, value.size());
  return arena.copy(value);
}

void ParserDriver::skipToSync() {
  skipping_ = false;
  while (aheadPos_ < ahead_.size() && ahead_[aheadPos_].range.begin < skipTo_)
    ++aheadPos_;
  if (aheadPos_ == ahead_.size()) {
    ahead_.clear();
    aheadPos_ = 0;
  }
}

yy::Parser::symbol_type ParserDriver::lex() {
  // Past the error limit nothing more is shown, so the rest of the file is
  // not worth reading; stopping also keeps errors from piling up in memory.
  if (!stopped_ && diags_.errorLimitReached()) [[unlikely]] {
    stopped_ = true;
    diags_.stopEarly();
  }
  if (stopped_) return P::make_END(SourceRange{file_.id(), lastEnd_, lastEnd_});
  if (skipping_) [[unlikely]]
    skipToSync();
  Token token = aheadPos_ < ahead_.size() ? pullAhead() : lexer_.next();
  const TokenTraits traits = kTraits[static_cast<std::size_t>(token.kind)];
  // Most tokens are plain; they skip the call.
  const bool recordBrace =
      traits.role != TokenRole::Plain && track(token, traits.role);
  if (token.doc.begin != token.doc.end) [[unlikely]]
    docs_.push_back({token.range.begin, textOf(token.doc)});
  lastKind_ = token.kind;
  lastRange_ = token.range;
  lastFirstOnLine_ = token.firstOnLine;
  if (token.kind != TokenKind::EndOfFile) lastEnd_ = token.range.end;
  if (stopped_) return P::make_END(SourceRange{file_.id(), lastEnd_, lastEnd_});
  const SourceRange r = token.range;
  const bool continues = prevEndsExpr_ && !token.firstOnLine;
  prevEndsExpr_ = traits.endsExpression;
  if (token.kind == TokenKind::Identifier && token.firstOnLine &&
      open_.empty() && misspeltBlockContext(token)) [[unlikely]]
    return P::make_KW_CONTEXT(r);
  if (token.kind == TokenKind::Bang ||
      (token.kind == TokenKind::Minus && !continues)) [[unlikely]] {
    std::size_t run = 1;
    while (run < kPrefixRun && (peek(run - 1).kind == TokenKind::Bang ||
                                peek(run - 1).kind == TokenKind::Minus))
      ++run;
    if (run == kPrefixRun) return prefixOperators(token);
  }
  switch (token.kind) {
    case TokenKind::EndOfFile:
      return P::make_END(r);
    case TokenKind::Identifier:
      return P::make_IDENT(ast::Ident{textOf(r), r}, r);
    case TokenKind::IntLiteral:
      return P::make_INT(token.intValue, r);
    case TokenKind::FloatLiteral:
      return P::make_FLOAT(token.floatValue, r);
    case TokenKind::DurationLiteral:
      return P::make_DURATION(
          yy::DurationValue{token.intValue, token.durationUnit}, r);
    case TokenKind::StringLiteral:
      return P::make_STRING(stringValue(token), r);
    case TokenKind::StringHead:
      return P::make_STR_HEAD(stringValue(token), r);
    case TokenKind::StringMiddle:
      return P::make_STR_MID(stringValue(token), r);
    case TokenKind::StringTail:
      return P::make_STR_TAIL(stringValue(token), r);
    case TokenKind::KwContext:
      return P::make_KW_CONTEXT(r);
    case TokenKind::KwConsumes:
      return P::make_KW_CONSUMES(r);
    case TokenKind::KwAs:
      return P::make_KW_AS(r);
    case TokenKind::KwType:
      return P::make_KW_TYPE(r);
    case TokenKind::KwEvent:
      return P::make_KW_EVENT(r);
    case TokenKind::KwActor:
      return P::make_KW_ACTOR(r);
    case TokenKind::KwCapability:
      return P::make_KW_CAPABILITY(r);
    case TokenKind::KwFn:
      return P::make_KW_FN(r);
    case TokenKind::KwAgent:
      return P::make_KW_AGENT(r);
    case TokenKind::KwKey:
      return P::make_KW_KEY(r);
    case TokenKind::KwStore:
      return P::make_KW_STORE(r);
    case TokenKind::KwInvariant:
      return P::make_KW_INVARIANT(r);
    case TokenKind::KwService:
      return P::make_KW_SERVICE(r);
    case TokenKind::KwFrom:
      return P::make_KW_FROM(r);
    case TokenKind::KwVia:
      return P::make_KW_VIA(r);
    case TokenKind::KwOn:
      return P::make_KW_ON(r);
    case TokenKind::KwCall:
      return P::make_KW_CALL(r);
    case TokenKind::KwBy:
      return P::make_KW_BY(r);
    case TokenKind::KwGiven:
      return P::make_KW_GIVEN(r);
    case TokenKind::KwLet:
      return P::make_KW_LET(r);
    case TokenKind::KwIf:
      return P::make_KW_IF(r);
    case TokenKind::KwElse:
      return P::make_KW_ELSE(r);
    case TokenKind::KwMatch:
      return P::make_KW_MATCH(r);
    case TokenKind::KwTrue:
      return P::make_KW_TRUE(r);
    case TokenKind::KwFalse:
      return P::make_KW_FALSE(r);
    case TokenKind::KwOpaque:
      return P::make_KW_OPAQUE(r);
    case TokenKind::KwWhere:
      return P::make_KW_WHERE(r);
    case TokenKind::KwFail:
      return P::make_KW_FAIL(r);
    case TokenKind::LBrace:
      if (recordBrace) return P::make_LBRACE_RECORD(r);
      return continues ? P::make_LBRACE_POST(r) : P::make_LBRACE_OPEN(r);
    case TokenKind::LParen:
      return continues ? P::make_LPAREN_CALL(r) : P::make_LPAREN_OPEN(r);
    case TokenKind::LBracket:
      return continues ? P::make_LBRACKET_POST(r) : P::make_LBRACKET_OPEN(r);
    case TokenKind::Minus:
      return continues ? P::make_MINUS_BIN(r) : P::make_MINUS_PRE(r);
    case TokenKind::RBrace:
      return P::make_RBRACE(r);
    case TokenKind::RParen:
      return P::make_RPAREN(r);
    case TokenKind::RBracket:
      return P::make_RBRACKET(r);
    case TokenKind::Comma:
      return P::make_COMMA(r);
    case TokenKind::Colon:
      return P::make_COLON(r);
    case TokenKind::Dot:
      return P::make_DOT(r);
    case TokenKind::DotDot:
      return P::make_DOTDOT(r);
    case TokenKind::ColonEq:
      return P::make_COLONEQ(r);
    case TokenKind::FatArrow:
      return P::make_FATARROW(r);
    case TokenKind::Arrow:
      return P::make_ARROW(r);
    case TokenKind::EqEq:
      return P::make_EQEQ(r);
    case TokenKind::NotEq:
      return P::make_NOTEQ(r);
    case TokenKind::LtEq:
      return P::make_LTEQ(r);
    case TokenKind::GtEq:
      return P::make_GTEQ(r);
    case TokenKind::Lt:
      return P::make_LT(r);
    case TokenKind::Gt:
      return P::make_GT(r);
    case TokenKind::AmpAmp:
      return P::make_ANDAND(r);
    case TokenKind::PipePipe:
      return P::make_OROR(r);
    case TokenKind::Pipe:
      return P::make_PIPE(r);
    case TokenKind::Bang:
      return P::make_BANG(r);
    case TokenKind::Plus:
      return P::make_PLUS(r);
    case TokenKind::Star:
      return P::make_STAR(r);
    case TokenKind::Slash:
      return P::make_SLASH(r);
    case TokenKind::Percent:
      return P::make_PERCENT(r);
    case TokenKind::Eq:
      return P::make_EQ(r);
    case TokenKind::At:
      return P::make_AT(r);
    case TokenKind::Underscore:
      return P::make_UNDERSCORE(r);
  }
  return P::make_END(r);
}

llvm::StringRef ParserDriver::docAt(std::uint32_t offset) const {
  auto it = std::lower_bound(
      docs_.begin(), docs_.end(), offset,
      [](const Doc& doc, std::uint32_t at) { return doc.offset < at; });
  if (it == docs_.end() || it->offset != offset) return {};
  return it->text;
}

// ---------------------------------------------------------------------------
// Contexts
// ---------------------------------------------------------------------------

ast::ContextDecl* ParserDriver::makeContext(ast::QualifiedName name,
                                            bool blockForm, SourceRange head) {
  auto* node = arena.make<ast::ContextDecl>(name, blockForm, docAt(head.begin),
                                            llvm::ArrayRef<ast::Decl*>{}, head);
  contexts_.push_back(node);
  return node;
}

void ParserDriver::finishContext(ContextBuilder& ctx, std::uint32_t end) {
  ctx.node->decls = arena.copy(llvm::ArrayRef<ast::Decl*>(ctx.decls));
  if (!ctx.decls.empty()) end = std::max(end, ctx.decls.back()->range.end);
  if (end > ctx.node->range.end) ctx.node->range.end = end;
}

void ParserDriver::closeHeader() {
  if (header_.node == nullptr) return;
  std::uint32_t end = header_.node->range.end;
  if (!header_.decls.empty()) end = header_.decls.back()->range.end;
  finishContext(header_, end);
  header_ = {};
}

ParserDriver::ContextBuilder* ParserDriver::current() {
  if (block_.node != nullptr) return &block_;
  if (header_.node != nullptr) return &header_;
  return nullptr;
}

void ParserDriver::openHeaderContext(ast::QualifiedName name,
                                     SourceRange head) {
  const std::string_view text = textOf(name.range);
  if (header_.node != nullptr) {
    diags_.report<diag::ContextAfterHeaderContext>(
        name.range, text, std::string_view(textOf(header_.node->name.range)));
  } else if (anyItem_) {
    diags_.report<diag::HeaderContextNotFirst>(name.range, text)
        .note("write 'context {} {{ ... }}' to add it after other contexts",
              text);
  }
  if (block_.node != nullptr) {
    finishContext(block_, block_.node->range.end);
    block_ = {};
  }
  closeHeader();
  header_.node = makeContext(name, false, head);
  anyItem_ = true;
  looseRun_ = false;
}

void ParserDriver::openBlockContext(ast::QualifiedName name, SourceRange head) {
  // Recovery resumed at this `context` without closing the one before.
  if (block_.node != nullptr) {
    finishContext(block_, block_.node->range.end);
    block_ = {};
  }
  if (header_.node != nullptr) {
    diags_.report<diag::ContextAfterHeaderContext>(
        name.range, std::string_view(textOf(name.range)),
        std::string_view(textOf(header_.node->name.range)));
  }
  block_.node = makeContext(name, true, head);
  anyItem_ = true;
  looseRun_ = false;
}

void ParserDriver::closeBlockContext(SourceRange range) {
  if (block_.node == nullptr) return;
  block_.node->range = range;
  finishContext(block_, range.end);
  block_ = {};
}

SourceRange ParserDriver::headRange(const ast::Decl* decl) const {
  auto upTo = [&](SourceRange name) {
    return SourceRange{decl->range.file, decl->range.begin,
                       std::max(name.end, decl->range.begin)};
  };
  switch (decl->kind) {
    case ast::DeclKind::Consumes:
      return upTo(llvm::cast<ast::ConsumesDecl>(decl)->context.range);
    case ast::DeclKind::Type:
      return upTo(llvm::cast<ast::TypeDecl>(decl)->name.range);
    case ast::DeclKind::Event:
      return upTo(llvm::cast<ast::EventDecl>(decl)->name.range);
    case ast::DeclKind::Actor:
      return upTo(llvm::cast<ast::ActorDecl>(decl)->name.range);
    case ast::DeclKind::Capability:
      return upTo(llvm::cast<ast::CapabilityDecl>(decl)->name.range);
    case ast::DeclKind::Fn:
      return upTo(llvm::cast<ast::FnDecl>(decl)->name.range);
    case ast::DeclKind::Agent:
      return upTo(llvm::cast<ast::AgentDecl>(decl)->name.range);
    case ast::DeclKind::Key:
      return upTo(llvm::cast<ast::KeyDecl>(decl)->name.range);
    case ast::DeclKind::Store:
      return upTo(llvm::cast<ast::StoreDecl>(decl)->name.range);
    case ast::DeclKind::Invariant:
      return upTo(llvm::cast<ast::InvariantDecl>(decl)->name.range);
    case ast::DeclKind::Handler:
      return upTo(llvm::cast<ast::HandlerDecl>(decl)->name.range);
    case ast::DeclKind::Service:
      return upTo(llvm::cast<ast::ServiceDecl>(decl)->name.range);
    case ast::DeclKind::Error:
      return decl->range;
  }
  return decl->range;
}

void ParserDriver::addDecl(ast::Decl* decl) {
  anyItem_ = true;
  const bool isError = decl->kind == ast::DeclKind::Error;
  ContextBuilder* ctx = current();
  if (ctx == nullptr) {
    // Dropped: there is no context to put it in. One report per run of
    // stray declarations; a stretch skipped by recovery is reported
    // already, and so are the declarations after it (after `contxt shop`,
    // the syntax error is the one mistake).
    if (!looseRun_ && !isError) {
      diags_.report<diag::DeclOutsideContext>(headRange(decl))
          .note(
              "start the file with 'context name', or wrap declarations "
              "in 'context name {{ ... }}'");
    }
    looseRun_ = true;
    return;
  }
  looseRun_ = false;
  if (isError && !ctx->decls.empty() &&
      ctx->decls.back()->kind == ast::DeclKind::Error &&
      mergesWith(ctx->decls.back()->range)) {
    ctx->decls.back()->range =
        SourceRange::join(ctx->decls.back()->range, decl->range);
    return;
  }
  ctx->decls.push_back(decl);
}

ParseResult parse(const SourceFile& file, DiagnosticEngine& diags) {
  return parse(file, diags, ParseLimits{});
}

ParseResult parse(const SourceFile& file, DiagnosticEngine& diags,
                  const ParseLimits& limits) {
  ParseResult result;
  ParserDriver driver(file, diags, *result.arena);
  result.file = driver.run();
  const std::uint64_t count = result.arena->exprCount();
  const std::uint64_t limit =
      std::min<std::uint64_t>(limits.maxExpressions, ast::kMaxExprsPerFile);
  if (count > limit) {
    diags.report<diag::TooManyExpressions>(SourceRange{file.id(), 0, 0}, limit);
    result.file->contexts = {};
  }
  result.file->exprCount =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(count, limit));
  return result;
}

namespace yy {

Parser::symbol_type yylex(ParserDriver& d) { return d.lex(); }

}  // namespace yy
}  // namespace herald
