// Parser: classdef files (class definitions: properties, methods, enumeration blocks).
//
// The lexer never reads a property line as command syntax ("Name string = ''"), so the
// tokens here are ordinary. Methods are function_defs (always end-terminated in a classdef
// file) and go into ParsedFile::functions, so local-function lookup and the resolver treat
// them like any function; ClassDefAst::methods names them with their block's attributes.
#include "lang/parser_internal.h"

namespace matfuse {

using namespace ast;

namespace {

/// `name = e;` (no display): how property defaults and enumeration arguments are stored, so the
/// resolver and the interpreter run them like any statement.
StmtPtr assign_to(const std::string& name, Loc loc, ExprPtr e) {
  std::vector<ExprPtr> t;
  t.push_back(std::make_unique<IdentExpr>(loc, name));
  return std::make_unique<AssignStmt>(loc, std::move(t), std::move(e));
}

}  // namespace

// classdef_file := 'classdef' [ attrs ] NAME [ '<' NAME { '&' NAME } ] SEP
//                  { properties_block | methods_block | events_block | enumeration_block
//                    | SEP } 'end'
//                  (NAME may be dotted: pkg.Base)
std::unique_ptr<ClassDefAst> Parser::parse_classdef(ParsedFile& file) {
  Token kw = take();  // 'classdef'
  auto cd = std::make_unique<ClassDefAst>();
  cd->loc = kw.loc;
  if (at(Tok::LParen)) cd->attrs = parse_class_attrs();
  cd->name = expect(Tok::Ident, "a class name").text;
  if (accept(Tok::Lt)) {
    while (true) {
      std::string super = expect(Tok::Ident, "a superclass name").text;
      while (at(Tok::Dot) && peek_at(1).kind == Tok::Ident) {
        take();
        super += "." + take().text;
      }
      cd->supers.push_back(std::move(super));
      if (!accept(Tok::Amp)) break;
    }
  }
  while (true) {
    skip_separators();
    const Token& t = cur();
    if (t.kind == Tok::Keyword && t.text == "end") {
      take();
      return cd;
    }
    if (t.kind == Tok::Eof)
      error_at(t.loc, "MATLAB:missingEnd",
               "'classdef' opened at line " + std::to_string(kw.loc.line) +
                   " is missing its 'end'");
    if (t.kind == Tok::Ident && t.text == "properties") {
      parse_properties_block(*cd);
    } else if (t.kind == Tok::Ident && t.text == "methods") {
      parse_methods_block(*cd, file);
    } else if (t.kind == Tok::Ident && t.text == "enumeration") {
      parse_enumeration_block(*cd);
    } else if (t.kind == Tok::Ident && t.text == "events") {
      skip_member_block(take());
    } else {
      error_expected("'properties', 'methods', 'events', 'enumeration' or 'end' in classdef '" +
                     cd->name + "'");
    }
  }
}

// attrs := '(' attr { ',' attr } ')'
// attr  := [ '~' ] NAME [ '=' attr_value ]    (attr_value: tokens up to ',' or ')' at depth 0)
std::vector<ClassAttr> Parser::parse_class_attrs() {
  Token open = take();  // '('
  std::vector<ClassAttr> attrs;
  while (!accept(Tok::RParen)) {
    ClassAttr a;
    bool negated = accept(Tok::Tilde);
    a.name = expect(Tok::Ident, "an attribute name").text;
    a.value = negated ? "false" : "true";
    if (accept(Tok::Assign)) {
      std::string v;
      int depth = 0;
      while (true) {
        const Token& t = cur();
        if (t.kind == Tok::Eof || t.kind == Tok::Newline)
          expect_closer(Tok::RParen, open, "')'");
        if (depth == 0 && (t.kind == Tok::Comma || t.kind == Tok::RParen)) break;
        if (t.kind == Tok::LParen || t.kind == Tok::LBrace || t.kind == Tok::LBracket) ++depth;
        if (t.kind == Tok::RParen || t.kind == Tok::RBrace || t.kind == Tok::RBracket) --depth;
        v += t.kind == Tok::At ? "@" : t.kind == Tok::CharLit ? t.text : t.text;
        take();
      }
      a.value = v;
    }
    attrs.push_back(std::move(a));
    if (!accept(Tok::Comma) && !at(Tok::RParen)) expect_closer(Tok::RParen, open, "')'");
  }
  return attrs;
}

// properties_block := 'properties' [ attrs ] SEP { prop_line } 'end'
// prop_line := NAME [ '(' dim { ',' dim } ')' ] [ CLASS ] [ '{' expr { ',' expr } '}' ]
//              [ '=' expr ] SEP                   (dim := NUMBER | ':'; CLASS may be dotted)
void Parser::parse_properties_block(ClassDefAst& cd) {
  Token kw = take();  // 'properties'
  std::vector<ClassAttr> attrs;
  if (at(Tok::LParen)) attrs = parse_class_attrs();
  while (true) {
    skip_separators();
    if (at_kw("end")) {
      take();
      return;
    }
    if (at(Tok::Eof))
      error_at(cur().loc, "MATLAB:missingEnd",
               "'properties' opened at line " + std::to_string(kw.loc.line) +
                   " is missing its 'end'");
    ClassProperty p;
    Token name = expect(Tok::Ident, "a property name");
    p.name = name.text;
    p.loc = name.loc;
    p.attrs = attrs;
    if (at(Tok::LParen)) {
      Token open = take();
      while (!accept(Tok::RParen)) {
        if (at(Tok::Colon)) {
          take();
          p.size.push_back(":");
        } else if (at(Tok::Number)) {
          p.size.push_back(take().raw);
        } else {
          error_expected("a dimension (a number or ':')");
        }
        if (!accept(Tok::Comma) && !at(Tok::RParen)) expect_closer(Tok::RParen, open, "')'");
      }
    }
    if (at(Tok::Ident)) {
      p.cls = take().text;
      while (at(Tok::Dot) && peek_at(1).kind == Tok::Ident) {
        take();
        p.cls += "." + take().text;
      }
    }
    if (at(Tok::LBrace)) {
      Token open = take();
      int saved = index_depth_;
      index_depth_ = 0;
      while (!accept(Tok::RBrace)) {
        p.validators.push_back(parse_expr());
        if (!accept(Tok::Comma) && !at(Tok::RBrace)) expect_closer(Tok::RBrace, open, "'}'");
      }
      index_depth_ = saved;
    }
    if (at(Tok::Assign)) {
      Loc l = take().loc;
      p.default_block.push_back(assign_to("__value__", l, parse_expr()));
    }
    if (!at(Tok::Newline) && !at(Tok::Semicolon) && !at(Tok::Comma) && !at_kw("end"))
      error_expected("end of the property line");
    cd.properties.push_back(std::move(p));
  }
}

// methods_block := 'methods' [ attrs ] SEP { function_def | signature SEP } 'end'
// signature := [ outputs '=' ] NAME [ '(' params ')' ]    (declared here, defined elsewhere)
void Parser::parse_methods_block(ClassDefAst& cd, ParsedFile& file) {
  Token kw = take();  // 'methods'
  std::vector<ClassAttr> attrs;
  if (at(Tok::LParen)) attrs = parse_class_attrs();
  while (true) {
    skip_separators();
    if (at_kw("end")) {
      take();
      return;
    }
    if (at(Tok::Eof))
      error_at(cur().loc, "MATLAB:missingEnd",
               "'methods' opened at line " + std::to_string(kw.loc.line) +
                   " is missing its 'end'");
    if (at_kw("function")) {
      auto fn = parse_function();
      cd.methods.push_back({fn->name, attrs, true});
      file.functions.push_back(std::move(fn));
      continue;
    }
    // A signature: the name is the identifier before '(' or the line's end.
    std::string name;
    while (!at(Tok::Newline) && !at(Tok::Semicolon) && !at(Tok::Eof)) {
      const Token& t = take();
      if (t.kind == Tok::Ident && (at(Tok::LParen) || at(Tok::Newline) || at(Tok::Semicolon) ||
                                   at(Tok::Eof)))
        if (name.empty()) name = t.text;
    }
    if (name.empty()) error_expected("a method signature");
    cd.methods.push_back({name, attrs, false});
  }
}

// enumeration_block := 'enumeration' SEP { NAME [ '(' expr { ',' expr } ')' ] SEP } 'end'
void Parser::parse_enumeration_block(ClassDefAst& cd) {
  Token kw = take();  // 'enumeration'
  while (true) {
    skip_separators();
    if (at_kw("end")) {
      take();
      return;
    }
    if (at(Tok::Eof))
      error_at(cur().loc, "MATLAB:missingEnd",
               "'enumeration' opened at line " + std::to_string(kw.loc.line) +
                   " is missing its 'end'");
    EnumMember m;
    Token name = expect(Tok::Ident, "an enumeration member name");
    m.name = name.text;
    m.loc = name.loc;
    if (at(Tok::LParen)) {
      Token open = take();
      int saved = index_depth_;
      index_depth_ = 0;
      while (!accept(Tok::RParen)) {
        m.args.push_back(assign_to("__a" + std::to_string(++m.nargs) + "__", open.loc,
                                   parse_expr()));
        if (!accept(Tok::Comma) && !at(Tok::RParen)) expect_closer(Tok::RParen, open, "')'");
      }
      index_depth_ = saved;
    }
    cd.enumeration.push_back(std::move(m));
  }
}

// events_block := 'events' [ attrs ] SEP { NAME SEP } 'end'   (events are accepted, not used)
void Parser::skip_member_block(const Token& opener) {
  while (!at_kw("end")) {
    if (at(Tok::Eof))
      error_at(cur().loc, "MATLAB:missingEnd",
               "'" + opener.text + "' opened at line " + std::to_string(opener.loc.line) +
                   " is missing its 'end'");
    take();
  }
  take();
}

}  // namespace matfuse
