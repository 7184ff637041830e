// The Herald grammar (language.md sections 2-4, "Statements and
// expressions"). Bison generates an LALR(1) parser in C++ from it; the driver
// (frontend/parser_driver.cpp) feeds it tokens and owns every node it builds.
//
// Line breaks: `(`, `[`, `{` and `-` each reach the grammar as one of two
// tokens. The driver sends the "continuing" one (LPAREN_CALL, LBRACKET_POST,
// LBRACE_POST, MINUS_BIN) only when the token stands on the same line as a
// token that can end an expression; otherwise the "opening" one
// (LPAREN_OPEN, LBRACKET_OPEN, LBRACE_OPEN, MINUS_PRE). Calls, type
// applications, record literals and binary minus take the continuing form,
// primaries the opening form, and positions outside expressions take both.
// That is what lets statements go without separators and still have no
// conflicts.
//
// `if` conditions and `match` scrutinees are `expr_nr`, a copy of `expr`
// without record literals, so `if ready { ... }` opens the block. The driver
// spots the mistake `if T { field: ... }` by looking two tokens ahead and
// sends LBRACE_RECORD, which `expr_nr` accepts as a record literal and
// reports.
//
// A sum type's leading `|` is optional: `type S = | A | B` and
// `type S = A | B` are the same; a single-variant sum needs it
// (`type S = | A`), since `type S = A` is an alias.
//
// Error recovery: `error` alternatives in every list of declarations,
// members, statements, fields, parameters, arguments and match arms, and
// for a missing context name, handler name or body; each produces an Error
// node (or an empty name placed at the error) so later phases stay quiet
// about the region. Where parsing resumes is planned when the error is
// reported (frontend/parser_recovery.cpp): a declaration keyword first on
// its line ends the broken declaration, and the driver drops the tokens
// before it.

%require "3.8"
%language "c++"
%skeleton "lalr1.cc"

%define api.namespace {herald::yy}
%define api.parser.class {Parser}
// Every semantic value is trivially copyable, so a plain union holds them:
// the parser's stack then moves a value as a few words instead of through a
// switch over the symbol's kind, as a variant would on every shift, pop and
// reduction. The token kinds are the symbol kinds (raw), so reading a token
// needs no translation table either.
%define api.value.type {herald::yy::Value}
%define api.token.raw
%define api.token.prefix {TOK_}
%define api.location.type {herald::SourceRange}
%define parse.error custom
// Expected-token lists: instead of LAC, which would cost every parse, the
// error reporter (frontend/parser_recovery.cpp) walks the tables from the
// stack as it was when the offending token was read, only when there is an
// error; YYLLOC_DEFAULT keeps the states reductions pop for it.
%locations
%param {herald::ParserDriver& d}

// No conflicts. (`%expect-rr` is for GLR parsers only; for this LALR
// parser Bison reports any reduce/reduce conflict as an error anyway.)
%expect 0

%code requires {
#include <cstdint>
#include <type_traits>
#include <llvm/ADT/StringRef.h>

#include "frontend/ast.h"
#include "frontend/source.h"
#include "frontend/token.h"

namespace herald {
class ParserDriver;
}

// Semantic values of the rules that build one node from several parts.
namespace herald::yy {
// A list under construction. Its storage comes from the driver, which
// recycles it once the list is copied into the AST, so building lists costs
// no heap allocation and the value stays trivially copyable.
template <typename T>
struct List {
  T* data = nullptr;
  std::uint32_t size = 0;
  std::uint32_t capacity = 0;
};
struct DurationValue {
  std::uint64_t value;
  DurationUnit unit;
};
// One operator of a run of `!` and prefix `-` (PREFIX_RUN).
struct PrefixOp {
  std::uint32_t begin;
  bool negate;
};
struct TypeDef {
  ast::TypeDefKind kind;
  List<ast::FieldDecl> fields;
  List<ast::VariantDecl> variants;
  ast::TypeExpr* base;
  ast::Expr* refinement;
};
struct FnName {
  ast::Ident owner;
  ast::Ident name;
};
struct VersionSpec {
  ast::VersionSpecKind kind;
  std::int64_t low;
  std::int64_t high;
  // Where each bound is written (its sign included), so fmt keeps its digits.
  SourceRange lowAt;
  SourceRange highAt;
};
// The inside of a record pattern or of a variant's payload.
struct PatternFields {
  List<ast::PatternField> fields;
  bool hasRest = false;
  SourceRange rest;
};
// The semantic value of a symbol; the member is the one its `%type` or
// `%token` tag names. A rule that builds a value starts from `$$ = {}`,
// since the parser does not clear it.
union Value {
  // Members with constructors of their own leave a union none by default;
  // this one leaves the value unset, as the actions set it.
  Value() {}  // NOLINT(modernize-use-equals-default)
  ast::Ident ident;
  std::uint64_t u64;
  double f64;
  DurationValue duration;
  llvm::StringRef str;
  List<PrefixOp> prefixOps;
  List<ast::Ident> idents;
  ast::QualifiedName qname;
  ast::TypeExpr* type;
  List<ast::TypeExpr*> types;
  ast::Decl* decl;
  ast::FnDecl* fn;
  List<ast::FnDecl*> fns;
  List<ast::Decl*> decls;
  TypeDef* typeDef;
  ast::Expr* expr;
  List<ast::VariantDecl> variants;
  ast::VariantDecl* variant;
  List<ast::FieldDecl> fieldDecls;
  List<ast::Annotation> annots;
  ast::Annotation* annot;
  bool flag;
  List<ast::Param> params;
  FnName* fnName;
  ast::ByClause* by;
  List<ast::GivenItem> givens;
  ast::GivenItem* given;
  ast::Subscription* sub;
  ast::RecordPattern* recordPat;
  ast::ViaClause* via;
  VersionSpec versionSpec;
  std::int64_t version;
  PatternFields patFields;
  List<ast::PatternField> patFieldList;
  ast::PatternField* patField;
  ast::Pattern* pattern;
  List<ast::MatchArm> arms;
  ast::MatchArm arm;
  ast::BlockExpr* block;
  List<ast::Stmt*> stmts;
  List<ast::StringPart> parts;
  List<ast::Arg> args;
  List<ast::FieldInit> fieldInits;
  List<ast::Expr*> exprs;
  List<ast::MapEntry> mapEntries;
};
static_assert(std::is_trivially_copyable_v<Value>);
}  // namespace herald::yy
}

