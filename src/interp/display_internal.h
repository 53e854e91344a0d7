// Internal helpers shared by display.cc, display_numeric.cc and builtins/io.cc.
//
// Numeric formatting model (format short/long, MATLAB R2023 command window, width 80):
// - A real array whose finite elements are all integers (and whose largest magnitude is below
//   1e9) prints as integers, right-aligned in fields of width 6 (magnitudes below 1000) or 12.
// - Otherwise fixed point with 4 (short) or 16 - integer digits (long) decimals in fields of
//   width 10 (short) / 20 (long); exact zeros print as "0".
// - When the largest finite magnitude is >= 1000 or < 0.001, a scalar switches to e-notation
//   and a matrix gets a common scale factor line "   1.0e+03 *" (MATLAB's documented rule:
//   "If the largest element of a matrix is larger than 10^3 or smaller than 10^-3, MATLAB applies
//   a common scale factor for the short and long format").
// - Complex values always use the non-integer formats: "   3.0000 + 4.0000i".
// - Integer classes, logical and char codes print as integers in fields of max length + 3.
#pragma once

#include <string>
#include <vector>

#include "runtime/dims.h"
#include "runtime/session.h"
#include "runtime/tensor.h"

namespace matfuse::display_detail {

/// "2×3", "0×3×2" with the multiplication sign (U+00D7) MATLAB uses in displays.
std::string dims_text(const Dims& d);

/// A numeric/logical tensor formatted for display: one padded text per element (column-major,
/// every text exactly `width` characters wide, leading separation included) plus an optional
/// common scale factor line.
struct FormattedNumeric {
  std::vector<std::string> texts;
  int width = 0;
  std::string scale_line;  ///< "   1.0e+03 *" or empty
};

/// Formats every element of t (numeric, logical or char-as-codes) under format f.
FormattedNumeric format_numeric(const Tensor& t, NumericFormat f);

/// Compact one-line text of a numeric/logical scalar, e.g. "5", "3.1416", "1.0005e+03",
/// "3.0000 + 4.0000i" (used inside struct and cell displays).
std::string scalar_inline_text(const Tensor& t, int64_t index, NumericFormat f);

/// Row vector inline text "[1 2 3]" for struct/cell displays (each element's display text,
/// trimmed, joined by one space).
std::string row_inline_text(const Tensor& t, NumericFormat f);

/// Prints a rows x cols grid of pre-padded cell texts (column-major, texts[c * rows + r]) with
/// per-column widths, splitting columns into "Columns a through b" chunks that fit in
/// `line_width` characters. `indent` is printed before every row. Blank lines only when loose.
void print_grid(std::string& out, const std::vector<std::string>& texts, int64_t rows,
                int64_t cols, const std::vector<int>& widths, const std::string& indent,
                bool loose, int line_width = 80);

}  // namespace matfuse::display_detail
