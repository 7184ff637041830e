// The AST dump is built in two steps: every AST node becomes a `Node` (a
// head line and children), then the tree is laid out. Layout depends only on
// the tree's shape, never on line width, so a change in one node moves few
// lines in a golden diff:
//   - a node whose children are all leaves prints on one line:
//       (dot raw@5:20 @5:17-5:23 (name id @5:17-5:19))
//   - any other node, and the file, a context, an agent, a service or a
//     capability, prints its head, then each child indented by two.
//
// Past 64 levels of depth, lines are indented no further.
//
// Locations (`@line:col-line:col`, end exclusive) follow each node's head.
// An identifier or qualified name shows its own location only when it does
// not start where its node starts: `@line:col` when it spans exactly its
// spelling, a full range otherwise. So every range in the AST can be read
// back from the dump, without repeating the obvious ones.
#include "frontend/ast_dump.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <llvm/Support/Casting.h>

namespace herald {
namespace {

using namespace ast;

struct Node {
  std::string label;  // `cond:`, `default:`, ... or empty
  std::string head;
  std::vector<Node> kids;
  // Containers of declarations list their children one per line even when
  // each is a leaf.
  bool container = false;
};

// Escapes like Herald source so a dump line never spans lines.
std::string quote(llvm::StringRef text) {
  return "\"" + escapeStringText(text) + "\"";
}

std::string formatDouble(double value) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  if (ec != std::errc()) return "?";
  std::string text(buf, end);
  // Keep floats recognisable next to ints: `0.0`, not `0`.
  if (text.find_first_of(".e") == std::string::npos &&
      text.find_first_of("0123456789") != std::string::npos)
    text += ".0";
  return text;
}

const char* typeDefWord(TypeDefKind kind) {
  switch (kind) {
    case TypeDefKind::Record:
      return "record";
    case TypeDefKind::Sum:
      return "sum";
    case TypeDefKind::Opaque:
      return "opaque";
    case TypeDefKind::Alias:
      return "alias";
  }
  return "?";
}

const char* versionSpecWord(VersionSpecKind kind) {
  switch (kind) {
    case VersionSpecKind::Exact:
      return "exact";
    case VersionSpecKind::AtLeast:
      return "at-least";
    case VersionSpecKind::AtMost:
      return "at-most";
    case VersionSpecKind::Between:
      return "between";
    case VersionSpecKind::Any:
      return "any";
  }
  return "?";
}

class Dumper {
 public:
  Dumper(const SourceFile& source, AstDumpOptions options)
      : source_(source), options_(options) {}

  Node file(const File& f) {
    Node n{"", "file" + loc(f.range), {}, true};
    for (const ContextDecl* c : f.contexts) n.kids.push_back(context(*c));
    return n;
  }

 private:
  // --- locations ----------------------------------------------------------

  std::string pos(std::uint32_t offset) const {
    LineColumn lc = source_.lineColumn(offset);
    return std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }

  std::string range(SourceRange r) const {
    std::string text = "@";
    if (r.file != source_.id()) text += "file" + std::to_string(r.file) + ":";
    return text + pos(r.begin) + "-" + pos(r.end);
  }

  // ` @l:c-l:c` after a node's head, or nothing.
  std::string loc(SourceRange r) const {
    return options_.locations ? " " + range(r) : "";
  }

  // The location suffix of a name spelled `spelling` inside a node starting
  // at `owner` (see the file comment).
  std::string nameLoc(SourceRange r, std::size_t spelling,
                      SourceRange owner) const {
    if (!options_.locations) return "";
    bool exact = r.end - r.begin == spelling && r.file == owner.file;
    if (exact && r.begin == owner.begin) return "";
    if (exact) return "@" + pos(r.begin);
    return range(r);
  }

  static std::string identText(const Ident& id) {
    return id.empty() ? "<empty>" : id.name.str();
  }

  std::string ident(const Ident& id, SourceRange owner) const {
    return identText(id) + nameLoc(id.range, id.name.size(), owner);
  }

  static std::string dotted(const QualifiedName& q) {
    if (q.parts.empty()) return "<empty>";
    std::string text;
    for (const Ident& part : q.parts) {
      if (!text.empty()) text += '.';
      text += identText(part);
    }
    return text;
  }