%code {
#include "frontend/parser_driver.h"

// A node spans its first to its last non-empty child, so that an empty
// optional part (`%empty`) does not stretch it over the white space before.
// Bison also uses the macro for the `error` token of recovery, with an array
// of two ranges instead of a stack slice; `locate` tells them apart.
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                       \
  ::herald::yy::locate(d, (Cur), (Rhs), static_cast<int>(N),              \
                       yystack_.size(), yyla)

// Errors from the token after a resynchronisation on are reported again
// (Bison would stay quiet for three tokens).
#define HERALD_RESYNC()                                                   \
  do {                                                                    \
    if (d.resynced(!yyla.empty(), yyla.location)) yyerrok;                \
  } while (false)

namespace herald::yy {
// A reduction. The states it pops are kept for the error reporter, which
// needs the stack as it was when the lookahead was read.
template <typename Slice, typename Lookahead>
[[gnu::always_inline]] inline void locate(ParserDriver& d, SourceRange& cur, const Slice& rhs, int n,
            std::size_t stackSize, Lookahead& /*lookahead*/) {
  // The popped symbols are contiguous on the stack, bottom first.
  if (n != 0) d.lookaheadStack().save(stackSize, n, &rhs[1]);
  if (n == 0) {
    const std::uint32_t at = rhs[0].location.end;
    cur = SourceRange{d.fileId(), at, at};
  } else {
    cur = ParserDriver::joinRange(
        rhs[1].location, rhs[n].location,
        [&](int k) { return rhs[k].location; }, n, rhs[0].location.end,
        d.fileId());
  }
}
// The `error` token shifted by recovery. When recovery resumes further on,
// the token the error was found at goes here, before Bison would drop it
// the usual way, which pops the rule that just took the `error` token.
template <typename Symbol, std::size_t K, typename Lookahead>
void locate(ParserDriver& d, SourceRange& cur, Symbol (&rhs)[K], int,
            std::size_t, Lookahead& lookahead) {
  bool drop = false;
  cur = d.errorTokenRange(rhs[1].location, rhs[2].location,
                          !lookahead.empty(), drop);
  if (drop) lookahead.clear();
}
}  // namespace herald::yy

namespace herald::yy {
using Op = ast::BinaryOp;
// Each read notes the stack's size, for LookaheadStack.
[[gnu::always_inline]] inline int lexAt(Parser::value_type* value,
                                        SourceRange* location,
                                        ParserDriver& d,
                                        std::size_t stackSize) {
  d.lookaheadStack().read(stackSize);
  return d.lex(*value, *location);
}
}  // namespace herald::yy
#define yylex(V, L, D) ::herald::yy::lexAt((V), (L), (D), yystack_.size())
}

%token END 0 "end of file"
%token <ident> IDENT "identifier"
%token <u64> INT "integer literal"
%token <f64> FLOAT "float literal"
%token <duration> DURATION "duration literal"
%token <str> STRING "string literal"
%token <str> STR_HEAD "interpolated string"
%token <str> STR_MID "string continuation"
%token <str> STR_TAIL "end of string"
// A long run of `!` and prefix `-` (parser_driver.cpp, kPrefixRun), sent by
// the driver as one token so that its length takes one entry of the
// parser's stack.
%token <prefixOps> PREFIX_RUN "prefix operators"

%token KW_CONTEXT "'context'" KW_CONSUMES "'consumes'" KW_AS "'as'"
%token KW_TYPE "'type'" KW_EVENT "'event'" KW_ACTOR "'actor'"
%token KW_CAPABILITY "'capability'" KW_FN "'fn'" KW_AGENT "'agent'"
%token KW_KEY "'key'" KW_STORE "'store'" KW_INVARIANT "'invariant'"
%token KW_SERVICE "'service'" KW_FROM "'from'" KW_VIA "'via'" KW_ON "'on'"
%token KW_CALL "'call'" KW_BY "'by'" KW_GIVEN "'given'" KW_LET "'let'"
%token KW_IF "'if'" KW_ELSE "'else'" KW_MATCH "'match'" KW_TRUE "'true'"
%token KW_FALSE "'false'" KW_OPAQUE "'opaque'" KW_WHERE "'where'"
%token KW_FAIL "'fail'"

// The paired tokens: the first of each pair is the opening form. The
// continuing forms have no alias; the driver names them when it lists
// expected tokens.
%token LBRACE_OPEN "'{'" LBRACE_POST LBRACE_RECORD
%token LPAREN_OPEN "'('" LPAREN_CALL
%token LBRACKET_OPEN "'['" LBRACKET_POST
%token MINUS_PRE "'-'" MINUS_BIN
%token RBRACE "'}'" RPAREN "')'" RBRACKET "']'"
%token COMMA "','" COLON "':'" DOT "'.'" DOTDOT "'..'" COLONEQ "':='"
%token FATARROW "'=>'" ARROW "'->'" EQEQ "'=='" NOTEQ "'!='" LTEQ "'<='"
%token GTEQ "'>='" LT "'<'" GT "'>'" ANDAND "'&&'" OROR "'||'" PIPE "'|'"
%token BANG "'!'" PLUS "'+'" STAR "'*'" SLASH "'/'" PERCENT "'%'" EQ "'='"
%token AT "'@'" UNDERSCORE "'_'"

