// AST helpers.
#include "lang/ast.h"

namespace matfuse::ast {

/// MATLAB spelling of a binary operator ("+", ".*", "~=", "&&" ...).
const char* binop_text(BinOp op) {
  switch (op) {
    case BinOp::Add:
      return "+";
    case BinOp::Sub:
      return "-";
    case BinOp::Mul:
      return "*";
    case BinOp::Div:
      return "/";
    case BinOp::LDiv:
      return "\\";
    case BinOp::Pow:
      return "^";
    case BinOp::EMul:
      return ".*";
    case BinOp::EDiv:
      return "./";
    case BinOp::ELDiv:
      return ".\\";
    case BinOp::EPow:
      return ".^";
    case BinOp::Eq:
      return "==";
    case BinOp::Ne:
      return "~=";
    case BinOp::Lt:
      return "<";
    case BinOp::Le:
      return "<=";
    case BinOp::Gt:
      return ">";
    case BinOp::Ge:
      return ">=";
    case BinOp::And:
      return "&";
    case BinOp::Or:
      return "|";
    case BinOp::AndAnd:
      return "&&";
    case BinOp::OrOr:
      return "||";
  }
  return "?";
}

}  // namespace matfuse::ast