  std::string qname(const QualifiedName& q, SourceRange owner) const {
    std::string text = dotted(q);
    if (!options_.locations) return text;
    // Compact when each part sits exactly where the dotted spelling puts it.
    bool compact = q.range.end - q.range.begin == text.size();
    std::uint32_t offset = q.range.begin;
    for (const Ident& part : q.parts) {
      compact = compact && part.range.begin == offset &&
                part.range.end - part.range.begin == part.name.size() &&
                part.range.file == q.range.file;
      offset += static_cast<std::uint32_t>(part.name.size()) + 1;
    }
    if (compact) return text + nameLoc(q.range, text.size(), owner);
    text += range(q.range) + "{";
    for (std::size_t i = 0; i < q.parts.size(); ++i) {
      if (i != 0) text += ' ';
      text += identText(q.parts[i]) + range(q.parts[i].range);
    }
    return text + "}";
  }

  std::string restLoc(SourceRange r) const {
    return options_.locations ? range(r) : "";
  }

  static Node labelled(std::string label, Node n) {
    n.label = std::move(label);
    return n;
  }

  static void addDoc(Node& n, llvm::StringRef doc) {
    if (!doc.empty()) n.kids.push_back(Node{"", "doc " + quote(doc), {}});
  }

  // --- types --------------------------------------------------------------

  Node type(const TypeExpr* t) {
    if (t == nullptr) return Node{"", "ty-null", {}};
    Node n;
    switch (t->kind) {
      case TypeExprKind::Path:
        n.head = "ty";
        break;
      case TypeExprKind::Unit:
        n.head = "ty-unit";
        break;
      case TypeExprKind::Error:
        n.head = "ty-error";
        break;
    }
    if (!t->path.parts.empty() || t->kind == TypeExprKind::Path)
      n.head += " " + qname(t->path, t->range);
    n.head += loc(t->range);
    for (const TypeExpr* arg : t->args) n.kids.push_back(type(arg));
    return n;
  }

  // --- patterns -----------------------------------------------------------

  Node patternField(const PatternField& f) {
    Node n{"", "pat-field", {}};
    if (!f.label.empty()) n.head += " " + ident(f.label, f.range);
    n.head += loc(f.range);
    n.kids.push_back(pattern(f.value));
    return n;
  }

  Node pattern(const Pattern* p) {
    if (p == nullptr) return Node{"", "pat-null", {}};
    Node n;
    switch (p->kind) {
      case PatternKind::Wildcard:
        n.head = "wildcard" + loc(p->range);
        break;
      case PatternKind::Literal:
        n.head = "pat-literal" + loc(p->range);
        n.kids.push_back(expr(llvm::cast<LiteralPattern>(p)->literal));
        break;
      case PatternKind::Name:
        n.head = "pat-name " +
                 qname(llvm::cast<NamePattern>(p)->name, p->range) +
                 loc(p->range);
        break;
      case PatternKind::Constructor: {
        const auto* c = llvm::cast<ConstructorPattern>(p);
        n.head = "pat-ctor " + qname(c->name, p->range);
        if (c->hasRest) n.head += " rest" + restLoc(c->restRange);
        n.head += loc(p->range);
        for (const PatternField& f : c->fields)
          n.kids.push_back(patternField(f));
        break;
      }
      case PatternKind::Range: {
        const auto* r = llvm::cast<RangePattern>(p);
        n.head = "pat-range" + loc(p->range);
        if (r->low != nullptr) n.kids.push_back(labelled("low:", expr(r->low)));
        if (r->high != nullptr)
          n.kids.push_back(labelled("high:", expr(r->high)));
        break;
      }
      case PatternKind::Or: {
        // A left-deep chain (`a | b | c ...`), built bottom-up in a loop
        // as expression chains are.
        std::vector<const OrPattern*> spine;
        const Pattern* q = p;
        for (const auto* o = llvm::dyn_cast<OrPattern>(q); o != nullptr;
             o = llvm::dyn_cast_or_null<OrPattern>(q)) {
          spine.push_back(o);
          q = o->lhs;
        }
        Node below = pattern(q);
        for (std::size_t i = spine.size(); i-- > 0;) {
          Node link;
          link.head = "pat-or" + loc(spine[i]->range);
          link.kids.push_back(std::move(below));
          link.kids.push_back(pattern(spine[i]->rhs));
          below = std::move(link);
        }
        return below;
      }
      case PatternKind::Record: {
        const auto* r = llvm::cast<RecordPattern>(p);
        n.head = "pat-record";
        if (r->angle && options_.spelling) n.head += " angle";
        if (r->hasRest) n.head += " rest" + restLoc(r->restRange);
        n.head += loc(p->range);
        for (const PatternField& f : r->fields)
          n.kids.push_back(patternField(f));
        break;
      }
      case PatternKind::Error:
        n.head = "pat-error" + loc(p->range);
        break;
    }
    return n;
  }

