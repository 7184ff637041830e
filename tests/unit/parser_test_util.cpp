#include "parser_test_util.h"

#include <fmt/format.h>

namespace herald::test {

Parsed parseText(std::string text) {
  Parsed p;
  p.id = p.sources->addFile("test.herald", std::move(text));
  p.result = parse(p.sources->file(p.id), *p.diags);
  return p;
}

std::vector<std::string> Parsed::diagnostics() const {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags->diagnostics()) {
    LineColumn lc = at(d.range.begin);
    out.push_back(fmt::format("{} {}:{} {}", diagInfo(d.kind).code, lc.line,
                              lc.column, d.message));
  }
  return out;
}

std::vector<std::string> Parsed::codes() const {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags->diagnostics())
    out.emplace_back(diagInfo(d.kind).code);
  return out;
}

Body parseBody(const std::string& body) {
  Body b{parseText("context t\nfn f() {\n" + body + "\n}\n"), {}};
  const auto& ctx = b.parsed.file().contexts;
  if (!ctx.empty() && !ctx[0]->decls.empty()) {
    if (const auto* fn = llvm::dyn_cast<ast::FnDecl>(ctx[0]->decls[0]))
      if (fn->body != nullptr) b.stmts = fn->body->stmts;
  }
  return b;
}

ExprResult parseExpr(const std::string& source) {
  Body b = parseBody(source);
  ExprResult r{std::move(b.parsed), nullptr};
  if (b.stmts.size() == 1 && b.stmts[0]->kind == ast::StmtKind::Expr)
    r.expr = b.stmts[0]->value;
  return r;
}

namespace {

std::string binaryOp(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::Or:
      return "||";
    case ast::BinaryOp::And:
      return "&&";
    case ast::BinaryOp::Eq:
      return "==";
    case ast::BinaryOp::Ne:
      return "!=";
    case ast::BinaryOp::Lt:
      return "<";
    case ast::BinaryOp::Le:
      return "<=";
    case ast::BinaryOp::Gt:
      return ">";
    case ast::BinaryOp::Ge:
      return ">=";
    case ast::BinaryOp::Add:
      return "+";
    case ast::BinaryOp::Sub:
      return "-";
    case ast::BinaryOp::Mul:
      return "*";
    case ast::BinaryOp::Div:
      return "/";
    case ast::BinaryOp::Rem:
      return "%";
  }
  return "?";
}

std::string qname(const ast::QualifiedName& n) {
  std::string out;
  for (const ast::Ident& part : n.parts) {
    if (!out.empty()) out += '.';
    out += part.name.str();
  }
  return out;
}

std::string typeShape(const ast::TypeExpr* t) {
  switch (t->kind) {
    case ast::TypeExprKind::Unit:
      return "()";
    case ast::TypeExprKind::Error:
      return "<error>";
    case ast::TypeExprKind::Path: {
      std::string out = qname(t->path);
      if (!t->args.empty()) {
        out += '[';
        for (std::size_t i = 0; i < t->args.size(); ++i) {
          if (i > 0) out += ", ";
          out += typeShape(t->args[i]);
        }
        out += ']';
      }
      return out;
    }
  }
  return "?";
}

std::string fieldsShape(llvm::ArrayRef<ast::PatternField> fields, bool rest) {
  std::string out;
  for (const ast::PatternField& f : fields) {
    if (!out.empty()) out += ", ";
    if (!f.label.empty()) out += f.label.name.str() + ": ";
    out += shape(f.value);
  }
  if (rest) out += out.empty() ? ".." : ", ..";
  return out;
}

}  // namespace

