#include "frontend/ast.h"

#include <cstdio>

#include <llvm/Support/Casting.h>

namespace herald::ast {

std::string_view spelling(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg:
      return "-";
    case UnaryOp::Not:
      return "!";
  }
  return "?";
}

std::string_view spelling(BinaryOp op) {
  switch (op) {
    case BinaryOp::Or:
      return "||";
    case BinaryOp::And:
      return "&&";
    case BinaryOp::Eq:
      return "==";
    case BinaryOp::Ne:
      return "!=";
    case BinaryOp::Lt:
      return "<";
    case BinaryOp::Le:
      return "<=";
    case BinaryOp::Gt:
      return ">";
    case BinaryOp::Ge:
      return ">=";
    case BinaryOp::Add:
      return "+";
    case BinaryOp::Sub:
      return "-";
    case BinaryOp::Mul:
      return "*";
    case BinaryOp::Div:
      return "/";
    case BinaryOp::Rem:
      return "%";
  }
  return "?";
}

std::string escapeStringText(llvm::StringRef text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    auto u = static_cast<unsigned char>(c);
    // U+2028 and U+2029 end lines in many editors; keep them visible.
    if (u == 0xE2 && text.substr(i, 2) == "\xE2\x80" && i + 2 < text.size() &&
        (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
      out += text[i + 2] == '\xA8' ? "\\u{2028}" : "\\u{2029}";
      i += 2;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          char buf[16];
          std::snprintf(buf, sizeof buf, "\\u{%X}", u);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

const Expr* chainChild(const Expr* e) {
  switch (e->kind) {
    case ExprKind::Field:
      return llvm::cast<FieldExpr>(e)->base;
    case ExprKind::Call:
      return llvm::cast<CallExpr>(e)->callee;
    case ExprKind::TypeApply:
      return llvm::cast<TypeApplyExpr>(e)->base;
    case ExprKind::RecordLit:
      return llvm::cast<RecordLitExpr>(e)->type;
    case ExprKind::If:
      return llvm::cast<IfExpr>(e)->elseExpr;
    case ExprKind::Unary:
      return llvm::cast<UnaryExpr>(e)->operand;
    case ExprKind::Binary:
      return llvm::cast<BinaryExpr>(e)->lhs;
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
      return nullptr;
  }
  return nullptr;
}

}  // namespace herald::ast
