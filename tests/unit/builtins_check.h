// Value checks for builtin tests that run MATLAB code through the interpreter: evaluate an
// expression and an expected MATLAB literal, then compare class, size and values.
#pragma once

#include <cmath>
#include <string>

#include "interp_test_util.h"

namespace matfuse::test {

/// Text of disp(v) for failure messages.
inline std::string shown(Snippet& s, const std::string& var) {
  try {
    return s("disp(" + var + ")");
  } catch (const MatlabError& e) {
    return std::string("<disp failed: ") + e.what() + ">";
  }
}

/// Evaluates `expr` and `want` (both MATLAB expressions) in s and expects the same class and
/// size and values equal within abs tolerance `tol` (NaN equals NaN; tol scales with magnitude
/// for values above 1). Non-array values (cells, strings, structs) are compared with isequal.
inline void check(Snippet& s, const std::string& expr, const std::string& want, double tol = 1e-12) {
  SCOPED_TRACE(expr + "  vs  " + want);
  try {
    s("got__ = " + expr + "; want__ = " + want + ";");
  } catch (const MatlabError& e) {
    ADD_FAILURE() << "error " << e.identifier() << ": " << e.what();
    return;
  }
  const Value* g = s.in.base_var("got__");
  const Value* w = s.in.base_var("want__");
  ASSERT_TRUE(g && w);
  EXPECT_EQ(g->class_name(), w->class_name());
  ASSERT_EQ(g->dims(), w->dims()) << g->dims().str() << " vs " << w->dims().str() << "\n"
                                  << shown(s, "got__");
  if (!g->is_tensor() || !w->is_tensor()) {
    s("eq__ = isequal(got__, want__);");
    EXPECT_TRUE(s.num("eq__") != 0) << shown(s, "got__");
    return;
  }
  Tensor gt = g->tensor(), wt = w->tensor();
  for (int64_t i = 0; i < wt.numel(); ++i) {
    std::complex<double> a = gt.get_complex(i), b = wt.get_complex(i);
    bool nan_ok = std::isnan(a.real()) == std::isnan(b.real()) &&
                  std::isnan(a.imag()) == std::isnan(b.imag());
    if (std::isnan(a.real()) || std::isnan(b.real()) || std::isnan(a.imag()) ||
        std::isnan(b.imag())) {
      EXPECT_TRUE(nan_ok) << "element " << i << ": " << a << " vs " << b;
      continue;
    }
    if (std::isinf(b.real()) || std::isinf(b.imag())) {
      EXPECT_EQ(a, b) << "element " << i;
      continue;
    }
    double scale = std::max(1.0, std::abs(b));
    EXPECT_LE(std::abs(a - b), tol * scale) << "element " << i << ": " << a << " vs " << b
                                             << "\n" << shown(s, "got__");
  }
}

/// Expects `code` to fail with error identifier `id`.
inline void check_error(Snippet& s, const std::string& code, const std::string& id) {
  EXPECT_EQ(s.fails(code).identifier(), id) << code;
}

}  // namespace matfuse::test
