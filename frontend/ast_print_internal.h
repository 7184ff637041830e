// The source printer shared by ast_print.cpp (declarations),
// ast_print_expr.cpp (expressions, statements, patterns and types) and
// ast_print_comments.cpp (where comments go). Only those files include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include "frontend/ast.h"

namespace herald::print_detail {

constexpr std::size_t kIndentWidth = 2;
// The line-breaking rule (ast_print.h): a group stays on one line when it
// ends within this many columns.
constexpr std::size_t kLineWidth = 100;

// Malformed subtrees only exist when the parse reported errors; `heraldc fmt`
// refuses such files, and this marker keeps any such output unparsable
// rather than silently dropping code.
constexpr std::string_view kErrorMarker = "<error>";

constexpr std::uint32_t kNoOffset = std::numeric_limits<std::uint32_t>::max();

// A number literal as its author wrote it (`21_000` stays `21_000`); from
// its value only for a node built without source text.
template <typename FromValue>
std::string writtenOr(llvm::StringRef digits, FromValue fromValue) {
  if (!digits.empty()) return digits.str();
  return fromValue();
}

// The key of a declaration's body in a CommentPlan: always the address of
// its Decl, whichever node type the caller holds.
inline const void* asKey(const ast::Decl* d) { return d; }

// Where each comment of a file goes (see ast_print.h). Items and bodies are
// keyed by their AST node: an item by the Decl, ContextDecl, FieldDecl,
// VariantDecl, Stmt or MatchArm; a body by the node that owns it (the
// BlockExpr, the MatchExpr, the TypeDecl/EventDecl of its fields or variants,
// the Agent/Service/CapabilityDecl of its members, the ContextDecl of its
// declarations, the File). Comments are indices into the file's list.
class CommentPlan {
 public:
  using Ids = std::vector<std::uint32_t>;
  struct ItemSlots {
    Ids leading;   // own lines before the item (before its doc block)
    Ids afterDoc;  // own lines between its doc block and the item
    Ids trailing;  // end of the item's last line
    std::uint32_t begin = 0;
    std::uint32_t docBegin = kNoOffset;
  };
  struct BodySlots {
    Ids open;  // end of the line that opens the body
    Ids end;   // own lines before the body's closing brace
  };

  CommentPlan(const SourceFile& source, llvm::ArrayRef<SourceRange> comments,
              const ast::File& file);

  [[nodiscard]] const ItemSlots* item(const void* key) const {
    auto it = items_.find(key);
    return it == items_.end() ? nullptr : &it->second;
  }
  [[nodiscard]] const BodySlots* body(const void* key) const {
    auto it = bodies_.find(key);
    return it == bodies_.end() ? nullptr : &it->second;
  }
  // Some comment lies in the body's range (so it cannot be printed inline).
  [[nodiscard]] bool bodyHasComments(const void* key) const {
    return bodies_.find(key) != bodies_.end();
  }
  [[nodiscard]] std::string_view text(std::uint32_t id) const;
  [[nodiscard]] SourceRange range(std::uint32_t id) const {
    return comments_[id];
  }
  // The source has a blank line between the offsets.
  [[nodiscard]] bool blankBetween(std::uint32_t from, std::uint32_t to) const;
  // The offset of `doc` in the source, or kNoOffset.
  [[nodiscard]] std::uint32_t offsetOf(llvm::StringRef doc) const;
  // Where what belongs to an item starts: its first leading comment, its
  // doc block, or the item.
  [[nodiscard]] std::uint32_t startOf(const void* key, std::uint32_t begin,
                                      llvm::StringRef doc) const;

  void markPrinted(std::uint32_t id) { ++printed_[id]; }
  [[nodiscard]] std::vector<SourceRange> misplaced() const;

 private:
  struct Body;
  struct Item;
  class Builder;
  void assignBody(const Body& body, const Ids& ids);
  void assignInItem(const Item& item, const Ids& ids);
  void addLeading(const Item& item, std::uint32_t id);
  [[nodiscard]] bool newlineBetween(std::uint32_t from, std::uint32_t to) const;

  std::string_view text_;
  llvm::ArrayRef<SourceRange> comments_;
  std::unordered_map<const void*, ItemSlots> items_;
  std::unordered_map<const void*, BodySlots> bodies_;
  std::vector<std::uint32_t> printed_;
};

class SourcePrinter {
 public:
  explicit SourcePrinter(std::size_t indent = 0, bool flat = false,
                         CommentPlan* comments = nullptr)
      : indent_(indent), flat_(flat), comments_(comments) {}

