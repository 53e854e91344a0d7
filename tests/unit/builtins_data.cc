// Data-analysis builtins through the interpreter: cumulative and moving functions, trapz/diff,
// median/cov, histcounts/accumarray, rescale/nnz, sorting (sort, sortrows, issorted) and sets
// (ismember, setdiff). Expected values are MATLAB's (cross-checked with GNU Octave).
#include "builtins_check.h"

namespace matfuse::test {
namespace {

TEST(BuiltinsData, Cumprod) {
  Snippet s;
  check(s, "cumprod([1 2 3; 4 5 6])", "[1 2 3; 4 10 18]");
  check(s, "cumprod([1 2 3; 4 5 6], 2)", "[1 2 6; 4 20 120]");
  check(s, "cumprod([1 2 3 4], 'reverse')", "[24 24 12 4]");
  check(s, "cumprod([1 2; 3 4], 'reverse')", "[3 8; 3 4]");
  check(s, "cumprod(int8([10 10 10]))", "int8([10 100 127])");  // saturates, keeps class
  check(s, "cumprod(single([2 3]))", "single([2 6])");
  check(s, "cumprod([])", "[]");
  check(s, "cumprod(zeros(0, 3))", "zeros(0, 3)");
  check_error(s, "cumprod({1})", "MATLAB:UndefinedFunction");
}

TEST(BuiltinsData, CummaxCummin) {
  Snippet s;
  check(s, "cummax([3 1 4 1 5 9 2 6])", "[3 3 4 4 5 9 9 9]");
  check(s, "cummax([3 1; 2 5; 4 0])", "[3 1; 3 5; 4 5]");
  check(s, "cummax([3 1; 2 5; 4 0], 2)", "[3 3; 2 5; 4 4]");
  check(s, "cummax([1 NaN 3 2])", "[1 1 3 3]");  // NaN ignored
  check(s, "cummin([3 1 4 1 5 9 2 6])", "[3 1 1 1 1 1 1 1]");
  check(s, "cummin([5 4 6 3], 'reverse')", "[3 3 3 3]");
  check(s, "cummin(int16([4 -2 7]))", "int16([4 -2 -2])");
  s("[m, i] = cummax([3 1 4 1 5]); [m2, i2] = cummin([3 1 4 0 5]);");
  check(s, "m", "[3 3 4 4 5]");
  check(s, "i", "[1 1 3 3 5]");
  check(s, "m2", "[3 1 1 0 0]");
  check(s, "i2", "[1 2 2 4 4]");
  check(s, "cummax([])", "[]");
  check_error(s, "cummax([1 2], 'x')", "MATLAB:invalidOption");
}

TEST(BuiltinsData, TrapzCumtrapz) {
  Snippet s;
  check(s, "trapz([1 2 3 4])", "7.5");
  check(s, "trapz([0 1 3], [1 2 3])", "6.5");  // nonuniform spacing
  check(s, "trapz([1 2; 3 4; 5 6])", "[6 8]");
  check(s, "trapz([1 2; 3 4; 5 6], 2)", "[1.5; 3.5; 5.5]");
  check(s, "trapz(0.5, [1 2 3])", "2");  // scalar spacing
  check(s, "cumtrapz([1 2 3 4])", "[0 1.5 4 7.5]");
  check(s, "cumtrapz([1 2 3], [1 4 9])", "[0 2.5 9]");
  check(s, "cumtrapz([1 2; 3 4; 5 6], 2)", "[0 1.5; 0 3.5; 0 5.5]");
  check_error(s, "trapz([1 2], [1 2 3])", "MATLAB:trapz:LengthXMismatchY");
  check_error(s, "cumtrapz([1 2], [1 2 3])", "MATLAB:trapz:LengthXMismatchY");
}

TEST(BuiltinsData, Diff) {
  Snippet s;
  check(s, "diff([1 4 9 16])", "[3 5 7]");
  check(s, "diff([1 4 9 16], 2)", "[2 2]");
  check(s, "diff([1 2; 4 8; 9 27])", "[3 6; 5 19]");
  check(s, "diff([1 2; 4 8; 9 27], 1, 2)", "[1; 4; 18]");
  check(s, "diff([1 2 3], 5)", "zeros(1, 0)");
  check(s, "diff(int8([1 5 2]))", "int8([4 -3])");
  check_error(s, "diff([1 2], -1)", "MATLAB:diff:differenceOrderMustBePositiveInteger");
}

TEST(BuiltinsData, Median) {
  Snippet s;
  check(s, "median([3 1 2 5])", "2.5");
  check(s, "median([3 1; 2 5; 4 0])", "[3 1]");
  check(s, "median([3 1; 2 5; 4 0], 2)", "[2; 3.5; 2]");
  check(s, "median([1 NaN 3])", "NaN");
  check(s, "median([1 3 2 NaN], 'omitnan')", "2");
  check(s, "median(magic(3), 'all')", "5");
  check(s, "median([1 2; 3 4], 'all')", "2.5");
  check(s, "median([])", "NaN");
  check(s, "median(int8([1 2 4 5]))", "int8(3)");
  check(s, "median(single([1 2]))", "single(1.5)");
  check_error(s, "median({1})", "MATLAB:UndefinedFunction");
}

TEST(BuiltinsData, MovmeanMovsum) {
  Snippet s;
  check(s, "movmean([1 2 3 4 5], 3)", "[1.5 2 3 4 4.5]");
  check(s, "movmean([1 2 3 4 5], [1 0])", "[1 1.5 2.5 3.5 4.5]");
  check(s, "movmean([1 2 3 4 5], 2)", "[1 1.5 2.5 3.5 4.5]");  // even: current and previous
  check(s, "movmean([1 2; 3 4; 5 6], 2, 2)", "[1 1.5; 3 3.5; 5 5.5]");
  check(s, "movmean([1 2 3 4 5], 3, 'Endpoints', 'discard')", "[2 3 4]");
  check(s, "movmean([1 NaN 3 4], 3)", "[NaN NaN NaN 3.5]");
  check(s, "movmean([1 NaN 3 4], 3, 'omitnan')", "[1 2 3.5 3.5]");
  check(s, "movmean([4 8 6 -1], 3, 'Endpoints', 0)", "[4 6 13/3 5/3]");
  check(s, "movsum([1 2 3 4 5], 3)", "[3 6 9 12 9]");
  check(s, "movsum([1 2 3 4 5], [0 2])", "[6 9 12 9 5]");
  check(s, "movsum([1 2 3 4 5], 3, 'Endpoints', 'fill')", "[NaN 6 9 12 NaN]");
  check(s, "movsum([1 2 3 4 5], 3, 'Endpoints', 1)", "[4 6 9 12 10]");
  check(s, "movsum([1 2; 3 4; 5 6], 2)", "[1 2; 4 6; 8 10]");
  check(s, "movsum(single([1 2]), 2)", "single([1 3])");
  check_error(s, "movmean([1 2 3], 0)", "MATLAB:movfun:wrongWindowLength");
  check_error(s, "movsum([1 2 3], 3, 'bogus')", "MATLAB:movfun:unknownOption");
}

TEST(BuiltinsData, Cov) {
  Snippet s;
  check(s, "cov([1 2 3 4])", "5/3", 1e-14);
  check(s, "cov([1 2; 3 5; 4 9])", "[7/3 31/6; 31/6 37/3]", 1e-14);
  check(s, "cov([1 2; 3 5; 4 9], 1)", "[14/9 31/9; 31/9 74/9]", 1e-14);  // normalize by N
  check(s, "cov([1 2 3], [2 4 7])", "[1 2.5; 2.5 19/3]", 1e-14);
  check(s, "cov(5)", "0");
  check(s, "cov([])", "NaN");
  check_error(s, "cov([1 2], [1 2 3])", "MATLAB:cov:XYlengthMismatch");
}

TEST(BuiltinsData, Histcounts) {
  Snippet s;
  check(s, "histcounts([1 2 2 3 5], [0 2 4 6])", "[1 3 1]");  // last bin closed
  check(s, "histcounts([1 2 2 3 5], 2)", "[3 2]");
  check(s, "histcounts([1 2 2 3 5], 'BinEdges', [0 3 6])", "[3 2]");
  check(s, "histcounts([1 2 2 3 5], [0 2 4 6], 'Normalization', 'probability')",
        "[0.2 0.6 0.2]");
  check(s, "histcounts([1 2 2 3 5], [0 2 4 6], 'Normalization', 'cdf')", "[0.2 0.8 1]");
  check(s, "histcounts([1 2 2 3 5], [0 2 4 6], 'Normalization', 'countdensity')",
        "[0.5 1.5 0.5]");
  check(s, "histcounts([1 2 2 3 5], [0 2 4 6], 'Normalization', 'pdf')", "[0.1 0.3 0.1]");
  check(s, "histcounts([7 8], [0 2 4])", "[0 0]");  // outside every bin
  s("[n, e, b] = histcounts([1 2 2 3 5], [0 2 4 6]);");
  check(s, "e", "[0 2 4 6]");
  check(s, "b", "[1 2 2 2 3]");
  check_error(s, "histcounts({1})", "MATLAB:UndefinedFunction");
}

TEST(BuiltinsData, Accumarray) {
  Snippet s;
  check(s, "accumarray([1;2;1;3], [10;20;30;40])", "[40; 20; 40]");
  check(s, "accumarray([1 1; 2 2; 1 1], [1;2;3])", "[4 0; 0 2]");
  check(s, "accumarray([1;3], 5)", "[5; 0; 5]");  // scalar vals expand
  check(s, "accumarray([1;2;1], [1;2;3], [4 1])", "[4; 2; 0; 0]");
  check(s, "accumarray([1;2;1], [1;2;3], [], @max)", "[3; 2]");
  check(s, "accumarray([1;3], [1;2], [], [], -1)", "[1; -1; 2]");  // fillval
  check_error(s, "accumarray([0;1], [1;2])", "MATLAB:accumarray:nonPosIntSubs");
  check_error(s, "accumarray([1;2], [1;2;3])", "MATLAB:accumarray:nValsMismatch");
}

TEST(BuiltinsData, RescaleNnz) {
  Snippet s;
  check(s, "rescale([1 2 3 5])", "[0 0.25 0.5 1]");
  check(s, "rescale([1 2 3 5], -1, 1)", "[-1 -0.5 0 1]");
  check(s, "rescale(int8([1 2 3]))", "[0 0.5 1]");
  check(s, "rescale([4 4 4])", "[0 0 0]");
  check(s, "rescale([1 2 3], 'InputMin', 0, 'InputMax', 4)", "[0.25 0.5 0.75]");
  check_error(s, "rescale([1 2], 3, 1)", "MATLAB:rescale:LGreaterThanU");
  check(s, "nnz([1 0 2; 0 0 3])", "3");
  check(s, "nnz([])", "0");
  check(s, "nnz(logical([1 0 1]))", "2");
  check(s, "nnz([NaN 0])", "1");
  check(s, "nnz('ab')", "2");
  check_error(s, "nnz({1})", "MATLAB:invalidConversion");
}

TEST(BuiltinsData, SortAndSortrows) {
  Snippet s;
  check(s, "sort([3 NaN 1])", "[1 3 NaN]");
  check(s, "sort([3 NaN 1], 'descend')", "[NaN 3 1]");
  check(s, "sort([3 1; 2 4], 2)", "[1 3; 2 4]");
  check(s, "sort('cab')", "'abc'");
  check(s, "sort({'b', 'a'})", "{'a', 'b'}");
  check(s, "sort(int8([3 -1]))", "int8([-1 3])");
  check(s, "sort([1+2i, 3, -1])", "[-1, 1+2i, 3]");  // by abs, then angle
  check(s, "sort([])", "[]");
  s("[v, i] = sort([3 1 2], 'descend');");
  check(s, "v", "[3 2 1]");
  check(s, "i", "[1 3 2]");
  s("[B, k] = sortrows([3 1; 1 2; 3 0]);");
  check(s, "B", "[1 2; 3 0; 3 1]");
  check(s, "k", "[2; 3; 1]");
  check(s, "sortrows([3 1; 1 2; 3 0], -1)", "[3 1; 3 0; 1 2]");
  check(s, "sortrows([3 1; 1 2; 3 0], [1 -2])", "[1 2; 3 1; 3 0]");
  check(s, "sortrows({'b'; 'a'})", "{'a'; 'b'}");
  check_error(s, "sort({1, 2})", "MATLAB:sort:InputType");
  check_error(s, "sort([1 2], 'bad')", "MATLAB:sort:sortDirection");
  check_error(s, "sortrows([1 2], 5)", "MATLAB:sortrows:ColOutOfRange");
}

TEST(BuiltinsData, Issorted) {
  Snippet s;
  check(s, "issorted([1 2 2 3])", "true");
  check(s, "issorted([3 2 1])", "false");
  check(s, "issorted([3 2 1], 'descend')", "true");
  check(s, "issorted([1 3; 2 4])", "true");  // each column
  check(s, "issorted([1 3; 2 1])", "false");
  check(s, "issorted([1 3; 2 4], 2)", "true");  // each row
  check(s, "issorted([3 1; 2 4], 2)", "false");
  check(s, "issorted([1 5; 3 0], 'rows')", "true");
  check(s, "issorted([])", "true");
  check(s, "issorted({'a', 'b', 'c'})", "true");
  check(s, "issorted({'b', 'a'})", "false");
}

TEST(BuiltinsData, IsmemberSetdiff) {
  Snippet s;
  s("[tf, loc] = ismember([1 5 2], [2 1 1]);");
  check(s, "tf", "logical([1 0 1])");
  check(s, "loc", "[2 0 1]");  // lowest index
  check(s, "ismember({'a', 'z'}, {'a', 'b'})", "logical([1 0])");
  check(s, "ismember('b', {'a', 'b'})", "true");
  s("[tf2, loc2] = ismember([1 2; 3 4], [3 4], 'rows');");
  check(s, "tf2", "logical([0; 1])");
  check(s, "loc2", "[0; 1]");
  check(s, "ismember([], [1 2])", "logical([])");
  s("[c, ia] = setdiff([5 1 3 3 7], [1 2]);");
  check(s, "c", "[3 5 7]");
  check(s, "ia", "[3; 1; 5]");
  check(s, "setdiff({'b', 'a', 'c'}, {'a'})", "{'b', 'c'}");
  check(s, "setdiff([3 1 2], 1, 'stable')", "[3 2]");
  check(s, "setdiff([1 2; 3 4; 1 2], [3 4], 'rows')", "[1 2]");
  check(s, "setdiff([1 2], [1 2])", "zeros(1, 0)");
  check_error(s, "ismember({1}, 2)", "MATLAB:UNIQUE:InputClass");
  check_error(s, "setdiff([1 2], {1})", "MATLAB:UNIQUE:InputClass");
}

}  // namespace
}  // namespace matfuse::test