%type <idents> ident_list ident_list_opt
%type <qname> qname
%type <type> type_expr ret_opt
%type <types> type_list
%type <decl> decl consumes_decl type_decl event_decl actor_decl
%type <decl> capability_decl agent_decl service_decl
%type <decl> agent_member service_member handler
%type <fn> fn_decl fn_head cap_member
%type <fns> cap_members
%type <decls> agent_members service_members
%type <typeDef> type_def
%type <expr> refinement_opt
%type <variants> sum
%type <variant> variant
%type <fieldDecls> field_decls field_decls_opt
%type <annots> annots
%type <annot> annotation
%type <flag> eq_opt handler_head
%type <params> params param_list param_list_opt
%type <fnName> fn_name
%type <ident> handler_name
%type <by> by_opt
%type <givens> given_opt given_list
%type <given> given_item
%type <sub> from_opt
%type <recordPat> record_pattern sub_pattern_opt
%type <via> via_opt
%type <versionSpec> version_spec
%type <version> version
%type <patFields> pat_body payload
%type <patFieldList> pat_fields payload_items
%type <patField> pat_field payload_item
%type <pattern> pattern pattern_arm pat_atom pat_atom_common
%type <expr> int_pat lit_pat
%type <arms> arms arms_opt
%type <arm> arm
%type <block> block block_open
%type <stmts> stmts
%type <expr> expr expr_nr if_expr match_expr else_opt
%type <parts> interp
%type <args> args args_opt
%type <fieldInits> field_inits field_inits_opt
%type <exprs> exprs exprs_opt
%type <mapEntries> map_entries

// Operators, lowest precedence first (language.md, "Statements and
// expressions"): binary, then unary `!` and `-`, then the postfix forms
// (field, call, type application, record literal).
%left OROR
%left ANDAND
%left EQEQ NOTEQ LT LTEQ GT GTEQ
%left PLUS MINUS_BIN
%left STAR SLASH PERCENT
%precedence BANG MINUS_PRE PREFIX_RUN
%precedence DOT LPAREN_CALL LBRACKET_POST LBRACE_POST LBRACE_RECORD

%start file

%%

// ----------------------------------------------------------------------------
// Files and contexts. Items are handed to the driver as they are reduced, so
// a file cut short still yields every context and declaration read so far.
// ----------------------------------------------------------------------------

file: items ;

items: %empty | items item ;

item:
    KW_CONTEXT qname
      { d.openHeaderContext($2, @$); }
  | KW_CONTEXT qname lbrace
      { d.openBlockContext($2, SourceRange::join(@1, @3)); }
    ctx_decls RBRACE
      { d.closeBlockContext(@$); }
  // A context whose name cannot be read still holds its declarations.
  | KW_CONTEXT error
      { HERALD_RESYNC(); d.openHeaderContext(d.missingName(@1, @2), @$); }
  | KW_CONTEXT error lbrace
      { d.openBlockContext(d.missingName(@1, @2), SourceRange::join(@1, @3)); }
    ctx_decls RBRACE
      { d.closeBlockContext(@$); }
  | decl
      { d.addDecl($1); }
  | error
      { HERALD_RESYNC(); d.addDecl(d.errorDecl(@$)); }
  ;

ctx_decls: %empty | ctx_decls ctx_decl ;

ctx_decl:
    decl   { d.addDecl($1); }
  | error  { HERALD_RESYNC(); d.addDecl(d.errorDecl(@$)); }
  ;

lbrace: LBRACE_OPEN | LBRACE_POST ;
lparen: LPAREN_OPEN | LPAREN_CALL ;
lbracket: LBRACKET_OPEN | LBRACKET_POST ;

qname:
    IDENT            { $$ = d.qualified($1); }
  | qname DOT IDENT  { $$ = d.qualified($1, $3); }
  ;

// ----------------------------------------------------------------------------
// Declarations
// ----------------------------------------------------------------------------

decl:
    consumes_decl | type_decl | event_decl | actor_decl | capability_decl
  | fn_decl  { $$ = $1; }
  | agent_decl | service_decl
  ;

consumes_decl:
    KW_CONSUMES qname
      { $$ = d.decl<ast::ConsumesDecl>(@$, $2, ast::Ident{}, false,
                                        llvm::ArrayRef<ast::Ident>{}); }
  | KW_CONSUMES qname KW_AS IDENT
      { $$ = d.decl<ast::ConsumesDecl>(@$, $2, $4, false,
                                        llvm::ArrayRef<ast::Ident>{}); }
  | KW_CONSUMES qname lbrace ident_list_opt RBRACE
      { $$ = d.decl<ast::ConsumesDecl>(@$, $2, ast::Ident{}, true,
                                        d.list($4)); }
  ;

ident_list_opt: %empty { $$ = {}; } | ident_list | ident_list COMMA { $$ = $1; } ;
ident_list:
    IDENT                   { $$ = {}; d.push($$, $1); }
  | ident_list COMMA IDENT  { $$ = $1; d.push($$, $3); }
  ;

type_decl:
    KW_TYPE IDENT EQ type_def  { $$ = d.typeDecl(@$, $2, d.take($4)); }
  ;

type_def:
    lbrace field_decls_opt RBRACE
      { $$ = d.hold(
            TypeDef{ast::TypeDefKind::Record, $2, {}, nullptr, nullptr}); }
  | sum
      { $$ = d.hold(
            TypeDef{ast::TypeDefKind::Sum, {}, $1, nullptr, nullptr}); }
  | KW_OPAQUE type_expr refinement_opt
      { $$ = d.hold(TypeDef{ast::TypeDefKind::Opaque, {}, {}, $2, $3}); }
  | type_expr refinement_opt
      { $$ = d.hold(TypeDef{ast::TypeDefKind::Alias, {}, {}, $1, $2}); }
  ;