  // --- expressions and statements -----------------------------------------

  Node stringLit(const StringLitExpr& s) {
    if (s.parts.size() == 1 && s.parts[0].expr == nullptr &&
        s.parts[0].range == s.range) {
      return Node{"", "string " + quote(s.parts[0].text) + loc(s.range), {}};
    }
    Node n{"", "string" + loc(s.range), {}};
    for (const StringPart& part : s.parts) {
      if (part.expr == nullptr) {
        n.kids.push_back(
            Node{"", "text " + quote(part.text) + loc(part.range), {}});
      } else {
        Node interp{"", "interp" + loc(part.range), {}};
        if (!part.text.empty()) interp.head += " text=" + quote(part.text);
        interp.kids.push_back(expr(part.expr));
        n.kids.push_back(std::move(interp));
      }
    }
    return n;
  }

  // A chain (`1 + 1 + ...`, `a.b.c...`, `else if ...`) is built bottom-up
  // in a loop, each link taking the node below it, so that only true
  // nesting recurses.
  Node expr(const Expr* e) {
    if (e == nullptr) return Node{"", "expr-null", {}};
    std::vector<const Expr*> spine;
    for (const Expr* x = e; x != nullptr; x = chainChild(x)) spine.push_back(x);
    Node below = exprNode(spine.back(), nullptr);
    for (std::size_t i = spine.size() - 1; i-- > 0;)
      below = exprNode(spine[i], &below);
    return below;
  }

