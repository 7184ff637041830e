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

// The grammar's symbol for a token that has no value and one form only;
// -1 for the others, which lex() decides one by one.
constexpr int plainSymbol(TokenKind k) {
  switch (k) {
    case TokenKind::Identifier:
    case TokenKind::IntLiteral:
    case TokenKind::FloatLiteral:
    case TokenKind::DurationLiteral:
    case TokenKind::StringLiteral:
    case TokenKind::StringHead:
    case TokenKind::StringMiddle:
    case TokenKind::StringTail:
    case TokenKind::LBrace:
    case TokenKind::LParen:
    case TokenKind::LBracket:
    case TokenKind::Bang:
    case TokenKind::Minus:
      return -1;
    case TokenKind::EndOfFile:
      return P::token::TOK_END;
    case TokenKind::KwContext:
      return P::token::TOK_KW_CONTEXT;
    case TokenKind::KwConsumes:
      return P::token::TOK_KW_CONSUMES;
    case TokenKind::KwAs:
      return P::token::TOK_KW_AS;
    case TokenKind::KwType:
      return P::token::TOK_KW_TYPE;
    case TokenKind::KwEvent:
      return P::token::TOK_KW_EVENT;
    case TokenKind::KwActor:
      return P::token::TOK_KW_ACTOR;
    case TokenKind::KwCapability:
      return P::token::TOK_KW_CAPABILITY;
    case TokenKind::KwFn:
      return P::token::TOK_KW_FN;
    case TokenKind::KwAgent:
      return P::token::TOK_KW_AGENT;
    case TokenKind::KwKey:
      return P::token::TOK_KW_KEY;
    case TokenKind::KwStore:
      return P::token::TOK_KW_STORE;
    case TokenKind::KwInvariant:
      return P::token::TOK_KW_INVARIANT;
    case TokenKind::KwService:
      return P::token::TOK_KW_SERVICE;
    case TokenKind::KwFrom:
      return P::token::TOK_KW_FROM;
    case TokenKind::KwVia:
      return P::token::TOK_KW_VIA;
    case TokenKind::KwOn:
      return P::token::TOK_KW_ON;
    case TokenKind::KwCall:
      return P::token::TOK_KW_CALL;
    case TokenKind::KwBy:
      return P::token::TOK_KW_BY;
    case TokenKind::KwGiven:
      return P::token::TOK_KW_GIVEN;
    case TokenKind::KwLet:
      return P::token::TOK_KW_LET;
    case TokenKind::KwIf:
      return P::token::TOK_KW_IF;
    case TokenKind::KwElse:
      return P::token::TOK_KW_ELSE;
    case TokenKind::KwMatch:
      return P::token::TOK_KW_MATCH;
    case TokenKind::KwTrue:
      return P::token::TOK_KW_TRUE;
    case TokenKind::KwFalse:
      return P::token::TOK_KW_FALSE;
    case TokenKind::KwOpaque:
      return P::token::TOK_KW_OPAQUE;
    case TokenKind::KwWhere:
      return P::token::TOK_KW_WHERE;
    case TokenKind::KwFail:
      return P::token::TOK_KW_FAIL;
    case TokenKind::RBrace:
      return P::token::TOK_RBRACE;
    case TokenKind::RParen:
      return P::token::TOK_RPAREN;
    case TokenKind::RBracket:
      return P::token::TOK_RBRACKET;
    case TokenKind::Comma:
      return P::token::TOK_COMMA;
    case TokenKind::Colon:
      return P::token::TOK_COLON;
    case TokenKind::Dot:
      return P::token::TOK_DOT;
    case TokenKind::DotDot:
      return P::token::TOK_DOTDOT;
    case TokenKind::ColonEq:
      return P::token::TOK_COLONEQ;
    case TokenKind::FatArrow:
      return P::token::TOK_FATARROW;
    case TokenKind::Arrow:
      return P::token::TOK_ARROW;
    case TokenKind::EqEq:
      return P::token::TOK_EQEQ;
    case TokenKind::NotEq:
      return P::token::TOK_NOTEQ;
    case TokenKind::LtEq:
      return P::token::TOK_LTEQ;
    case TokenKind::GtEq:
      return P::token::TOK_GTEQ;
    case TokenKind::Lt:
      return P::token::TOK_LT;
    case TokenKind::Gt:
      return P::token::TOK_GT;
    case TokenKind::AmpAmp:
      return P::token::TOK_ANDAND;
    case TokenKind::PipePipe:
      return P::token::TOK_OROR;
    case TokenKind::Pipe:
      return P::token::TOK_PIPE;
    case TokenKind::Plus:
      return P::token::TOK_PLUS;
    case TokenKind::Star:
      return P::token::TOK_STAR;
    case TokenKind::Slash:
      return P::token::TOK_SLASH;
    case TokenKind::Percent:
      return P::token::TOK_PERCENT;
    case TokenKind::Eq:
      return P::token::TOK_EQ;
    case TokenKind::At:
      return P::token::TOK_AT;
    case TokenKind::Underscore:
      return P::token::TOK_UNDERSCORE;
  }
  return -1;
}

struct TokenTraits {
  bool endsExpression;
  TokenRole role;
  // plainSymbol, or -1.
  std::int16_t symbol;
};

