// Syntax errors of the parser driver: what was expected and found, and
// recovery, which decides where parsing resumes after an error.
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "frontend/parser_driver.h"
#include "frontend/parser_keywords.h"

namespace herald {
namespace {

using Sym = yy::Parser::symbol_kind;
using SymKind = yy::Parser::symbol_kind_type;

}  // namespace

// ---------------------------------------------------------------------------
// Syntax errors
// ---------------------------------------------------------------------------

std::string ParserDriver::describeFound() const {
  if (lastKind_ == TokenKind::Identifier)
    return fmt::format("identifier '{}'", std::string_view(textOf(lastRange_)));
  return std::string(describeTokenKind(lastKind_));
}

namespace {

// How an expected token is listed: closers first, then separators, then
// whole categories, then single tokens, operators last.
struct ExpectedItem {
  int rank;
  std::string_view name;
};

std::string_view symbolDisplayName(SymKind kind) {
  switch (kind) {
    case Sym::S_LBRACE_POST:
    case Sym::S_LBRACE_RECORD:
      return "'{'";
    case Sym::S_LPAREN_CALL:
      return "'('";
    case Sym::S_LBRACKET_POST:
      return "'['";
    case Sym::S_MINUS_BIN:
      return "'-'";
    // The `)` that closes an interpolation is part of the string token.
    case Sym::S_STR_MID:
    case Sym::S_STR_TAIL:
      return "')'";
    default:
      return yy::Parser::symbol_name(kind);
  }
}

int symbolRank(SymKind kind) {
  switch (kind) {
    case Sym::S_RBRACE:
    case Sym::S_RPAREN:
    case Sym::S_RBRACKET:
    case Sym::S_STR_MID:
    case Sym::S_STR_TAIL:
      return 0;
    case Sym::S_COMMA:
      return 1;
    // Tokens that would continue what comes before the error go last.
    case Sym::S_DOT:
    case Sym::S_LPAREN_CALL:
    case Sym::S_LBRACKET_POST:
    case Sym::S_LBRACE_POST:
      return 4;
    default:
      return 3;
  }
}

struct Group {
  std::string_view name;
  // All of these must be expected for the group to stand in for its members.
  // Vectors, not initializer_lists: the arrays behind the lists written in
  // `Group{...}` below would die with the temporary at the end of kGroups'
  // initialisation.
  std::vector<SymKind> required;
  std::vector<SymKind> members;
  int rank;
};

const std::array kGroups = {
    Group{"statement",
          {Sym::S_KW_LET, Sym::S_INT, Sym::S_BANG, Sym::S_KW_IF},
          {Sym::S_KW_LET, Sym::S_IDENT, Sym::S_INT, Sym::S_FLOAT,
           Sym::S_DURATION, Sym::S_STRING, Sym::S_STR_HEAD, Sym::S_KW_TRUE,
           Sym::S_KW_FALSE, Sym::S_LPAREN_OPEN, Sym::S_LBRACKET_OPEN,
           Sym::S_LBRACE_OPEN, Sym::S_KW_IF, Sym::S_KW_MATCH, Sym::S_KW_FAIL,
           Sym::S_BANG, Sym::S_MINUS_PRE, Sym::S_PREFIX_RUN},
          2},
    Group{"expression",
          {Sym::S_INT, Sym::S_BANG, Sym::S_KW_IF},
          {Sym::S_IDENT, Sym::S_INT, Sym::S_FLOAT, Sym::S_DURATION,
           Sym::S_STRING, Sym::S_STR_HEAD, Sym::S_KW_TRUE, Sym::S_KW_FALSE,
           Sym::S_LPAREN_OPEN, Sym::S_LBRACKET_OPEN, Sym::S_LBRACE_OPEN,
           Sym::S_KW_IF, Sym::S_KW_MATCH, Sym::S_KW_FAIL, Sym::S_BANG,
           Sym::S_MINUS_PRE, Sym::S_PREFIX_RUN},
          2},
    Group{"pattern",
          {Sym::S_UNDERSCORE, Sym::S_INT, Sym::S_IDENT},
          {Sym::S_UNDERSCORE, Sym::S_IDENT, Sym::S_INT, Sym::S_FLOAT,
           Sym::S_STRING, Sym::S_KW_TRUE, Sym::S_KW_FALSE, Sym::S_MINUS_PRE,
           Sym::S_DOTDOT, Sym::S_LBRACE_OPEN, Sym::S_LBRACE_POST, Sym::S_LT},
          2},
    Group{"declaration",
          {Sym::S_KW_CONSUMES, Sym::S_KW_AGENT, Sym::S_KW_SERVICE},
          {Sym::S_KW_CONSUMES, Sym::S_KW_TYPE, Sym::S_KW_EVENT, Sym::S_AT,
           Sym::S_KW_ACTOR, Sym::S_KW_CAPABILITY, Sym::S_KW_FN, Sym::S_KW_AGENT,
           Sym::S_KW_SERVICE},
          2},
    Group{"agent member",
          {Sym::S_KW_KEY, Sym::S_KW_STORE, Sym::S_KW_INVARIANT},
          {Sym::S_KW_KEY, Sym::S_KW_STORE, Sym::S_KW_INVARIANT, Sym::S_KW_ON,
           Sym::S_KW_FN},
          2},
    Group{"operator",
          {Sym::S_PLUS, Sym::S_STAR},
          {Sym::S_OROR, Sym::S_ANDAND, Sym::S_EQEQ, Sym::S_NOTEQ, Sym::S_LT,
           Sym::S_LTEQ, Sym::S_GT, Sym::S_GTEQ, Sym::S_PLUS, Sym::S_MINUS_BIN,
           Sym::S_STAR, Sym::S_SLASH, Sym::S_PERCENT, Sym::S_DOT,
           Sym::S_LPAREN_CALL, Sym::S_LBRACKET_POST, Sym::S_LBRACE_POST,
           Sym::S_LBRACE_RECORD},
          4},
};

}  // namespace

std::string ParserDriver::describeExpected(
    const std::vector<SymKind>& expected) const {
  std::array<bool, yy::Parser::YYNTOKENS> present{};
  for (SymKind k : expected) present[static_cast<std::size_t>(k)] = true;

  std::vector<ExpectedItem> items;
  for (const Group& group : kGroups) {
    bool all = std::all_of(
        group.required.begin(), group.required.end(),
        [&](SymKind k) { return present[static_cast<std::size_t>(k)]; });
    if (!all) continue;
    items.push_back({group.rank, group.name});
    for (SymKind k : group.members)
      present[static_cast<std::size_t>(k)] = false;
  }
  for (SymKind k : expected) {
    if (!present[static_cast<std::size_t>(k)]) continue;
    items.push_back({symbolRank(k), symbolDisplayName(k)});
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const ExpectedItem& a, const ExpectedItem& b) {
                     return a.rank < b.rank;
                   });
  std::vector<std::string_view> names;
  for (const ExpectedItem& item : items) {
    if (std::find(names.begin(), names.end(), item.name) == names.end())
      names.push_back(item.name);
  }
  if (names.empty()) return "nothing more";

