// The source printer shared by ast_print.cpp (declarations) and
// ast_print_expr.cpp (expressions, statements, patterns and types). Only
// those two files include it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include "frontend/ast.h"

namespace herald::print_detail {

constexpr std::size_t kIndentWidth = 4;
// Record bodies, sums and service headers stay on one line when they fit.
constexpr std::size_t kLineWidth = 80;

// Malformed subtrees only exist when the parse reported errors; `heraldc fmt`
// refuses such files, and this marker keeps any such output unparsable
// rather than silently dropping code.
constexpr std::string_view kErrorMarker = "<error>";

class SourcePrinter {
 public:
  explicit SourcePrinter(std::size_t indent = 0, bool flat = false)
      : indent_(indent), flat_(flat) {}

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

  // A line break; a space in flat mode.
  void newline() {
    if (flat_) {
      put(" ");
      return;
    }
    out_ += '\n';
    atLineStart_ = true;
  }

  void blankLine() {
    if (!atLineStart_) newline();
    out_ += '\n';
  }

  // The column the next character lands in (0-based).
  [[nodiscard]] std::size_t column() const {
    if (atLineStart_) return indent_ * kIndentWidth;
    std::size_t nl = out_.rfind('\n');
    return nl == std::string::npos ? startColumn_ + out_.size()
                                   : out_.size() - nl - 1;
  }

  template <typename F>
  std::string render(F&& body, bool flat) const {
    // The caller indents the first line; later lines carry their own.
    SourcePrinter sub(indent_, flat);
    sub.atLineStart_ = false;
    sub.startColumn_ = column();
    body(sub);
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

  template <typename T, typename F>
  void commaList(llvm::ArrayRef<T> items, F&& each) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i != 0) put(", ");
      each(items[i]);
    }
  }

  // ast_print_expr.cpp
  void qname(const ast::QualifiedName& q);
  void type(const ast::TypeExpr* t);
  void patternFields(llvm::ArrayRef<ast::PatternField> fields, bool hasRest);
  void recordPattern(const ast::RecordPattern& r);
  void pattern(const ast::Pattern* p);
  void stringLit(const ast::StringLitExpr& s);
  void block(const ast::BlockExpr* b);
  void expr(const ast::Expr* e);
  void stmt(const ast::Stmt* s);

  // ast_print.cpp
  void params(llvm::ArrayRef<ast::Param> ps);
  void fieldDecl(const ast::FieldDecl& f);
  void fieldsMultiline(llvm::ArrayRef<ast::FieldDecl> fields);
  void recordBody(llvm::ArrayRef<ast::FieldDecl> fields);
  [[nodiscard]] bool fitsOnLine(const std::string& text) const;
  void variant(const ast::VariantDecl& v);
  void sumBody(llvm::ArrayRef<ast::VariantDecl> variants);
  void typeDecl(const ast::TypeDecl& t);
  void given(llvm::ArrayRef<ast::GivenItem> items);
  void handler(const ast::HandlerDecl& h);
  void via(const ast::ViaClause& v);
  void subscription(const ast::Subscription& s);
  void service(const ast::ServiceDecl& s);
  void members(llvm::ArrayRef<ast::Decl*> decls);
  void declList(llvm::ArrayRef<ast::Decl*> decls);
  void decl(const ast::Decl* d);
  void context(const ast::ContextDecl& c);

  std::string out_;
  std::size_t indent_;
  bool flat_;
  bool atLineStart_ = true;
  // Where the first line of `out_` starts, for a rendering that its caller
  // splices into a line.
  std::size_t startColumn_ = 0;
};

}  // namespace herald::print_detail
