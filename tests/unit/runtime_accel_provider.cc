// The provider seam: a provider registered from outside accel (here a test provider with its
// own "device" memory that delegates the arithmetic to the host provider) receives the groups
// placement gives it, through bind_input/new_output/run only; when it raises, the group runs
// on the host provider; when it reports a fault, on the eager engine.
#include <gtest/gtest.h>

#include "accel/run/eager.h"
#include "accel/run/evaluate.h"
#include "accel/capture/graph.h"
#include "providers/host/host_provider.h"
#include "accel/run/provider.h"
#include "runtime/error.h"
#include "runtime_accel_util.h"

namespace matfuse::accel {
namespace {

using testing::random_tensor;
using testing::same_bits;

class TestProvider final : public Provider {
public:
  enum class Mode { Run, Raise, Fault };
  Mode mode = Mode::Run;
  int runs = 0, binds = 0;
  std::string_view name() const override { return "test"; }
  bool host_memory() const override { return false; }
  bool supports(const Kernel&, const std::string*) const override { return true; }
  double estimate_seconds(const KernelCost&) const override { return 0; }  // always cheapest
  bool resident(const Tensor&) const override { return false; }
  const void* bind_input(const Tensor& t, int64_t* copied) override {
    ++binds;
    if (copied) *copied = t.numel() * t.elem_bytes();
    return t.raw();
  }
  Tensor new_output(ClassId cls, const Dims& dims, void** address, bool complex) override {
    Tensor t = Tensor::uninit(cls, dims, complex);
    *address = t.mutable_raw();
    return t;
  }
  RunResult run(const Kernel& k, const KernelArgs& args) override {
    ++runs;
    if (mode == Mode::Raise) throw_error("matfuse:codegen", "test provider declines");
    RunResult r = host::host_provider().run(k, args);
    if (mode == Mode::Fault) {
      r.ok = false;
      r.fault = "test fault";
    }
    return r;
  }
};

struct Registered {
  TestProvider p;
  Registered() {
    register_provider("test", [this](std::string*) -> Provider* { return &p; });
  }
  ~Registered() {
    register_provider("test", [](std::string* why) -> Provider* {
      *why = "test provider removed";
      return nullptr;
    });
  }
};

Tensor eager(const NodeRef& y) {
  const std::vector<NodeRef> roots{y};
  return evaluate_eager(roots)[0];
}

NodeRef chain() {
  NodeRef x = input(random_tensor(Dims(300, 7), ClassId::Double, 11));
  return unary(OpId::Exp, binary(OpId::Mul, x, binary(OpId::Add, x, constant(0.5))));
}

TEST(ProviderSeam, ARegisteredProviderRunsTheGroupsPlacementGivesIt) {
  Registered reg;
  const NodeRef y = chain();
  const Tensor t = evaluate(y);
  const GroupRecord g = telemetry().last().groups.at(0);
  EXPECT_EQ(g.provider, "test");
  EXPECT_EQ(g.placement, "cheaper on gpu");
  EXPECT_EQ(reg.p.runs, 1);
  EXPECT_EQ(reg.p.binds, 1);
  EXPECT_GT(g.upload_bytes, 0);
  EXPECT_TRUE(same_bits(t, eager(y)));
}

TEST(ProviderSeam, AProviderThatRaisesLeavesTheGroupToTheHost) {
  Registered reg;
  reg.p.mode = TestProvider::Mode::Raise;
  const NodeRef y = chain();
  const Tensor t = evaluate(y);
  const GroupRecord g = telemetry().last().groups.at(0);
  EXPECT_EQ(g.provider, "host");
  EXPECT_EQ(g.placement, "gpu failed, host ran it: test provider declines");
  EXPECT_EQ(reg.p.runs, 1);
  EXPECT_TRUE(same_bits(t, eager(y)));
}

TEST(ProviderSeam, AFaultRunsTheGroupOnTheEagerEngine) {
  Registered reg;
  reg.p.mode = TestProvider::Mode::Fault;
  const NodeRef y = chain();
  const Tensor t = evaluate(y);
  const GroupRecord g = telemetry().last().groups.at(0);
  EXPECT_EQ(g.provider, "eager");
  EXPECT_EQ(g.fallback, "test fault");
  EXPECT_TRUE(same_bits(t, eager(y)));
}

TEST(ProviderSeam, RegistryFindsProvidersByNameAndMemory) {
  ASSERT_NE(host_memory_provider(), nullptr);
  EXPECT_EQ(host_memory_provider()->name(), "host");
  EXPECT_EQ(find_provider("host"), host_memory_provider());
  EXPECT_EQ(find_provider("no such provider"), nullptr);
  {
    Registered reg;
    EXPECT_EQ(find_provider("test"), &reg.p);
  }
  EXPECT_EQ(find_provider("test"), nullptr);
}

}  // namespace
}  // namespace matfuse::accel