  constexpr std::size_t kShown = 4;
  std::string out;
  if (names.size() <= kShown) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
      out += names[i];
    }
    return out;
  }
  for (std::size_t i = 0; i < kShown; ++i) {
    out += names[i];
    out += ", ";
  }
  out += "\u2026";
  return out;
}

void ParserDriver::syntaxError(SourceRange at,
                               const std::vector<SymKind>& expected) {
  if (stopped_) return;
  if (lastKind_ == TokenKind::ColonEq) {
    diags_.report<diag::AssignNotStatement>(at);
    return;
  }
  if (lastKind_ == TokenKind::KwContext && current() == &block_) {
    diags_.report<diag::NestedContext>(at).note(
        block_.node->range, "inside context '{}', opened here",
        std::string_view(textOf(block_.node->name.range)));
    return;
  }
  const std::string want = describeExpected(expected);
  const std::string found = describeFound();
  auto report = diags_.report<diag::UnexpectedToken>(at, std::string_view(want),
                                                     std::string_view(found));
  // `evnet Paid = ...` where a declaration may start: a misspelt keyword
  // (a name followed by a name on its line, where the grammar wants one of
  // the keywords it resembles).
  if (lastKind_ == TokenKind::Identifier && lastFirstOnLine_ &&
      peek(0).kind == TokenKind::Identifier && !peek(0).firstOnLine) {
    const DeclKeyword* keyword = misspeltDeclKeyword(textOf(lastRange_));
    if (keyword != nullptr && std::find(expected.begin(), expected.end(),
                                        keyword->symbol) != expected.end())
      report.note("did you mean '{}'?", keyword->spelling)
          .fixit(lastRange_, std::string(keyword->spelling));
  }
  if (lastKind_ == TokenKind::EndOfFile && !open_.empty()) {
    report.note(open_.back().range, "unclosed {} opened here",
                describeTokenKind(open_.back().kind));
  }
}