refinement_opt: %empty { $$ = nullptr; } | KW_WHERE expr { $$ = $2; } ;

// A leading `|` is optional; without it a sum needs two variants, since
// `type A = B` is an alias.
sum:
    PIPE variant          { $$ = {}; d.push($$, d.take($2)); }
  | variant PIPE variant  { $$ = {}; d.push($$, d.take($1)); d.push($$, d.take($3)); }
  | sum PIPE variant      { $$ = $1; d.push($$, d.take($3)); }
  ;

variant:
    IDENT
      { $$ = d.hold(ast::VariantDecl{$1, false, {}, @$}); }
  | IDENT lparen field_decls_opt RPAREN
      { $$ = d.hold(ast::VariantDecl{$1, true, d.list($3), @$}); }
  ;

field_decls_opt:
    %empty { $$ = {}; }
  | field_decls
  | field_decls COMMA  { $$ = $1; }
  ;

field_decls:
    IDENT COLON type_expr
      { $$ = {}; d.push($$, ast::FieldDecl{$1, $3, nullptr, @$}); }
  | IDENT COLON type_expr EQ expr
      { $$ = {}; d.push($$, ast::FieldDecl{$1, $3, $5, @$}); }
  | error
      { $$ = {}; d.push($$, ast::FieldDecl{d.missingIdent(@1), d.errorType(@1),
                                  nullptr, @1}); }
  | field_decls COMMA IDENT COLON type_expr
      { $$ = $1;
        d.push($$, ast::FieldDecl{$3, $5, nullptr,
                                  SourceRange::join(@3, @5)}); }
  | field_decls COMMA IDENT COLON type_expr EQ expr
      { $$ = $1;
        d.push($$, ast::FieldDecl{$3, $5, $7, SourceRange::join(@3, @7)}); }
  | field_decls COMMA error
      { $$ = $1;
        d.push($$, ast::FieldDecl{d.missingIdent(@3), d.errorType(@3),
                                  nullptr, @3}); }
  ;

event_decl:
    annots KW_EVENT IDENT annots eq_opt lbrace field_decls_opt RBRACE
      { $$ = d.eventDecl(@$, $3, $5, $1, $4, $7); }
  ;

annots: %empty { $$ = {}; } | annots annotation  { $$ = $1; d.push($$, d.take($2)); } ;

annotation:
    AT IDENT
      { $$ = d.hold(ast::Annotation{$2, false, {}, @$}); }
  | AT IDENT lparen exprs_opt RPAREN
      { $$ = d.hold(ast::Annotation{$2, true, d.list($4), @$}); }
  ;

eq_opt: %empty { $$ = false; } | EQ { $$ = true; } ;

actor_decl:
    KW_ACTOR IDENT
      { $$ = d.decl<ast::ActorDecl>(@$, $2, llvm::ArrayRef<ast::Param>{},
                                     false); }
  | KW_ACTOR IDENT params
      { $$ = d.decl<ast::ActorDecl>(@$, $2, d.list($3), true); }
  ;

params: lparen param_list_opt RPAREN  { $$ = $2; } ;

param_list_opt:
    %empty { $$ = {}; }
  | param_list
  | param_list COMMA  { $$ = $1; }
  ;

param_list:
    IDENT COLON type_expr
      { $$ = {}; d.push($$, ast::Param{$1, $3, @$}); }
  | error
      { $$ = {}; d.push($$, ast::Param{d.missingIdent(@1), d.errorType(@1), @1}); }
  | param_list COMMA IDENT COLON type_expr
      { $$ = $1;
        d.push($$, ast::Param{$3, $5, SourceRange::join(@3, @5)}); }
  | param_list COMMA error
      { $$ = $1;
        d.push($$, ast::Param{d.missingIdent(@3), d.errorType(@3), @3}); }
  ;

capability_decl:
    KW_CAPABILITY IDENT lbrace cap_members RBRACE
      { $$ = d.decl<ast::CapabilityDecl>(@$, $2, d.list($4)); }
  ;

cap_members: %empty { $$ = {}; } | cap_members cap_member
      { $$ = $1; d.appendOp($$, $2); } ;

// A capability operation has no body. An operation that cannot be read is
// dropped: the error is reported and the capability keeps its other ops.
cap_member: fn_head | error { HERALD_RESYNC(); $$ = nullptr; } ;

fn_head:
    KW_FN fn_name params ret_opt
      { $$ = d.fnDecl(@$, d.take($2), $3, $4, nullptr); }
  ;

// A function or handler whose body cannot be read keeps its header, with a
// body that marks the error. A function takes a `given` list as a handler
// does; a capability operation (`fn_head` alone) does not.
fn_decl:
    fn_head given_opt block  { $$ = d.withBody($1, $2, $3, @$); }
  | fn_head given_opt error
      { HERALD_RESYNC();
        $$ = d.withBody($1, $2, d.errorBlock(@2, @3), @$); }
  | KW_FN error block
      { $$ = d.fnDecl(@$, FnName{ast::Ident{}, d.missingIdent(@2)}, {},
                      nullptr, $3); }
  ;

fn_name:
    IDENT            { $$ = d.hold(FnName{ast::Ident{}, $1}); }
  | IDENT DOT IDENT  { $$ = d.hold(FnName{$1, $3}); }
  ;

ret_opt: %empty { $$ = nullptr; } | ARROW type_expr { $$ = $2; } ;

agent_decl:
    KW_AGENT IDENT lbrace agent_members RBRACE
      { $$ = d.decl<ast::AgentDecl>(@$, $2, d.list($4)); }
  ;

agent_members:
    %empty { $$ = {}; }
  | agent_members agent_member  { $$ = $1; d.appendMember($$, $2); }
  ;

