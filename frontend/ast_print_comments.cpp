// Where the printer puts each comment (the rules are in ast_print.h), and
// the printer's primitives for writing them.
//
// The AST is first reduced to a layout tree of what the printer writes one
// per line: items (declarations, fields, variants, statements, match arms)
// and bodies (the lists of items inside a brace, a sum or a context). Each
// comment then descends from the file body into the innermost item or body
// whose source range holds it, and takes a slot there.
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "frontend/ast_print.h"
#include "frontend/ast_print_internal.h"

namespace herald {
namespace print_detail {

using namespace ast;

struct CommentPlan::Item {
  const void* key;
  std::uint32_t begin;
  std::uint32_t end;
  std::uint32_t docBegin;
  std::vector<Body> bodies;  // sorted by position, disjoint
};

struct CommentPlan::Body {
  const void* key;
  std::uint32_t begin;
  std::uint32_t end;
  // The file has no opening line of its own.
  bool hasOpenLine;
  std::vector<Item> items;  // in source order
};

class CommentPlan::Builder {
 public:
  explicit Builder(const CommentPlan& plan) : plan_(plan) {}

  Body file(const File& f) {
    Body body{&f, 0, f.range.end, false, {}};
    for (const ContextDecl* c : f.contexts) {
      Item item{c, c->range.begin, c->range.end, plan_.offsetOf(c->doc), {}};
      Body decls{c, c->name.range.end, c->range.end, true, {}};
      for (const Decl* d : c->decls)
        if (d != nullptr) decls.items.push_back(decl(d));
      item.bodies.push_back(std::move(decls));
      body.items.push_back(std::move(item));
    }
    body.end = std::max<std::uint32_t>(body.end, plan_.text_.size());
    return body;
  }

 private:
  static Item plainItem(const void* key, SourceRange r) {
    return {key, r.begin, r.end, kNoOffset, {}};
  }

  Body memberBody(const Decl* owner, std::uint32_t begin,
                  llvm::ArrayRef<Decl*> decls) {
    Body body{owner, begin, owner->range.end, true, {}};
    for (const Decl* d : decls)
      if (d != nullptr) body.items.push_back(decl(d));
    return body;
  }

  Body fieldBody(const Decl* owner, std::uint32_t begin,
                 llvm::ArrayRef<FieldDecl> fields) {
    Body body{owner, begin, owner->range.end, true, {}};
    for (const FieldDecl& f : fields) body.items.push_back(field(f));
    return body;
  }

  Item field(const FieldDecl& f) {
    Item item = plainItem(&f, f.range);
    expr(f.defaultValue, item.bodies);
    return item;
  }