// `contxt shop { ... }`: the misspelt keyword gets one did-you-mean error
// and is read as `context`, so the block's declarations are parsed and its
// `}` is no second error. Only the block form is read so: a misspelt header
// form stays a syntax error that drops what follows (the misspelling could
// as well start something else).
bool ParserDriver::misspeltBlockContext(const Token& token) {
  const DeclKeyword* keyword = misspeltDeclKeyword(textOf(token.range));
  if (keyword == nullptr || keyword->token != TokenKind::KwContext)
    return false;
  if (peek(0).kind != TokenKind::Identifier || peek(0).firstOnLine)
    return false;
  std::size_t i = 1;
  while (peek(i).kind == TokenKind::Dot &&
         peek(i + 1).kind == TokenKind::Identifier)
    i += 2;
  if (peek(i).kind != TokenKind::LBrace) return false;
  const std::string found = describeFound();
  diags_
      .report<diag::UnexpectedToken>(token.range, std::string_view("'context'"),
                                     std::string_view(found))
      .note("did you mean 'context'?")
      .fixit(token.range, "context");
  return true;
}

// Bison calls this only for failures other than a syntax error in the
// input (those go through syntaxError).
void ParserDriver::parserError(SourceRange at, const std::string& message) {
  if (stopped_) return;
  const std::string found = describeFound();
  diags_.report<diag::UnexpectedToken>(at, std::string_view(message),
                                       std::string_view(found));
}

// ---------------------------------------------------------------------------
// Recovery
// ---------------------------------------------------------------------------