std::string shape(const ast::Pattern* p) {
  switch (p->kind) {
    case ast::PatternKind::Wildcard:
      return "_";
    case ast::PatternKind::Error:
      return "<error>";
    case ast::PatternKind::Literal:
      return shape(llvm::cast<ast::LiteralPattern>(p)->literal);
    case ast::PatternKind::Name:
      return qname(llvm::cast<ast::NamePattern>(p)->name);
    case ast::PatternKind::Constructor: {
      const auto* c = llvm::cast<ast::ConstructorPattern>(p);
      return qname(c->name) + "(" + fieldsShape(c->fields, c->hasRest) + ")";
    }
    case ast::PatternKind::Range: {
      const auto* r = llvm::cast<ast::RangePattern>(p);
      return (r->low != nullptr ? shape(r->low) : "") + ".." +
             (r->high != nullptr ? shape(r->high) : "");
    }
    case ast::PatternKind::Or: {
      const auto* o = llvm::cast<ast::OrPattern>(p);
      return "(" + shape(o->lhs) + " | " + shape(o->rhs) + ")";
    }
    case ast::PatternKind::Record: {
      const auto* r = llvm::cast<ast::RecordPattern>(p);
      return std::string(r->angle ? "<" : "{") +
             fieldsShape(r->fields, r->hasRest) + (r->angle ? ">" : "}");
    }
  }
  return "?";
}

std::string shape(const ast::Expr* e) {
  if (e == nullptr) return "<null>";
  switch (e->kind) {
    case ast::ExprKind::IntLit:
      return std::to_string(llvm::cast<ast::IntLitExpr>(e)->value);
    case ast::ExprKind::FloatLit:
      return fmt::format("{}", llvm::cast<ast::FloatLitExpr>(e)->value);
    case ast::ExprKind::BoolLit:
      return llvm::cast<ast::BoolLitExpr>(e)->value ? "true" : "false";
    case ast::ExprKind::StringLit: {
      std::string out = "\"";
      for (const ast::StringPart& part :
           llvm::cast<ast::StringLitExpr>(e)->parts)
        out += part.expr != nullptr ? "{" + shape(part.expr) + "}"
                                    : part.text.str();
      return out + "\"";
    }
    case ast::ExprKind::UnitLit:
      return "()";
    case ast::ExprKind::DurationLit: {
      const auto* d = llvm::cast<ast::DurationLitExpr>(e);
      return fmt::format("{}.{}", d->value, durationUnitName(d->unit));
    }
    case ast::ExprKind::Name:
      return llvm::cast<ast::NameExpr>(e)->name.name.str();
    case ast::ExprKind::Field: {
      const auto* f = llvm::cast<ast::FieldExpr>(e);
      return shape(f->base) + "." + f->name.name.str();
    }
    case ast::ExprKind::Call: {
      const auto* c = llvm::cast<ast::CallExpr>(e);
      std::string out = shape(c->callee) + "(";
      for (std::size_t i = 0; i < c->args.size(); ++i) {
        if (i > 0) out += ", ";
        if (!c->args[i].label.empty())
          out += c->args[i].label.name.str() + ": ";
        out += shape(c->args[i].value);
      }
      return out + ")";
    }
    case ast::ExprKind::TypeApply: {
      const auto* t = llvm::cast<ast::TypeApplyExpr>(e);
      std::string out = shape(t->base) + "[";
      for (std::size_t i = 0; i < t->typeArgs.size(); ++i) {
        if (i > 0) out += ", ";
        out += typeShape(t->typeArgs[i]);
      }
      return out + "]";
    }
    case ast::ExprKind::RecordLit: {
      const auto* r = llvm::cast<ast::RecordLitExpr>(e);
      std::string out = shape(r->type) + "{";
      for (std::size_t i = 0; i < r->fields.size(); ++i) {
        if (i > 0) out += ", ";
        out += r->fields[i].name.name.str() + ": " + shape(r->fields[i].value);
      }
      return out + "}";
    }
    case ast::ExprKind::ListLit: {
      std::string out = "[";
      const auto* l = llvm::cast<ast::ListLitExpr>(e);
      for (std::size_t i = 0; i < l->elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += shape(l->elements[i]);
      }
      return out + "]";
    }
    case ast::ExprKind::MapLit: {
      const auto* m = llvm::cast<ast::MapLitExpr>(e);
      if (m->entries.empty()) return "[:]";
      std::string out = "[";
      for (std::size_t i = 0; i < m->entries.size(); ++i) {
        if (i > 0) out += ", ";
        out += shape(m->entries[i].key) + ": " + shape(m->entries[i].value);
      }
      return out + "]";
    }
    case ast::ExprKind::If: {
      const auto* i = llvm::cast<ast::IfExpr>(e);
      std::string out = "if " + shape(i->cond) + " " + shape(i->thenBlock);
      if (i->elseExpr != nullptr) out += " else " + shape(i->elseExpr);
      return out;
    }
    case ast::ExprKind::Match: {
      const auto* m = llvm::cast<ast::MatchExpr>(e);
      std::string out = "match " + shape(m->scrutinee) + " {";
      for (std::size_t i = 0; i < m->arms.size(); ++i) {
        if (i > 0) out += ",";
        out +=
            " " + shape(m->arms[i].pattern) + " => " + shape(m->arms[i].body);
      }
      return out + " }";
    }
    case ast::ExprKind::Block: {
      std::string out = "{";
      for (const ast::Stmt* s : llvm::cast<ast::BlockExpr>(e)->stmts) {
        out += " ";
        switch (s->kind) {
          case ast::StmtKind::Let:
            out += "let " + s->name.name.str() + " = " + shape(s->value);
            break;
          case ast::StmtKind::Assign:
            out += s->name.name.str() + " := " + shape(s->value);
            break;
          case ast::StmtKind::Expr:
            out += shape(s->value);
            break;
          case ast::StmtKind::Error:
            out += "<error>";
            break;
        }
        out += ";";
      }
      return out + " }";
    }
    case ast::ExprKind::Unary: {
      const auto* u = llvm::cast<ast::UnaryExpr>(e);
      return std::string(u->op == ast::UnaryOp::Neg ? "-" : "!") + "(" +
             shape(u->operand) + ")";
    }
    case ast::ExprKind::Binary: {
      const auto* b = llvm::cast<ast::BinaryExpr>(e);
      return "(" + shape(b->lhs) + " " + binaryOp(b->op) + " " + shape(b->rhs) +
             ")";
    }
    case ast::ExprKind::Paren:
      return "(" + shape(llvm::cast<ast::ParenExpr>(e)->inner) + ")";
    case ast::ExprKind::Fail:
      return "fail(" + shape(llvm::cast<ast::FailExpr>(e)->message) + ")";
    case ast::ExprKind::Error:
      return "<error>";
  }
  return "?";
}