// One table lookup per token instead of a chain of tests.
constexpr auto kTraits = [] {
  std::array<TokenTraits, kTokenKinds> traits{};
  for (std::size_t i = 0; i < kTokenKinds; ++i) {
    const auto kind = static_cast<TokenKind>(i);
    traits[i] = {endsExpression(kind), roleOf(kind),
                 static_cast<std::int16_t>(plainSymbol(kind))};
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

// Whether `first` (a `!` or prefix `-`) starts a run of kPrefixRun of them.
// The source right after it mostly settles that there is no second one, so
// the common case reads no token ahead.
bool ParserDriver::startsPrefixRun(const Token& first) {
  if (!mayPrecedePrefixOp(first.range.end)) return false;
  std::size_t run = 1;
  while (run < kPrefixRun && (peek(run - 1).kind == TokenKind::Bang ||
                              peek(run - 1).kind == TokenKind::Minus))
    ++run;
  return run == kPrefixRun;
}

// False when the next token surely is neither `!` nor `-`: past blanks, the
// source goes on with a character that can only start another token, and
// one whose lexing reports nothing, so that reading it later instead of now
// changes no diagnostic. A stray character is skipped by the lexer, so only
// these settle it.
bool ParserDriver::mayPrecedePrefixOp(std::uint32_t offset) const {
  const std::string_view text = file_.text();
  std::size_t at = offset;
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  if (at == text.size()) return true;
  auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
  auto isWordChar = [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) ||
           c == '_';
  };
  const char c = text[at];
  if (isDigit(c)) {
    // A short run of digits alone is a valid integer.
    constexpr std::size_t kSafeDigits = 18;
    std::size_t end = at;
    while (end < text.size() && isDigit(text[end])) ++end;
    return end - at > kSafeDigits ||
           (end < text.size() && (isWordChar(text[end]) || text[end] == '.'));
  }
  return !(isWordChar(c) || c == '(' || c == '[' || c == ']' || c == '{' ||
           c == '}' || c == ',' || c == '.' || c == ':');
}

int ParserDriver::prefixOperators(const Token& first, yy::Value& value,
                                  SourceRange& location) {
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
  value.prefixOps = ops;
  location = range;
  return P::token::TOK_PREFIX_RUN;
}

int ParserDriver::endOfInput(SourceRange& location) const {
  location = SourceRange{file_.id(), lastEnd_, lastEnd_};
  return P::token::TOK_END;
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

int ParserDriver::lex(yy::Value& value, SourceRange& location) {
  // Past the error limit nothing more is shown, so the rest of the file is
  // not worth reading; stopping also keeps errors from piling up in memory.
  if (!stopped_ && diags_.errorLimitReached()) [[unlikely]] {
    stopped_ = true;
    diags_.stopEarly();
  }
  if (stopped_) [[unlikely]]
    return endOfInput(location);
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
  if (stopped_) [[unlikely]]
    return endOfInput(location);
  location = token.range;
  const bool continues = prevEndsExpr_ && !token.firstOnLine;
  prevEndsExpr_ = traits.endsExpression;
  if (traits.symbol >= 0) return traits.symbol;
  return valueToken(token, recordBrace, continues, value, location);
}

// The tokens with a value, with two forms, or that may start a run. Most
// tokens are names, so this is part of lex() rather than a call.
[[gnu::always_inline]] inline int ParserDriver::valueToken(
    const Token& token, bool recordBrace, bool continues, yy::Value& value,
    SourceRange& location) {
  const SourceRange r = token.range;
  switch (token.kind) {
    case TokenKind::Identifier:
      if (token.firstOnLine && open_.empty() && misspeltBlockContext(token))
          [[unlikely]]
        return P::token::TOK_KW_CONTEXT;
      value.ident = ast::Ident{textOf(r), r};
      return P::token::TOK_IDENT;
    case TokenKind::IntLiteral:
      value.u64 = token.intValue;
      return P::token::TOK_INT;
    case TokenKind::FloatLiteral:
      value.f64 = token.floatValue;
      return P::token::TOK_FLOAT;
    case TokenKind::DurationLiteral:
      value.duration = yy::DurationValue{token.intValue, token.durationUnit};
      return P::token::TOK_DURATION;
    case TokenKind::StringLiteral:
      value.str = stringValue(token);
      return P::token::TOK_STRING;
    case TokenKind::StringHead:
      value.str = stringValue(token);
      return P::token::TOK_STR_HEAD;
    case TokenKind::StringMiddle:
      value.str = stringValue(token);
      return P::token::TOK_STR_MID;
    case TokenKind::StringTail:
      value.str = stringValue(token);
      return P::token::TOK_STR_TAIL;
    case TokenKind::LBrace:
      if (recordBrace) return P::token::TOK_LBRACE_RECORD;
      return continues ? P::token::TOK_LBRACE_POST : P::token::TOK_LBRACE_OPEN;
    case TokenKind::LParen:
      return continues ? P::token::TOK_LPAREN_CALL : P::token::TOK_LPAREN_OPEN;
    case TokenKind::LBracket:
      return continues ? P::token::TOK_LBRACKET_POST
                       : P::token::TOK_LBRACKET_OPEN;
    case TokenKind::Bang:
      if (startsPrefixRun(token)) [[unlikely]]
        return prefixOperators(token, value, location);
      return P::token::TOK_BANG;
    case TokenKind::Minus:
      if (continues) return P::token::TOK_MINUS_BIN;
      if (startsPrefixRun(token)) [[unlikely]]
        return prefixOperators(token, value, location);
      return P::token::TOK_MINUS_PRE;
    case TokenKind::EndOfFile:
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
    case TokenKind::KwTrue:
    case TokenKind::KwFalse:
    case TokenKind::KwOpaque:
    case TokenKind::KwWhere:
    case TokenKind::KwFail:
    case TokenKind::RBrace:
    case TokenKind::RParen:
    case TokenKind::RBracket:
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
    case TokenKind::Plus:
    case TokenKind::Star:
    case TokenKind::Slash:
    case TokenKind::Percent:
    case TokenKind::Eq:
    case TokenKind::At:
    case TokenKind::Underscore:
      break;
  }
  return plainSymbol(token.kind);
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

}  // namespace herald