namespace {

// A token that, first on its line, starts a declaration or member: a broken
// declaration ends where one of them begins.
struct DeclStart {
  TokenKind token;
  SymKind symbol;
};
constexpr std::array kDeclStarts = {
    DeclStart{TokenKind::KwType, Sym::S_KW_TYPE},
    DeclStart{TokenKind::KwEvent, Sym::S_KW_EVENT},
    DeclStart{TokenKind::KwFn, Sym::S_KW_FN},
    DeclStart{TokenKind::KwAgent, Sym::S_KW_AGENT},
    DeclStart{TokenKind::KwService, Sym::S_KW_SERVICE},
    DeclStart{TokenKind::KwOn, Sym::S_KW_ON},
    DeclStart{TokenKind::KwKey, Sym::S_KW_KEY},
    DeclStart{TokenKind::KwStore, Sym::S_KW_STORE},
    DeclStart{TokenKind::KwInvariant, Sym::S_KW_INVARIANT},
    DeclStart{TokenKind::KwActor, Sym::S_KW_ACTOR},
    DeclStart{TokenKind::KwCapability, Sym::S_KW_CAPABILITY},
    DeclStart{TokenKind::KwConsumes, Sym::S_KW_CONSUMES},
    DeclStart{TokenKind::KwContext, Sym::S_KW_CONTEXT},
    // `@schema(2) event E ...`
    DeclStart{TokenKind::At, Sym::S_AT},
};

// Inside brackets opened after an error, only what cannot be a member
// (of an agent, service or capability) still starts a declaration.
bool startsMember(TokenKind kind) {
  return kind == TokenKind::KwFn || kind == TokenKind::KwOn ||
         kind == TokenKind::KwKey || kind == TokenKind::KwStore ||
         kind == TokenKind::KwInvariant;
}

bool startsDeclaration(TokenKind kind, SymKind& sym) {
  for (const DeclStart& start : kDeclStarts) {
    if (start.token == kind) {
      sym = start.symbol;
      return true;
    }
  }
  return false;
}

SymKind closerSymbol(TokenKind kind) {
  if (kind == TokenKind::RBrace) return Sym::S_RBRACE;
  if (kind == TokenKind::RParen) return Sym::S_RPAREN;
  return Sym::S_RBRACKET;
}

// The grammar symbol a token read ahead would become (as lex() makes it,
// but for the record-literal brace of a condition, which only matters to
// the grammar's error message).
SymKind symbolOf(TokenKind kind, bool continues) {
  switch (kind) {
    case TokenKind::EndOfFile:
      return Sym::S_YYEOF;
    case TokenKind::Identifier:
      return Sym::S_IDENT;
    case TokenKind::IntLiteral:
      return Sym::S_INT;
    case TokenKind::FloatLiteral:
      return Sym::S_FLOAT;
    case TokenKind::DurationLiteral:
      return Sym::S_DURATION;
    case TokenKind::StringLiteral:
      return Sym::S_STRING;
    case TokenKind::StringHead:
      return Sym::S_STR_HEAD;
    case TokenKind::StringMiddle:
      return Sym::S_STR_MID;
    case TokenKind::StringTail:
      return Sym::S_STR_TAIL;
    case TokenKind::KwContext:
      return Sym::S_KW_CONTEXT;
    case TokenKind::KwConsumes:
      return Sym::S_KW_CONSUMES;
    case TokenKind::KwAs:
      return Sym::S_KW_AS;
    case TokenKind::KwType:
      return Sym::S_KW_TYPE;
    case TokenKind::KwEvent:
      return Sym::S_KW_EVENT;
    case TokenKind::KwActor:
      return Sym::S_KW_ACTOR;
    case TokenKind::KwCapability:
      return Sym::S_KW_CAPABILITY;
    case TokenKind::KwFn:
      return Sym::S_KW_FN;
    case TokenKind::KwAgent:
      return Sym::S_KW_AGENT;
    case TokenKind::KwKey:
      return Sym::S_KW_KEY;
    case TokenKind::KwStore:
      return Sym::S_KW_STORE;
    case TokenKind::KwInvariant:
      return Sym::S_KW_INVARIANT;
    case TokenKind::KwService:
      return Sym::S_KW_SERVICE;
    case TokenKind::KwFrom:
      return Sym::S_KW_FROM;
    case TokenKind::KwVia:
      return Sym::S_KW_VIA;
    case TokenKind::KwOn:
      return Sym::S_KW_ON;
    case TokenKind::KwCall:
      return Sym::S_KW_CALL;
    case TokenKind::KwBy:
      return Sym::S_KW_BY;
    case TokenKind::KwGiven:
      return Sym::S_KW_GIVEN;
    case TokenKind::KwLet:
      return Sym::S_KW_LET;
    case TokenKind::KwIf:
      return Sym::S_KW_IF;
    case TokenKind::KwElse:
      return Sym::S_KW_ELSE;
    case TokenKind::KwMatch:
      return Sym::S_KW_MATCH;
    case TokenKind::KwTrue:
      return Sym::S_KW_TRUE;
    case TokenKind::KwFalse:
      return Sym::S_KW_FALSE;
    case TokenKind::KwOpaque:
      return Sym::S_KW_OPAQUE;
    case TokenKind::KwWhere:
      return Sym::S_KW_WHERE;
    case TokenKind::KwFail:
      return Sym::S_KW_FAIL;
    case TokenKind::LBrace:
      return continues ? Sym::S_LBRACE_POST : Sym::S_LBRACE_OPEN;
    case TokenKind::RBrace:
      return Sym::S_RBRACE;
    case TokenKind::RParen:
      return Sym::S_RPAREN;
    case TokenKind::RBracket:
      return Sym::S_RBRACKET;
    case TokenKind::Comma:
      return Sym::S_COMMA;
    case TokenKind::Colon:
      return Sym::S_COLON;
    case TokenKind::Dot:
      return Sym::S_DOT;
    case TokenKind::DotDot:
      return Sym::S_DOTDOT;
    case TokenKind::ColonEq:
      return Sym::S_COLONEQ;
    case TokenKind::FatArrow:
      return Sym::S_FATARROW;
    case TokenKind::Arrow:
      return Sym::S_ARROW;
    case TokenKind::EqEq:
      return Sym::S_EQEQ;
    case TokenKind::NotEq:
      return Sym::S_NOTEQ;
    case TokenKind::LtEq:
      return Sym::S_LTEQ;
    case TokenKind::GtEq:
      return Sym::S_GTEQ;
    case TokenKind::Lt:
      return Sym::S_LT;
    case TokenKind::Gt:
      return Sym::S_GT;
    case TokenKind::AmpAmp:
      return Sym::S_ANDAND;
    case TokenKind::PipePipe:
      return Sym::S_OROR;
    case TokenKind::Pipe:
      return Sym::S_PIPE;
    case TokenKind::Bang:
      return Sym::S_BANG;
    case TokenKind::Plus:
      return Sym::S_PLUS;
    case TokenKind::Star:
      return Sym::S_STAR;
    case TokenKind::Slash:
      return Sym::S_SLASH;
    case TokenKind::Percent:
      return Sym::S_PERCENT;
    case TokenKind::Eq:
      return Sym::S_EQ;
    case TokenKind::At:
      return Sym::S_AT;
    case TokenKind::Underscore:
      return Sym::S_UNDERSCORE;
    case TokenKind::LParen:
      return continues ? Sym::S_LPAREN_CALL : Sym::S_LPAREN_OPEN;
    case TokenKind::LBracket:
      return continues ? Sym::S_LBRACKET_POST : Sym::S_LBRACKET_OPEN;
    case TokenKind::Minus:
      return continues ? Sym::S_MINUS_BIN : Sym::S_MINUS_PRE;
  }
  return Sym::S_YYEOF;
}

// Reading ahead for a sync point stops here; past it the parser's own
// recovery takes over.
constexpr std::size_t kMaxSyncScan = 1 << 16;

}  // namespace

