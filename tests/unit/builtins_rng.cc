// Tests of the RNG: Philox stream model, transforms of philox.inc (log/sincos accuracy), rand,
// randn, randi and rng.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "builtins/registry.h"
#include "runtime/philox.inc"

using namespace matfuse;

namespace {

struct RngCtx : CallContext {
  Session s;
  Session& session() override { return s; }
  Outputs call(const Value&, Args, int) override { throw_error("test:nocall", "no calls"); }
  Outputs call_named(std::string_view, Args, int) override {
    throw_error("test:nocall", "no calls");
  }
  void display(const Value&, std::string_view) override {}
  int exist(std::string_view) override { return 0; }
  Outputs eval_text(std::string_view, int) override { throw_error("test:nocall", "no eval"); }
};

RngCtx& ctx() {
  static RngCtx c;
  return c;
}

Value call(const char* name, std::vector<Value> args, int nargout = 1) {
  const Builtin* b = builtins().find(name);
  EXPECT_NE(b, nullptr) << name;
  Outputs o = b->fn(ctx(), args, nargout);
  return o.empty() ? Value() : o[0];
}

template <class F>
std::string error_id(F f) {
  try {
    f();
  } catch (const MatlabError& e) {
    return e.identifier();
  }
  return "<no error>";
}

std::vector<double> values(const Value& v) {
  Tensor t = v.tensor();
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.get_double(i));
  return out;
}

Value str(const char* s) { return Value::from_chars(s); }

}  // namespace

TEST(Philox, KnownAnswer) {
  // Random123 known-answer vector for philox4x32_10: counter = 0, key = 0.
  uint32_t w[4];
  mf_philox4x32_10(0, 0, w);
  EXPECT_EQ(w[0], 0x6627e8d5u);
  EXPECT_EQ(w[1], 0xe169c58du);
  EXPECT_EQ(w[2], 0xbc57ac4cu);
  EXPECT_EQ(w[3], 0x9b00dbd8u);
}

TEST(Philox, LogAccuracy) {
  std::mt19937_64 g(7);
  std::uniform_real_distribution<double> ex(-700, 700), exf(-80, 80);
  double worst = 0, worstf = 0;
  for (int i = 0; i < 200000; ++i) {
    double x = std::exp(ex(g));
    double r = std::log(x);
    if (std::fabs(r) > 1e-300) worst = std::max(worst, std::fabs(mf_log_d(x) - r) / std::fabs(r));
    float xf = static_cast<float>(std::exp(exf(g)));
    double rf = std::log(static_cast<double>(xf));
    if (std::fabs(rf) > 1e-3)
      worstf = std::max(worstf, std::fabs(mf_log_f(xf) - rf) / std::fabs(rf));
  }
  for (int i = 1; i < 20000; ++i) {  // near 1, where relative accuracy is hardest
    double x = 1 + i * 1e-11, y = 1 - i * 1e-11;
    worst = std::max(worst, std::fabs(mf_log_d(x) - std::log(x)) / std::fabs(std::log(x)));
    worst = std::max(worst, std::fabs(mf_log_d(y) - std::log(y)) / std::fabs(std::log(y)));
  }
  EXPECT_LT(worst, 1e-15);
  EXPECT_LT(worstf, 3e-7);
  EXPECT_EQ(mf_log_d(1.0), 0.0);
  EXPECT_NEAR(mf_log_d(5.5511151231257827e-17), std::log(5.5511151231257827e-17), 1e-13);
}

TEST(Philox, SinCosAccuracy) {
  const long double two_pi = 6.283185307179586476925286766559L;
  double worst = 0, worstf = 0;
  for (int i = 0; i <= 400000; ++i) {
    double u = i / 400000.0;
    double s, c;
    mf_sincos2pi_d(u, &s, &c);
    long double a = two_pi * u;
    worst = std::max({worst, static_cast<double>(std::fabs(s - sinl(a))),
                      static_cast<double>(std::fabs(c - cosl(a)))});
    float uf = static_cast<float>(u), sf, cf;
    mf_sincos2pi_f(uf, &sf, &cf);
    long double af = two_pi * uf;
    worstf = std::max({worstf, static_cast<double>(std::fabs(sf - sinl(af))),
                       static_cast<double>(std::fabs(cf - cosl(af)))});
  }
  EXPECT_LT(worst, 5e-16);
  EXPECT_LT(worstf, 3e-7);
  for (double t = -0.785; t <= 0.785; t += 1e-4) {
    EXPECT_NEAR(mf_sin_kernel_d(t), std::sin(t), 2.5e-16);
    EXPECT_NEAR(mf_cos_kernel_d(t), std::cos(t), 2.5e-16);
  }
}

TEST(Rng, SameSeedSameNumbers) {
  call("rng", {42.0});
  std::vector<double> a = values(call("rand", {3.0}));
  call("rng", {42.0});
  std::vector<double> b = values(call("rand", {3.0}));
  EXPECT_EQ(a, b);
  std::vector<double> c = values(call("rand", {3.0}));
  EXPECT_NE(a, c);  // consecutive calls differ
  call("rng", {43.0});
  EXPECT_NE(values(call("rand", {3.0})), a);
  call("rng", {str("default")});
  std::vector<double> d = values(call("randn", {2.0}));
  call("rng", {0.0});
  EXPECT_EQ(values(call("randn", {2.0})), d);
}

