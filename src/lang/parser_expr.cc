// Expression parsing with MATLAB operator precedence, lowest to highest:
//   ||   &&   |   &   < <= > >= == ~=   :   + -   * / \ .* ./ .\   unary + - ~
//   ^ .^ ' .' (left-associative; a unary operator right after ^ binds to the exponent)
//   postfix indexing and field access
// (MATLAB documentation, "Operator Precedence").
#include <algorithm>

#include "lang/parser_internal.h"

namespace matfuse {

using namespace ast;

namespace {

ExprPtr binary(Loc loc, BinOp op, ExprPtr a, ExprPtr b) {
  return std::make_unique<BinaryExpr>(loc, op, std::move(a), std::move(b));
}

}  // namespace

// expr := oror
ExprPtr Parser::parse_expr() { return parse_oror(); }

// oror := andand { '||' andand }
ExprPtr Parser::parse_oror() {
  ExprPtr e = parse_andand();
  while (at(Tok::BarBar)) {
    Loc l = take().loc;
    e = binary(l, BinOp::OrOr, std::move(e), parse_andand());
  }
  return e;
}

// andand := or { '&&' or }
ExprPtr Parser::parse_andand() {
  ExprPtr e = parse_or();
  while (at(Tok::AmpAmp)) {
    Loc l = take().loc;
    e = binary(l, BinOp::AndAnd, std::move(e), parse_or());
  }
  return e;
}

// or := and { '|' and }
ExprPtr Parser::parse_or() {
  ExprPtr e = parse_and();
  while (at(Tok::Bar)) {
    Loc l = take().loc;
    e = binary(l, BinOp::Or, std::move(e), parse_and());
  }
  return e;
}

// and := comparison { '&' comparison }
ExprPtr Parser::parse_and() {
  ExprPtr e = parse_comparison();
  while (at(Tok::Amp)) {
    Loc l = take().loc;
    e = binary(l, BinOp::And, std::move(e), parse_comparison());
  }
  return e;
}

// comparison := range { ('<' | '<=' | '>' | '>=' | '==' | '~=') range }
ExprPtr Parser::parse_comparison() {
  ExprPtr e = parse_range();
  while (true) {
    BinOp op;
    switch (cur().kind) {
      case Tok::Lt:
        op = BinOp::Lt;
        break;
      case Tok::Le:
        op = BinOp::Le;
        break;
      case Tok::Gt:
        op = BinOp::Gt;
        break;
      case Tok::Ge:
        op = BinOp::Ge;
        break;
      case Tok::Eq:
        op = BinOp::Eq;
        break;
      case Tok::Ne:
        op = BinOp::Ne;
        break;
      default:
        return e;
    }
    Loc l = take().loc;
    e = binary(l, op, std::move(e), parse_range());
  }
}

// range := additive [ ':' additive [ ':' additive ] ]    (a:b, a:step:b; a:b:c:d nests left)
ExprPtr Parser::parse_range() {
  ExprPtr e = parse_additive();
  while (at(Tok::Colon)) {
    // A bare ':' closing an index argument is not a range operator.
    Tok next = peek_at(1).kind;
    if (next == Tok::Comma || next == Tok::RParen || next == Tok::RBrace) return e;
    Loc l = take().loc;
    ExprPtr second = parse_additive();
    if (at(Tok::Colon)) {
      take();
      ExprPtr third = parse_additive();
      e = std::make_unique<RangeExpr>(l, std::move(e), std::move(second), std::move(third));
    } else {
      e = std::make_unique<RangeExpr>(l, std::move(e), nullptr, std::move(second));
    }
  }
  return e;
}

// additive := multiplicative { ('+' | '-') multiplicative }
ExprPtr Parser::parse_additive() {
  ExprPtr e = parse_multiplicative();
  while (at(Tok::Plus) || at(Tok::Minus)) {
    Token t = take();
    e = binary(t.loc, t.kind == Tok::Plus ? BinOp::Add : BinOp::Sub, std::move(e),
               parse_multiplicative());
  }
  return e;
}

// multiplicative := unary { ('*' | '/' | '\' | '.*' | './' | '.\') unary }
ExprPtr Parser::parse_multiplicative() {
  ExprPtr e = parse_unary();
  while (true) {
    BinOp op;
    switch (cur().kind) {
      case Tok::Star:
        op = BinOp::Mul;
        break;
      case Tok::Slash:
        op = BinOp::Div;
        break;
      case Tok::Backslash:
        op = BinOp::LDiv;
        break;
      case Tok::DotStar:
        op = BinOp::EMul;
        break;
      case Tok::DotSlash:
        op = BinOp::EDiv;
        break;
      case Tok::DotBackslash:
        op = BinOp::ELDiv;
        break;
      default:
        return e;
    }
    Loc l = take().loc;
    e = binary(l, op, std::move(e), parse_unary());
  }
}

// unary := ('+' | '-' | '~' | '!') unary | power
ExprPtr Parser::parse_unary() {
  check_nesting();
  UnOp op;
  switch (cur().kind) {
    case Tok::Plus:
      op = UnOp::Plus;
      break;
    case Tok::Minus:
      op = UnOp::Neg;
      break;
    case Tok::Tilde:
      op = UnOp::Not;
      break;
    default:
      return parse_power();
  }
  Loc l = take().loc;
  return std::make_unique<UnaryExpr>(l, op, parse_unary());
}

// power := postfix_primary { ('^' | '.^') power_operand | ''' | '.'' }
ExprPtr Parser::parse_power() {
  ExprPtr e = parse_postfix_primary();
  while (true) {
    Tok k = cur().kind;
    if (k == Tok::Quote || k == Tok::DotQuote) {
      Loc l = take().loc;
      e = std::make_unique<PostfixExpr>(l, k == Tok::Quote ? PostOp::CTranspose : PostOp::Transpose,
                                        std::move(e));
    } else if (k == Tok::Caret || k == Tok::DotCaret) {
      Loc l = take().loc;
      e = binary(l, k == Tok::Caret ? BinOp::Pow : BinOp::EPow, std::move(e),
                 parse_power_operand());
    } else {
      return e;
    }
  }
}

// power_operand := ('+' | '-' | '~') power_operand | postfix_primary
ExprPtr Parser::parse_power_operand() {
  check_nesting();
  UnOp op;
  switch (cur().kind) {
    case Tok::Plus:
      op = UnOp::Plus;
      break;
    case Tok::Minus:
      op = UnOp::Neg;
      break;
    case Tok::Tilde:
      op = UnOp::Not;
      break;
    default:
      return parse_postfix_primary();
  }
  Loc l = take().loc;
  return std::make_unique<UnaryExpr>(l, op, parse_power_operand());
}

// postfix_primary := primary { '(' args ')' | '{' args '}' | '.' NAME | '.' '(' expr ')' }
ExprPtr Parser::parse_postfix_primary() {
  bool can_index = at(Tok::Ident) || at(Tok::LParen);
  ExprPtr e = parse_primary();
  if (!can_index) return e;
  while (true) {
    if (at(Tok::LParen) || at(Tok::LBrace)) {
      bool brace = at(Tok::LBrace);
      Token open = take();
      Loc l = open.loc;
      ++index_depth_;
      std::vector<ExprPtr> args = parse_args(open, brace ? Tok::RBrace : Tok::RParen);
      --index_depth_;
      e = std::make_unique<IndexExpr>(l, std::move(e), std::move(args), brace);
    } else if (at(Tok::Dot)) {
      Loc l = take().loc;
      if (at(Tok::LParen)) {
        Token open = take();
        int saved = index_depth_;
        index_depth_ = 0;
        ExprPtr name = parse_expr();
        index_depth_ = saved;
        expect_closer(Tok::RParen, open, "')'");
        e = std::make_unique<FieldExpr>(l, std::move(e), std::string(), std::move(name));
      } else if (at(Tok::Ident)) {
        e = std::make_unique<FieldExpr>(l, std::move(e), take().text, nullptr);
      } else {
        error_expected("a field name after '.'");
      }
    } else {
      return e;
    }
  }
}

// args := [ arg { ',' arg } ]        arg := ':' | NAME '=' expr | expr
std::vector<ExprPtr> Parser::parse_args(const Token& open, Tok closer) {
  std::vector<ExprPtr> args;
  const char* close_text = closer == Tok::RParen ? "')'" : "'}'";
  if (accept(closer)) return args;
  while (true) {
    if (at(Tok::Colon) && (peek_at(1).kind == Tok::Comma || peek_at(1).kind == closer)) {
      args.push_back(std::make_unique<ColonExpr>(take().loc));
    } else if (closer == Tok::RParen && at(Tok::Ident) && peek_at(1).kind == Tok::Assign) {
      // Name=Value argument syntax: f(LineWidth=2) is f('LineWidth', 2).
      Token name = take();
      take();
      args.push_back(std::make_unique<StringExpr>(name.loc, name.text, false));
      args.push_back(parse_expr());
    } else {
      args.push_back(parse_expr());
    }
    if (accept(Tok::Comma)) continue;
    expect_closer(closer, open, (std::string("',' or ") + close_text).c_str());
    return args;
  }
}

// primary := NUMBER | CHAR | STRING | NAME | 'end' (in an index) | '(' expr ')'
//          | matrix | cell | handle
ExprPtr Parser::parse_primary() {
  const Token& t = cur();
  switch (t.kind) {
    case Tok::Number:
    case Tok::ImagNumber: {
      Token n = take();
      auto e = std::make_unique<NumberExpr>(n.loc, n.number, n.kind == Tok::ImagNumber);
      e->int_class = std::move(n.int_class);
      return e;
    }
    case Tok::CharLit:
    case Tok::StringLit: {
      Token s = take();
      return std::make_unique<StringExpr>(s.loc, std::move(s.text), s.kind == Tok::StringLit);
    }
    case Tok::Ident: {
      Token id = take();
      return std::make_unique<IdentExpr>(id.loc, std::move(id.text));
    }
    case Tok::Keyword:
      if (t.text == "end" && index_depth_ > 0) return std::make_unique<EndExpr>(take().loc);
      break;
    case Tok::LParen: {
      Token open = take();
      int saved = index_depth_;
      index_depth_ = 0;
      ExprPtr e = parse_expr();
      index_depth_ = saved;
      expect_closer(Tok::RParen, open, "')'");
      return e;
    }
    case Tok::LBracket:
      return parse_matrix(false);
    case Tok::LBrace:
      return parse_matrix(true);
    case Tok::At:
      return parse_handle();
    default:
      break;
  }
  error_expected("an expression");
}

// matrix := '[' { row_sep } [ row { row_sep row } ] { row_sep } ']'      (cell: '{' ... '}')
// row := expr { ',' expr } [ ',' ]          row_sep := ';' | NEWLINE
ExprPtr Parser::parse_matrix(bool cell) {
  Loc l = take().loc;
  Tok closer = cell ? Tok::RBrace : Tok::RBracket;
  const char* close_text = cell ? "'}'" : "']'";
  std::vector<std::vector<ExprPtr>> rows;
  std::vector<ExprPtr> row;
  // Inside a literal, `end` keeps the meaning of the enclosing index (x([1 end])).
  while (true) {
    if (accept(closer)) break;
    if (at(Tok::Semicolon) || at(Tok::Newline)) {
      take();
      if (!row.empty()) rows.push_back(std::move(row));
      row.clear();
      continue;
    }
    row.push_back(parse_expr());
    if (accept(Tok::Comma)) continue;
    if (at(closer) || at(Tok::Semicolon) || at(Tok::Newline)) continue;
    error_expected(std::string("',', ';' or ") + close_text);
  }
  if (!row.empty()) rows.push_back(std::move(row));
  return std::make_unique<MatrixExpr>(l, cell, std::move(rows));
}

// handle := '@' NAME { '.' NAME } | '@' '(' [ param { ',' param } ] ')' expr     param := NAME |
// '~'
ExprPtr Parser::parse_handle() {
  size_t begin = p_;
  Loc l = take().loc;
  if (at(Tok::Ident)) {
    std::string name = take().text;
    while (at(Tok::Dot) && peek_at(1).kind == Tok::Ident) {
      take();
      name += '.';
      name += take().text;
    }
    return std::make_unique<FuncHandleExpr>(l, std::move(name));
  }
  if (!at(Tok::LParen)) error_expected("a function name or '(' after '@'");
  take();
  std::vector<std::string> params;
  if (!accept(Tok::RParen)) {
    while (true) {
      if (at(Tok::Ident))
        params.push_back(take().text);
      else if (at(Tok::Tilde)) {
        take();
        params.push_back("~");
      } else {
        error_expected("a parameter name");
      }
      if (accept(Tok::Comma)) continue;
      expect(Tok::RParen, "',' or ')'");
      break;
    }
  }
  int saved = index_depth_;
  index_depth_ = 0;
  ExprPtr body = parse_expr();
  index_depth_ = saved;
  auto fn = std::make_unique<AnonFnExpr>(l, std::move(params), std::move(body));
  fn->source = source_text(begin, p_);
  return fn;
}

// Canonical display text of tokens [begin, end): MATLAB shows anonymous functions with all
// whitespace removed and element separators as commas ("@(x)x.^2+a", "@()[1,2;3,4]").
std::string Parser::source_text(size_t begin, size_t end) const {
  std::string out;
  for (size_t i = begin; i < end && i < toks_.size(); ++i) {
    const Token& t = toks_[i];
    switch (t.kind) {
      case Tok::Ident:
      case Tok::Keyword:
        out += t.text;
        break;
      case Tok::Number:
      case Tok::ImagNumber:
        out += t.raw;
        break;
      case Tok::CharLit:
      case Tok::StringLit: {
        char q = t.kind == Tok::CharLit ? '\'' : '"';
        out += q;
        for (char c : t.text) {
          out += c;
          if (c == q) out += q;
        }
        out += q;
        break;
      }
      case Tok::Newline:
        out += ';';
        break;
      case Tok::Eof:
        break;
      case Tok::CommandWord:
        out += t.text;
        break;
      default: {
        const char* n = token_name(t.kind);  // "'+'" -> "+"
        std::string s(n);
        if (s.size() >= 2 && s.front() == '\'' && s.back() == '\'') s = s.substr(1, s.size() - 2);
        out += s;
      }
    }
  }
  return out;
}

}  // namespace matfuse