bool ParserDriver::lookaheadStartsDeclaration() const {
  SymKind sym = Sym::S_YYEOF;
  return lastFirstOnLine_ && startsDeclaration(lastKind_, sym) &&
         (lastKind_ != TokenKind::KwContext || block_.node == nullptr);
}

SyncPoint ParserDriver::findSync(
    llvm::function_ref<bool(yy::Parser::symbol_kind_type)> resumesBefore) {
  SyncPoint sync;
  if (stopped_) return sync;
  // Inside a block context, a nested `context` is an error of its own and
  // no place to resume.
  const bool contextSyncs = block_.node == nullptr;
  // The misspelt declaration keyword the token looked at stands for.
  const DeclKeyword* misspelt = nullptr;
  auto at = [&](TokenKind kind, bool firstOnLine, SourceRange range, int depth,
                bool isLookahead, std::uint32_t before) {
    SymKind sym = Sym::S_YYEOF;
    bool decl = false;
    // At the end of the file the parser's own recovery stops the parse,
    // everything read having been handed over: no sync point.
    if (kind == TokenKind::EndOfFile) return true;
    if (depth < 0) {
      sym = closerSymbol(kind);
    } else if (firstOnLine && startsDeclaration(kind, sym) &&
               (depth == 0 || !startsMember(kind)) &&
               (kind != TokenKind::KwContext || contextSyncs)) {
      decl = true;
    } else if (misspelt != nullptr && !isLookahead && depth == 0 &&
               (misspelt->token != TokenKind::KwContext || contextSyncs)) {
      // `evnet Paid = ...` after an error starts the next declaration too:
      // resuming before it reports it, with "did you mean", instead of
      // dropping it and all up to the next keyword.
      sym = misspelt->symbol;
      decl = true;
    } else {
      return false;
    }
    sync = SyncPoint{true, sym, isLookahead, decl, range.begin, before};
    return true;
  };
  auto step = [](TokenKind kind, int& depth) {
    switch (tokenRole(kind)) {
      case TokenRole::Opener:
        ++depth;
        break;
      case TokenRole::Closer:
        --depth;
        break;
      case TokenRole::Plain:
      case TokenRole::Condition:
        break;
    }
  };
  int depth = 0;
  step(lastKind_, depth);
  if (at(lastKind_, lastFirstOnLine_, lastRange_, depth, true,
         lastRange_.begin))
    return sync;
  std::uint32_t before = lastRange_.end;
  bool endsExpr = tokenEndsExpression(lastKind_);
  for (std::size_t i = 0; i < kMaxSyncScan; ++i) {
    // Peeked first: a peek may move the tokens read ahead.
    const Token& next = peek(i + 1);
    const bool nameFollows =
        next.kind == TokenKind::Identifier && !next.firstOnLine;
    const Token& token = peek(i);
    misspelt =
        nameFollows && token.firstOnLine && token.kind == TokenKind::Identifier
            ? misspeltDeclKeyword(textOf(token.range))
            : nullptr;
    // Only where the error was, not inside brackets opened after it.
    const bool outside =
        depth == 0 && tokenRole(token.kind) != TokenRole::Closer;
    step(token.kind, depth);
    if (at(token.kind, token.firstOnLine, token.range, depth, false, before))
      return sync;
    if (outside &&
        resumesBefore(symbolOf(token.kind, endsExpr && !token.firstOnLine))) {
      sync = SyncPoint{true,   Sym::S_YYEOF, false, false, token.range.begin,
                       before, true};
      return sync;
    }
    endsExpr = tokenEndsExpression(token.kind);
    before = token.range.end;
  }
  return sync;
}

