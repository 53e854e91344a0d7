// Signal-processing builtins through the interpreter: conv/deconv, filter, fft/ifft (1-D and
// 2-D), fftshift/ifftshift, polyfit/polyval. Values are MATLAB's (cross-checked with Octave).
#include "builtins_check.h"

namespace matfuse::test {
namespace {

TEST(BuiltinsSignal, ConvDeconv) {
  Snippet s;
  check(s, "conv([1 2 3], [1 1])", "[1 3 5 3]");
  check(s, "conv([1 2 3], [1 1 1], 'same')", "[3 6 5]");
  check(s, "conv([1 2 3], [1 1], 'valid')", "[3 5]");
  check(s, "conv([1 2 3], [1 1 1 1], 'valid')", "zeros(1, 0)");
  check(s, "conv([1 2], [1i 1])", "[1i 1+2i 2]");
  check(s, "class(conv(single([1 2]), [1 1]))", "'single'");
  s("[q, r] = deconv([1 3 5 4], [1 1]);");
  check(s, "q", "[1 2 3]");
  check(s, "r", "[0 0 0 1]");
  check(s, "deconv([1 3 5 3], [1 1])", "[1 2 3]");
  check(s, "deconv([1 2], [1 1 1])", "0");
  check_error(s, "conv([1 2], [1; 2], 'bad')", "MATLAB:conv:unknownShapeParameter");
  check_error(s, "deconv([1 2], [0 1])", "MATLAB:deconv:ZeroCoef1");
}

TEST(BuiltinsSignal, Filter) {
  Snippet s;
  check(s, "filter(1, [1 -0.5], [1 1 1])", "[1 1.5 1.75]");
  check(s, "filter([1 1]/2, 1, [2 4 6 8])", "[1 3 5 7]");
  check(s, "filter(1, [2 -1], [2 2])", "[1 1.5]");  // a(1) normalizes
  check(s, "filter([1 1], 1, [1 2; 3 4])", "[1 2; 4 6]");  // along columns
  check(s, "filter([1 1], 1, [1 2; 3 4], [], 2)", "[1 3; 3 7]");
  check(s, "filter(1, [1 -0.5], [1 1 1], 0.5)", "[1.5 1.75 1.875]");  // initial state
  s("[y, zf] = filter(1, [1 -0.5], [1 1 1]);");
  check(s, "zf", "0.875");
  s("[y2, zf2] = filter([1 1], 1, [1 2 3]);");
  check(s, "zf2", "3");
  check(s, "filter(1, 1, [])", "[]");
  check_error(s, "filter([], 1, [1 2])", "MATLAB:filter:invalidInputs");
  check_error(s, "filter(1, 0, [1 2])", "MATLAB:filter:firstCoeffZero");
}

TEST(BuiltinsSignal, FftIfft) {
  Snippet s;
  check(s, "fft([1 2 3 4])", "[10, -2+2i, -2, -2-2i]", 1e-14);
  check(s, "fft([1 2 3], 4)", "[6, -2-2i, 2, -2+2i]", 1e-14);  // zero-padded
  check(s, "fft([1 2 3], 2)", "complex([3 -1])", 1e-14);          // truncated
  check(s, "fft([1 2; 3 4])", "complex([4 6; -2 -2])", 1e-14);     // along columns
  check(s, "fft([1 2; 3 4], [], 2)", "complex([3 -1; 7 -1])", 1e-14);
  check(s, "fft(single([1 2]))", "single(complex([3 -1]))", 1e-6);
  check(s, "size(fft(zeros(0, 3)))", "[0 3]");
  check(s, "ifft([10, -2+2i, -2, -2-2i])", "[1 2 3 4]", 1e-14);
  check(s, "ifft(fft([1 5 2]))", "[1 5 2]", 1e-14);
  check(s, "ifft([1 2], 4)", "[0.75, 0.25+0.5i, -0.25, 0.25-0.5i]", 1e-14);
  // Exactly conjugate-symmetric input: 'symmetric' gives a real result.
  check(s, "ifft([10, -2+2i, -2, -2-2i], 'symmetric')", "[1 2 3 4]", 1e-14);
  check(s, "isreal(ifft([10, -2+2i, -2, -2-2i], 'symmetric'))", "true");
  check_error(s, "fft([1 2], -1)", "MATLAB:fftfcn:lengthNotNonNegInt");
}

TEST(BuiltinsSignal, Fft2Ifft2) {
  Snippet s;
  check(s, "fft2([1 2; 3 4])", "complex([10 -2; -4 0])", 1e-14);
  check(s, "ifft2([10 -2; -4 0])", "[1 2; 3 4]", 1e-14);
  check(s, "fft2([1 2 3], 2, 2)", "complex([3 -1; 3 -1])", 1e-14);  // padded/truncated
  check(s, "ifft2(fft2(magic(4)))", "magic(4)", 1e-13);
  check(s, "fft2(5)", "complex(5)");
}

TEST(BuiltinsSignal, FftshiftIfftshift) {
  Snippet s;
  check(s, "fftshift([1 2 3 4 5])", "[4 5 1 2 3]");
  check(s, "ifftshift([1 2 3 4 5])", "[3 4 5 1 2]");
  check(s, "fftshift([1 2 3 4])", "[3 4 1 2]");
  check(s, "ifftshift(fftshift([1 2 3 4 5]))", "[1 2 3 4 5]");
  check(s, "fftshift([1 2; 3 4])", "[4 3; 2 1]");  // every dimension
  check(s, "fftshift([1 2 3; 4 5 6])", "[6 4 5; 3 1 2]");
  check(s, "fftshift([1 2 3; 4 5 6], 2)", "[3 1 2; 6 4 5]");
  check(s, "ifftshift([1 2 3 4 5], 2)", "[3 4 5 1 2]");
  check(s, "fftshift([])", "[]");
  check(s, "fftshift(int8([1 2 3]))", "int8([3 1 2])");
}

TEST(BuiltinsSignal, PolyfitPolyval) {
  Snippet s;
  check(s, "polyfit([1 2 3], [2 4 6], 1)", "[2 0]", 1e-12);
  check(s, "polyfit([0 1 2], [1 2 5], 2)", "[1 0 1]", 1e-12);
  check(s, "polyfit([1 2 3 4], [1 4 9 16], 2)", "[1 0 0]", 1e-12);
  check(s, "polyfit([0 1 2 3], [1 3 2 5], 1)", "[1.1 1.1]", 1e-12);  // least squares
  s("[p, S] = polyfit([1 2 3], [2 4 6], 1);");
  check(s, "S.df", "1");
  check(s, "S.normr", "0", 1e-12);
  s("[p2, S2, mu] = polyfit([1 2 3], [2 4 6], 1);");  // centered and scaled x
  check(s, "mu", "[2; 1]");
  check(s, "p2", "[2 4]", 1e-12);
  check(s, "polyval([1 2 3], 2)", "11");
  check(s, "polyval([1 2 3], [0 1; 2 3])", "[3 6; 11 18]");
  check(s, "polyval([], 3)", "0");
  check(s, "polyval([1 0], [])", "[]");
  check(s, "polyval([2 4], 5, [], [2; 1])", "10");  // x normalized by mu
  check(s, "polyval(single([1 1]), 2)", "single(3)");
  check_error(s, "polyfit([1 2], [1 2 3], 1)", "MATLAB:polyfit:XYSizeMismatch");
  check_error(s, "polyval({1}, 2)", "MATLAB:UndefinedFunction");
}

}  // namespace
}  // namespace matfuse::test
