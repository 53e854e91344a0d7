// Files family: ASCII and MAT load/save, readmatrix/writematrix, file-system and date builtins.
#include <filesystem>
#include <fstream>

#include "interp_test_util.h"

namespace matfuse::test {
namespace {

/// A snippet running inside a fresh temporary folder (restored at scope exit).
struct InTemp {
  TempDir dir;
  std::filesystem::path old = std::filesystem::current_path();
  Snippet s;
  InTemp() { std::filesystem::current_path(dir.path); }
  ~InTemp() { std::filesystem::current_path(old); }
};

TEST(BuiltinsFiles, AsciiSaveLoadRoundTrip) {
  InTemp t;
  t.s("x = [1 2.5 3; -4 5e-3 NaN]; save('m.txt', 'x', '-ascii'); clear x; load m.txt");
  const Value* m = t.s.in.base_var("m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->dims(), Dims(2, 3));
  EXPECT_DOUBLE_EQ(m->tensor().get_double(1), -4);
  EXPECT_DOUBLE_EQ(m->tensor().get_double(3), 5e-3);
  EXPECT_TRUE(std::isnan(m->tensor().get_double(5)));
  t.s("y = load('m.txt'); n = numel(y); c = y(2,1);");
  EXPECT_EQ(t.s.num("n"), 6);
  EXPECT_EQ(t.s.num("c"), -4);
}

TEST(BuiltinsFiles, AsciiLoadCommentsCommasAndErrors) {
  InTemp t;
  t.dir.write("1data-set.dat", "% header\n1, 2\n3 4 % tail\n\n");
  t.s("load 1data-set.dat; r = X1data_set(2,2);");
  EXPECT_EQ(t.s.num("r"), 4);
  t.dir.write("bad.txt", "1 2\n3\n");
  EXPECT_EQ(t.s.fails("load bad.txt").identifier(), "MATLAB:load:numColumnsNotSame");
  t.dir.write("txt.txt", "1 abc\n");
  EXPECT_EQ(t.s.fails("q = load('txt.txt');").identifier(), "MATLAB:load:unableToReadAsciiFile");
  EXPECT_EQ(t.s.fails("load nothere").identifier(), "MATLAB:load:couldNotReadFile");
}

TEST(BuiltinsFiles, MatSaveLoadStructForm) {
  InTemp t;
  t.s("a = int16([1 2 3]); b = 'hi'; c = {1, 'x'}; save data a b c; clear a b c; "
      "S = load('data.mat'); load data.mat b; ok = isequal(S.a, int16([1 2 3])) && "
      "strcmp(b, 'hi') && iscell(S.c) && strcmp(class(S.a), 'int16');");
  EXPECT_EQ(t.s.num("ok"), 1);
  EXPECT_EQ(t.s.fails("save data.mat nosuchvar").identifier(), "MATLAB:save:variableNotFound");
}

TEST(BuiltinsFiles, ReadmatrixHeadersEmptyFieldsAndDelimiter) {
  InTemp t;
  t.dir.write("a.csv", "x,y,z\n1,,3\n4,5\n7,8,9\n");
  t.s("A = readmatrix('a.csv'); r = size(A, 1); c = size(A, 2); e = isnan(A(1,2)); "
      "p = isnan(A(2,3)); v = A(3,3);");
  EXPECT_EQ(t.s.num("r"), 3);
  EXPECT_EQ(t.s.num("c"), 3);
  EXPECT_EQ(t.s.num("e"), 1);
  EXPECT_EQ(t.s.num("p"), 1);
  EXPECT_EQ(t.s.num("v"), 9);
  t.dir.write("b.txt", "h1\nh2\n1;2\n3;4\n");
  t.s("B = readmatrix('b.txt', 'Delimiter', ';', 'NumHeaderLines', 2); s = sum(B(:));");
  EXPECT_EQ(t.s.num("s"), 10);
  EXPECT_EQ(t.s.fails("readmatrix('none.csv')").identifier(),
            "MATLAB:textio:textio:FileNotFound");
}

TEST(BuiltinsFiles, WritematrixRoundTrip) {
  InTemp t;
  t.s("M = [pi -1; 1e10 0.5]; writematrix(M, 'w.csv'); writematrix(M, 'w.txt', 'Delimiter', "
      "'tab'); d = max(max(abs(readmatrix('w.csv') - M))); e = isequal(readmatrix('w.txt'), "
      "readmatrix('w.csv'));");
  EXPECT_EQ(t.s.num("d"), 0);  // shortest round-trip digits: read back exactly
  EXPECT_EQ(t.s.num("e"), 1);
  std::ifstream in(t.dir.path / "w.txt");
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "3.141592653589793\t-1");
}

TEST(BuiltinsFiles, FidFormsAndInvalidFid) {
  InTemp t;
  t.s("f = fopen('t.txt', 'w'); fprintf(f, '%d\\n', [1 2]); fclose(f); f = fopen('t.txt', 'a'); "
      "fprintf(f, 'end\\n'); fclose(f); f = fopen('t.txt', 'r'); a = fgetl(f); b = fgetl(f); "
      "c = fgetl(f); d = fgetl(f); e = feof(f); fclose(f); ok = strcmp(a, '1') && "
      "strcmp(c, 'end') && isequal(d, -1) && e;");
  EXPECT_EQ(t.s.num("ok"), 1);
  EXPECT_EQ(t.s.fails("fgetl(42)").identifier(), "MATLAB:FileIO:InvalidFid");
  EXPECT_EQ(t.s.num("f") >= 3, true);
}

TEST(BuiltinsFiles, FileSystemFunctions) {
  InTemp t;
  t.s("mkdir('sub'); a = isfolder('sub'); b = isfile('sub'); fclose(fopen(fullfile('sub', "
      "'k.txt'), 'w')); c = isfile('sub/k.txt'); e1 = exist('sub', 'dir'); "
      "e2 = exist('sub/k.txt', 'file'); delete('sub/*.txt'); d = isfile('sub/k.txt'); "
      "[st, msg, id] = mkdir('sub'); ex = strcmp(id, 'MATLAB:MKDIR:DirectoryExists');");
  EXPECT_EQ(t.s.num("a"), 1);
  EXPECT_EQ(t.s.num("b"), 0);
  EXPECT_EQ(t.s.num("c"), 1);
  EXPECT_EQ(t.s.num("e1"), 7);
  EXPECT_EQ(t.s.num("e2"), 2);
  EXPECT_EQ(t.s.num("d"), 0);
  EXPECT_EQ(t.s.num("st"), 1);
  EXPECT_EQ(t.s.num("ex"), 1);
  t.s("delete('nothing.here'); [~, w] = lastwarn; ");
  EXPECT_EQ(t.s.session.last_warning_id, "MATLAB:DELETE:FileNotFound");
}

TEST(BuiltinsFiles, FilepartsFullfileTemp) {
  Snippet s;
  s("[p, n, e] = fileparts('/a/b/c.tar.gz'); ok1 = strcmp(p, '/a/b') && strcmp(n, 'c.tar') && "
    "strcmp(e, '.gz'); [p2, n2, e2] = fileparts('x'); ok2 = isempty(p2) && strcmp(n2, 'x') && "
    "isempty(e2); f = fullfile('a/', '/b', '', 'c.m'); ok3 = strcmp(f, 'a/b/c.m'); "
    "g = fullfile(\"a\", 'b'); ok4 = isstring(g); h = fullfile('d', {'x', 'y'}); "
    "ok5 = iscell(h) && strcmp(h{2}, 'd/y'); t = tempdir; ok6 = t(end) == '/'; "
    "n1 = tempname; n2 = tempname; ok7 = ~strcmp(n1, n2) && startsWith(n1, t);");
  for (const char* v : {"ok1", "ok2", "ok3", "ok4", "ok5", "ok6", "ok7"}) EXPECT_EQ(s.num(v), 1) << v;
}

TEST(BuiltinsFiles, DatesClockNow) {
  Snippet s;
  s("a = datenum(2000, 1, 1); b = datenum(2024, 3, 1, 18, 0, 0); "
    "s1 = datestr(b); s2 = datestr(b, 'yyyy-mm-dd HH:MM:SS'); s3 = datestr(a); "
    "s4 = datestr(b, 'dddd mmm dd yyyy HH:MM PM'); s5 = datestr([2024 3 1 18 0 0], 31); "
    "c = clock; n = now; ok = numel(c) == 6 && c(1) >= 2024 && abs(n - datenum(c)) < 1e-3;");
  EXPECT_EQ(s.num("a"), 730486);
  EXPECT_DOUBLE_EQ(s.num("b"), 739312.75);
  EXPECT_EQ(s.in.base_var("s1")->to_text(), "01-Mar-2024 18:00:00");
  EXPECT_EQ(s.in.base_var("s2")->to_text(), "2024-03-01 18:00:00");
  EXPECT_EQ(s.in.base_var("s3")->to_text(), "01-Jan-2000");
  EXPECT_EQ(s.in.base_var("s4")->to_text(), "Friday Mar 01 2024  6:00 PM");
  EXPECT_EQ(s.in.base_var("s5")->to_text(), "2024-03-01 18:00:00");
  EXPECT_EQ(s.num("ok"), 1);
}


TEST(BuiltinsFiles, DatestrFormatCodesAndFilesep) {
  Snippet s;
  s("t = [2005 12 18 2 33 17.3822]; "
    "ok = isequal(datestr(t, 4), 'D') && isequal(datestr(t, 6), '12/18') && "
    "isequal(datestr(t, 8), 'Sun') && isequal(datestr(t, 12), 'Dec05') && "
    "isequal(datestr(t, 14), ' 2:33:17 AM') && isequal(datestr(t, 17), 'Q4-05') && "
    "isequal(datestr(t, 21), 'Dec.18,2005 02:33:17') && isequal(datestr(t, 25), '05/12/18') && "
    "isequal(datestr(t, 27), 'Q4-2005') && isequal(datestr(t, 28), 'Dec2005'); "
    "f = isequal(filesep, '/') && isequal(pathsep, ':') && isequal(fullfile('x', 'y'), ['x' filesep 'y']);");
  EXPECT_EQ(s.num("ok"), 1);
  EXPECT_EQ(s.num("f"), 1);
  EXPECT_EQ(s.fails("datestr(1, 99)").identifier(), "MATLAB:datestr:DateNumber");
}

TEST(BuiltinsFiles, DatenumTextAndFractions) {
  Snippet s;
  s("a = datenum('5/19/2001'); b = datenum({'5/19/2001', '6/6/1944'}); "
    "c = datenum(char('5/19/2001', '6/6/1944')); d = datenum('5-19, 2001', 'mm-dd, yyyy'); "
    "e = datenum('19-May-2001 12:30:00'); f = datenum('2001-05-19'); "
    "g = fix(datenum([2001.999 1 1; 2004 2.999 1])); h = datenum(2022, 0, 1) - datenum(2022, 1, 1); "
    "k = datenum('03:00 PM') - floor(datenum('03:00 PM'));");
  EXPECT_EQ(s.num("a"), 730990);
  EXPECT_EQ(s.num("d"), 730990);
  EXPECT_EQ(s.num("e"), 730990.5208333334);
  EXPECT_EQ(s.num("f"), 730990);
  EXPECT_EQ(s.num("h"), 0);
  EXPECT_NEAR(s.num("k"), 0.625, 1e-12);
  for (const char* v : {"b", "c"}) {
    const Value* x = s.in.base_var(v);
    ASSERT_TRUE(x);
    EXPECT_EQ(x->dims(), Dims(2, 1));
    EXPECT_EQ(x->tensor().get_double(1), 710189);
  }
  EXPECT_EQ(s.in.base_var("g")->tensor().get_double(0), 731216);
  EXPECT_EQ(s.in.base_var("g")->tensor().get_double(1), 732006);
  EXPECT_EQ(s.fails("datenum('not a date')").identifier(), "MATLAB:datenum:ConvertDateString");
}

}  // namespace
}  // namespace matfuse::test