agent_member:
    KW_KEY IDENT COLON type_expr
      { $$ = d.decl<ast::KeyDecl>(@$, $2, $4); }
  | KW_STORE IDENT COLON type_expr
      { $$ = d.decl<ast::StoreDecl>(@$, $2, $4, nullptr); }
  | KW_STORE IDENT COLON type_expr EQ expr
      { $$ = d.decl<ast::StoreDecl>(@$, $2, $4, $6); }
  | KW_INVARIANT IDENT COLON expr
      { $$ = d.decl<ast::InvariantDecl>(@$, $2, $4); }
  | handler
  | fn_decl  { $$ = $1; }
  | error    { HERALD_RESYNC(); $$ = d.errorDecl(@$); }
  ;

handler:
    handler_head handler_name params ret_opt by_opt given_opt block
      { $$ = d.decl<ast::HandlerDecl>(@$, $1, $2, d.list($3), $4, $5,
                                       d.list($6), $7); }
  | handler_head handler_name params ret_opt by_opt given_opt error
      { HERALD_RESYNC();
        $$ = d.decl<ast::HandlerDecl>(@$, $1, $2, d.list($3), $4, $5,
                                       d.list($6), d.errorBlock(@6, @7)); }
  ;

// `on` and `on call` as one symbol, so that a handler whose name cannot be
// read recovers at the name (an empty `call` would hide it).
handler_head: KW_ON { $$ = false; } | KW_ON KW_CALL { $$ = true; } ;

handler_name:
    IDENT
  | KW_EVENT  { $$ = d.identAt(@1); }
  | error     { $$ = d.missingIdent(@1); }
  ;

by_opt:
    %empty  { $$ = nullptr; }
  | KW_BY qname
      { $$ = d.arena.make<ast::ByClause>(ast::Ident{}, $2, @$); }
  | KW_BY IDENT COLON qname
      { $$ = d.arena.make<ast::ByClause>($2, $4, @$); }
  ;

given_opt: %empty { $$ = {}; } | KW_GIVEN given_list  { $$ = $2; } ;

given_list:
    given_item                   { $$ = {}; d.push($$, d.take($1)); }
  | given_list COMMA given_item  { $$ = $1; d.push($$, d.take($3)); }
  ;

given_item:
    qname
      { $$ = d.hold(
            ast::GivenItem{ast::Ident{}, d.pathType($1, {}, @$), @$}); }
  | IDENT COLON type_expr
      { $$ = d.hold(ast::GivenItem{$1, $3, @$}); }
  ;

// Annotations stand before `service` only (`@cycle service Echo ...`).
service_decl:
    annots KW_SERVICE IDENT from_opt given_opt lbrace service_members RBRACE
      { $$ = d.decl<ast::ServiceDecl>(@$, d.list($1), $3, $4, d.list($5),
                                       d.list($7)); }
  ;

service_members:
    %empty { $$ = {}; }
  | service_members service_member  { $$ = $1; d.appendMember($$, $2); }
  ;

service_member:
    handler
  | fn_decl  { $$ = $1; }
  | error    { HERALD_RESYNC(); $$ = d.errorDecl(@$); }
  ;

from_opt:
    %empty  { $$ = nullptr; }
  | KW_FROM IDENT lparen type_expr sub_pattern_opt RPAREN via_opt
      { $$ = d.arena.make<ast::Subscription>($2, $4, $5, $7, @$); }
  ;

sub_pattern_opt: %empty { $$ = nullptr; } | record_pattern ;

via_opt:
    %empty  { $$ = nullptr; }
  | KW_VIA IDENT lparen version_spec RPAREN
      { $$ = d.viaClause(@$, $2, $4); }
  ;

version_spec:
    version
      { std::int64_t v = $1;
        $$ = VersionSpec{ast::VersionSpecKind::Exact, v, v, @1, {}}; }
  | version DOTDOT
      { $$ = VersionSpec{ast::VersionSpecKind::AtLeast, $1, 0, @1, {}}; }
  | DOTDOT version
      { $$ = VersionSpec{ast::VersionSpecKind::AtMost, 0, $2, {}, @2}; }
  | version DOTDOT version
      { $$ = VersionSpec{ast::VersionSpecKind::Between, $1, $3, @1, @3}; }
  | UNDERSCORE
      { $$ = VersionSpec{ast::VersionSpecKind::Any, 0, 0, {}, {}}; }
  ;

version:
    INT            { $$ = ParserDriver::toVersion($1, false); }
  | MINUS_PRE INT  { $$ = ParserDriver::toVersion($2, true); }
  ;

// ----------------------------------------------------------------------------
// Patterns
// ----------------------------------------------------------------------------

record_pattern:
    lbrace pat_body RBRACE  { $$ = d.recordPattern(@$, $2, false); }
  | LT pat_body GT          { $$ = d.recordPattern(@$, $2, true); }
  ;

pat_body:
    %empty { $$ = {}; }
  | DOTDOT                   { $$ = {}; $$.hasRest = true; $$.rest = @1; }
  | pat_fields               { $$ = {}; $$.fields = $1; }
  | pat_fields COMMA         { $$ = {}; $$.fields = $1; }
  | pat_fields COMMA DOTDOT  { $$ = {}; $$.fields = $1; $$.hasRest = true; $$.rest = @3; }
  ;

pat_fields:
    pat_field                   { $$ = {}; d.push($$, d.take($1)); }
  | pat_fields COMMA pat_field  { $$ = $1; d.push($$, d.take($3)); }
  ;

pat_field:
    IDENT COLON pattern  { $$ = d.hold(ast::PatternField{$1, $3, @$}); }
  | error
      { $$ = d.hold(ast::PatternField{
            d.missingIdent(@1), d.arena.node<ast::ErrorPattern>(@$), @$}); }
  ;

pattern:
    pat_atom
  | pattern PIPE pat_atom  { $$ = d.orPattern(@$, $1, $3); }
  ;

