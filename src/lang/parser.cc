// Parser: files, functions and statements (expressions are in parser_expr.cc).
//
// A file is a function file when its first token is `function`; otherwise it is a script whose
// statements may be followed by local functions. Whether functions end with `end` is decided per
// file by counting block openers and `end`s at statement level (MATLAB requires all functions of a
// file to agree); only end-terminated functions can contain nested functions.
#include <cstdint>

#include "lang/parser.h"

#include "lang/parser_internal.h"
#include "runtime/stack_guard.h"

namespace matfuse {

using namespace ast;

namespace {

bool is_block_opener(const Token& t) {
  if (t.kind != Tok::Keyword || t.depth != 0) return false;
  const std::string& k = t.text;
  return k == "if" || k == "for" || k == "parfor" || k == "while" || k == "switch" || k == "try" ||
         k == "spmd";
}

bool is_end_word(const std::string& k) {
  return k == "end" || k == "endif" || k == "endwhile" || k == "endfor" || k == "endfunction" ||
         k == "endswitch" || k == "end_try_catch" || k == "endparfor";
}

}  // namespace

// ---------------------------------------------------------------- token helpers

const Token& Parser::cur() {
  const Token& t = toks_[p_];
  if (t.kind == Tok::Eof && lex_error_) {
    MatlabError e = std::move(*lex_error_);
    lex_error_.reset();
    throw e;
  }
  return t;
}

bool Parser::at_block_end() { return cur().kind == Tok::Keyword && is_end_word(cur().text); }

void Parser::error_at(Loc loc, const char* id, const std::string& msg) {
  throw make_parse_error(path_, loc, id, msg);
}

void Parser::check_nesting() {
  // The parser may use half of the stack; the walkers over the tree it builds (resolver,
  // liveness, evaluation, destruction) use less per level and get the other half.
  const size_t left = stack_remaining();
  if (left == SIZE_MAX) return;
  if (left < (size_t{1} << 20) || left < stack_size() / 2)
    error_at(cur().loc, "MATLAB:recursionLimit",
             "nesting of brackets, operators or blocks exceeds the recursion limit");
}

void Parser::error_expected(const std::string& what) {
  const Token& t = cur();
  error_at(t.loc, "MATLAB:syntax", "expected " + what + ", found " + describe_token(t));
}

Token Parser::expect(Tok k, const char* what) {
  if (!at(k)) error_expected(what);
  return take();
}

void Parser::expect_closer(Tok closer, const Token& open, const char* what) {
  if (accept(closer)) return;
  const Token& t = cur();
  if (t.kind == Tok::Semicolon || t.kind == Tok::Newline || t.kind == Tok::Eof ||
      (t.kind == Tok::Assign && closer != Tok::RBracket)) {
    std::string close = token_name(closer), opener = token_name(open.kind);
    error_at(t.loc, "MATLAB:unbalancedBrackets",
             "expected " + std::string(what) + " to close " + opener + " opened at line " +
                 std::to_string(open.loc.line) + " column " + std::to_string(open.loc.column) +
                 ", found " + describe_token(t));
  }
  error_expected(what);
}

void Parser::skip_separators() {
  while (at(Tok::Newline) || at(Tok::Semicolon) || at(Tok::Comma)) take();
}

// ---------------------------------------------------------------- files and functions

// file := { SEP } ( function_def { function_def } | classdef_file
//                  | block { function_def } ) EOF
std::unique_ptr<ParsedFile> Parser::parse_file() {
  auto file = std::make_unique<ParsedFile>();
  file->path = path_;
  file->name = file_stem(path_);
  functions_have_end_ = decide_functions_have_end();
  skip_separators();
  if (at_kw("classdef")) {
    file->is_script = false;
    functions_have_end_ = true;  // methods of a classdef end with 'end'
    file->classdef = parse_classdef(*file);
  } else if (at_kw("function")) {
    file->is_script = false;
  } else {
    file->is_script = true;
    file->script_body = parse_block();
  }
  while (true) {
    skip_separators();
    if (at(Tok::Eof)) break;
    if (at_kw("function")) {
      file->functions.push_back(parse_function());
      continue;
    }
    const Token& t = cur();
    if (t.kind == Tok::Keyword && is_end_word(t.text))
      error_at(t.loc, "MATLAB:syntax",
               "'" + t.text +
                   "' does not close any block (no 'if', 'for', 'while', 'switch', "
                   "'try' or 'function' is open)");
    error_expected("a statement");
  }
  return file;
}

// All functions of a file are end-terminated when the statement-level `end`s outnumber the
// other block openers (each function then owns one `end`).
bool Parser::decide_functions_have_end() const {
  int openers = 0, ends = 0, functions = 0;
  for (const Token& t : toks_) {
    if (t.kind != Tok::Keyword || t.depth != 0) continue;
    if (is_block_opener(t))
      ++openers;
    else if (t.text == "function")
      ++functions;
    else if (is_end_word(t.text))
      ++ends;
  }
  return functions > 0 && ends > openers;
}

// function_def := 'function' [ outputs '=' ] NAME [ '(' [ param { ',' param } ] ')' ] block
//                 [ 'end' ]          (nested function_defs may appear in the block when
//                                     functions are end-terminated)
// outputs := NAME | '[' [ NAME { [','] NAME } ] ']'        param := NAME | '~'
std::unique_ptr<FunctionDef> Parser::parse_function() {
  Token kw = take();  // 'function'
  auto fn = std::make_unique<FunctionDef>();
  fn->loc = kw.loc;
  if (at(Tok::LBracket)) {
    take();
    while (!accept(Tok::RBracket)) {
      if (at(Tok::Comma)) {
        take();
        continue;
      }
      fn->outputs.push_back(expect(Tok::Ident, "an output name or ']'").text);
    }
    expect(Tok::Assign, "'='");
  } else if (at(Tok::Ident) && peek_at(1).kind == Tok::Assign) {
    fn->outputs.push_back(take().text);
    take();
  }
  Token name = expect(Tok::Ident, "a function name");
  fn->name = name.text;
  while (at(Tok::Dot) && peek_at(1).kind == Tok::Ident) {  // set.Prop / get.Prop
    take();
    fn->name += '.';
    fn->name += take().text;
  }
  if (accept(Tok::LParen)) {
    if (!accept(Tok::RParen)) {
      while (true) {
        if (at(Tok::Ident))
          fn->params.push_back(take().text);
        else if (at(Tok::Tilde)) {
          take();
          fn->params.push_back("~");
        } else {
          error_expected("a parameter name");
        }
        if (accept(Tok::Comma)) continue;
        expect(Tok::RParen, "',' or ')'");
        break;
      }
    }
  }
  if (!at(Tok::Newline) && !at(Tok::Semicolon) && !at(Tok::Comma) && !at(Tok::Eof))
    error_expected("end of line after the function signature");

  while (true) {
    Block part = parse_block();
    for (auto& s : part) fn->body.push_back(std::move(s));
    if (at_kw("function")) {
      if (!functions_have_end_) return fn;  // the next function begins
      fn->nested.push_back(parse_function());
      continue;
    }
    if (at(Tok::Eof)) {
      if (functions_have_end_)
        error_at(
            cur().loc, "MATLAB:missingEnd",
            "'function' opened at line " + std::to_string(kw.loc.line) + " is missing its 'end'");
      return fn;
    }
    if (at_block_end()) {
      if (!functions_have_end_)
        error_at(cur().loc, "MATLAB:syntax",
                 "'" + cur().text + "' does not close any block in function '" + fn->name + "'");
      if (cur().text != "end" && cur().text != "endfunction")
        error_at(cur().loc, "MATLAB:syntax",
                 "expected 'end' to close 'function' opened at line " +
                     std::to_string(kw.loc.line) + ", found '" + cur().text + "'");
      take();
      return fn;
    }
    const Token& t = cur();  // else / elseif / case / otherwise / catch out of place
    error_at(t.loc, "MATLAB:syntax", "'" + t.text + "' is not inside a matching block");
  }
}

// block := { SEP | statement }      (stops before
// end/else/elseif/case/otherwise/catch/function/EOF)
Block Parser::parse_block() {
  check_nesting();
  Block body;
  while (true) {
    skip_separators();
    if (at(Tok::Eof)) return body;
    const Token& t = cur();
    if (t.kind == Tok::Keyword) {
      const std::string& k = t.text;
      if (is_end_word(k) || k == "else" || k == "elseif" || k == "case" || k == "otherwise" ||
          k == "catch" || k == "function")
        return body;
    }
    body.push_back(parse_statement());
  }
}

void Parser::expect_end(const char* opener, Loc opened, const char* octave_end) {
  if (at_block_end()) {
    const std::string& k = cur().text;
    if (k != "end" && k != octave_end)
      error_at(cur().loc, "MATLAB:syntax",
               std::string("expected 'end' to close '") + opener + "' opened at line " +
                   std::to_string(opened.line) + ", found '" + k + "'");
    take();
    return;
  }
  const Token& t = cur();
  if (t.kind == Tok::Eof || (t.kind == Tok::Keyword && t.text == "function"))
    error_at(t.loc, "MATLAB:missingEnd",
             std::string("'") + opener + "' opened at line " + std::to_string(opened.line) +
                 " is missing its 'end'");
  error_at(t.loc, "MATLAB:syntax",
           std::string("expected 'end' to close '") + opener + "' opened at line " +
               std::to_string(opened.line) + ", found " + describe_token(t));
}

// ---------------------------------------------------------------- statements

// statement := if_stmt | for_stmt | while_stmt | switch_stmt | try_stmt | spmd_stmt
//            | 'break' | 'continue' | 'return' | ('global' | 'persistent') NAME { NAME }
//            | NAME COMMANDWORD { COMMANDWORD }            (command syntax)
//            | '[' target { ',' target } ']' '=' expr      (multiple assignment)
//            | lvalue '=' expr | expr
StmtPtr Parser::parse_statement() {
  const Token& t = cur();
  if (t.kind == Tok::Keyword) {
    const std::string& k = t.text;
    if (k == "if") return parse_if();
    if (k == "for" || k == "parfor") return parse_for();
    if (k == "while") return parse_while();
    if (k == "spmd") return parse_spmd();
    if (k == "switch") return parse_switch();
    if (k == "try") return parse_try();
    if (k == "global") return parse_decl(StmtKind::Global);
    if (k == "persistent") return parse_decl(StmtKind::Persistent);
    if (k == "break" || k == "continue" || k == "return") {
      Loc l = take().loc;
      StmtKind kind = k == "break"      ? StmtKind::Break
                      : k == "continue" ? StmtKind::Continue
                                        : StmtKind::Return;
      auto s = std::make_unique<SimpleStmt>(kind, l);
      finish_statement(*s);
      return s;
    }
    error_at(t.loc, "MATLAB:syntax", "'" + k + "' is not supported here");
  }
  if (t.kind == Tok::Ident && peek_at(1).kind == Tok::CommandWord) return parse_command();
  if (t.kind == Tok::LBracket && is_multi_assign_start()) return parse_multi_assign();
  return parse_expr_or_assign();
}

// Ends a simple statement: ';' (no display), ',' or a newline (display), or a block keyword.
void Parser::finish_statement(Stmt& s) {
  s.print = true;
  if (at(Tok::Semicolon)) {
    take();
    s.print = false;
    return;
  }
  if (at(Tok::Comma) || at(Tok::Newline)) {
    take();
    return;
  }
  if (at(Tok::Eof)) return;
  const Token& t = cur();
  if (t.kind == Tok::Keyword && (is_end_word(t.text) || t.text == "else" || t.text == "elseif" ||
                                 t.text == "case" || t.text == "otherwise" || t.text == "catch"))
    return;
  error_expected("an operator, ',' , ';' or end of line");
}

// if_stmt := 'if' expr block { 'elseif' expr block } [ 'else' block ] 'end'
StmtPtr Parser::parse_if() {
  Loc l = take().loc;
  auto s = std::make_unique<IfStmt>(l);
  IfStmt::Clause first;
  first.cond = parse_expr();
  first.body = parse_block();
  s->clauses.push_back(std::move(first));
  while (at_kw("elseif")) {
    take();
    IfStmt::Clause c;
    c.cond = parse_expr();
    c.body = parse_block();
    s->clauses.push_back(std::move(c));
  }
  if (at_kw("else")) {
    take();
    IfStmt::Clause c;
    c.body = parse_block();
    s->clauses.push_back(std::move(c));
  }
  expect_end("if", l, "endif");
  return s;
}

// for_stmt := ('for' | 'parfor') ( lvalue '=' expr | '(' lvalue '=' expr [ ',' expr ] ')' )
//             block 'end'
StmtPtr Parser::parse_for() {
  Token kw = take();
  auto s = std::make_unique<ForStmt>(kw.loc);
  bool paren = false;
  if (at(Tok::LParen) && peek_at(1).kind == Tok::Ident && (peek_at(2).kind == Tok::Assign)) {
    take();
    paren = true;
  }
  if (!at(Tok::Ident)) error_expected("a loop variable");
  Loc vl = cur().loc;
  s->var = parse_postfix_primary();
  check_lvalue(*s->var, vl);
  expect(Tok::Assign, "'='");
  s->range = parse_expr();
  s->parfor = kw.text == "parfor";
  if (paren) {
    if (s->parfor && accept(Tok::Comma)) s->max_workers = parse_expr();  // parfor (i = r, M)
    expect(Tok::RParen, "')'");
  }
  s->body = parse_block();
  expect_end(kw.text.c_str(), kw.loc, kw.text == "parfor" ? "endparfor" : "endfor");
  return s;
}

// spmd_stmt := 'spmd' [ '(' expr [ ',' expr ] ')' ] block 'end'
StmtPtr Parser::parse_spmd() {
  Loc l = take().loc;
  auto s = std::make_unique<SpmdStmt>(l);
  if (at(Tok::LParen)) {
    take();
    ExprPtr first = parse_expr();
    if (accept(Tok::Comma)) {
      s->min_workers = std::move(first);
      s->max_workers = parse_expr();
    } else {
      s->max_workers = std::move(first);
    }
    expect(Tok::RParen, "')'");
  }
  s->body = parse_block();
  expect_end("spmd", l, "end");
  return s;
}

// while_stmt := 'while' expr block 'end'
StmtPtr Parser::parse_while() {
  Loc l = take().loc;
  auto s = std::make_unique<WhileStmt>(l);
  s->cond = parse_expr();
  s->body = parse_block();
  expect_end("while", l, "endwhile");
  return s;
}

// switch_stmt := 'switch' expr { SEP } { 'case' expr block } [ 'otherwise' block ] 'end'
StmtPtr Parser::parse_switch() {
  Loc l = take().loc;
  auto s = std::make_unique<SwitchStmt>(l);
  s->subject = parse_expr();
  skip_separators();
  while (at_kw("case")) {
    take();
    SwitchStmt::Case c;
    c.value = parse_expr();
    c.body = parse_block();
    s->cases.push_back(std::move(c));
  }
  if (at_kw("otherwise")) {
    take();
    SwitchStmt::Case c;
    c.body = parse_block();
    s->cases.push_back(std::move(c));
  }
  if (!at_block_end() && !at(Tok::Eof) && !at_kw("function"))
    error_expected("'case', 'otherwise' or 'end'");
  expect_end("switch", l, "endswitch");
  return s;
}

// try_stmt := 'try' block [ 'catch' [ NAME ] block ] 'end'
//             (NAME only on the catch line, followed by a separator)
StmtPtr Parser::parse_try() {
  Loc l = take().loc;
  auto s = std::make_unique<TryStmt>(l);
  s->body = parse_block();
  if (at_kw("catch")) {
    take();
    if (at(Tok::Ident)) {
      Tok next = peek_at(1).kind;
      if (next == Tok::Newline || next == Tok::Semicolon || next == Tok::Comma || next == Tok::Eof)
        s->catch_var = take().text;
    }
    s->handler = parse_block();
  }
  expect_end("try", l, "end_try_catch");
  return s;
}

// decl := ('global' | 'persistent') NAME { NAME }
StmtPtr Parser::parse_decl(StmtKind kind) {
  Loc l = take().loc;
  auto s = std::make_unique<DeclStmt>(kind, l);
  while (at(Tok::Ident)) s->names.push_back(take().text);
  if (s->names.empty()) error_expected("a variable name");
  finish_statement(*s);
  return s;
}

// command := NAME COMMANDWORD { COMMANDWORD }
StmtPtr Parser::parse_command() {
  Token name = take();
  std::vector<std::string> args;
  while (at(Tok::CommandWord)) args.push_back(take().text);
  auto s = std::make_unique<CommandStmt>(name.loc, name.text, std::move(args));
  finish_statement(*s);
  return s;
}

// A '[' at statement start begins a multiple assignment when its matching ']' is followed by '='.
bool Parser::is_multi_assign_start() const {
  int depth = 0;
  for (size_t i = p_; i < toks_.size(); ++i) {
    Tok k = toks_[i].kind;
    if (k == Tok::LBracket || k == Tok::LParen || k == Tok::LBrace)
      ++depth;
    else if (k == Tok::RBracket || k == Tok::RParen || k == Tok::RBrace) {
      if (--depth == 0) return i + 1 < toks_.size() && toks_[i + 1].kind == Tok::Assign;
    } else if (k == Tok::Eof || (k == Tok::Newline && depth == 0)) {
      return false;
    }
  }
  return false;
}

// multi_assign := '[' target { ',' target } ']' '=' expr        target := lvalue | '~'
StmtPtr Parser::parse_multi_assign() {
  Loc l = take().loc;
  std::vector<ExprPtr> targets;
  while (true) {
    if (at(Tok::Tilde) && (peek_at(1).kind == Tok::Comma || peek_at(1).kind == Tok::RBracket)) {
      take();
      targets.push_back(nullptr);
    } else {
      if (!at(Tok::Ident)) error_expected("a variable name or '~'");
      Loc tl = cur().loc;
      ExprPtr t = parse_postfix_primary();
      check_lvalue(*t, tl);
      targets.push_back(std::move(t));
    }
    if (accept(Tok::Comma)) continue;
    expect(Tok::RBracket, "',' or ']'");
    break;
  }
  expect(Tok::Assign, "'='");
  auto s = std::make_unique<AssignStmt>(l, std::move(targets), parse_expr());
  s->multi = true;
  finish_statement(*s);
  return s;
}

// assignment := lvalue '=' expr        lvalue := NAME { '(' args ')' | '{' args '}' | '.' field }
StmtPtr Parser::parse_expr_or_assign() {
  Loc l = cur().loc;
  ExprPtr e = parse_expr();
  if (at(Tok::Assign)) {
    check_lvalue(*e, l);
    take();
    std::vector<ExprPtr> targets;
    targets.push_back(std::move(e));
    auto s = std::make_unique<AssignStmt>(l, std::move(targets), parse_expr());
    finish_statement(*s);
    return s;
  }
  auto s = std::make_unique<ExprStmt>(l, std::move(e));
  finish_statement(*s);
  return s;
}

void Parser::check_lvalue(const Expr& e, Loc loc) {
  const Expr* x = &e;
  while (true) {
    if (x->kind == ExprKind::Ident) return;
    if (x->kind == ExprKind::Index)
      x = static_cast<const IndexExpr*>(x)->base.get();
    else if (x->kind == ExprKind::Field)
      x = static_cast<const FieldExpr*>(x)->base.get();
    else
      break;
  }
  error_at(loc, "MATLAB:syntax",
           "the left side of '=' must be a variable, an indexed variable or a field "
           "(use '==' to compare values)");
}

// ---------------------------------------------------------------- entry point

std::unique_ptr<ParsedFile> parse_source(std::string_view source, const std::string& path) {
  Parser parser(lex_source(source, path), path);
  return parser.parse_file();
}

std::unique_ptr<ParsedFile> parse_source(std::string_view source, const std::string& path,
                                         const std::vector<std::string>& known_variables) {
  Parser parser(lex_source(source, path, &known_variables), path);
  return parser.parse_file();
}

}  // namespace matfuse
