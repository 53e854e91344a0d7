// Lexer tests: transpose vs char literal, numbers, whitespace in brackets, comments,
// continuations and command syntax.
#include <gtest/gtest.h>

#include "lang/lexer.h"

namespace matfuse {
namespace {

// Compact rendering: identifiers by name, numbers by source text, n:/c:/s:/w:/kw: prefixes for
// values, punctuation by its spelling, NL for newlines. Eof is dropped.
std::string lex(const std::string& src) {
  std::string out;
  for (const Token& t : tokenize(src, "t.m")) {
    std::string s;
    switch (t.kind) {
      case Tok::Eof:
        continue;
      case Tok::Ident:
        s = t.text;
        break;
      case Tok::Keyword:
        s = "kw:" + t.text;
        break;
      case Tok::Number:
        s = "n:" + t.raw;
        break;
      case Tok::ImagNumber:
        s = "i:" + t.raw;
        break;
      case Tok::CharLit:
        s = "c:" + t.text;
        break;
      case Tok::StringLit:
        s = "s:" + t.text;
        break;
      case Tok::CommandWord:
        s = "w:" + t.text;
        break;
      case Tok::Newline:
        s = "NL";
        break;
      default: {
        s = token_name(t.kind);
        s = s.substr(1, s.size() - 2);
      }
    }
    if (!out.empty()) out += ' ';
    out += s;
  }
  return out;
}

double num(const std::string& src) {
  auto toks = tokenize(src, "");
  EXPECT_TRUE(toks[0].kind == Tok::Number || toks[0].kind == Tok::ImagNumber) << src;
  return toks[0].number;
}

std::string lex_error_id(const std::string& src) {
  try {
    tokenize(src, "t.m");
  } catch (const MatlabError& e) {
    return e.identifier();
  }
  return "none";
}

TEST(Lexer, TransposeVersusCharLiteral) {
  EXPECT_EQ(lex("a'"), "a '");
  EXPECT_EQ(lex("a''"), "a ' '");
  EXPECT_EQ(lex("a.'"), "a .'");
  EXPECT_EQ(lex("x(1)'"), "x ( n:1 ) '");
  EXPECT_EQ(lex("[1 2]'"), "[ n:1 , n:2 ] '");
  EXPECT_EQ(lex("{1}'"), "{ n:1 } '");
  EXPECT_EQ(lex("2'"), "n:2 '");
  EXPECT_EQ(lex("x = 'abc'"), "x = c:abc");
  EXPECT_EQ(lex("x = 'it''s'"), "x = c:it's");
  EXPECT_EQ(lex("x = \"say \"\"hi\"\"\""), "x = s:say \"hi\"");
  EXPECT_EQ(lex("x = 'a\\n'"), "x = c:a\\n");  // escapes are not processed
  EXPECT_EQ(lex("f('a', 'b')"), "f ( c:a , c:b )");
  EXPECT_EQ(lex("[a' b']"), "[ a ' , b ' ]");
  EXPECT_EQ(lex("[a 'str']"), "[ a , c:str ]");
  EXPECT_EQ(lex("[a' 'str']"), "[ a ' , c:str ]");
  // Outside brackets whitespace does not turn a transpose into a literal.
  EXPECT_EQ(lex("b = a ';"), "b = a ' ;");
  EXPECT_EQ(lex("y = x(end)'"), "y = x ( kw:end ) '");
}

TEST(Lexer, Numbers) {
  EXPECT_DOUBLE_EQ(num("1e-3"), 1e-3);
  EXPECT_DOUBLE_EQ(num(".5"), 0.5);
  EXPECT_DOUBLE_EQ(num("1."), 1.0);
  EXPECT_DOUBLE_EQ(num("0x1F"), 31);
  EXPECT_DOUBLE_EQ(num("0b101"), 5);
  EXPECT_DOUBLE_EQ(num("1_000_000"), 1e6);
  EXPECT_DOUBLE_EQ(num("1E+2"), 100);
  EXPECT_DOUBLE_EQ(num("0xFFu8"), 255);
  EXPECT_DOUBLE_EQ(num("0xFFs8"), -1);
  EXPECT_DOUBLE_EQ(num("0b1000_0000s16"), 128);
  auto cls = [](const std::string& src) { return tokenize(src, "")[0].int_class; };
  EXPECT_EQ(cls("0x1F"), "uint8");
  EXPECT_EQ(cls("0x100"), "uint16");
  EXPECT_EQ(cls("0x1FFFF"), "uint32");
  EXPECT_EQ(cls("0x1FFFFFFFF"), "uint64");
  EXPECT_EQ(cls("0b101s32"), "int32");
  EXPECT_EQ(cls("31"), "");
  EXPECT_EQ(lex_error_id("0x100u8"), "MATLAB:syntax");
  EXPECT_EQ(lex("3i"), "i:3i");
  EXPECT_EQ(lex("2.5j"), "i:2.5j");
  EXPECT_EQ(lex("1e3i"), "i:1e3i");
  EXPECT_DOUBLE_EQ(num("1e3i"), 1000);
  EXPECT_EQ(lex("1.*2"), "n:1 .* n:2");
  EXPECT_EQ(lex("1./x"), "n:1 ./ x");
  EXPECT_EQ(lex("1.^2"), "n:1 .^ n:2");
  EXPECT_EQ(lex("1.'"), "n:1 .'");
  EXPECT_EQ(lex("1:3"), "n:1 : n:3");
  EXPECT_EQ(lex("x.y"), "x . y");
}

TEST(Lexer, MatrixWhitespace) {
  EXPECT_EQ(lex("[1 -2]"), "[ n:1 , - n:2 ]");
  EXPECT_EQ(lex("[1 - 2]"), "[ n:1 - n:2 ]");
  EXPECT_EQ(lex("[1 -  2]"), "[ n:1 - n:2 ]");
  EXPECT_EQ(lex("[1-2]"), "[ n:1 - n:2 ]");
  EXPECT_EQ(lex("[a -b]"), "[ a , - b ]");
  EXPECT_EQ(lex("[a - -b]"), "[ a - - b ]");
  EXPECT_EQ(lex("[1 +2]"), "[ n:1 , + n:2 ]");
  EXPECT_EQ(lex("[x(1) (2)]"), "[ x ( n:1 ) , ( n:2 ) ]");
  EXPECT_EQ(lex("[f(1, -2) 3]"), "[ f ( n:1 , - n:2 ) , n:3 ]");
  EXPECT_EQ(lex("[ 1 2 ]"), "[ n:1 , n:2 ]");
  EXPECT_EQ(lex("[1 2\n3 4]"), "[ n:1 , n:2 NL n:3 , n:4 ]");
  EXPECT_EQ(lex("[a ~b]"), "[ a , ~ b ]");
  EXPECT_EQ(lex("[a ~= b]"), "[ a ~= b ]");
  EXPECT_EQ(lex("[a ~] = f"), "[ a , ~ ] = f");
  EXPECT_EQ(lex("{@(x) x+1, 2}"), "{ @ ( x ) x + n:1 , n:2 }");
  EXPECT_EQ(lex("{@sin @cos}"), "{ @ sin , @ cos }");
  EXPECT_EQ(lex("{a {1}}"), "{ a , { n:1 } }");
  EXPECT_EQ(lex("{a{1}}"), "{ a { n:1 } }");
  EXPECT_EQ(lex("[a .5]"), "[ a , n:.5 ]");
  EXPECT_EQ(lex("[a .* b]"), "[ a .* b ]");
  EXPECT_EQ(lex("x([1 end])"), "x ( [ n:1 , kw:end ] )");
}

TEST(Lexer, CommentsAndContinuations) {
  EXPECT_EQ(lex("x = 1 % comment\ny"), "x = n:1 NL y");
  EXPECT_EQ(lex("x = [1, 2, ... comment\n 3]"), "x = [ n:1 , n:2 , n:3 ]");
  EXPECT_EQ(lex("x = [1 2 ...\n 3]"), "x = [ n:1 , n:2 , n:3 ]");
  EXPECT_EQ(lex("x = 1 + ...\n 2"), "x = n:1 + n:2");
  EXPECT_EQ(lex("x = [1 2 3...\n 4]"), "x = [ n:1 , n:2 , n:3 , n:4 ]");
  EXPECT_EQ(lex("%{\nanything 'here\n%}\nx"), "NL x");
  EXPECT_EQ(lex("%{\n%{\nnested\n%}\nstill\n%}\nx"), "NL x");
  EXPECT_EQ(lex("  %{\n  x\n  %}\ny"), "NL y");
  EXPECT_EQ(lex("x %{ not a block\ny"), "x NL y");
  EXPECT_EQ(lex("x = [1 % c\n 2]"), "x = [ n:1 NL n:2 ]");
  EXPECT_EQ(lex("x = 'a%b'"), "x = c:a%b");
  EXPECT_EQ(lex("a != b"), "a ~= b");
  EXPECT_EQ(lex("!a"), "~ a");
}

TEST(Lexer, CommandSyntax) {
  EXPECT_EQ(lex("format long"), "format w:long");
  EXPECT_EQ(lex("hold on;"), "hold w:on ;");
  EXPECT_EQ(lex("clear x y"), "clear w:x w:y");
  EXPECT_EQ(lex("disp hello, x"), "disp w:hello , x");
  EXPECT_EQ(lex("disp 'a b'"), "disp w:a b");
  EXPECT_EQ(lex("warning off all % c"), "warning w:off w:all");
  EXPECT_EQ(lex("x -1"), "x w:-1");
  EXPECT_EQ(lex("clc"), "clc");
  // Not command syntax: assignment, call, binary operator followed by space, known variable.
  EXPECT_EQ(lex("x = 1"), "x = n:1");
  EXPECT_EQ(lex("disp (x)"), "disp ( x )");
  EXPECT_EQ(lex("a - b"), "a - b");
  EXPECT_EQ(lex("a == b"), "a == b");
  EXPECT_EQ(lex("x = 3; x -1"), "x = n:3 ; x - n:1");
  EXPECT_EQ(lex("for k = 1:2, k -1, end"), "kw:for k = n:1 : n:2 , k - n:1 , kw:end");
  EXPECT_EQ(lex("[a, b] = f(); a -1"), "[ a , b ] = f ( ) ; a - n:1");
  EXPECT_EQ(lex("function f(x)\nx -1"), "kw:function f ( x ) NL x - n:1");
  EXPECT_EQ(lex("if x, disp hi, end"), "kw:if x , disp w:hi , kw:end");
  EXPECT_EQ(lex("y = disp hi"), "y = disp hi");              // only at statement start
  EXPECT_EQ(lex("f(w=1); f -1"), "f ( w = n:1 ) ; f w:-1");  // Name=Value is no assignment
  EXPECT_EQ(lex("else disp hi"), "kw:else disp w:hi");
  EXPECT_EQ(lex("try disp hi"), "kw:try disp w:hi");
  EXPECT_EQ(lex("catch err"), "kw:catch err");
}

TEST(Lexer, LocationsAndDepth) {
  auto toks = tokenize("x = 1;\n  y(2)", "t.m");
  ASSERT_GE(toks.size(), 8u);
  EXPECT_EQ(toks[0].loc.line, 1);
  EXPECT_EQ(toks[0].loc.column, 1);
  EXPECT_EQ(toks[2].loc.column, 5);
  EXPECT_EQ(toks[5].text, "y");
  EXPECT_EQ(toks[5].loc.line, 2);
  EXPECT_EQ(toks[5].loc.column, 3);
  EXPECT_EQ(toks[7].depth, 1);  // 2 inside the parentheses
}

TEST(Lexer, Errors) {
  EXPECT_EQ(lex_error_id("x = 'abc"), "MATLAB:unterminatedString");
  EXPECT_EQ(lex_error_id("x = \"abc\ny"), "MATLAB:unterminatedString");
  EXPECT_EQ(lex_error_id("x = (1 + 2"), "MATLAB:unbalancedBrackets");
  EXPECT_EQ(lex_error_id("x = [1 2"), "MATLAB:unbalancedBrackets");
  EXPECT_EQ(lex_error_id("x = [1 2)"), "MATLAB:unbalancedBrackets");
  EXPECT_EQ(lex_error_id("x = 1)"), "MATLAB:unbalancedBrackets");
  EXPECT_EQ(lex_error_id("x = f(1,\n2)"), "MATLAB:unbalancedBrackets");
  EXPECT_EQ(lex_error_id("x = $"), "MATLAB:syntax");
  try {
    tokenize("x = 1;\ny = 'abc", "dir/t.m");
    FAIL();
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.message(), "dir/t.m:2:5: Parse error: character vector is not terminated properly");
    ASSERT_EQ(e.stack().size(), 1u);
    EXPECT_EQ(e.stack()[0].file, "dir/t.m");
    EXPECT_EQ(e.stack()[0].name, "t");
    EXPECT_EQ(e.stack()[0].line, 2);
    EXPECT_EQ(e.stack()[0].column, 5);
  }
}

}  // namespace
}  // namespace matfuse
