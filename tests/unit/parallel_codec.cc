// Function handles through the serializer with the interpreter's codec (parallel/codec.h):
// anonymous functions keep their text and captured workspace, named handles their name.
#include "interp_test_util.h"
#include "parallel/codec.h"

namespace matfuse {
namespace {

TEST(ParallelCodec, AnonymousFunctionKeepsItsCapturedValues) {
  test::Snippet a, b;
  a("k = 3; off = [1 2]; f = @(x) k*x + off;");
  parallel::InterpFunctionCodec ca(a.in), cb(b.in);
  const std::string bytes = serialize_value(*a.in.base_var("f"), &ca);
  b.in.set_base_var("g", deserialize_value(bytes, &cb));
  EXPECT_EQ(b("disp(g(2))"), "     7     8\n");
  EXPECT_EQ(b("disp(func2str(g))"), "@(x)k*x+off\n");
  // The captured values travel, not the names: b has no k of its own.
  EXPECT_EQ(b("disp(exist('k'))"), "     0\n");
}

TEST(ParallelCodec, NestedHandlesAndNamedHandles) {
  test::Snippet a, b;
  a("h = @sin; inner = @(t) t + 1; f = @(x) inner(h(x));");
  parallel::InterpFunctionCodec ca(a.in), cb(b.in);
  b.in.set_base_var("g", deserialize_value(serialize_value(*a.in.base_var("f"), &ca), &cb));
  EXPECT_EQ(b("fprintf('%.4f\\n', g(0.5))"), "1.4794\n");
  b.in.set_base_var("s", deserialize_value(serialize_value(*a.in.base_var("h"), &ca), &cb));
  EXPECT_EQ(b("disp(class(s)); disp(s(0))"), "function_handle\n     0\n");
}

TEST(ParallelCodec, HandleInsideACellRoundTrips) {
  test::Snippet a, b;
  a("c = {1, @(x) x.^2, 'text'};");
  parallel::InterpFunctionCodec ca(a.in), cb(b.in);
  b.in.set_base_var("c", deserialize_value(serialize_value(*a.in.base_var("c"), &ca), &cb));
  EXPECT_EQ(b("disp(c{2}(3)); disp(c{3})"), "     9\ntext\n");
}

}  // namespace
}  // namespace matfuse