  Item decl(const Decl* d) {
    Item item{d, d->range.begin, d->range.end, plan_.offsetOf(d->doc), {}};
    std::vector<Body>& bodies = item.bodies;
    switch (d->kind) {
      case DeclKind::Consumes:
      case DeclKind::Actor:
      case DeclKind::Key:
      case DeclKind::Error:
        break;
      case DeclKind::Type: {
        const auto* t = llvm::cast<TypeDecl>(d);
        switch (t->def) {
          case TypeDefKind::Record:
            bodies.push_back(fieldBody(d, t->name.range.end, t->fields));
            break;
          case TypeDefKind::Sum: {
            Body body{d, t->name.range.end, d->range.end, true, {}};
            for (const VariantDecl& v : t->variants) {
              Item variant = plainItem(&v, v.range);
              for (const FieldDecl& f : v.fields)
                expr(f.defaultValue, variant.bodies);
              body.items.push_back(std::move(variant));
            }
            bodies.push_back(std::move(body));
            break;
          }
          case TypeDefKind::Opaque:
          case TypeDefKind::Alias:
            expr(t->refinement, bodies);
            break;
        }
        break;
      }
      case DeclKind::Event: {
        const auto* e = llvm::cast<EventDecl>(d);
        std::uint32_t begin = e->name.range.end;
        for (const Annotation& a : e->annotations) {
          begin = std::max(begin, a.range.end);
          for (const Expr* arg : a.args) expr(arg, bodies);
        }
        bodies.push_back(fieldBody(d, begin, e->fields));
        break;
      }
      case DeclKind::Capability: {
        const auto* c = llvm::cast<CapabilityDecl>(d);
        std::vector<Decl*> ops(c->ops.begin(), c->ops.end());
        bodies.push_back(memberBody(d, c->name.range.end, ops));
        break;
      }
      case DeclKind::Fn:
        block(llvm::cast<FnDecl>(d)->body, bodies);
        break;
      case DeclKind::Agent: {
        const auto* a = llvm::cast<AgentDecl>(d);
        bodies.push_back(memberBody(d, a->name.range.end, a->members));
        break;
      }
      case DeclKind::Store:
        expr(llvm::cast<StoreDecl>(d)->init, bodies);
        break;
      case DeclKind::Invariant:
        expr(llvm::cast<InvariantDecl>(d)->condition, bodies);
        break;
      case DeclKind::Handler:
        block(llvm::cast<HandlerDecl>(d)->body, bodies);
        break;
      case DeclKind::Service: {
        const auto* s = llvm::cast<ServiceDecl>(d);
        // The members start after the header, whatever lines it spans.
        std::uint32_t begin = s->name.range.end;
        for (const Annotation& a : s->annotations)
          for (const Expr* arg : a.args) expr(arg, bodies);
        if (s->from != nullptr) begin = std::max(begin, s->from->range.end);
        for (const GivenItem& g : s->given)
          begin = std::max(begin, g.range.end);
        bodies.push_back(memberBody(d, begin, s->members));
        break;
      }
    }
    std::sort(bodies.begin(), bodies.end(),
              [](const Body& a, const Body& b) { return a.begin < b.begin; });
    return item;
  }

  void block(const BlockExpr* b, std::vector<Body>& out) {
    if (b == nullptr) return;
    Body body{b, b->range.begin, b->range.end, true, {}};
    for (const Stmt* s : b->stmts) {
      if (s == nullptr) continue;
      Item item = plainItem(s, s->range);
      expr(s->value, item.bodies);
      body.items.push_back(std::move(item));
    }
    out.push_back(std::move(body));
  }

  // The bodies inside an expression, outermost first. A chain (see
  // ast::chainChild) is walked in a loop, in source order: what each link
  // holds before the link below it, the bottom, then what each holds after.
  void expr(const Expr* e, std::vector<Body>& out) {
    std::vector<const Expr*> spine;
    const Expr* bottom = e;
    while (bottom != nullptr && chainChild(bottom) != nullptr) {
      spine.push_back(bottom);
      bottom = chainChild(bottom);
    }
    for (const Expr* link : spine) before(link, out);
    if (bottom != nullptr) {
      before(bottom, out);
      leaf(bottom, out);
      after(bottom, out);
    }
    for (auto it = spine.rbegin(); it != spine.rend(); ++it) after(*it, out);
  }

  // A chain link's children before its chain child.
  void before(const Expr* e, std::vector<Body>& out) {
    if (const auto* i = llvm::dyn_cast<IfExpr>(e)) {
      expr(i->cond, out);
      block(i->thenBlock, out);
    }
  }