  // `chained`: the node already built for chainChild(e), if any.
  Node exprNode(const Expr* e, Node* chained) {
    auto kid = [&](const Expr* child) {
      if (chained != nullptr && child == chainChild(e))
        return std::move(*chained);
      return expr(child);
    };
    Node n;
    std::string at = loc(e->range);
    switch (e->kind) {
      case ExprKind::IntLit:
        n.head = "int " + std::to_string(llvm::cast<IntLitExpr>(e)->value) + at;
        break;
      case ExprKind::FloatLit:
        n.head =
            "float " + formatDouble(llvm::cast<FloatLitExpr>(e)->value) + at;
        break;
      case ExprKind::BoolLit:
        n.head = std::string("bool ") +
                 (llvm::cast<BoolLitExpr>(e)->value ? "true" : "false") + at;
        break;
      case ExprKind::StringLit:
        return stringLit(*llvm::cast<StringLitExpr>(e));
      case ExprKind::UnitLit:
        n.head = "unit" + at;
        break;
      case ExprKind::DurationLit: {
        const auto* d = llvm::cast<DurationLitExpr>(e);
        n.head = "duration " + std::to_string(d->value) + " " +
                 std::string(durationUnitName(d->unit)) + at;
        break;
      }
      case ExprKind::Name:
        n.head = "name " + ident(llvm::cast<NameExpr>(e)->name, e->range) + at;
        break;
      case ExprKind::Field: {
        const auto* f = llvm::cast<FieldExpr>(e);
        n.head = "dot " + ident(f->name, e->range) + at;
        n.kids.push_back(kid(f->base));
        break;
      }
      case ExprKind::Call: {
        const auto* c = llvm::cast<CallExpr>(e);
        n.head = "call" + at;
        n.kids.push_back(kid(c->callee));
        for (const Arg& a : c->args) {
          Node arg{"", "arg", {}};
          if (!a.label.empty()) arg.head += " " + ident(a.label, a.range);
          arg.head += loc(a.range);
          arg.kids.push_back(expr(a.value));
          n.kids.push_back(std::move(arg));
        }
        break;
      }
      case ExprKind::TypeApply: {
        const auto* t = llvm::cast<TypeApplyExpr>(e);
        n.head = "type-apply" + at;
        n.kids.push_back(kid(t->base));
        for (const TypeExpr* arg : t->typeArgs) n.kids.push_back(type(arg));
        break;
      }
      case ExprKind::RecordLit: {
        const auto* r = llvm::cast<RecordLitExpr>(e);
        n.head = "record" + at;
        n.kids.push_back(labelled("type:", kid(r->type)));
        for (const FieldInit& f : r->fields) {
          Node init{"", "init " + ident(f.name, f.range) + loc(f.range), {}};
          init.kids.push_back(expr(f.value));
          n.kids.push_back(std::move(init));
        }
        break;
      }
      case ExprKind::ListLit:
        n.head = "list" + at;
        for (const Expr* el : llvm::cast<ListLitExpr>(e)->elements)
          n.kids.push_back(expr(el));
        break;
      case ExprKind::MapLit:
        n.head = "map" + at;
        for (const MapEntry& entry : llvm::cast<MapLitExpr>(e)->entries) {
          Node kid{"", "entry" + loc(entry.range), {}};
          kid.kids.push_back(labelled("key:", expr(entry.key)));
          kid.kids.push_back(labelled("value:", expr(entry.value)));
          n.kids.push_back(std::move(kid));
        }
        break;
      case ExprKind::If: {
        const auto* i = llvm::cast<IfExpr>(e);
        n.head = "if" + at;
        n.kids.push_back(labelled("cond:", expr(i->cond)));
        n.kids.push_back(labelled("then:", expr(i->thenBlock)));
        if (i->elseExpr != nullptr)
          n.kids.push_back(labelled("else:", kid(i->elseExpr)));
        break;
      }
      case ExprKind::Match: {
        const auto* m = llvm::cast<MatchExpr>(e);
        n.head = "match" + at;
        n.kids.push_back(labelled("scrutinee:", expr(m->scrutinee)));
        for (const MatchArm& arm : m->arms) {
          Node a{"", "arm" + loc(arm.range), {}};
          a.kids.push_back(pattern(arm.pattern));
          a.kids.push_back(expr(arm.body));
          n.kids.push_back(std::move(a));
        }
        break;
      }
      case ExprKind::Block:
        n.head = "block" + at;
        for (const Stmt* s : llvm::cast<BlockExpr>(e)->stmts)
          n.kids.push_back(stmt(s));
        break;
      case ExprKind::Unary: {
        const auto* u = llvm::cast<UnaryExpr>(e);
        n.head = "unary " + std::string(spelling(u->op)) + at;
        n.kids.push_back(kid(u->operand));
        break;
      }
      case ExprKind::Binary: {
        const auto* b = llvm::cast<BinaryExpr>(e);
        n.head = "binary " + std::string(spelling(b->op)) + at;
        n.kids.push_back(kid(b->lhs));
        n.kids.push_back(expr(b->rhs));
        break;
      }
      case ExprKind::Paren:
        n.head = "paren" + at;
        n.kids.push_back(expr(llvm::cast<ParenExpr>(e)->inner));
        break;
      case ExprKind::Fail:
        n.head = "fail" + at;
        n.kids.push_back(expr(llvm::cast<FailExpr>(e)->message));
        break;
      case ExprKind::Error:
        n.head = "error" + at;
        break;
    }
    return n;
  }

  Node stmt(const Stmt* s) {
    if (s == nullptr) return Node{"", "stmt-null", {}};
    Node n;
    switch (s->kind) {
      case StmtKind::Let:
        n.head = "let";
        break;
      case StmtKind::Assign:
        n.head = "assign";
        break;
      case StmtKind::Expr:
        n.head = "expr-stmt";
        break;
      case StmtKind::Error:
        n.head = "stmt-error";
        break;
    }
    // Every field is shown whatever the kind, so a parser that fills the
    // wrong one is visible.
    if (!s->name.empty()) n.head += " " + ident(s->name, s->range);
    n.head += loc(s->range);
    if (s->type != nullptr) n.kids.push_back(type(s->type));
    if (s->value != nullptr) n.kids.push_back(expr(s->value));
    return n;
  }

  // --- declarations -------------------------------------------------------

  Node param(const Param& p) {
    Node n{"", "param " + ident(p.name, p.range) + loc(p.range), {}};
    n.kids.push_back(type(p.type));
    return n;
  }

  Node field(const FieldDecl& f) {
    Node n{"", "field " + ident(f.name, f.range) + loc(f.range), {}};
    n.kids.push_back(type(f.type));
    if (f.defaultValue != nullptr)
      n.kids.push_back(labelled("default:", expr(f.defaultValue)));
    return n;
  }

  Node annotation(const Annotation& a) {
    Node n{"", "annotation " + ident(a.name, a.range), {}};
    if (a.hasParens) n.head += " parens";
    n.head += loc(a.range);
    for (const Expr* arg : a.args) n.kids.push_back(expr(arg));
    return n;
  }

