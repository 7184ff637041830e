// Canonical source from the AST. Token order is the AST's own (parentheses
// are ParenExpr nodes), so re-parsing gives the same tree as long as line
// breaks never change how tokens group. Herald is newline-sensitive only for
// a `(`, `[`, `-` or `{` that starts a line, so this printer breaks lines only
// before statements, match arms, declarations, fields, variants and closing
// braces, and keeps everything else of an expression on one line. Inside a
// string interpolation, which must stay on one line, blocks and matches are
// printed flat (`{ a b }`), as the source must have written them.
#include "frontend/ast_print.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <llvm/Support/Casting.h>

#include "frontend/ast_print_internal.h"

namespace herald {
namespace print_detail {

using namespace ast;

void SourcePrinter::file(const File& f) {
  for (std::size_t i = 0; i < f.contexts.size(); ++i) {
    const ContextDecl& c = *f.contexts[i];
    if (i != 0) blankLine();
    if (printsComments()) {
      if (const CommentPlan::ItemSlots* slots = comments_->item(&c))
        ownLineComments(slots->leading,
                        std::min(slots->docBegin, slots->begin));
    }
    context(c);
  }
  std::optional<std::uint32_t> lastEnd;
  if (!f.contexts.empty()) lastEnd = f.contexts.back()->range.end;
  endComments(&f, lastEnd);
  finish();
  if (!atLineStart_) newline();
}

void SourcePrinter::params(llvm::ArrayRef<Param> ps) {
  group({"(", ")", "(", ")"}, ps, false,
        [](SourcePrinter& p, const Param& param) {
          p.put(param.name.name, ": ");
          p.type(param.type);
        });
}

void SourcePrinter::fieldDecl(const FieldDecl& f) {
  put(f.name.name, ": ");
  type(f.type);
  if (f.defaultValue != nullptr) {
    put(" = ");
    expr(f.defaultValue);
  }
}

void SourcePrinter::fieldsMultiline(llvm::ArrayRef<FieldDecl> fields,
                                    const void* body) {
  if (fields.empty() && !bodyHasComments(body)) {
    put("{}");
    return;
  }
  put("{");
  queueOpen(body);
  ++indent_;
  std::optional<std::uint32_t> prevEnd;
  for (const FieldDecl& f : fields) {
    itemStart(&f, f.range.begin, {}, prevEnd, false);
    fieldDecl(f);
    put(",");
    queueTrailing(&f);
    prevEnd = f.range.end;
  }
  endComments(body, prevEnd);
  --indent_;
  newline();
  put("}");
}

// `{ a: T, b: U }` when it fits on the line (and holds no comment), one
// field per line otherwise.
void SourcePrinter::recordBody(llvm::ArrayRef<FieldDecl> fields,
                               const void* body) {
  if (bodyHasComments(body)) {
    fieldsMultiline(fields, body);
    return;
  }
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
  fieldsMultiline(fields, body);
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

void SourcePrinter::sumBody(llvm::ArrayRef<VariantDecl> variants,
                            const void* body) {
  if (bodyHasComments(body)) {
    sumLines(variants, body);
    return;
  }
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
  sumLines(variants, body);
}

void SourcePrinter::sumLines(llvm::ArrayRef<VariantDecl> variants,
                             const void* body) {
  queueOpen(body);
  ++indent_;
  std::optional<std::uint32_t> prevEnd;
  for (const VariantDecl& v : variants) {
    itemStart(&v, v.range.begin, {}, prevEnd, false);
    put("| ");
    variant(v);
    queueTrailing(&v);
    prevEnd = v.range.end;
  }
  endComments(body, prevEnd);
  --indent_;
}

void SourcePrinter::typeDecl(const TypeDecl& t) {
  put("type ", t.name.name, " =");
  if (t.def != TypeDefKind::Sum) put(" ");
  switch (t.def) {
    case TypeDefKind::Record:
      recordBody(t.fields, asKey(&t));
      return;
    case TypeDefKind::Sum:
      sumBody(t.variants, asKey(&t));
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
  auto num = [&](std::int64_t n, llvm::StringRef digits) {
    if (n < 0) put("-");
    put(writtenOr(digits, [&] {
      return n < 0 ? std::to_string(0 - static_cast<std::uint64_t>(n))
                   : std::to_string(n);
    }));
  };
  switch (v.spec) {
    case VersionSpecKind::Exact:
      num(v.low, v.lowDigits);
      break;
    case VersionSpecKind::AtLeast:
      num(v.low, v.lowDigits);
      put("..");
      break;
    case VersionSpecKind::AtMost:
      put("..");
      num(v.high, v.highDigits);
      break;
    case VersionSpecKind::Between:
      num(v.low, v.lowDigits);
      put("..");
      num(v.high, v.highDigits);
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

// Each annotation followed by a space, on the declaration's first line.
void SourcePrinter::annotations(llvm::ArrayRef<Annotation> items) {
  for (const Annotation& a : items) {
    put("@", a.name.name);
    if (a.hasParens) {
      put("(");
      commaList(a.args, [&](const Expr* arg) { expr(arg); });
      put(")");
    }
    put(" ");
  }
}

void SourcePrinter::service(const ServiceDecl& s) {
  annotations(s.annotations);
  put("service ", s.name.name);
  std::vector<std::string> clauses;
  if (s.from != nullptr)
    clauses.push_back(
        render([&](SourcePrinter& p) { p.subscription(*s.from); }, true));
  if (!s.given.empty())
    clauses.push_back(
        render([&](SourcePrinter& p) { p.given(s.given); }, true));
  std::string joined;
  for (const std::string& c : clauses) joined += " " + c;
  if (fitsOnLine(joined + " {")) {
    put(joined);
  } else {
    // A clause per line, each breaking its own groups (a subscription
    // pattern a field per line) when it does not fit. Continuation lines get
    // a double indent so they stand apart from the members that follow.
    indent_ += 2;
    if (s.from != nullptr) {
      newline();
      subscription(*s.from);
    }
    if (!s.given.empty()) {
      newline();
      given(s.given);
    }
    indent_ -= 2;
  }
  put(" ");
  members(s.members, asKey(&s));
}

// A body of declarations; single-line declarations of one kind group
// together, anything else is set off by a blank line.
void SourcePrinter::members(llvm::ArrayRef<Decl*> decls, const void* body) {
  if (decls.empty() && !bodyHasComments(body)) {
    put("{}");
    return;
  }
  put("{");
  queueOpen(body);
  ++indent_;
  if (!decls.empty()) {
    newline();
    declList(decls);
  }
  endComments(body, decls.empty() ? std::nullopt
                                  : std::optional(declEnd(decls.back())));
  --indent_;
  newline();
  put("}");
}

void SourcePrinter::declList(llvm::ArrayRef<Decl*> decls) {
  const Decl* prev = nullptr;
  bool prevOneLine = false;
  const std::size_t lineStart = indent_ * kIndentWidth;
  for (const Decl* d : decls) {
    std::string text =
        render([&](SourcePrinter& p) { p.decl(d); }, flat_, lineStart);
    bool oneLine = text.find('\n') == std::string::npos;
    const CommentPlan::ItemSlots* slots =
        printsComments() ? comments_->item(d) : nullptr;
    if (prev != nullptr) {
      bool grouped = oneLine && prevOneLine && prev->kind == d->kind;
      bool sourceBlank =
          printsComments() && d != nullptr &&
          comments_->blankBetween(
              declEnd(prev), comments_->startOf(d, d->range.begin, d->doc));
      newline();
      if (!grouped || sourceBlank) newline();
    }
    if (slots != nullptr)
      ownLineComments(slots->leading, std::min(slots->docBegin, slots->begin));
    put(text);
    queueTrailing(d);
    prev = d;
    prevOneLine = oneLine;
  }
}

std::uint32_t SourcePrinter::declEnd(const Decl* d) {
  return d == nullptr ? 0 : d->range.end;
}

void SourcePrinter::decl(const Decl* d) {
  if (d == nullptr) {
    put(kErrorMarker);
    return;
  }
  doc(d->doc);
  afterDocComments(d);
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
      annotations(e->annotations);
      put("event ", e->name.name, " = ");
      fieldsMultiline(e->fields, asKey(e));
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
      members(ops, asKey(c));
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
      if (!f->given.empty()) {
        put(" ");
        given(f->given);
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
      members(a->members, asKey(a));
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
  afterDocComments(&c);
  put("context ");
  qname(c.name);
  if (c.blockForm) {
    put(" ");
    members(c.decls, &c);
    queueTrailing(&c);
    newline();
    return;
  }
  queueOpen(&c);
  newline();
  std::optional<std::uint32_t> lastEnd;
  if (!c.decls.empty()) {
    newline();
    declList(c.decls);
    lastEnd = declEnd(c.decls.back());
  }
  endComments(&c, lastEnd);
  queueTrailing(&c);
  if (!atLineStart_ || !pendingTrailing_.empty()) newline();
}

}  // namespace print_detail

std::string printFile(const ast::File& file) {
  print_detail::SourcePrinter printer;
  printer.file(file);
  return printer.take();
}

PrintedFile printFile(const ast::File& file, const SourceFile& source,
                      llvm::ArrayRef<SourceRange> comments) {
  print_detail::CommentPlan plan(source, comments, file);
  print_detail::SourcePrinter printer(0, false, &plan);
  printer.file(file);
  return {printer.take(), plan.misplaced()};
}

}  // namespace herald
