// Recursive-descent parser state shared by parser.cc (files, functions, statements) and
// parser_expr.cc (expressions). Internal to src/lang.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "lang/ast.h"
#include "lang/lexer.h"

namespace matfuse {

class Parser {
 public:
  Parser(LexOutput lexed, std::string path)
      : toks_(std::move(lexed.tokens)),
        lex_error_(std::move(lexed.error)),
        path_(std::move(path)) {}

  std::unique_ptr<ast::ParsedFile> parse_file();

  // ---- expressions (parser_expr.cc)
  ast::ExprPtr parse_expr();
  ast::ExprPtr parse_postfix_primary();

 private:
  std::vector<Token> toks_;
  std::optional<MatlabError> lex_error_;
  std::string path_;
  size_t p_ = 0;
  int index_depth_ = 0;  // > 0 while parsing index arguments (`end` is EndExpr there)
  bool functions_have_end_ = false;

  // ---- token access
  const Token& cur();  // raises a pending lexer error on reaching the failing position
  const Token& peek_at(size_t k) const { return toks_[std::min(p_ + k, toks_.size() - 1)]; }
  bool at(Tok k) { return cur().kind == k; }
  bool at_kw(const char* kw) { return cur().kind == Tok::Keyword && cur().text == kw; }
  bool at_block_end();  // end or an Octave endXXX
  Token take() {
    Token t = cur();
    if (p_ + 1 < toks_.size()) ++p_;
    return t;
  }
  bool accept(Tok k) {
    if (!at(k)) return false;
    take();
    return true;
  }
  Token expect(Tok k, const char* what);
  [[noreturn]] void error_expected(const std::string& what);
  /// Expects the closer of a bracket opened at `open`; a statement end found instead is an
  /// unbalanced-bracket error, anything else a plain syntax error.
  void expect_closer(Tok closer, const Token& open, const char* what);
  [[noreturn]] void error_at(ast::Loc loc, const char* id, const std::string& msg);
  /// Raises MATLAB:recursionLimit (as a parse error at the current token) once the nesting of
  /// brackets, unary operators or blocks has used half of this thread's stack.
  void check_nesting();

  // ---- classdef files (parser_classdef.cc)
  std::unique_ptr<ast::ClassDefAst> parse_classdef(ast::ParsedFile& file);
  std::vector<ast::ClassAttr> parse_class_attrs();
  void parse_properties_block(ast::ClassDefAst& cd);
  void parse_methods_block(ast::ClassDefAst& cd, ast::ParsedFile& file);
  void parse_enumeration_block(ast::ClassDefAst& cd);
  void skip_member_block(const Token& opener);

  // ---- files, functions, statements (parser.cc)
  bool decide_functions_have_end() const;
  std::unique_ptr<ast::FunctionDef> parse_function();
  ast::Block parse_block();
  void expect_end(const char* opener, ast::Loc opened, const char* octave_end);
  void skip_separators();
  ast::StmtPtr parse_statement();
  void finish_statement(ast::Stmt& s);
  ast::StmtPtr parse_if();
  ast::StmtPtr parse_for();
  ast::StmtPtr parse_while();
  ast::StmtPtr parse_spmd();
  ast::StmtPtr parse_switch();
  ast::StmtPtr parse_try();
  ast::StmtPtr parse_decl(ast::StmtKind kind);
  ast::StmtPtr parse_command();
  ast::StmtPtr parse_multi_assign();
  ast::StmtPtr parse_expr_or_assign();
  bool is_multi_assign_start() const;
  void check_lvalue(const ast::Expr& e, ast::Loc loc);

  // ---- expression levels (parser_expr.cc)
  ast::ExprPtr parse_oror();
  ast::ExprPtr parse_andand();
  ast::ExprPtr parse_or();
  ast::ExprPtr parse_and();
  ast::ExprPtr parse_comparison();
  ast::ExprPtr parse_range();
  ast::ExprPtr parse_additive();
  ast::ExprPtr parse_multiplicative();
  ast::ExprPtr parse_unary();
  ast::ExprPtr parse_power();
  ast::ExprPtr parse_power_operand();
  ast::ExprPtr parse_primary();
  ast::ExprPtr parse_matrix(bool cell);
  ast::ExprPtr parse_handle();
  std::vector<ast::ExprPtr> parse_args(const Token& open, Tok closer);
  /// offsets (optional): for each token in [begin, end), where its text starts in the result.
  std::string source_text(size_t begin, size_t end, std::vector<size_t>* offsets = nullptr) const;
  /// Anonymous functions inside the one being parsed, waiting for the outermost one's text.
  struct PendingAnon {
    ast::AnonFnExpr* fn;
    size_t begin, end;  // token range
  };
  std::vector<PendingAnon> pending_anons_;
  int anon_depth_ = 0;
};

}  // namespace matfuse