  Node given(const GivenItem& g) {
    Node n{"", "given", {}};
    if (!g.name.empty()) n.head += " " + ident(g.name, g.range);
    n.head += loc(g.range);
    n.kids.push_back(type(g.type));
    return n;
  }

  Node via(const ViaClause& v) {
    return Node{"",
                "via " + ident(v.name, v.range) + " " +
                    versionSpecWord(v.spec) + " low=" + std::to_string(v.low) +
                    " high=" + std::to_string(v.high) + loc(v.range),
                {}};
  }

  Node subscription(const Subscription& s) {
    Node n{"", "from " + ident(s.source, s.range) + loc(s.range), {}};
    n.kids.push_back(type(s.eventType));
    if (s.pattern != nullptr) n.kids.push_back(pattern(s.pattern));
    if (s.via != nullptr) n.kids.push_back(via(*s.via));
    return n;
  }

  Node decl(const Decl* d) {
    if (d == nullptr) return Node{"", "decl-null", {}};
    Node n;
    std::string at = loc(d->range);
    addDoc(n, d->doc);
    switch (d->kind) {
      case DeclKind::Consumes: {
        const auto* c = llvm::cast<ConsumesDecl>(d);
        n.head = "consumes " + qname(c->context, d->range);
        if (!c->alias.empty()) n.head += " as=" + ident(c->alias, d->range);
        if (c->hasOnly) n.head += " only";
        n.head += at;
        for (const Ident& name : c->only)
          n.kids.push_back(
              Node{"", "name " + name.name.str() + loc(name.range), {}});
        break;
      }
      case DeclKind::Type: {
        const auto* t = llvm::cast<TypeDecl>(d);
        n.head =
            "type " + ident(t->name, d->range) + " " + typeDefWord(t->def) + at;
        for (const FieldDecl& f : t->fields) n.kids.push_back(field(f));
        for (const VariantDecl& v : t->variants) {
          Node variant{"", "variant " + ident(v.name, v.range), {}};
          if (v.hasParens) variant.head += " parens";
          variant.head += loc(v.range);
          for (const FieldDecl& f : v.fields) variant.kids.push_back(field(f));
          n.kids.push_back(std::move(variant));
        }
        if (t->base != nullptr)
          n.kids.push_back(labelled("base:", type(t->base)));
        if (t->refinement != nullptr)
          n.kids.push_back(labelled("where:", expr(t->refinement)));
        break;
      }
      case DeclKind::Event: {
        const auto* e = llvm::cast<EventDecl>(d);
        n.head = "event " + ident(e->name, d->range);
        if (e->hasEquals && options_.spelling) n.head += " equals";
        n.head += at;
        for (const Annotation& a : e->annotations)
          n.kids.push_back(annotation(a));
        for (const FieldDecl& f : e->fields) n.kids.push_back(field(f));
        break;
      }
      case DeclKind::Actor: {
        const auto* a = llvm::cast<ActorDecl>(d);
        n.head = "actor " + ident(a->name, d->range);
        if (a->hasParens) n.head += " parens";
        n.head += at;
        for (const Param& p : a->params) n.kids.push_back(param(p));
        break;
      }
      case DeclKind::Capability: {
        const auto* c = llvm::cast<CapabilityDecl>(d);
        n.head = "capability " + ident(c->name, d->range) + at;
        n.container = true;
        for (const FnDecl* op : c->ops) n.kids.push_back(decl(op));
        break;
      }
      case DeclKind::Fn: {
        const auto* f = llvm::cast<FnDecl>(d);
        n.head = "fn " + ident(f->name, d->range);
        if (!f->ownerType.empty())
          n.head += " owner=" + ident(f->ownerType, d->range);
        n.head += at;
        for (const Param& p : f->params) n.kids.push_back(param(p));
        if (f->returnType != nullptr)
          n.kids.push_back(labelled("returns:", type(f->returnType)));
        for (const GivenItem& g : f->given) n.kids.push_back(given(g));
        if (f->body != nullptr) n.kids.push_back(expr(f->body));
        break;
      }
      case DeclKind::Agent: {
        const auto* a = llvm::cast<AgentDecl>(d);
        n.head = "agent " + ident(a->name, d->range) + at;
        n.container = true;
        for (const Decl* m : a->members) n.kids.push_back(decl(m));
        break;
      }
      case DeclKind::Key: {
        const auto* k = llvm::cast<KeyDecl>(d);
        n.head = "key " + ident(k->name, d->range) + at;
        n.kids.push_back(type(k->type));
        break;
      }
      case DeclKind::Store: {
        const auto* s = llvm::cast<StoreDecl>(d);
        n.head = "store " + ident(s->name, d->range) + at;
        n.kids.push_back(type(s->type));
        if (s->init != nullptr)
          n.kids.push_back(labelled("init:", expr(s->init)));
        break;
      }
      case DeclKind::Invariant: {
        const auto* i = llvm::cast<InvariantDecl>(d);
        n.head = "invariant " + ident(i->name, d->range) + at;
        n.kids.push_back(expr(i->condition));
        break;
      }
      case DeclKind::Handler: {
        const auto* h = llvm::cast<HandlerDecl>(d);
        n.head = std::string(h->isCall ? "on call " : "on ") +
                 ident(h->name, d->range) + at;
        for (const Param& p : h->params) n.kids.push_back(param(p));
        if (h->returnType != nullptr)
          n.kids.push_back(labelled("returns:", type(h->returnType)));
        if (h->by != nullptr) {
          std::string head = "by " + qname(h->by->actor, h->by->range);
          if (!h->by->binder.empty())
            head += " binder=" + ident(h->by->binder, h->by->range);
          n.kids.push_back(Node{"", head + loc(h->by->range), {}});
        }
        for (const GivenItem& g : h->given) n.kids.push_back(given(g));
        n.kids.push_back(expr(h->body));
        break;
      }
      case DeclKind::Service: {
        const auto* s = llvm::cast<ServiceDecl>(d);
        n.head = "service " + ident(s->name, d->range) + at;
        n.container = true;
        for (const Annotation& a : s->annotations)
          n.kids.push_back(annotation(a));
        if (s->from != nullptr) n.kids.push_back(subscription(*s->from));
        for (const GivenItem& g : s->given) n.kids.push_back(given(g));
        for (const Decl* m : s->members) n.kids.push_back(decl(m));
        break;
      }
      case DeclKind::Error:
        n.head = "decl-error" + at;
        break;
    }
    return n;
  }