void ParserDriver::beginRecovery(SourceRange lookahead, SourceRange popped,
                                 const SyncPoint& sync, bool skip, bool resync,
                                 std::size_t openBrackets) {
  const bool anyPopped = popped.begin != popped.end;
  errorRange_ = anyPopped
                    ? popped
                    : SourceRange{file_.id(), lookahead.begin, lookahead.begin};
  dropLookahead_ = skip;
  if (skip) {
    errorRange_.end = std::max(errorRange_.end, sync.skipEnd);
    skipping_ = true;
    skipTo_ = sync.offset;
  }
  errorRangePending_ = true;
  recoveryBegin_ = errorRange_.begin;
  resyncPending_ = resync;
  resyncAt_ = sync.offset;
  // The brackets dropped with the stack are no longer open. The lookahead
  // has been counted already: a closer there closes one of the remaining.
  if (sync.isLookahead && tokenRole(lastKind_) == TokenRole::Closer &&
      openBrackets > 0)
    --openBrackets;
  if (openBrackets < open_.size()) open_.resize(openBrackets);
  while (!conditions_.empty() && conditions_.back().depth > open_.size())
    conditions_.pop_back();
  lookahead_.forget();
}

SourceRange ParserDriver::errorTokenRange(SourceRange first, SourceRange last,
                                          bool lookaheadHeld, bool& drop) {
  if (errorRangePending_) {
    errorRangePending_ = false;
    drop = dropLookahead_ && lookaheadHeld;
    dropLookahead_ = false;
    return errorRange_;
  }
  // The lookahead is part of the error only once recovery drops it.
  if (lookaheadHeld) {
    if (first.begin == last.begin && first.end == last.end)
      return {last.file, last.begin, last.begin};
    return first;
  }
  if (first.begin == first.end) return last;
  return {first.file, std::min(first.begin, last.begin),
          std::max(first.end, last.end)};
}