  std::string take() { return std::move(out_); }

  void file(const ast::File& f);

 private:
  // --- output primitives ----------------------------------------------------

  template <typename... T>
  void put(const T&... parts) {
    (putText(std::string_view(parts)), ...);
  }

  void putText(std::string_view text) {
    if (text.empty()) return;
    if (atLineStart_) {
      out_.append(indent_ * kIndentWidth, ' ');
      atLineStart_ = false;
    }
    out_ += text;
  }

  // A line break; a space in flat mode. Comments queued for the end of the
  // line are written first.
  void newline() {
    if (flat_) {
      put(" ");
      return;
    }
    if (!pendingTrailing_.empty()) flushTrailing();
    out_ += '\n';
    atLineStart_ = true;
    lineHasComment_ = false;
  }

  void blankLine() {
    if (!atLineStart_ || !pendingTrailing_.empty()) newline();
    out_ += '\n';
  }

  // The column the next character lands in (0-based).
  [[nodiscard]] std::size_t column() const {
    if (atLineStart_) return indent_ * kIndentWidth;
    std::size_t nl = out_.rfind('\n');
    return nl == std::string::npos ? startColumn_ + out_.size()
                                   : out_.size() - nl - 1;
  }

  // Renders into a separate string. A flat rendering never prints comments,
  // so it may be thrown away; a rendering that is not flat must be used,
  // since the comments it printed count as placed.
  template <typename F>
  std::string render(F&& body, bool flat,
                     std::optional<std::size_t> startColumn = {}) {
    // The caller indents the first line; later lines carry their own.
    SourcePrinter sub(indent_, flat, comments_);
    sub.atLineStart_ = false;
    sub.startColumn_ = startColumn ? *startColumn : column();
    body(sub);
    multiline_ = multiline_ || sub.multiline_;
    // Its last line continues in this printer's current line.
    pendingTrailing_.insert(pendingTrailing_.end(),
                            sub.pendingTrailing_.begin(),
                            sub.pendingTrailing_.end());
    return sub.take();
  }

  void doc(llvm::StringRef text) {
    if (text.empty()) return;
    put("---");
    newline();
    // The doc is the raw text between the markers; it is kept verbatim
    // (lines included) so the re-parse reads back exactly the same text.
    out_ += text.str();
    if (text.back() != '\n') out_ += '\n';
    atLineStart_ = true;
    put("---");
    newline();
  }

  // The group printed by `body` as one line, or nothing when it cannot be
  // one line (it holds a block of several statements, or a body holding a
  // comment) or would end past kLineWidth.
  template <typename F>
  std::optional<std::string> oneLine(F&& body) {
    SourcePrinter sub(indent_, true, comments_);
    sub.atLineStart_ = false;
    sub.startColumn_ = column();
    body(sub);
    if (sub.multiline_) return std::nullopt;
    std::string text = sub.take();
    if (!fitsOnLine(text)) return std::nullopt;
    return text;
  }

  // A bracketed group of comma-separated elements: `flatOpen a, b
  // flatClose` on one line when it fits (see oneLine), otherwise `open`,
  // each element on a line of its own one indent deeper and followed by a
  // comma, a rest marker `..` last (without one), and `close` on its own
  // line.
  struct Brackets {
    std::string_view open, close, flatOpen, flatClose;
  };
  template <typename T, typename F>
  void group(const Brackets& b, llvm::ArrayRef<T> items, bool rest, F&& each) {
    auto flat = [&](SourcePrinter& p) {
      p.put(b.flatOpen);
      p.commaList(items, [&](const T& item) { each(p, item); });
      if (rest) p.put(items.empty() ? ".." : ", ..");
      p.put(b.flatClose);
    };
    if (flat_ || (items.empty() && !rest)) {
      flat(*this);
      return;
    }
    if (std::optional<std::string> line = oneLine(flat)) {
      put(*line);
      return;
    }
    put(b.open);
    ++indent_;
    for (const T& item : items) {
      newline();
      each(*this, item);
      put(",");
    }
    if (rest) {
      newline();
      put("..");
    }
    --indent_;
    newline();
    put(b.close);
  }

