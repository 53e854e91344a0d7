// input_is_incomplete: when the prompt reads another line (MATLAB's and Octave's rule).
#include <gtest/gtest.h>

#include "lang/parser.h"

namespace matfuse {
namespace {

TEST(InputIncomplete, OpenBlocksContinue) {
  EXPECT_TRUE(input_is_incomplete("for i = 1:3\n"));
  EXPECT_TRUE(input_is_incomplete("for i = 1:3\n  disp(i)\n"));
  EXPECT_FALSE(input_is_incomplete("for i = 1:3\n  disp(i)\nend\n"));
  EXPECT_TRUE(input_is_incomplete("if x > 1\n  y = 1;\nelse\n"));
  EXPECT_TRUE(input_is_incomplete("while true\n if a\n  break\n end\n"));
  EXPECT_TRUE(input_is_incomplete("switch k\n case 1\n"));
  EXPECT_TRUE(input_is_incomplete("try\n  error('x')\ncatch e\n"));
  EXPECT_TRUE(input_is_incomplete("function y = f(x)\n  y = x;\n  if x\n"));
  EXPECT_FALSE(input_is_incomplete("for i = 1:3, disp(i), end\n"));
  EXPECT_FALSE(input_is_incomplete("x = a(end)\n"));
}

TEST(InputIncomplete, BracketsAndContinuations) {
  EXPECT_TRUE(input_is_incomplete("A = [1 2\n"));
  EXPECT_TRUE(input_is_incomplete("c = {1, ...\n"));
  EXPECT_FALSE(input_is_incomplete("A = [1 2\n3 4]\n"));
  EXPECT_TRUE(input_is_incomplete("y = 1 + ...\n"));
  EXPECT_FALSE(input_is_incomplete("y = 1 + ...\n 2\n"));
  EXPECT_FALSE(input_is_incomplete("s = 'a...'\n"));        // inside a string
  EXPECT_FALSE(input_is_incomplete("x = 1 % more...\n"));   // inside a comment
}

TEST(InputIncomplete, ErrorsAreComplete) {
  EXPECT_FALSE(input_is_incomplete("x = )\n"));             // a syntax error runs (and fails)
  EXPECT_FALSE(input_is_incomplete("end\n"));
  EXPECT_FALSE(input_is_incomplete("x = 'abc\n"));          // unterminated string: error now
}

}  // namespace
}  // namespace matfuse
