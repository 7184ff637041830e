// Canonical text of subscription patterns and `via` clauses, for the IR and
// the labels of the event-flow graph.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <llvm/Support/Casting.h>

#include "checker/subscription_check.h"

namespace herald::check {

namespace {

class PatternPrinter {
 public:
  explicit PatternPrinter(const SourceManager& sources) : sources_(sources) {}

  void pattern(const ast::Pattern* p) {
    if (p == nullptr) return;
    switch (p->kind) {
      case ast::PatternKind::Wildcard:
        out += '_';
        return;
      case ast::PatternKind::Literal:
        source(llvm::cast<ast::LiteralPattern>(p)->literal);
        return;
      case ast::PatternKind::Name:
        name(llvm::cast<ast::NamePattern>(p)->name);
        return;
      case ast::PatternKind::Constructor: {
        const auto* c = llvm::cast<ast::ConstructorPattern>(p);
        name(c->name);
        out += '(';
        fields(c->fields, c->hasRest);
        out += ')';
        return;
      }
      case ast::PatternKind::Range: {
        const auto* r = llvm::cast<ast::RangePattern>(p);
        source(r->low);
        out += "..";
        source(r->high);
        return;
      }
      case ast::PatternKind::Or: {
        // A left-deep chain: its first alternative, then the others in
        // order, in a loop.
        std::vector<const ast::Pattern*> rights;
        const ast::Pattern* q = p;
        for (const auto* o = llvm::dyn_cast<ast::OrPattern>(q); o != nullptr;
             o = llvm::dyn_cast_or_null<ast::OrPattern>(q)) {
          rights.push_back(o->rhs);
          q = o->lhs;
        }
        pattern(q);
        for (auto it = rights.rbegin(); it != rights.rend(); ++it) {
          out += " | ";
          pattern(*it);
        }
        return;
      }
      case ast::PatternKind::Record: {
        const auto* r = llvm::cast<ast::RecordPattern>(p);
        if (r->fields.empty() && !r->hasRest) {
          out += "{}";
          return;
        }
        out += "{ ";
        fields(r->fields, r->hasRest);
        out += " }";
        return;
      }
      case ast::PatternKind::Error:
        out += '_';
        return;
    }
  }

  std::string out;

 private:
  void fields(llvm::ArrayRef<ast::PatternField> items, bool hasRest) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i != 0) out += ", ";
      if (!items[i].label.empty()) {
        out += items[i].label.name.str();
        out += ": ";
      }
      pattern(items[i].value);
    }
    if (hasRest) out += items.empty() ? ".." : ", ..";
  }

  void name(const ast::QualifiedName& n) {
    for (std::size_t i = 0; i < n.parts.size(); ++i) {
      if (i != 0) out += '.';
      out += n.parts[i].name.str();
    }
  }

  // Literals keep their spelling (`1_000`, `-7`, `"a\"b"`).
  void source(const ast::Expr* e) {
    if (e != nullptr) out += sources_.textOf(e->range);
  }

  const SourceManager& sources_;
};

}  // namespace

std::string patternText(const SourceManager& sources,
                        const ast::Pattern* pattern) {
  PatternPrinter printer(sources);
  printer.pattern(pattern);
  return std::move(printer.out);
}

std::string viaText(const ast::ViaClause& via) {
  std::string spec;
  switch (via.spec) {
    case ast::VersionSpecKind::Exact:
      spec = std::to_string(via.low);
      break;
    case ast::VersionSpecKind::AtLeast:
      spec = fmt::format("{}..", via.low);
      break;
    case ast::VersionSpecKind::AtMost:
      spec = fmt::format("..{}", via.high);
      break;
    case ast::VersionSpecKind::Between:
      spec = fmt::format("{}..{}", via.low, via.high);
      break;
    case ast::VersionSpecKind::Any:
      spec = "_";
      break;
  }
  return fmt::format("{}({})", via.name.name.str(), spec);
}

}  // namespace herald::check
