#include "frontend/ast.h"

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

}  // namespace herald::ast