TEST(Rng, CounterModel) {
  call("rng", {5.0});
  std::vector<double> a = values(call("rand", {2.0, 3.0}));
  std::vector<double> b = values(call("rand", {4.0, 1.0}));
  call("rng", {5.0});
  std::vector<double> all = values(call("rand", {10.0, 1.0}));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(a[i], all[i]);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b[i], all[6 + i]);
  // element i of a call is the pure function of (key, offset + i)
  call("rng", {5.0});
  EXPECT_EQ(ctx().session().rng.offset, 0u);
  call("randn", {3.0, 3.0});
  EXPECT_EQ(ctx().session().rng.offset, 9u);
  EXPECT_EQ(values(call("randn", {1.0}))[0], mf_randn_d(ctx().session().rng.key, 9));
}

TEST(Rng, RandRangeAndClass) {
  call("rng", {1.0});
  Value r = call("rand", {1000.0, 100.0});
  EXPECT_EQ(r.dims(), Dims(1000, 100));
  double lo = 1, hi = 0, sum = 0;
  for (double x : values(r)) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    sum += x;
  }
  EXPECT_GT(lo, 0.0);
  EXPECT_LT(hi, 1.0);
  EXPECT_NEAR(sum / 1e5, 0.5, 0.01);
  Value s = call("rand", {3.0, str("single")});
  EXPECT_EQ(s.class_name(), "single");
  for (double x : values(s)) EXPECT_TRUE(x > 0 && x < 1);
  Value l = call("randn", {2.0, str("like"), Value(Tensor::scalar(1, ClassId::Single))});
  EXPECT_EQ(l.class_name(), "single");
  EXPECT_EQ(error_id([] { call("rand", {2.0, str("int8")}); }), "MATLAB:invalidInputClass");
  EXPECT_EQ(mf_u01_double(0, 0), 5.5511151231257827e-17);
  EXPECT_LT(mf_u01_double(0xFFFFFFFFu, 0xFFFFFFFFu), 1.0);
  EXPECT_LT(mf_u01_float(0xFFFFFFFFu), 1.0f);
}

TEST(Rng, RandnMoments) {
  call("rng", {2.0});
  std::vector<double> v = values(call("randn", {1000000.0, 1.0}));
  double m = 0, q = 0;
  for (double x : v) m += x;
  m /= v.size();
  for (double x : v) q += (x - m) * (x - m);
  double sd = std::sqrt(q / (v.size() - 1));
  EXPECT_NEAR(m, 0.0, 0.005);
  EXPECT_NEAR(sd, 1.0, 0.005);
  std::vector<double> f = values(call("randn", {200000.0, 1.0, str("single")}));
  double mf = 0;
  for (double x : f) mf += x;
  EXPECT_NEAR(mf / f.size(), 0.0, 0.01);
}

TEST(Rng, Randi) {
  call("rng", {3.0});
  std::vector<double> v = values(call("randi", {6.0, 1.0, 60000.0}));
  std::vector<int> count(7, 0);
  for (double x : v) {
    ASSERT_TRUE(x >= 1 && x <= 6 && x == std::floor(x));
    count[static_cast<int>(x)]++;
  }
  for (int k = 1; k <= 6; ++k) EXPECT_NEAR(count[k], 10000, 500);
  Tensor lim = Tensor::uninit(ClassId::Double, Dims(1, 2));
  lim.set_double(0, -3);
  lim.set_double(1, 2);
  Value w = call("randi", {Value(lim), 50.0, 50.0, str("int8")});
  EXPECT_EQ(w.class_name(), "int8");
  EXPECT_EQ(w.dims(), Dims(50, 50));
  double lo = 9, hi = -9;
  for (double x : values(w)) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  EXPECT_EQ(lo, -3.0);
  EXPECT_EQ(hi, 2.0);
  EXPECT_EQ(call("randi", {10.0}).dims(), Dims(1, 1));
  EXPECT_EQ(error_id([] { call("randi", {0.0}); }), "MATLAB:randi:invalidLimits");
  EXPECT_EQ(error_id([] { call("randi", {300.0, 1.0, str("int8")}); }),
            "MATLAB:randi:invalidLimitsForClass");
}

TEST(Rng, StateStructRoundTrip) {
  call("rng", {9.0, str("twister")});
  call("rand", {5.0});
  Value s = call("rng", {});
  ASSERT_TRUE(s.is_struct());
  EXPECT_EQ(s.struct_array().get(0, s.struct_array().field_index("Seed")).scalar(), 9.0);
  EXPECT_EQ(s.struct_array().get(0, s.struct_array().field_index("State")).class_name(), "uint32");
  std::vector<double> a = values(call("rand", {4.0}));
  Value prev = call("rng", {s});  // restore; returns the state before restoring
  EXPECT_TRUE(prev.is_struct());
  EXPECT_EQ(values(call("rand", {4.0})), a);
  call("rng", {str("shuffle")});
  EXPECT_EQ(error_id([] { call("rng", {-1.0}); }), "MATLAB:rng:badSeed");
  EXPECT_EQ(error_id([] { call("rng", {1.0, str("nosuchgen")}); }), "MATLAB:rng:badGenerator");
}
