// Text builtins through the interpreter: containers.Map/isKey, extractAfter/extractBefore/
// extractBetween, replace, strfind, regexp/regexpi/regexprep, and the session text functions
// lasterr, pwd, ismac.
#include "builtins_check.h"

namespace matfuse::test {
namespace {

TEST(BuiltinsText, ContainersMapAndIsKey) {
  Snippet s;
  s("m = containers.Map({'a', 'b'}, {1, 2});");
  check(s, "m.Count", "uint64(2)");
  check(s, "m('b')", "2");
  check(s, "isKey(m, 'a')", "true");
  check(s, "isKey(m, {'a', 'z'})", "logical([1 0])");
  check(s, "keys(m)", "{'a', 'b'}");
  check(s, "values(m)", "{1, 2}");
  s("m('c') = 3;");
  check(s, "m.Count", "uint64(3)");
  s("m2 = containers.Map('KeyType', 'double', 'ValueType', 'any'); m2(3) = 'x';");
  check(s, "m2.KeyType", "'double'");
  check(s, "isKey(m2, 3)", "true");
  check(s, "isKey(m2, 4)", "false");
  check(s, "m2(3)", "'x'");
  s("m3 = containers.Map([1 2], {'p', 'q'});");
  check(s, "m3(2)", "'q'");
  s("m4 = containers.Map(); remove(m, 'a');");
  check(s, "m4.Count", "uint64(0)");
  check(s, "isKey(m, 'a')", "false");
  check_error(s, "containers.Map({'a'}, {1, 2})", "MATLAB:Containers:Map:KeyValueNumberMismatch");
  check_error(s, "m('zz')", "MATLAB:Containers:Map:NoKey");
}

TEST(BuiltinsText, ExtractAfterBeforeBetween) {
  Snippet s;
  check(s, "extractAfter('hello world', 'o')", "' world'");
  check(s, "extractAfter('hello', 2)", "'llo'");
  check(s, "extractAfter(\"abc\", \"b\")", "\"c\"");
  check(s, "extractAfter(\"abc\", 1)", "\"bc\"");
  check(s, "extractAfter({'ab', 'cb'}, 'b')", "{char(zeros(1, 0)), char(zeros(1, 0))}");
  check(s, "extractBefore('hello world', ' ')", "'hello'");
  check(s, "extractBefore('hello', 3)", "'he'");
  check(s, "extractBefore(\"abc\", \"c\")", "\"ab\"");
  s("e = extractBetween('a[b]c[d]', '[', ']');");  // one element per occurrence
  check(s, "numel(e)", "2");
  check(s, "e{1}", "'b'");
  check(s, "e{2}", "'d'");
  check(s, "extractBetween('abcdef', 2, 4)", "{'bcd'}");
  check(s, "extractBetween(\"abcdef\", 2, 4)", "\"bcd\"");
  check(s, "extractBetween('a[b]c', '[', ']', 'Boundaries', 'inclusive')", "{'[b]'}");
  check_error(s, "extractAfter('abc', 5)", "MATLAB:extractAfter:OutOfRange");
  check_error(s, "extractBefore('abc', 0)", "MATLAB:extractBefore:OutOfRange");
}

TEST(BuiltinsText, ReplaceAndStrfind) {
  Snippet s;
  check(s, "replace('aXbX', 'X', '-')", "'a-b-'");
  check(s, "replace('abc', {'a', 'c'}, {'1', '3'})", "'1b3'");
  check(s, "replace(\"ab\", \"b\", \"zz\")", "\"azz\"");
  check(s, "replace({'ab', 'bb'}, 'b', '')", "{'a', char(zeros(1, 0))}");
  check_error(s, "replace(1, 'a', 'b')", "MATLAB:replace:InvalidInput");
  check(s, "strfind('abcabc', 'bc')", "[2 5]");
  check(s, "strfind('aaa', 'aa')", "[1 2]");  // overlapping matches
  check(s, "isempty(strfind('abc', 'z'))", "true");
  check(s, "isempty(strfind('abc', ''))", "true");
  check(s, "strfind({'ab', 'bb'}, 'b')", "{2, [1 2]}");
  check(s, "strfind(\"abab\", \"b\")", "[2 4]");
  check(s, "class(strfind('aBc', 'b', 'ForceCellOutput', true))", "'cell'");
  check_error(s, "strfind(1, 'a')", "MATLAB:strfind:InvalidFirstInput");
}

TEST(BuiltinsText, Regexp) {
  Snippet s;
  check(s, "regexp('abcab', 'b')", "[2 5]");
  check(s, "regexp('ab12cd345', '\\d+', 'match')", "{'12', '345'}");
  check(s, "regexp('abc', 'b', 'once', 'match')", "'b'");
  check(s, "regexp('abc', 'z', 'once', 'match')", "''");
  s("[st, en] = regexp('xaay', 'a+');");
  check(s, "st", "2");
  check(s, "en", "3");
  s("[t, m] = regexp('ab12', '(\\d)(\\d)', 'tokens', 'match');");
  check(s, "t", "{{'1', '2'}}");
  check(s, "m", "{'12'}");
  s("n = regexp('k=v', '(?<key>\\w)=(?<val>\\w)', 'names');");
  check(s, "n.key", "'k'");
  check(s, "n.val", "'v'");
  check(s, "regexp('a,b,,c', ',', 'split')", "{'a', 'b', char(zeros(1, 0)), 'c'}");
  check(s, "regexp('aXb', 'x', 'split')", "{'aXb'}");  // case-sensitive
  check(s, "regexp({'a1', 'b'}, '\\d', 'match')", "{{'1'}, cell(1, 0)}");
  check(s, "regexp('aXb', 'x', 'ignorecase')", "2");
  check(s, "regexpi('aXb', 'x')", "2");
  check(s, "regexpi('ABC', 'b', 'match')", "{'B'}");
  check(s, "regexpi('ABC', 'b', 'match', 'once')", "'B'");
  check_error(s, "regexp('a')", "MATLAB:minrhs");
}

TEST(BuiltinsText, Regexprep) {
  Snippet s;
  check(s, "regexprep('hello world', 'o', '0')", "'hell0 w0rld'");
  check(s, "regexprep('abc', '(a)(b)', '$2$1')", "'bac'");
  check(s, "regexprep('aaa', 'a', 'b', 'once')", "'baa'");
  check(s, "regexprep('ABC', 'b', 'x', 'ignorecase')", "'AxC'");
  check(s, "regexprep({'ab', 'cb'}, 'b', 'z')", "{'az', 'cz'}");
  check(s, "regexprep(\"a1\", '\\d', '#')", "\"a#\"");
  check(s, "regexprep('abc', 'z', 'y')", "'abc'");
  check(s, "isempty(regexprep('', 'a', 'b'))", "true");
  check_error(s, "regexprep('a', 'b')", "MATLAB:minrhs");
}

TEST(BuiltinsText, LasterrPwdIsmac) {
  Snippet s;
  s("try, error('my:id', 'boom %d', 3); catch, end");
  check(s, "lasterr", "'boom 3'");
  s("[msg, id] = lasterr;");
  check(s, "msg", "'boom 3'");
  check(s, "id", "'my:id'");
  s("lasterr('set here', 'a:b');");
  s("[msg2, id2] = lasterr;");
  check(s, "msg2", "'set here'");
  check(s, "id2", "'a:b'");
  s("lasterr('');");
  check(s, "isempty(lasterr)", "true");
  check(s, "ischar(pwd) && size(pwd, 1) == 1 && ~isempty(pwd)", "true");
  check(s, "isfolder(pwd)", "true");
  check(s, "class(ismac)", "'logical'");
#ifdef __APPLE__
  check(s, "ismac", "true");
#else
  check(s, "ismac", "false");
#endif
  check_error(s, "pwd(1)", "MATLAB:TooManyInputs");
  check_error(s, "ismac(1)", "MATLAB:TooManyInputs");
}

}  // namespace
}  // namespace matfuse::test