// A match arm cannot open with a record pattern: after the previous arm's
// body, `{` or `<` would continue that expression.
pattern_arm:
    pat_atom_common
  | pattern_arm PIPE pat_atom
      { $$ = d.orPattern(@$, $1, $3); }
  ;

pat_atom: pat_atom_common | record_pattern  { $$ = $1; } ;

pat_atom_common:
    UNDERSCORE
      { $$ = d.arena.node<ast::WildcardPattern>(@$); }
  | lit_pat
      { $$ = d.arena.node<ast::LiteralPattern>(@$, $1); }
  | int_pat
      { $$ = d.arena.node<ast::LiteralPattern>(@$, $1); }
  | int_pat DOTDOT
      { $$ = d.arena.node<ast::RangePattern>(@$, $1, nullptr); }
  | int_pat DOTDOT int_pat
      { $$ = d.arena.node<ast::RangePattern>(@$, $1, $3); }
  | DOTDOT int_pat
      { $$ = d.arena.node<ast::RangePattern>(@$, nullptr, $2); }
  | qname
      { $$ = d.arena.node<ast::NamePattern>(@$, $1); }
  | qname lparen payload RPAREN
      { $$ = d.constructorPattern(@$, $1, $3); }
  ;

int_pat:
    INT            { $$ = d.intLiteral(@$, $1); }
  | MINUS_PRE INT  { $$ = d.negate(@$, d.intLiteral(@2, $2)); }
  ;

lit_pat:
    FLOAT            { $$ = d.floatLiteral(@$, $1); }
  | MINUS_PRE FLOAT  { $$ = d.negate(@$, d.floatLiteral(@2, $2)); }
  | STRING           { $$ = d.plainString(@$, $1); }
  | KW_TRUE          { $$ = d.arena.node<ast::BoolLitExpr>(@$, true); }
  | KW_FALSE         { $$ = d.arena.node<ast::BoolLitExpr>(@$, false); }
  ;

payload:
    %empty { $$ = {}; }
  | DOTDOT                      { $$ = {}; $$.hasRest = true; $$.rest = @1; }
  | payload_items               { $$ = {}; $$.fields = $1; }
  | payload_items COMMA         { $$ = {}; $$.fields = $1; }
  | payload_items COMMA DOTDOT
      { $$ = {}; $$.fields = $1; $$.hasRest = true; $$.rest = @3; }
  ;

payload_items:
    payload_item                      { $$ = {}; d.push($$, d.take($1)); }
  | payload_items COMMA payload_item  { $$ = $1; d.push($$, d.take($3)); }
  ;

payload_item:
    IDENT COLON pattern  { $$ = d.hold(ast::PatternField{$1, $3, @$}); }
  | pattern
      { $$ = d.hold(ast::PatternField{ast::Ident{}, $1, @$}); }
  ;

// ----------------------------------------------------------------------------
// Types
// ----------------------------------------------------------------------------

// A one-word type is read without going through `qname` (it is the common
// case, and a reduction fewer).
type_expr:
    IDENT                             { $$ = d.pathType(d.qualified($1), {}, @$); }
  | qname DOT IDENT
      { $$ = d.pathType(d.qualified($1, $3), {}, @$); }
  | qname lbracket type_list RBRACKET { $$ = d.pathType($1, $3, @$); }
  | lparen RPAREN                     { $$ = d.unitType(@$); }
  ;

type_list:
    type_expr                  { $$ = {}; d.push($$, $1); }
  | type_list COMMA type_expr  { $$ = $1; d.push($$, $3); }
  ;

// ----------------------------------------------------------------------------
// Statements
// ----------------------------------------------------------------------------

block: lbrace stmts RBRACE  { $$ = d.arena.node<ast::BlockExpr>(@$, d.list($2)); } ;
block_open: LBRACE_OPEN stmts RBRACE
      { $$ = d.arena.node<ast::BlockExpr>(@$, d.list($2)); } ;

// Statements are built in the list rule itself: one reduction fewer each.
stmts:
    %empty { $$ = {}; }
  | stmts KW_LET IDENT EQ expr
      { $$ = $1;
        d.appendStmt($$, d.stmt(ast::StmtKind::Let, SourceRange::join(@2, @5),
                                $3, nullptr, $5)); }
  | stmts KW_LET IDENT COLON type_expr EQ expr
      { $$ = $1;
        d.appendStmt($$, d.stmt(ast::StmtKind::Let, SourceRange::join(@2, @7),
                                $3, $5, $7)); }
  | stmts IDENT COLONEQ expr
      { $$ = $1;
        d.appendStmt($$, d.stmt(ast::StmtKind::Assign,
                                SourceRange::join(@2, @4), $2, nullptr, $4)); }
  | stmts expr
      { $$ = $1;
        d.appendStmt($$, d.stmt(ast::StmtKind::Expr, @2, ast::Ident{},
                                nullptr, $2)); }
  | stmts error
      { $$ = $1;
        d.appendStmt($$, d.stmt(ast::StmtKind::Error, @2, ast::Ident{},
                                nullptr, nullptr)); }
  ;

// ----------------------------------------------------------------------------
// Expressions: one nonterminal, with the precedence declared above, so that a
// leaf is one reduction away from `expr` (the parser's speed depends on it).
// Comparisons are declared left-associative so that `a < b < c` parses and
// the driver reports it. `expr_nr` is the same without record literals, for
// `if` conditions and `match` scrutinees; it takes LBRACE_RECORD only to
// report the mistake.
// ----------------------------------------------------------------------------