  Node context(const ContextDecl& c) {
    Node n{"",
           "context " + qname(c.name, c.range) +
               (c.blockForm ? " block" : " header") + loc(c.range),
           {},
           true};
    addDoc(n, c.doc);
    for (const Decl* d : c.decls) n.kids.push_back(decl(d));
    return n;
  }

  const SourceFile& source_;
  AstDumpOptions options_;
};

bool isLeaf(const Node& n) { return n.kids.empty(); }

void renderFlat(const Node& n, std::string& out) {
  for (const Node& kid : n.kids) {
    out += " ";
    if (!kid.label.empty()) out += kid.label + " ";
    out += "(" + kid.head + ")";
  }
}

// Past this depth lines are indented no further, so that the dump of a long
// chain grows linearly with it; the parentheses still give the structure.
constexpr std::size_t kMaxIndentLevels = 64;

// Iterative: a chain makes the tree as deep as the chain is long.
void render(const Node& root, std::string& out) {
  struct Frame {
    const Node* node;
    std::size_t next;  // the next kid to print
  };
  std::vector<Frame> stack;
  auto open = [&](const Node& n) {
    out.append(std::min(stack.size(), kMaxIndentLevels) * 2, ' ');
    if (!n.label.empty()) out += n.label + " ";
    out += "(" + n.head;
    bool flat = !n.container;
    for (const Node& kid : n.kids) flat = flat && isLeaf(kid);
    if (flat) {
      renderFlat(n, out);
      out += ")";
      return;
    }
    stack.push_back({&n, 0});
  };
  open(root);
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == top.node->kids.size()) {
      out += ")";
      stack.pop_back();
      continue;
    }
    const Node& kid = top.node->kids[top.next++];
    out += "\n";
    open(kid);
  }
}

// Taken apart leaf first, so that destroying a deep tree does not recurse.
void dismantle(Node root) {
  std::vector<Node> pending;
  pending.push_back(std::move(root));
  while (!pending.empty()) {
    Node n = std::move(pending.back());
    pending.pop_back();
    for (Node& kid : n.kids) pending.push_back(std::move(kid));
  }
}

}  // namespace

std::string dumpAst(const ast::File& file, const SourceFile& source,
                    AstDumpOptions options) {
  Node root = Dumper(source, options).file(file);
  std::string out;
  render(root, out);
  out += "\n";
  dismantle(std::move(root));
  return out;
}

}  // namespace herald