  // A chain link's children after its chain child.
  void after(const Expr* e, std::vector<Body>& out) {
    switch (e->kind) {
      case ExprKind::Call:
        for (const Arg& a : llvm::cast<CallExpr>(e)->args) expr(a.value, out);
        return;
      case ExprKind::RecordLit:
        for (const FieldInit& f : llvm::cast<RecordLitExpr>(e)->fields)
          expr(f.value, out);
        return;
      case ExprKind::Binary:
        expr(llvm::cast<BinaryExpr>(e)->rhs, out);
        return;
      case ExprKind::Field:
      case ExprKind::TypeApply:
      case ExprKind::If:
      case ExprKind::Unary:
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

  // The children of a node that is no chain link.
  void leaf(const Expr* e, std::vector<Body>& out) {
    switch (e->kind) {
      case ExprKind::IntLit:
      case ExprKind::FloatLit:
      case ExprKind::BoolLit:
      case ExprKind::UnitLit:
      case ExprKind::DurationLit:
      case ExprKind::Name:
      case ExprKind::Error:
      case ExprKind::Field:
      case ExprKind::Call:
      case ExprKind::TypeApply:
      case ExprKind::RecordLit:
      case ExprKind::If:
      case ExprKind::Unary:
      case ExprKind::Binary:
        return;
      case ExprKind::StringLit:
        for (const StringPart& p : llvm::cast<StringLitExpr>(e)->parts)
          expr(p.expr, out);
        return;
      case ExprKind::ListLit:
        for (const Expr* el : llvm::cast<ListLitExpr>(e)->elements)
          expr(el, out);
        return;
      case ExprKind::MapLit:
        for (const MapEntry& entry : llvm::cast<MapLitExpr>(e)->entries) {
          expr(entry.key, out);
          expr(entry.value, out);
        }
        return;
      case ExprKind::Match: {
        const auto* m = llvm::cast<MatchExpr>(e);
        expr(m->scrutinee, out);
        std::uint32_t begin =
            m->scrutinee != nullptr ? m->scrutinee->range.end : e->range.begin;
        Body body{m, begin, e->range.end, true, {}};
        for (const MatchArm& arm : m->arms) {
          Item item = plainItem(&arm, arm.range);
          expr(arm.body, item.bodies);
          body.items.push_back(std::move(item));
        }
        out.push_back(std::move(body));
        return;
      }
      case ExprKind::Block:
        block(llvm::cast<BlockExpr>(e), out);
        return;
      case ExprKind::Paren:
        expr(llvm::cast<ParenExpr>(e)->inner, out);
        return;
      case ExprKind::Fail:
        expr(llvm::cast<FailExpr>(e)->message, out);
        return;
    }
  }

  const CommentPlan& plan_;
};

CommentPlan::CommentPlan(const SourceFile& source,
                         llvm::ArrayRef<SourceRange> comments, const File& file)
    : text_(source.text()), comments_(comments), printed_(comments.size(), 0) {
  if (comments.empty()) return;
  Body root = Builder(*this).file(file);
  Ids all(comments.size());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  std::sort(all.begin(), all.end(), [&](std::uint32_t a, std::uint32_t b) {
    return comments_[a].begin < comments_[b].begin;
  });
  assignBody(root, all);
}

void CommentPlan::assignBody(const Body& body, const Ids& ids) {
  BodySlots& slots = bodies_[body.key];
  std::vector<Ids> inside(body.items.size());
  for (std::uint32_t id : ids) {
    const std::uint32_t at = comments_[id].begin;
    // The last item starting at or before the comment.
    auto after = std::upper_bound(
        body.items.begin(), body.items.end(), at,
        [](std::uint32_t offset, const Item& i) { return offset < i.begin; });
    const Item* prev = after == body.items.begin() ? nullptr : &*(after - 1);
    if (prev != nullptr && at < prev->end) {
      inside[static_cast<std::size_t>(prev - body.items.data())].push_back(id);
    } else if (prev != nullptr && !newlineBetween(prev->end, at)) {
      items_[prev->key].trailing.push_back(id);
    } else if (prev == nullptr && body.hasOpenLine &&
               !newlineBetween(body.begin, at)) {
      slots.open.push_back(id);
    } else if (after != body.items.end()) {
      addLeading(*after, id);
    } else {
      slots.end.push_back(id);
    }
  }
  for (std::size_t i = 0; i < inside.size(); ++i)
    if (!inside[i].empty()) assignInItem(body.items[i], inside[i]);
}

void CommentPlan::assignInItem(const Item& item, const Ids& ids) {
  std::vector<Ids> inBody(item.bodies.size());
  for (std::uint32_t id : ids) {
    const std::uint32_t at = comments_[id].begin;
    auto body = std::find_if(
        item.bodies.begin(), item.bodies.end(),
        [&](const Body& b) { return b.begin <= at && at < b.end; });
    if (body == item.bodies.end()) {
      // Inside the item but in no body of it: before the item.
      addLeading(item, id);
    } else {
      inBody[static_cast<std::size_t>(body - item.bodies.begin())].push_back(
          id);
    }
  }
  for (std::size_t i = 0; i < inBody.size(); ++i)
    if (!inBody[i].empty()) assignBody(item.bodies[i], inBody[i]);
}

void CommentPlan::addLeading(const Item& item, std::uint32_t id) {
  ItemSlots& slots = items_[item.key];
  slots.begin = item.begin;
  slots.docBegin = item.docBegin;
  (comments_[id].begin < item.docBegin ? slots.leading : slots.afterDoc)
      .push_back(id);
}

std::string_view CommentPlan::text(std::uint32_t id) const {
  const SourceRange r = comments_[id];
  return text_.substr(r.begin, r.end - r.begin);
}

bool CommentPlan::newlineBetween(std::uint32_t from, std::uint32_t to) const {
  if (from >= to) return false;
  return text_.substr(from, to - from).find('\n') != std::string_view::npos;
}

bool CommentPlan::blankBetween(std::uint32_t from, std::uint32_t to) const {
  if (from >= to || to > text_.size()) return false;
  bool sawNewline = false;
  bool onlyBlanks = true;
  for (std::uint32_t i = from; i < to; ++i) {
    const char c = text_[i];
    if (c == '\n') {
      if (sawNewline && onlyBlanks) return true;
      sawNewline = true;
      onlyBlanks = true;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      onlyBlanks = false;
    }
  }
  return false;
}

std::uint32_t CommentPlan::offsetOf(llvm::StringRef doc) const {
  if (doc.empty()) return kNoOffset;
  const char* base = text_.data();
  if (doc.data() < base || doc.data() + doc.size() > base + text_.size())
    return kNoOffset;
  return static_cast<std::uint32_t>(doc.data() - base);
}

std::uint32_t CommentPlan::startOf(const void* key, std::uint32_t begin,
                                   llvm::StringRef doc) const {
  std::uint32_t start = std::min(begin, offsetOf(doc));
  if (const ItemSlots* slots = item(key); slots && !slots->leading.empty())
    start = std::min(start, comments_[slots->leading.front()].begin);
  return start;
}

std::vector<SourceRange> CommentPlan::misplaced() const {
  std::vector<SourceRange> out;
  for (std::size_t i = 0; i < printed_.size(); ++i)
    if (printed_[i] != 1) out.push_back(comments_[i]);
  std::sort(out.begin(), out.end(),
            [](const SourceRange& a, const SourceRange& b) {
              return a.begin < b.begin;
            });
  return out;
}

// --- printing ----------------------------------------------------------------

void SourcePrinter::putComment(std::uint32_t id) {
  if (lineHasComment_) {
    out_ += '\n';
    atLineStart_ = true;
  }
  put(comments_->text(id));
  comments_->markPrinted(id);
  lineHasComment_ = true;
}

void SourcePrinter::flushTrailing() {
  CommentPlan::Ids ids;
  ids.swap(pendingTrailing_);
  for (std::uint32_t id : ids) {
    if (!atLineStart_ && !lineHasComment_) put(" ");
    putComment(id);
  }
}

void SourcePrinter::queueTrailing(const void* item) {
  if (!printsComments()) return;
  if (const CommentPlan::ItemSlots* slots = comments_->item(item))
    pendingTrailing_.insert(pendingTrailing_.end(), slots->trailing.begin(),
                            slots->trailing.end());
}

void SourcePrinter::queueOpen(const void* body) {
  if (!printsComments()) return;
  if (const CommentPlan::BodySlots* slots = comments_->body(body))
    pendingTrailing_.insert(pendingTrailing_.end(), slots->open.begin(),
                            slots->open.end());
}

void SourcePrinter::ownLineComments(const CommentPlan::Ids& ids,
                                    std::uint32_t next) {
  if (!printsComments()) return;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    putComment(ids[i]);
    newline();
    std::uint32_t following =
        i + 1 < ids.size() ? comments_->range(ids[i + 1]).begin : next;
    if (comments_->blankBetween(comments_->range(ids[i]).end, following))
      newline();
  }
}

void SourcePrinter::itemStart(const void* item, std::uint32_t begin,
                              llvm::StringRef doc,
                              std::optional<std::uint32_t> prevEnd,
                              bool keepBlank) {
  newline();
  if (!printsComments()) return;
  const CommentPlan::ItemSlots* slots = comments_->item(item);
  const bool hasLeading = slots != nullptr && !slots->leading.empty();
  if (prevEnd && (keepBlank || hasLeading) &&
      comments_->blankBetween(*prevEnd, comments_->startOf(item, begin, doc)))
    newline();
  if (hasLeading)
    ownLineComments(slots->leading, std::min(slots->docBegin, slots->begin));
}

void SourcePrinter::afterDocComments(const void* item) {
  if (!printsComments()) return;
  if (const CommentPlan::ItemSlots* slots = comments_->item(item))
    ownLineComments(slots->afterDoc, slots->begin);
}

void SourcePrinter::endComments(const void* body,
                                std::optional<std::uint32_t> lastEnd) {
  if (!printsComments()) return;
  const CommentPlan::BodySlots* slots = comments_->body(body);
  if (slots == nullptr) return;
  for (std::size_t i = 0; i < slots->end.size(); ++i) {
    const std::uint32_t id = slots->end[i];
    if (!atLineStart_ || !pendingTrailing_.empty()) newline();
    std::optional<std::uint32_t> prev =
        i == 0 ? lastEnd
               : std::optional(comments_->range(slots->end[i - 1]).end);
    if (prev && comments_->blankBetween(*prev, comments_->range(id).begin))
      newline();
    putComment(id);
  }
}

void SourcePrinter::finish() {
  if (!pendingTrailing_.empty()) newline();
}

}  // namespace print_detail

std::optional<std::string> compareComments(
    const SourceFile& before, llvm::ArrayRef<SourceRange> beforeComments,
    const SourceFile& after, llvm::ArrayRef<SourceRange> afterComments) {
  auto spelling = [](const SourceFile& f, SourceRange r) {
    return f.text().substr(r.begin, r.end - r.begin);
  };
  std::map<std::string_view, std::size_t> inBefore;
  std::map<std::string_view, std::size_t> inAfter;
  for (SourceRange r : beforeComments) ++inBefore[spelling(before, r)];
  for (SourceRange r : afterComments) ++inAfter[spelling(after, r)];
  // The first occurrence beyond the other side's count is the one reported.
  std::map<std::string_view, std::size_t> seen;
  for (SourceRange r : beforeComments) {
    std::string_view text = spelling(before, r);
    if (++seen[text] > inAfter[text]) {
      return fmt::format(
          "line {}: the comment `{}` is missing from the formatted output",
          before.lineColumn(r.begin).line, text);
    }
  }
  seen.clear();
  for (SourceRange r : afterComments) {
    std::string_view text = spelling(after, r);
    if (++seen[text] > inBefore[text]) {
      return fmt::format(
          "line {} of the formatted output: the comment `{}` appears more "
          "often than in the source",
          after.lineColumn(r.begin).line, text);
    }
  }
  return std::nullopt;
}

}  // namespace herald