expr:
    IDENT        { $$ = d.arena.node<ast::NameExpr>(@$, $1); }
  | INT          { $$ = d.intLiteral(@$, $1); }
  | FLOAT        { $$ = d.floatLiteral(@$, $1); }
  | DURATION     { $$ = d.duration(@$, $1); }
  | KW_TRUE      { $$ = d.arena.node<ast::BoolLitExpr>(@$, true); }
  | KW_FALSE     { $$ = d.arena.node<ast::BoolLitExpr>(@$, false); }
  | STRING       { $$ = d.plainString(@$, $1); }
  | interp STR_TAIL  { $$ = d.interpolated(@$, $1, $2, @2); }
  | LPAREN_OPEN RPAREN       { $$ = d.arena.node<ast::UnitLitExpr>(@$); }
  | LPAREN_OPEN expr RPAREN  { $$ = d.arena.node<ast::ParenExpr>(@$, $2); }
  | LBRACKET_OPEN exprs_opt RBRACKET
      { $$ = d.arena.node<ast::ListLitExpr>(@$, d.list($2)); }
  | LBRACKET_OPEN COLON RBRACKET
      { $$ = d.arena.node<ast::MapLitExpr>(@$, llvm::ArrayRef<ast::MapEntry>{}); }
  | LBRACKET_OPEN map_entries RBRACKET
      { $$ = d.arena.node<ast::MapLitExpr>(@$, d.list($2)); }
  | LBRACKET_OPEN map_entries COMMA RBRACKET
      { $$ = d.arena.node<ast::MapLitExpr>(@$, d.list($2)); }
  | block_open   { $$ = $1; }
  | if_expr
  | match_expr
  | KW_FAIL lparen expr RPAREN  { $$ = d.arena.node<ast::FailExpr>(@$, $3); }
  | expr OROR expr           { $$ = d.binary(@$, Op::Or, $1, $3); }
  | expr ANDAND expr         { $$ = d.binary(@$, Op::And, $1, $3); }
  | expr EQEQ expr           { $$ = d.comparison(@$, Op::Eq, $1, $3); }
  | expr NOTEQ expr          { $$ = d.comparison(@$, Op::Ne, $1, $3); }
  | expr LT expr             { $$ = d.comparison(@$, Op::Lt, $1, $3); }
  | expr LTEQ expr           { $$ = d.comparison(@$, Op::Le, $1, $3); }
  | expr GT expr             { $$ = d.comparison(@$, Op::Gt, $1, $3); }
  | expr GTEQ expr           { $$ = d.comparison(@$, Op::Ge, $1, $3); }
  | expr PLUS expr           { $$ = d.binary(@$, Op::Add, $1, $3); }
  | expr MINUS_BIN expr      { $$ = d.binary(@$, Op::Sub, $1, $3); }
  | expr STAR expr           { $$ = d.binary(@$, Op::Mul, $1, $3); }
  | expr SLASH expr          { $$ = d.binary(@$, Op::Div, $1, $3); }
  | expr PERCENT expr        { $$ = d.binary(@$, Op::Rem, $1, $3); }
  | BANG expr       { $$ = d.logicalNot(@$, $2); }
  | MINUS_PRE expr  { $$ = d.negate(@$, $2); }
  | PREFIX_RUN expr { $$ = d.prefixRun($1, $2); }
  | expr DOT IDENT
      { $$ = d.arena.node<ast::FieldExpr>(@$, $1, $3); }
  | expr LPAREN_CALL args_opt RPAREN
      { $$ = d.arena.node<ast::CallExpr>(@$, $1, d.list($3)); }
  | expr LBRACKET_POST type_list RBRACKET
      { $$ = d.arena.node<ast::TypeApplyExpr>(@$, $1, d.list($3)); }
  | expr LBRACE_POST field_inits_opt RBRACE
      { $$ = d.recordLiteral(@$, $1, $3, false); }
  | expr LBRACE_RECORD field_inits_opt RBRACE
      { $$ = d.recordLiteral(@$, $1, $3, false); }
  ;

expr_nr:
    IDENT        { $$ = d.arena.node<ast::NameExpr>(@$, $1); }
  | INT          { $$ = d.intLiteral(@$, $1); }
  | FLOAT        { $$ = d.floatLiteral(@$, $1); }
  | DURATION     { $$ = d.duration(@$, $1); }
  | KW_TRUE      { $$ = d.arena.node<ast::BoolLitExpr>(@$, true); }
  | KW_FALSE     { $$ = d.arena.node<ast::BoolLitExpr>(@$, false); }
  | STRING       { $$ = d.plainString(@$, $1); }
  | interp STR_TAIL  { $$ = d.interpolated(@$, $1, $2, @2); }
  | LPAREN_OPEN RPAREN       { $$ = d.arena.node<ast::UnitLitExpr>(@$); }
  | LPAREN_OPEN expr RPAREN  { $$ = d.arena.node<ast::ParenExpr>(@$, $2); }
  | LBRACKET_OPEN exprs_opt RBRACKET
      { $$ = d.arena.node<ast::ListLitExpr>(@$, d.list($2)); }
  | LBRACKET_OPEN COLON RBRACKET
      { $$ = d.arena.node<ast::MapLitExpr>(@$, llvm::ArrayRef<ast::MapEntry>{}); }
  | LBRACKET_OPEN map_entries RBRACKET
      { $$ = d.arena.node<ast::MapLitExpr>(@$, d.list($2)); }
  | LBRACKET_OPEN map_entries COMMA RBRACKET
      { $$ = d.arena.node<ast::MapLitExpr>(@$, d.list($2)); }
  | block_open   { $$ = $1; }
  | if_expr
  | match_expr
  | KW_FAIL lparen expr RPAREN  { $$ = d.arena.node<ast::FailExpr>(@$, $3); }
  | expr_nr OROR expr_nr     { $$ = d.binary(@$, Op::Or, $1, $3); }
  | expr_nr ANDAND expr_nr   { $$ = d.binary(@$, Op::And, $1, $3); }
  | expr_nr EQEQ expr_nr     { $$ = d.comparison(@$, Op::Eq, $1, $3); }
  | expr_nr NOTEQ expr_nr    { $$ = d.comparison(@$, Op::Ne, $1, $3); }
  | expr_nr LT expr_nr       { $$ = d.comparison(@$, Op::Lt, $1, $3); }
  | expr_nr LTEQ expr_nr     { $$ = d.comparison(@$, Op::Le, $1, $3); }
  | expr_nr GT expr_nr       { $$ = d.comparison(@$, Op::Gt, $1, $3); }
  | expr_nr GTEQ expr_nr     { $$ = d.comparison(@$, Op::Ge, $1, $3); }
  | expr_nr PLUS expr_nr     { $$ = d.binary(@$, Op::Add, $1, $3); }
  | expr_nr MINUS_BIN expr_nr{ $$ = d.binary(@$, Op::Sub, $1, $3); }
  | expr_nr STAR expr_nr     { $$ = d.binary(@$, Op::Mul, $1, $3); }
  | expr_nr SLASH expr_nr    { $$ = d.binary(@$, Op::Div, $1, $3); }
  | expr_nr PERCENT expr_nr  { $$ = d.binary(@$, Op::Rem, $1, $3); }
  | BANG expr_nr       { $$ = d.logicalNot(@$, $2); }
  | MINUS_PRE expr_nr  { $$ = d.negate(@$, $2); }
  | PREFIX_RUN expr_nr { $$ = d.prefixRun($1, $2); }
  | expr_nr DOT IDENT
      { $$ = d.arena.node<ast::FieldExpr>(@$, $1, $3); }
  | expr_nr LPAREN_CALL args_opt RPAREN
      { $$ = d.arena.node<ast::CallExpr>(@$, $1, d.list($3)); }
  | expr_nr LBRACKET_POST type_list RBRACKET
      { $$ = d.arena.node<ast::TypeApplyExpr>(@$, $1, d.list($3)); }
  | expr_nr LBRACE_RECORD field_inits_opt RBRACE
      { $$ = d.recordLiteral(@$, $1, $3, true); }
  ;