// ---------------------------------------------------------------------------
// Range checker
// ---------------------------------------------------------------------------

namespace {

class RangeChecker {
 public:
  std::string problem;

  // Error nodes may be empty: recovery can stop before any token, e.g. at
  // the end of the file.
  void check(const char* what, SourceRange r, SourceRange parent,
             bool mayBeEmpty = false) {
    if (!problem.empty()) return;
    if ((r.begin >= r.end && !mayBeEmpty) || r.begin < parent.begin ||
        r.end > parent.end || r.file != parent.file) {
      problem = fmt::format("{} [{}, {}) not inside [{}, {})", what, r.begin,
                            r.end, parent.begin, parent.end);
    }
  }
  void ident(const ast::Ident& id, SourceRange parent) {
    if (!id.empty()) check("ident", id.range, parent);
  }
  // A name the syntax requires: one that recovery found missing is empty
  // but still placed, inside its node, where it was expected.
  void required(const ast::Ident& id, SourceRange parent) {
    check("name", id.range, parent, id.empty());
  }
  void name(const ast::QualifiedName& n, SourceRange parent) {
    check("name", n.range, parent, n.parts.empty());
    for (const ast::Ident& part : n.parts) ident(part, n.range);
  }
  void type(const ast::TypeExpr* t, SourceRange parent) {
    if (t == nullptr) {
      problem = "null type";
      return;
    }
    check("type", t->range, parent, t->kind == ast::TypeExprKind::Error);
    if (t->kind == ast::TypeExprKind::Path) name(t->path, t->range);
    for (const ast::TypeExpr* a : t->args) type(a, t->range);
  }
  void pattern(const ast::Pattern* p, SourceRange parent) {
    if (p == nullptr) {
      problem = "null pattern";
      return;
    }
    check("pattern", p->range, parent, p->kind == ast::PatternKind::Error);
    switch (p->kind) {
      case ast::PatternKind::Wildcard:
      case ast::PatternKind::Error:
        break;
      case ast::PatternKind::Literal:
        expr(llvm::cast<ast::LiteralPattern>(p)->literal, p->range);
        break;
      case ast::PatternKind::Name:
        name(llvm::cast<ast::NamePattern>(p)->name, p->range);
        break;
      case ast::PatternKind::Constructor: {
        const auto* c = llvm::cast<ast::ConstructorPattern>(p);
        name(c->name, p->range);
        fields(c->fields, p->range);
        if (c->hasRest) check("rest", c->restRange, p->range);
        break;
      }
      case ast::PatternKind::Range: {
        const auto* r = llvm::cast<ast::RangePattern>(p);
        if (r->low != nullptr) expr(r->low, p->range);
        if (r->high != nullptr) expr(r->high, p->range);
        break;
      }
      case ast::PatternKind::Or:
        pattern(llvm::cast<ast::OrPattern>(p)->lhs, p->range);
        pattern(llvm::cast<ast::OrPattern>(p)->rhs, p->range);
        break;
      case ast::PatternKind::Record: {
        const auto* r = llvm::cast<ast::RecordPattern>(p);
        fields(r->fields, p->range);
        if (r->hasRest) check("rest", r->restRange, p->range);
        break;
      }
    }
  }
  void fields(llvm::ArrayRef<ast::PatternField> fs, SourceRange parent) {
    for (const ast::PatternField& f : fs) {
      check("pattern field", f.range, parent,
            f.value->kind == ast::PatternKind::Error);
      ident(f.label, f.range);
      pattern(f.value, f.range);
    }
  }
  void stmt(const ast::Stmt* s, SourceRange parent) {
    check("stmt", s->range, parent, s->kind == ast::StmtKind::Error);
    ident(s->name, s->range);
    if (s->type != nullptr) type(s->type, s->range);
    switch (s->kind) {
      case ast::StmtKind::Let:
      case ast::StmtKind::Assign:
      case ast::StmtKind::Expr:
        expr(s->value, s->range);
        break;
      case ast::StmtKind::Error:
        break;
    }
  }
  void expr(const ast::Expr* e, SourceRange parent) {
    if (e == nullptr) {
      problem = "null expr";
      return;
    }
    // A body recovery could not read is a block of one Error statement.
    const auto* block = llvm::dyn_cast<ast::BlockExpr>(e);
    const bool errorBody = block != nullptr && block->stmts.size() == 1 &&
                           block->stmts[0]->kind == ast::StmtKind::Error;
    check("expr", e->range, parent,
          e->kind == ast::ExprKind::Error || errorBody);
    switch (e->kind) {
      case ast::ExprKind::IntLit:
      case ast::ExprKind::FloatLit:
      case ast::ExprKind::BoolLit:
      case ast::ExprKind::UnitLit:
      case ast::ExprKind::DurationLit:
      case ast::ExprKind::Error:
        break;
      case ast::ExprKind::StringLit:
        for (const ast::StringPart& part :
             llvm::cast<ast::StringLitExpr>(e)->parts) {
          check("string part", part.range, e->range);
          if (part.expr != nullptr) expr(part.expr, part.range);
        }
        break;
      case ast::ExprKind::Name:
        ident(llvm::cast<ast::NameExpr>(e)->name, e->range);
        break;
      case ast::ExprKind::Field:
        expr(llvm::cast<ast::FieldExpr>(e)->base, e->range);
        ident(llvm::cast<ast::FieldExpr>(e)->name, e->range);
        break;
      case ast::ExprKind::Call: {
        const auto* c = llvm::cast<ast::CallExpr>(e);
        expr(c->callee, e->range);
        for (const ast::Arg& a : c->args) {
          check("arg", a.range, e->range,
                a.value->kind == ast::ExprKind::Error);
          ident(a.label, a.range);
          expr(a.value, a.range);
        }
        break;
      }
      case ast::ExprKind::TypeApply:
        expr(llvm::cast<ast::TypeApplyExpr>(e)->base, e->range);
        for (const ast::TypeExpr* t :
             llvm::cast<ast::TypeApplyExpr>(e)->typeArgs)
          type(t, e->range);
        break;
      case ast::ExprKind::RecordLit: {
        const auto* r = llvm::cast<ast::RecordLitExpr>(e);
        expr(r->type, e->range);
        for (const ast::FieldInit& f : r->fields) {
          check("field init", f.range, e->range,
                f.value->kind == ast::ExprKind::Error);
          required(f.name, f.range);
          expr(f.value, f.range);
        }
        break;
      }
      case ast::ExprKind::ListLit:
        for (const ast::Expr* x : llvm::cast<ast::ListLitExpr>(e)->elements)
          expr(x, e->range);
        break;
      case ast::ExprKind::MapLit:
        for (const ast::MapEntry& m : llvm::cast<ast::MapLitExpr>(e)->entries) {
          check("map entry", m.range, e->range);
          expr(m.key, m.range);
          expr(m.value, m.range);
        }
        break;
      case ast::ExprKind::If: {
        const auto* i = llvm::cast<ast::IfExpr>(e);
        expr(i->cond, e->range);
        expr(i->thenBlock, e->range);
        if (i->elseExpr != nullptr) expr(i->elseExpr, e->range);
        break;
      }
      case ast::ExprKind::Match: {
        const auto* m = llvm::cast<ast::MatchExpr>(e);
        expr(m->scrutinee, e->range);
        for (const ast::MatchArm& arm : m->arms) {
          check("arm", arm.range, e->range,
                arm.pattern->kind == ast::PatternKind::Error);
          pattern(arm.pattern, arm.range);
          expr(arm.body, arm.range);
        }
        break;
      }
      case ast::ExprKind::Block:
        for (const ast::Stmt* s : llvm::cast<ast::BlockExpr>(e)->stmts)
          stmt(s, e->range);
        break;
      case ast::ExprKind::Unary:
        expr(llvm::cast<ast::UnaryExpr>(e)->operand, e->range);
        break;
      case ast::ExprKind::Binary:
        expr(llvm::cast<ast::BinaryExpr>(e)->lhs, e->range);
        expr(llvm::cast<ast::BinaryExpr>(e)->rhs, e->range);
        break;
      case ast::ExprKind::Paren:
        expr(llvm::cast<ast::ParenExpr>(e)->inner, e->range);
        break;
      case ast::ExprKind::Fail:
        expr(llvm::cast<ast::FailExpr>(e)->message, e->range);
        break;
    }
  }
  void fieldDecls(llvm::ArrayRef<ast::FieldDecl> fs, SourceRange parent) {
    for (const ast::FieldDecl& f : fs) {
      check("field", f.range, parent, f.type->kind == ast::TypeExprKind::Error);
      required(f.name, f.range);
      type(f.type, f.range);
      if (f.defaultValue != nullptr) expr(f.defaultValue, f.range);
    }
  }
  void params(llvm::ArrayRef<ast::Param> ps, SourceRange parent) {
    for (const ast::Param& p : ps) {
      check("param", p.range, parent, p.type->kind == ast::TypeExprKind::Error);
      required(p.name, p.range);
      type(p.type, p.range);
    }
  }
  void given(llvm::ArrayRef<ast::GivenItem> items, SourceRange parent) {
    for (const ast::GivenItem& g : items) {
      check("given", g.range, parent);
      ident(g.name, g.range);
      type(g.type, g.range);
    }
  }
  void decl(const ast::Decl* d, SourceRange parent) {
    check("decl", d->range, parent, d->kind == ast::DeclKind::Error);
    const SourceRange r = d->range;
    switch (d->kind) {
      case ast::DeclKind::Consumes: {
        const auto* c = llvm::cast<ast::ConsumesDecl>(d);
        name(c->context, r);
        ident(c->alias, r);
        for (const ast::Ident& i : c->only) ident(i, r);
        break;
      }
      case ast::DeclKind::Type: {
        const auto* t = llvm::cast<ast::TypeDecl>(d);
        required(t->name, r);
        fieldDecls(t->fields, r);
        for (const ast::VariantDecl& v : t->variants) {
          check("variant", v.range, r);
          ident(v.name, v.range);
          fieldDecls(v.fields, v.range);
        }
        if (t->base != nullptr) type(t->base, r);
        if (t->refinement != nullptr) expr(t->refinement, r);
        break;
      }
      case ast::DeclKind::Event: {
        const auto* e = llvm::cast<ast::EventDecl>(d);
        required(e->name, r);
        for (const ast::Annotation& a : e->annotations) {
          check("annotation", a.range, r);
          for (const ast::Expr* x : a.args) expr(x, a.range);
        }
        fieldDecls(e->fields, r);
        break;
      }
      case ast::DeclKind::Actor:
        required(llvm::cast<ast::ActorDecl>(d)->name, r);
        params(llvm::cast<ast::ActorDecl>(d)->params, r);
        break;
      case ast::DeclKind::Capability:
        for (const ast::FnDecl* op : llvm::cast<ast::CapabilityDecl>(d)->ops)
          decl(op, r);
        break;
      case ast::DeclKind::Fn: {
        const auto* f = llvm::cast<ast::FnDecl>(d);
        ident(f->ownerType, r);
        required(f->name, r);
        params(f->params, r);
        if (f->returnType != nullptr) type(f->returnType, r);
        given(f->given, r);
        if (f->body != nullptr) expr(f->body, r);
        break;
      }
      case ast::DeclKind::Agent:
        for (const ast::Decl* m : llvm::cast<ast::AgentDecl>(d)->members)
          decl(m, r);
        break;
      case ast::DeclKind::Key:
        type(llvm::cast<ast::KeyDecl>(d)->type, r);
        break;
      case ast::DeclKind::Store: {
        const auto* s = llvm::cast<ast::StoreDecl>(d);
        type(s->type, r);
        if (s->init != nullptr) expr(s->init, r);
        break;
      }
      case ast::DeclKind::Invariant:
        expr(llvm::cast<ast::InvariantDecl>(d)->condition, r);
        break;
      case ast::DeclKind::Handler: {
        const auto* h = llvm::cast<ast::HandlerDecl>(d);
        required(h->name, r);
        params(h->params, r);
        if (h->returnType != nullptr) type(h->returnType, r);
        if (h->by != nullptr) {
          check("by", h->by->range, r);
          name(h->by->actor, h->by->range);
        }
        given(h->given, r);
        expr(h->body, r);
        break;
      }
      case ast::DeclKind::Service: {
        const auto* s = llvm::cast<ast::ServiceDecl>(d);
        for (const ast::Annotation& a : s->annotations) {
          check("annotation", a.range, r);
          for (const ast::Expr* x : a.args) expr(x, a.range);
        }
        if (s->from != nullptr) {
          check("from", s->from->range, r);
          type(s->from->eventType, s->from->range);
          if (s->from->pattern != nullptr)
            pattern(s->from->pattern, s->from->range);
          if (s->from->via != nullptr)
            check("via", s->from->via->range, s->from->range);
        }
        given(s->given, r);
        for (const ast::Decl* m : s->members) decl(m, r);
        break;
      }
      case ast::DeclKind::Error:
        break;
    }
  }
};

}  // namespace

std::string checkRanges(const ast::File& file) {
  RangeChecker c;
  for (const ast::ContextDecl* ctx : file.contexts) {
    c.check("context", ctx->range, file.range);
    c.name(ctx->name, ctx->range);
    for (const ast::Decl* d : ctx->decls) c.decl(d, ctx->range);
  }
  return c.problem;
}

}  // namespace herald::test
