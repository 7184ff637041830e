// Expressions, statements, patterns and types as source text (see
// ast_print.cpp for the line-breaking rules).
#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <llvm/Support/Casting.h>

#include "frontend/ast_print_internal.h"

namespace herald::print_detail {

using namespace ast;

namespace {

// The shortest `digits.digits` spelling that reads back as the same double.
std::string formatFloat(double value) {
  char buf[400];
  auto [end, ec] =
      std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  std::string text = ec == std::errc() ? std::string(buf, end) : "0";
  if (text.find('.') == std::string::npos) text += ".0";
  return text;
}

const char* durationUnitWord(DurationUnit unit, std::uint64_t value) {
  bool one = value == 1;
  switch (unit) {
    case DurationUnit::Milliseconds:
      return "ms";
    case DurationUnit::Seconds:
      return one ? "second" : "seconds";
    case DurationUnit::Minutes:
      return one ? "minute" : "minutes";
    case DurationUnit::Hours:
      return one ? "hour" : "hours";
    case DurationUnit::Days:
      return one ? "day" : "days";
  }
  return "ms";
}

}  // namespace

void SourcePrinter::qname(const QualifiedName& q) {
  for (std::size_t i = 0; i < q.parts.size(); ++i) {
    if (i != 0) put(".");
    put(q.parts[i].name);
  }
}

void SourcePrinter::type(const TypeExpr* t) {
  if (t == nullptr) {
    put(kErrorMarker);
    return;
  }
  switch (t->kind) {
    case TypeExprKind::Path:
      qname(t->path);
      if (!t->args.empty()) {
        put("[");
        for (std::size_t i = 0; i < t->args.size(); ++i) {
          if (i != 0) put(", ");
          type(t->args[i]);
        }
        put("]");
      }
      return;
    case TypeExprKind::Unit:
      put("()");
      return;
    case TypeExprKind::Error:
      put(kErrorMarker);
      return;
  }
}

// --- patterns
// -----------------------------------------------------------------

void SourcePrinter::patternFields(const Brackets& brackets,
                                  llvm::ArrayRef<PatternField> fields,
                                  bool hasRest) {
  group(brackets, fields, hasRest, [](SourcePrinter& p, const PatternField& f) {
    if (!f.label.empty()) p.put(f.label.name, ": ");
    p.pattern(f.value);
  });
}

void SourcePrinter::recordPattern(const RecordPattern& r) {
  if (r.fields.empty() && !r.hasRest) {
    put("{}");
    return;
  }
  patternFields({"{", "}", "{ ", " }"}, r.fields, r.hasRest);
}

void SourcePrinter::pattern(const Pattern* p) {
  if (p == nullptr) {
    put(kErrorMarker);
    return;
  }
  switch (p->kind) {
    case PatternKind::Wildcard:
      put("_");
      return;
    case PatternKind::Literal:
      expr(llvm::cast<LiteralPattern>(p)->literal);
      return;
    case PatternKind::Name:
      qname(llvm::cast<NamePattern>(p)->name);
      return;
    case PatternKind::Constructor: {
      const auto* c = llvm::cast<ConstructorPattern>(p);
      qname(c->name);
      patternFields({"(", ")", "(", ")"}, c->fields, c->hasRest);
      return;
    }
    case PatternKind::Range: {
      const auto* r = llvm::cast<RangePattern>(p);
      if (r->low != nullptr) expr(r->low);
      put("..");
      if (r->high != nullptr) expr(r->high);
      return;
    }
    case PatternKind::Or: {
      // A left-deep chain: its first alternative, then the others in order,
      // in a loop.
      std::vector<const Pattern*> rights;
      const Pattern* q = p;
      for (const auto* o = llvm::dyn_cast<OrPattern>(q); o != nullptr;
           o = llvm::dyn_cast_or_null<OrPattern>(q)) {
        rights.push_back(o->rhs);
        q = o->lhs;
      }
      pattern(q);
      for (auto it = rights.rbegin(); it != rights.rend(); ++it) {
        put(" | ");
        pattern(*it);
      }
      return;
    }
    case PatternKind::Record:
      recordPattern(*llvm::cast<RecordPattern>(p));
      return;
    case PatternKind::Error:
      put(kErrorMarker);
      return;
  }
}

// --- expressions and statements -------------------------------------------

void SourcePrinter::stringLit(const StringLitExpr& s) {
  put("\"");
  for (const StringPart& part : s.parts) {
    if (part.expr == nullptr) {
      put(escapeStringText(part.text));
      continue;
    }
    put("\\(");
    std::string inner =
        render([&](SourcePrinter& p) { p.expr(part.expr); }, true);
    put(inner, ")");
  }
  put("\"");
}

void SourcePrinter::block(const BlockExpr* b) {
  if (b == nullptr) {
    put(kErrorMarker);
    return;
  }
  needsLines(b, b->stmts.size());
  if (b->stmts.empty() && !bodyHasComments(b)) {
    put("{}");
    return;
  }
  put("{");
  queueOpen(b);
  ++indent_;
  std::optional<std::uint32_t> prevEnd;
  for (const Stmt* s : b->stmts) {
    itemStart(s, s != nullptr ? s->range.begin : 0, {}, prevEnd, true);
    stmt(s);
    queueTrailing(s);
    if (s != nullptr) prevEnd = s->range.end;
  }
  endComments(b, prevEnd);
  --indent_;
  newline();
  put("}");
}

// A chain (`1 + 1 + ...`, `a.b.c...`, `else if ...`, see ast::chainChild)
// is printed in a loop: the part of each link before the link below it
// (`-`, `if c { } else `), the bottom, then the part of each link after it
// (` + rhs`, `.name`, `(args)`), innermost first. Only true nesting
// recurses.
void SourcePrinter::needsLines(const void* body, std::size_t items) {
  if (flat_ &&
      (items > 1 || (comments_ != nullptr && comments_->bodyHasComments(body))))
    multiline_ = true;
}

bool SourcePrinter::blockGroup(const Expr* e) {
  return e->kind == ExprKind::If || e->kind == ExprKind::Match ||
         e->kind == ExprKind::Block;
}

// An `if` chain, a `match` or a block is a group of its blocks or arms:
// one line when all of it fits (each block holding one statement), else
// every statement and arm on its own line.
void SourcePrinter::expr(const Expr* e) {
  if (e == nullptr) {
    put(kErrorMarker);
    return;
  }
  if (!flat_ && blockGroup(e)) {
    if (std::optional<std::string> line =
            oneLine([&](SourcePrinter& p) { p.chain(e); })) {
      put(*line);
      return;
    }
  }
  chain(e);
}

void SourcePrinter::chain(const Expr* e) {
  std::vector<const Expr*> spine;
  const Expr* bottom = e;
  for (const Expr* next = chainChild(bottom); next != nullptr;
       next = chainChild(bottom)) {
    spine.push_back(bottom);
    bottom = next;
  }
  for (const Expr* link : spine) chainPrefix(link);
  leaf(bottom);
  for (auto it = spine.rbegin(); it != spine.rend(); ++it) chainSuffix(*it);
}

namespace {

// Whether `e` prints with a leading `-`: a negation at its left edge.
bool startsWithMinus(const Expr* e) {
  while (e != nullptr) {
    switch (e->kind) {
      case ExprKind::Unary:
        return llvm::cast<UnaryExpr>(e)->op == UnaryOp::Neg;
      case ExprKind::Binary:
      case ExprKind::Field:
      case ExprKind::Call:
      case ExprKind::TypeApply:
      case ExprKind::RecordLit:
        e = chainChild(e);
        continue;
      case ExprKind::IntLit:
      case ExprKind::FloatLit:
      case ExprKind::BoolLit:
      case ExprKind::StringLit:
      case ExprKind::UnitLit:
      case ExprKind::DurationLit:
      case ExprKind::Name:
      case ExprKind::ListLit:
      case ExprKind::MapLit:
      case ExprKind::If:
      case ExprKind::Match:
      case ExprKind::Block:
      case ExprKind::Paren:
      case ExprKind::Fail:
      case ExprKind::Error:
        return false;
    }
    return false;
  }
  return false;
}

}  // namespace

void SourcePrinter::chainPrefix(const Expr* e) {
  switch (e->kind) {
    case ExprKind::Unary: {
      const auto* u = llvm::cast<UnaryExpr>(e);
      switch (u->op) {
        case UnaryOp::Neg:
          put("-");
          // `--` would start a comment.
          if (startsWithMinus(u->operand)) put(" ");
          break;
        case UnaryOp::Not:
          put("!");
          break;
      }
      return;
    }
    case ExprKind::If: {
      const auto* i = llvm::cast<IfExpr>(e);
      put("if ");
      expr(i->cond);
      put(" ");
      block(i->thenBlock);
      if (i->elseExpr != nullptr) put(" else ");
      return;
    }
    case ExprKind::Field:
    case ExprKind::Call:
    case ExprKind::TypeApply:
    case ExprKind::RecordLit:
    case ExprKind::Binary:
    case ExprKind::IntLit:
    case ExprKind::FloatLit:
    case ExprKind::BoolLit:
    case ExprKind::StringLit:
    case ExprKind::UnitLit:
    case ExprKind::DurationLit:
    case ExprKind::Name:
    case ExprKind::ListLit:
    case ExprKind::MapLit:
    case ExprKind::Match:
    case ExprKind::Block:
    case ExprKind::Paren:
    case ExprKind::Fail:
    case ExprKind::Error:
      return;
  }
}

void SourcePrinter::chainSuffix(const Expr* e) {
  switch (e->kind) {
    case ExprKind::Field: {
      const auto* f = llvm::cast<FieldExpr>(e);
      // `5 .ms` must not become the duration `5.ms`.
      if (llvm::isa<IntLitExpr>(f->base)) put(" ");
      put(".", f->name.name);
      return;
    }
    case ExprKind::Call: {
      const auto* c = llvm::cast<CallExpr>(e);
      group({"(", ")", "(", ")"}, llvm::ArrayRef<Arg>(c->args), false,
            [](SourcePrinter& p, const Arg& a) {
              if (!a.label.empty()) p.put(a.label.name, ": ");
              p.expr(a.value);
            });
      return;
    }
    case ExprKind::TypeApply: {
      const auto* t = llvm::cast<TypeApplyExpr>(e);
      put("[");
      commaList(t->typeArgs, [&](const TypeExpr* arg) { type(arg); });
      put("]");
      return;
    }
    case ExprKind::RecordLit:
      recordFields(*llvm::cast<RecordLitExpr>(e));
      return;
    case ExprKind::Binary: {
      const auto* b = llvm::cast<BinaryExpr>(e);
      put(" ", spelling(b->op), " ");
      expr(b->rhs);
      return;
    }
    case ExprKind::Unary:
    case ExprKind::If:
    case ExprKind::IntLit:
    case ExprKind::FloatLit:
    case ExprKind::BoolLit:
    case ExprKind::StringLit:
    case ExprKind::UnitLit:
    case ExprKind::DurationLit:
    case ExprKind::Name:
    case ExprKind::ListLit:
    case ExprKind::MapLit:
    case ExprKind::Match:
    case ExprKind::Block:
    case ExprKind::Paren:
    case ExprKind::Fail:
    case ExprKind::Error:
      return;
  }
}

void SourcePrinter::recordFields(const RecordLitExpr& r) {
  if (r.fields.empty()) {
    put(" {}");
    return;
  }
  // Broken, a field per line with a trailing comma, so that adding a field
  // changes one line.
  put(" ");
  group({"{", "}", "{ ", " }"}, llvm::ArrayRef<FieldInit>(r.fields), false,
        [](SourcePrinter& p, const FieldInit& f) {
          p.put(f.name.name, ": ");
          p.expr(f.value);
        });
}

// The bottom of a chain: any node without a chain child (a link whose
// chain child is missing prints as one that has it, with the marker).
void SourcePrinter::leaf(const Expr* e) {
  if (e == nullptr) {
    put(kErrorMarker);
    return;
  }
  switch (e->kind) {
    case ExprKind::Field:
    case ExprKind::Call:
    case ExprKind::TypeApply:
    case ExprKind::RecordLit:
    case ExprKind::Unary:
    case ExprKind::Binary:
      chainPrefix(e);
      put(kErrorMarker);
      chainSuffix(e);
      return;
    case ExprKind::If:
      // Without `else`: the chain ends here.
      chainPrefix(e);
      return;
    case ExprKind::IntLit: {
      const auto* i = llvm::cast<IntLitExpr>(e);
      put(writtenOr(i->digits, [&] { return std::to_string(i->value); }));
      return;
    }
    case ExprKind::FloatLit: {
      const auto* f = llvm::cast<FloatLitExpr>(e);
      put(writtenOr(f->digits, [&] { return formatFloat(f->value); }));
      return;
    }
    case ExprKind::BoolLit:
      put(llvm::cast<BoolLitExpr>(e)->value ? "true" : "false");
      return;
    case ExprKind::StringLit:
      stringLit(*llvm::cast<StringLitExpr>(e));
      return;
    case ExprKind::UnitLit:
      put("()");
      return;
    case ExprKind::DurationLit: {
      const auto* d = llvm::cast<DurationLitExpr>(e);
      put(writtenOr(d->digits, [&] { return std::to_string(d->value); }), ".",
          durationUnitWord(d->unit, d->value));
      return;
    }
    case ExprKind::Name:
      put(llvm::cast<NameExpr>(e)->name.name);
      return;
    case ExprKind::ListLit:
      group({"[", "]", "[", "]"},
            llvm::ArrayRef<Expr*>(llvm::cast<ListLitExpr>(e)->elements), false,
            [](SourcePrinter& p, const Expr* el) { p.expr(el); });
      return;
    case ExprKind::MapLit: {
      const auto* m = llvm::cast<MapLitExpr>(e);
      if (m->entries.empty()) {
        put("[:]");
        return;
      }
      group({"[", "]", "[", "]"}, llvm::ArrayRef<MapEntry>(m->entries), false,
            [](SourcePrinter& p, const MapEntry& entry) {
              p.expr(entry.key);
              p.put(": ");
              p.expr(entry.value);
            });
      return;
    }
    case ExprKind::Match: {
      const auto* m = llvm::cast<MatchExpr>(e);
      needsLines(m, 0);
      put("match ");
      expr(m->scrutinee);
      if (m->arms.empty() && !bodyHasComments(m)) {
        put(" {}");
        return;
      }
      put(" {");
      queueOpen(m);
      ++indent_;
      std::optional<std::uint32_t> prevEnd;
      for (std::size_t i = 0; i < m->arms.size(); ++i) {
        const MatchArm& arm = m->arms[i];
        itemStart(&arm, arm.range.begin, {}, prevEnd, false);
        pattern(arm.pattern);
        put(" => ");
        expr(arm.body);
        // Flat (inside an interpolation) commas only separate.
        if (!flat_ || i + 1 != m->arms.size()) put(",");
        queueTrailing(&arm);
        prevEnd = arm.range.end;
      }
      endComments(m, prevEnd);
      --indent_;
      newline();
      put("}");
      return;
    }
    case ExprKind::Block:
      block(llvm::cast<BlockExpr>(e));
      return;
    case ExprKind::Paren:
      put("(");
      expr(llvm::cast<ParenExpr>(e)->inner);
      put(")");
      return;
    case ExprKind::Fail:
      put("fail(");
      expr(llvm::cast<FailExpr>(e)->message);
      put(")");
      return;
    case ExprKind::Error:
      put(kErrorMarker);
      return;
  }
}

void SourcePrinter::stmt(const Stmt* s) {
  if (s == nullptr) {
    put(kErrorMarker);
    return;
  }
  switch (s->kind) {
    case StmtKind::Let:
      put("let ", s->name.name);
      if (s->type != nullptr) {
        put(": ");
        type(s->type);
      }
      put(" = ");
      expr(s->value);
      return;
    case StmtKind::Assign:
      put(s->name.name, " := ");
      expr(s->value);
      return;
    case StmtKind::Expr:
      expr(s->value);
      return;
    case StmtKind::Error:
      put(kErrorMarker);
      return;
  }
}

}  // namespace herald::print_detail