bool ParserDriver::resynced(bool lookaheadHeld, SourceRange lookahead) {
  if (!resyncPending_) return false;
  // Held: only the token recovery resumes at; not held: the next token is
  // that one, the ones before it being skipped.
  if (lookaheadHeld && lookahead.begin != resyncAt_) return false;
  resyncPending_ = false;
  return true;
}

ast::Ident ParserDriver::missingIdent(SourceRange at) const {
  return ast::Ident{{}, SourceRange{at.file, at.begin, at.begin}};
}

ast::BlockExpr* ParserDriver::errorBlock(SourceRange before,
                                         SourceRange error) {
  const SourceRange at = error.begin != error.end
                             ? error
                             : SourceRange{before.file, before.end, before.end};
  ast::Stmt* marker =
      stmt(ast::StmtKind::Error, at, ast::Ident{}, nullptr, nullptr);
  return arena.node<ast::BlockExpr>(
      at, arena.copy(llvm::ArrayRef<ast::Stmt*>(marker)));
}

ast::QualifiedName ParserDriver::missingName(SourceRange keyword,
                                             SourceRange error) const {
  const std::uint32_t at = error.begin != error.end ? error.begin : keyword.end;
  return ast::QualifiedName{{}, SourceRange{keyword.file, at, at}};
}