  template <typename T, typename F>
  void commaList(llvm::ArrayRef<T> items, F&& each) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i != 0) put(", ");
      each(items[i]);
    }
  }

  // ast_print_comments.cpp
  [[nodiscard]] bool printsComments() const {
    return comments_ != nullptr && !flat_;
  }
  [[nodiscard]] bool bodyHasComments(const void* body) const {
    return printsComments() && comments_->bodyHasComments(body);
  }
  void putComment(std::uint32_t id);
  void flushTrailing();
  void queueTrailing(const void* item);
  void queueOpen(const void* body);
  // Each comment on its own line; `next` is where what follows them starts.
  void ownLineComments(const CommentPlan::Ids& ids, std::uint32_t next);
  // Starts the line of an item of a body printed one item per line: the line
  // break, a blank line where wanted, and the item's leading comments.
  // `prevEnd` is where the previous item ended (none for the first);
  // `keepBlank` keeps a blank line of the source before the item.
  void itemStart(const void* item, std::uint32_t begin, llvm::StringRef doc,
                 std::optional<std::uint32_t> prevEnd, bool keepBlank);
  void afterDocComments(const void* item);
  // The comments before a body's closing brace, each on its own line; the
  // caller then breaks the line and closes the body.
  void endComments(const void* body, std::optional<std::uint32_t> lastEnd);
  void finish();

  // ast_print_expr.cpp
  void qname(const ast::QualifiedName& q);
  void type(const ast::TypeExpr* t);
  void patternFields(const Brackets& brackets,
                     llvm::ArrayRef<ast::PatternField> fields, bool hasRest);
  void recordPattern(const ast::RecordPattern& r);
  void pattern(const ast::Pattern* p);
  void stringLit(const ast::StringLitExpr& s);
  void block(const ast::BlockExpr* b);
  void expr(const ast::Expr* e);
  void chain(const ast::Expr* e);
  void chainPrefix(const ast::Expr* e);
  void chainSuffix(const ast::Expr* e);
  void recordFields(const ast::RecordLitExpr& r);
  void leaf(const ast::Expr* e);
  void stmt(const ast::Stmt* s);

  // ast_print.cpp
  void params(llvm::ArrayRef<ast::Param> ps);
  // Marks a flat rendering unusable when the body needs its lines.
  void needsLines(const void* body, std::size_t items);
  void fieldDecl(const ast::FieldDecl& f);
  void fieldsMultiline(llvm::ArrayRef<ast::FieldDecl> fields, const void* body);
  void recordBody(llvm::ArrayRef<ast::FieldDecl> fields, const void* body);
  [[nodiscard]] bool fitsOnLine(const std::string& text) const;
  void variant(const ast::VariantDecl& v);
  void sumBody(llvm::ArrayRef<ast::VariantDecl> variants, const void* body);
  void sumLines(llvm::ArrayRef<ast::VariantDecl> variants, const void* body);
  void typeDecl(const ast::TypeDecl& t);
  void annotations(llvm::ArrayRef<ast::Annotation> items);
  void given(llvm::ArrayRef<ast::GivenItem> items);
  void handler(const ast::HandlerDecl& h);
  void via(const ast::ViaClause& v);
  void subscription(const ast::Subscription& s);
  void service(const ast::ServiceDecl& s);
  void members(llvm::ArrayRef<ast::Decl*> decls, const void* body);
  void declList(llvm::ArrayRef<ast::Decl*> decls);
  [[nodiscard]] static std::uint32_t declEnd(const ast::Decl* d);
  void decl(const ast::Decl* d);
  void context(const ast::ContextDecl& c);

  std::string out_;
  std::size_t indent_;
  bool flat_;
  CommentPlan* comments_;
  // Whether `e` is a group of blocks or arms (`if`, `match`, a block).
  static bool blockGroup(const ast::Expr* e);
  // Comments for the end of the current line, written by newline().
  CommentPlan::Ids pendingTrailing_;
  bool atLineStart_ = true;
  // A comment runs to the end of its line: nothing may follow it there.
  bool lineHasComment_ = false;
  // Where the first line of `out_` starts, for a rendering that its caller
  // splices into a line.
  std::size_t startColumn_ = 0;
  // A flat rendering holds what needs lines of its own (a block of several
  // statements, a body holding a comment): it cannot be used as one line.
  bool multiline_ = false;
};

}  // namespace herald::print_detail
