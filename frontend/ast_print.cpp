// Canonical source from the AST. Token order is the AST's own (parentheses
// are ParenExpr nodes), so re-parsing gives the same tree as long as line
// breaks never change how tokens group. Herald is newline-sensitive only for
// a `(`, `[`, `-` or `{` that starts a line, so this printer breaks lines only
// before statements, match arms, declarations, fields, variants and closing
// braces, and keeps everything else of an expression on one line. Inside a
// string interpolation, which must stay on one line, blocks and matches are
// printed flat (`{ a b }`), as the source must have written them.
#include "frontend/ast_print.h"

#include <string>
#include <vector>

#include <llvm/Support/Casting.h>

#include "frontend/ast_print_internal.h"

namespace herald {
namespace print_detail {

using namespace ast;

void SourcePrinter::file(const File& f) {
  for (std::size_t i = 0; i < f.contexts.size(); ++i) {
    if (i != 0) blankLine();
    context(*f.contexts[i]);
  }
}

void SourcePrinter::params(llvm::ArrayRef<Param> ps) {
  put("(");
  commaList(ps, [&](const Param& p) {
    put(p.name.name, ": ");
    type(p.type);
  });
  put(")");
}

void SourcePrinter::fieldDecl(const FieldDecl& f) {
  put(f.name.name, ": ");
  type(f.type);
  if (f.defaultValue != nullptr) {
    put(" = ");
    expr(f.defaultValue);
  }
}

void SourcePrinter::fieldsMultiline(llvm::ArrayRef<FieldDecl> fields) {
  if (fields.empty()) {
    put("{}");
    return;
  }
  put("{");
  ++indent_;
  for (const FieldDecl& f : fields) {
    newline();
    fieldDecl(f);
    put(",");
  }
  --indent_;
  newline();
  put("}");
}

// `{ a: T, b: U }` when it fits on the line, one field per line otherwise.
void SourcePrinter::recordBody(llvm::ArrayRef<FieldDecl> fields) {
  if (fields.empty()) {
    put("{}");
    return;
  }
  std::string inline_ = render(
      [&](SourcePrinter& p) {
        p.put("{ ");
        p.commaList(fields, [&](const FieldDecl& f) { p.fieldDecl(f); });
        p.put(" }");
      },
      true);
  if (flat_ || fitsOnLine(inline_)) {
    put(inline_);
    return;
  }
  fieldsMultiline(fields);
}

bool SourcePrinter::fitsOnLine(const std::string& text) const {
  return text.find('\n') == std::string::npos &&
         column() + text.size() <= kLineWidth;
}

void SourcePrinter::variant(const VariantDecl& v) {
  put(v.name.name);
  if (v.hasParens) {
    put("(");
    commaList(v.fields, [&](const FieldDecl& f) { fieldDecl(f); });
    put(")");
  }
}

void SourcePrinter::sumBody(llvm::ArrayRef<VariantDecl> variants) {
  std::string inline_ = render(
      [&](SourcePrinter& p) {
        for (std::size_t i = 0; i < variants.size(); ++i) {
          if (i != 0) p.put(" ");
          p.put("| ");
          p.variant(variants[i]);
        }
      },
      true);
  if (fitsOnLine(" " + inline_)) {
    put(" ", inline_);
    return;
  }
  ++indent_;
  for (const VariantDecl& v : variants) {
    newline();
    put("| ");
    variant(v);
  }
  --indent_;
}

void SourcePrinter::typeDecl(const TypeDecl& t) {
  put("type ", t.name.name, " =");
  if (t.def != TypeDefKind::Sum) put(" ");
  switch (t.def) {
    case TypeDefKind::Record:
      recordBody(t.fields);
      return;
    case TypeDefKind::Sum:
      sumBody(t.variants);
      return;
    case TypeDefKind::Opaque:
      put("opaque ");
      type(t.base);
      break;
    case TypeDefKind::Alias:
      type(t.base);
      break;
  }
  if (t.refinement != nullptr) {
    put(" where ");
    expr(t.refinement);
  }
}

void SourcePrinter::given(llvm::ArrayRef<GivenItem> items) {
  put("given ");
  commaList(items, [&](const GivenItem& g) {
    if (!g.name.empty()) {
      put(g.name.name, ": ");
    }
    type(g.type);
  });
}

void SourcePrinter::handler(const HandlerDecl& h) {
  put(h.isCall ? "on call " : "on ", h.name.name);
  params(h.params);
  if (h.returnType != nullptr) {
    put(" -> ");
    type(h.returnType);
  }
  if (h.by != nullptr) {
    put(" by ");
    if (!h.by->binder.empty()) {
      put(h.by->binder.name, ": ");
    }
    qname(h.by->actor);
  }
  if (!h.given.empty()) {
    put(" ");
    given(h.given);
  }
  put(" ");
  block(h.body);
}

void SourcePrinter::via(const ViaClause& v) {
  put(" via ", v.name.name, "(");
  auto num = [&](std::int64_t n) { put(std::to_string(n)); };
  switch (v.spec) {
    case VersionSpecKind::Exact:
      num(v.low);
      break;
    case VersionSpecKind::AtLeast:
      num(v.low);
      put("..");
      break;
    case VersionSpecKind::AtMost:
      put("..");
      num(v.high);
      break;
    case VersionSpecKind::Between:
      num(v.low);
      put("..");
      num(v.high);
      break;
    case VersionSpecKind::Any:
      put("_");
      break;
  }
  put(")");
}

void SourcePrinter::subscription(const Subscription& s) {
  put("from ", s.source.name, "(");
  type(s.eventType);
  if (s.pattern != nullptr) {
    put(" ");
    recordPattern(*s.pattern);
  }
  put(")");
  if (s.via != nullptr) via(*s.via);
}

void SourcePrinter::service(const ServiceDecl& s) {
  put("service ", s.name.name);
  std::vector<std::string> clauses;
  if (s.from != nullptr)
    clauses.push_back(
        render([&](SourcePrinter& p) { p.subscription(*s.from); }, true));
  if (!s.given.empty())
    clauses.push_back(
        render([&](SourcePrinter& p) { p.given(s.given); }, true));
  std::string oneLine;
  for (const std::string& c : clauses) oneLine += " " + c;
  if (fitsOnLine(oneLine + " {")) {
    put(oneLine);
  } else {
    ++indent_;
    for (const std::string& c : clauses) {
      newline();
      put(c);
    }
    --indent_;
  }
  put(" ");
  members(s.members);
}

// A body of declarations; single-line declarations of one kind group
// together, anything else is set off by a blank line.
void SourcePrinter::members(llvm::ArrayRef<Decl*> decls) {
  if (decls.empty()) {
    put("{}");
    return;
  }
  put("{");
  ++indent_;
  newline();
  declList(decls);
  --indent_;
  newline();
  put("}");
}

void SourcePrinter::declList(llvm::ArrayRef<Decl*> decls) {
  const Decl* prev = nullptr;
  bool prevOneLine = false;
  for (const Decl* d : decls) {
    std::string text = render([&](SourcePrinter& p) { p.decl(d); }, flat_);
    bool oneLine = text.find('\n') == std::string::npos;
    if (prev != nullptr) {
      bool grouped = oneLine && prevOneLine && prev->kind == d->kind;
      newline();
      if (!grouped) newline();
    }
    put(text);
    prev = d;
    prevOneLine = oneLine;
  }
}

void SourcePrinter::decl(const Decl* d) {
  if (d == nullptr) {
    put(kErrorMarker);
    return;
  }
  doc(d->doc);
  switch (d->kind) {
    case DeclKind::Consumes: {
      const auto* c = llvm::cast<ConsumesDecl>(d);
      put("consumes ");
      qname(c->context);
      if (!c->alias.empty()) {
        put(" as ", c->alias.name);
      }
      if (c->hasOnly) {
        if (c->only.empty()) {
          put(" {}");
        } else {
          put(" { ");
          commaList(c->only, [&](const Ident& i) { put(i.name); });
          put(" }");
        }
      }
      return;
    }
    case DeclKind::Type:
      typeDecl(*llvm::cast<TypeDecl>(d));
      return;
    case DeclKind::Event: {
      const auto* e = llvm::cast<EventDecl>(d);
      for (const Annotation& a : e->annotations) {
        put("@", a.name.name);
        if (a.hasParens) {
          put("(");
          commaList(a.args, [&](const Expr* arg) { expr(arg); });
          put(")");
        }
        put(" ");
      }
      put("event ", e->name.name, " = ");
      fieldsMultiline(e->fields);
      return;
    }
    case DeclKind::Actor: {
      const auto* a = llvm::cast<ActorDecl>(d);
      put("actor ", a->name.name);
      if (a->hasParens) params(a->params);
      return;
    }
    case DeclKind::Capability: {
      const auto* c = llvm::cast<CapabilityDecl>(d);
      put("capability ", c->name.name, " ");
      std::vector<Decl*> ops(c->ops.begin(), c->ops.end());
      members(ops);
      return;
    }
    case DeclKind::Fn: {
      const auto* f = llvm::cast<FnDecl>(d);
      put("fn ");
      if (!f->ownerType.empty()) {
        put(f->ownerType.name, ".");
      }
      put(f->name.name);
      params(f->params);
      if (f->returnType != nullptr) {
        put(" -> ");
        type(f->returnType);
      }
      if (f->body != nullptr) {
        put(" ");
        block(f->body);
      }
      return;
    }
    case DeclKind::Agent: {
      const auto* a = llvm::cast<AgentDecl>(d);
      put("agent ", a->name.name, " ");
      members(a->members);
      return;
    }
    case DeclKind::Key: {
      const auto* k = llvm::cast<KeyDecl>(d);
      put("key ", k->name.name, ": ");
      type(k->type);
      return;
    }
    case DeclKind::Store: {
      const auto* s = llvm::cast<StoreDecl>(d);
      put("store ", s->name.name, ": ");
      type(s->type);
      if (s->init != nullptr) {
        put(" = ");
        expr(s->init);
      }
      return;
    }
    case DeclKind::Invariant: {
      const auto* i = llvm::cast<InvariantDecl>(d);
      put("invariant ", i->name.name, ": ");
      expr(i->condition);
      return;
    }
    case DeclKind::Handler:
      handler(*llvm::cast<HandlerDecl>(d));
      return;
    case DeclKind::Service:
      service(*llvm::cast<ServiceDecl>(d));
      return;
    case DeclKind::Error:
      put(kErrorMarker);
      return;
  }
}

void SourcePrinter::context(const ContextDecl& c) {
  doc(c.doc);
  put("context ");
  qname(c.name);
  if (c.blockForm) {
    put(" ");
    members(c.decls);
    newline();
    return;
  }
  newline();
  if (c.decls.empty()) return;
  newline();
  declList(c.decls);
  newline();
}

}  // namespace print_detail

std::string printFile(const ast::File& file) {
  print_detail::SourcePrinter printer;
  printer.file(file);
  return printer.take();
}

}  // namespace herald