namespace yy {

// The tokens the parser could go on with are those for which a walk of its
// tables from the stack as it was when the lookahead was read, reducing as
// needed, ends in a shift (what Bison's LAC does on every token; here only
// once there is an error). Then recovery is planned. Bison resumes at the
// innermost rule with an `error` alternative and drops tokens until one
// fits there, which can swallow the declarations that follow. So unless the
// lookahead fits there, recovery resumes instead at the innermost rule
// that takes the sync point (see SyncPoint), and the driver drops the
// tokens before it.
void Parser::report_syntax_error(const context& ctx) const {
  using State = LookaheadStack::State;
  std::vector<State> current;
  current.reserve(yystack_.size());
  for (auto i = yystack_.size(); i > 0; --i)
    current.push_back(yystack_[i - 1].state);

  // Walks the tables for `token` from `stack` (bottom first); on a shift,
  // pushes the new state and returns true.
  auto shifts = [](std::vector<State>& stack, symbol_kind_type token) {
    // Each step reduces; an LR automaton shifts or fails within a bounded
    // number of them, the bound only guards against a table surprise.
    for (int step = 0; step < 100000; ++step) {
      const State top = stack.back();
      int action = yypact_[+top];
      if (yy_pact_value_is_default_(action) || (action += token) < 0 ||
          yylast_ < action || yycheck_[action] != token) {
        action = yydefact_[+top];
        if (action == 0) return false;
      } else {
        action = yytable_[action];
        if (yy_table_value_is_error_(action)) return false;
        if (action > 0) {
          stack.push_back(static_cast<State>(action));
          return true;
        }
        action = -action;
      }
      const auto length =
          static_cast<std::size_t>(static_cast<unsigned char>(yyr2_[action]));
      if (length >= stack.size()) return false;
      stack.resize(stack.size() - length);
      stack.push_back(yy_lr_goto_state_(stack.back(), yyr1_[action]));
    }
    return false;
  };

  const std::vector<State> atRead = d.lookaheadStack().restore(current);
  std::vector<State> work;
  std::vector<symbol_kind_type> expected;
  for (int k = 0; k < YYNTOKENS; ++k) {
    const auto token = static_cast<symbol_kind_type>(k);
    if (token == symbol_kind::S_YYerror || token == symbol_kind::S_YYUNDEF)
      continue;
    work = atRead;
    if (shifts(work, token)) expected.push_back(token);
  }
  d.syntaxError(ctx.location(), expected);

  // The state reached by shifting `error` in `state`, or -1. Bison shifts
  // `error` only where it is a plain shift.
  auto errorShift = [](State state) -> int {
    int action = yypact_[+state];
    if (yy_pact_value_is_default_(action)) return -1;
    action += symbol_kind::S_YYerror;
    if (action < 0 || yylast_ < action ||
        yycheck_[action] != symbol_kind::S_YYerror)
      return -1;
    action = yytable_[action];
    return action > 0 ? action : -1;
  };
  // With the stack cut to its first `depth` states: does `token` fit after
  // `error`?
  auto fitsAfterError = [&](std::size_t depth, symbol_kind_type token) {
    const int state = errorShift(current[depth - 1]);
    if (state < 0) return false;
    work.assign(current.begin(), current.begin() + static_cast<long>(depth));
    work.push_back(static_cast<State>(state));
    return shifts(work, token);
  };

  std::size_t natural = 0;
  for (std::size_t depth = current.size(); depth > 0; --depth) {
    if (errorShift(current[depth - 1]) >= 0) {
      natural = depth;
      break;
    }
  }
  if (natural == 0) return;  // nothing can recover: the parse ends here

  const symbol_kind_type lookahead = ctx.token();
  std::size_t target = natural;
  bool skip = false;
  bool resync = false;
  auto resumesNaturally = [&](symbol_kind_type token) {
    return fitsAfterError(natural, token);
  };
  SyncPoint sync;
  if (fitsAfterError(natural, lookahead)) {
    sync.isLookahead = true;
    sync.offset = ctx.location().begin;
    resync = d.lookaheadStartsDeclaration();
  } else {
    sync = d.findSync(resumesNaturally);
    // Resume at the first token that fits where Bison would resume.
    skip = sync.found && sync.resumesEarlier;
    for (std::size_t depth = natural;
         sync.found && !sync.resumesEarlier && depth > 0; --depth) {
      // `context <error>` is for a missing name, not a place to resume.
      if (depth != natural &&
          static_cast<symbol_kind_type>(yystos_[+current[depth - 1]]) ==
              symbol_kind::S_KW_CONTEXT)
        continue;
      if (!fitsAfterError(depth, sync.kind)) continue;
      target = depth;
      skip = !sync.isLookahead && !fitsAfterError(depth, lookahead);
      resync = sync.startsDecl && (skip || sync.isLookahead);
      break;
    }
  }

  // Drop the states above the target, keeping the extent of what they
  // covered for the error node.
  auto& stack = const_cast<stack_type&>(yystack_);
  const std::size_t pops = current.size() - target;
  SourceRange popped{ctx.location().file, 0, 0};
  bool any = false;
  for (std::size_t i = 0; i < pops; ++i) {
    const SourceRange& r = stack[static_cast<int>(i)].location;
    if (r.begin == r.end) continue;
    if (!any) {
      popped = r;
      any = true;
    }
    popped.begin = std::min(popped.begin, r.begin);
    popped.end = std::max(popped.end, r.end);
  }
  if (pops > 0) const_cast<Parser*>(this)->yypop_(static_cast<int>(pops));

  std::size_t open = 0;
  for (std::size_t depth = 0; depth < target; ++depth) {
    switch (static_cast<symbol_kind_type>(yystos_[+current[depth]])) {
      case symbol_kind::S_LBRACE_OPEN:
      case symbol_kind::S_LBRACE_POST:
      case symbol_kind::S_LBRACE_RECORD:
      case symbol_kind::S_LPAREN_OPEN:
      case symbol_kind::S_LPAREN_CALL:
      case symbol_kind::S_LBRACKET_OPEN:
      case symbol_kind::S_LBRACKET_POST:
      case symbol_kind::S_lbrace:
      case symbol_kind::S_lparen:
      case symbol_kind::S_lbracket:
        ++open;
        break;
      default:
        break;
    }
  }
  d.beginRecovery(ctx.location(), popped, sync, skip, resync, open);
}

void Parser::error(const location_type& loc, const std::string& message) {
  d.parserError(loc, message);
}

}  // namespace yy
}  // namespace herald
