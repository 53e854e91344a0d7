// Rational approximation shared by rat/rats (rational.cc) and the `format rat` display.
#pragma once

#include <string>

#include "runtime/session.h"

namespace matfuse {

/// Continued-fraction approximation of x: n/d with |x - n/d| < tol (MATLAB's rat: convergents
/// of the expansion with round-to-nearest partial quotients). Inf gives +-1/0, NaN 0/0. When
/// expansion is given it receives rat's text form ("3 + 1/(7 + 1/16)").
void rat_approx(double x, double tol, double& n, double& d, std::string* expansion = nullptr);

/// The rats text of x in a field of strlen characters (MATLAB's rats element): "n/d" (or "n"
/// for an integer, "0" for zero, "NaN", "Inf", "-Inf"), approximated to the tolerance that fits
/// strlen, centred, with one leading separator blank; "*" centred when nothing fits.
std::string rats_text(double x, int strlen = 13);

}  // namespace matfuse