interp:
    STR_HEAD expr          { $$ = {}; d.stringPart($$, $1, @1, $2); }
  | interp STR_MID expr    { $$ = $1; d.stringPart($$, $2, @2, $3); }
  ;

if_expr:
    KW_IF expr_nr block else_opt
      { $$ = d.arena.node<ast::IfExpr>(@$, $2, $3, $4); }
  ;

else_opt:
    %empty          { $$ = nullptr; }
  | KW_ELSE block   { $$ = $2; }
  | KW_ELSE if_expr { $$ = $2; }
  ;

match_expr:
    KW_MATCH expr_nr lbrace arms_opt RBRACE
      { $$ = d.arena.node<ast::MatchExpr>(@$, $2, d.list($4)); }
  ;

arms_opt: %empty { $$ = {}; } | arms | arms COMMA { $$ = $1; } ;

arms:
    arm             { $$ = {}; d.push($$, $1); }
  | arms arm        { $$ = $1; d.appendArm($$, $2); }
  | arms COMMA arm  { $$ = $1; d.appendArm($$, $3); }
  ;

arm:
    pattern_arm FATARROW expr  { $$ = ast::MatchArm{$1, $3, @$}; }
  | error
      { $$ = ast::MatchArm{d.arena.node<ast::ErrorPattern>(@$),
                           d.arena.node<ast::ErrorExpr>(@$), @$}; }
  ;

args_opt: %empty { $$ = {}; } | args | args COMMA { $$ = $1; } ;

// List items are built in the list rules themselves: one reduction fewer per
// item than a separate item rule.
args:
    expr
      { $$ = {}; d.push($$, ast::Arg{ast::Ident{}, $1, @1}); }
  | IDENT COLON expr
      { $$ = {}; d.push($$, ast::Arg{$1, $3, @$}); }
  | error
      { $$ = {}; d.push($$, ast::Arg{ast::Ident{}, d.arena.node<ast::ErrorExpr>(@1),
                            @1}); }
  | args COMMA expr
      { $$ = $1; d.push($$, ast::Arg{ast::Ident{}, $3, @3}); }
  | args COMMA IDENT COLON expr
      { $$ = $1;
        d.push($$, ast::Arg{$3, $5, SourceRange::join(@3, @5)}); }
  | args COMMA error
      { $$ = $1;
        d.push($$, ast::Arg{ast::Ident{}, d.arena.node<ast::ErrorExpr>(@3),
                            @3}); }
  ;

field_inits_opt: %empty { $$ = {}; } | field_inits | field_inits COMMA { $$ = $1; } ;

field_inits:
    IDENT COLON expr
      { $$ = {}; d.push($$, ast::FieldInit{$1, $3, @$}); }
  | error
      { $$ = {}; d.push($$, ast::FieldInit{d.missingIdent(@1),
                                  d.arena.node<ast::ErrorExpr>(@1), @1}); }
  | field_inits COMMA IDENT COLON expr
      { $$ = $1;
        d.push($$, ast::FieldInit{$3, $5, SourceRange::join(@3, @5)}); }
  | field_inits COMMA error
      { $$ = $1;
        d.push($$, ast::FieldInit{d.missingIdent(@3),
                                  d.arena.node<ast::ErrorExpr>(@3), @3}); }
  ;

exprs_opt: %empty { $$ = {}; } | exprs | exprs COMMA { $$ = $1; } ;

exprs:
    expr              { $$ = {}; d.push($$, $1); }
  | exprs COMMA expr  { $$ = $1; d.push($$, $3); }
  ;

// A map literal's entries; `[:]` is the empty map.
map_entries:
    expr COLON expr
      { $$ = {}; d.push($$, ast::MapEntry{$1, $3, @$}); }
  | map_entries COMMA expr COLON expr
      { $$ = $1;
        d.push($$, ast::MapEntry{$3, $5, SourceRange::join(@3, @5)}); }
  ;

%%
