// Builtins of the "rng" family: rand randn randi rng (DESIGN.md decision 7).
//
// Every call of n elements takes the next n positions of the session's Philox stream
// (RngState::take); element i (column-major) is the value at position offset + i under the
// stream model and transforms of runtime/philox.inc. So rand(2,3) followed by rand(4,1) gives
// the same numbers as the last 4 of one rand(10,1) after the same seed, and a GPU kernel
// reproduces them bit for bit.
//
// rng forms: rng(seed), rng(seed, generator), rng('default') (= rng(0)), rng('shuffle') (seed
// from the clock), rng('shuffle', generator), rng(s) (restore a saved state struct), s = rng
// (current state), sprev = rng(...) (state before the change). Generator names MATLAB knows
// ('twister', 'philox', 'threefry', 'combRecursive', 'multFibonacci', 'simdTwister', 'v4',
// 'v5uniform', 'v5normal') are accepted; 'twister' (and 'mt19937ar') select MATLAB's Mersenne
// Twister (RngState::twister), every other name Philox4x32-10. rng(seed) and rng('shuffle') keep
// the current generator; rng('default') is Philox with seed 0 (matfuse's default generator).
// The Philox state struct has Type 'philox' and State a 4x1 uint32 column [key_lo; key_hi;
// offset_lo; offset_hi]; the twister's has Type 'twister' and State a 625x1 uint32 column (the
// 624 words of MT19937 and the position), as MATLAB's does.
//
// Under the twister every draw happens on the host in column-major order, as MATLAB draws:
// rand = genrand_res53 (bit for bit MATLAB's rand), randi = imin - 1 + ceil(u * (imax-imin+1))
// (MATLAB's randi); randperm (matfun.cc) sorts rand(1, n), which is MATLAB's randperm.
// randn is NOT MATLAB's: MATLAB's normal transform (a ziggurat variant) is not publicly
// specified, so randn under the twister applies Philox's Box-Muller transform (philox.inc
// mf_bm2_d) to successive pairs of twister doubles. Single-precision rand rounds the double
// to single.
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>
#include <algorithm>

#include "accel/capture/capture.h"
#include "builtins/argparse.h"
#include "builtins/registry.h"
#include "runtime/philox.inc"

namespace matfuse {

namespace {

bool float_class(ClassId c) { return c == ClassId::Double || c == ClassId::Single; }

/// A twister double in (0, 1): genrand_res53, its rare exact 0 moved to 2^-53 (Box-Muller's log).
double twister_open01(Mt19937& mt) {
  const double u = mt.next_res53();
  return u > 0 ? u : 1.0 / 9007199254740992.0;
}

/// rand/randn of dims and class drawn from the twister on the host (column-major order).
Value twister_array(Mt19937& mt, const Dims& dims, ClassId cls, bool normal) {
  Tensor t = Tensor::uninit(cls, dims);
  const int64_t n = dims.numel();
  for (int64_t i = 0; i < n; ++i) {
    double v;
    if (normal) {
      double z0, z1;
      mf_bm2_d(twister_open01(mt), twister_open01(mt), &z0, &z1);
      v = z0;
      if (i + 1 < n) {
        if (cls == ClassId::Single) t.mutable_data<float>()[i] = static_cast<float>(v);
        else t.mutable_data<double>()[i] = v;
        ++i;
        v = z1;
      }
    } else {
      v = mt.next_res53();
    }
    if (cls == ClassId::Single) {
      float f = static_cast<float>(v);
      if (!normal && f >= 1.0f) f = std::nextafter(1.0f, 0.0f);
      t.mutable_data<float>()[i] = f;
    } else {
      t.mutable_data<double>()[i] = v;
    }
  }
  return Value(std::move(t));
}

/// rand / randn (normal = true) of sz..., 'double'|'single'|'like', p: uniform on the open
/// interval (0, 1), or standard normal (Box-Muller of philox.inc). Element i is the value at
/// position offset + i of the session's stream, lazily (a generator node) or eagerly, with the
/// same bits.
Outputs random_array(CallContext& ctx, Args args, int nargout, bool normal) {
  check_nargout(nargout, 1);
  SizeClassArgs a = parse_size_class(args, normal ? "randn" : "rand", ClassId::Double, float_class);
  RngState& st = ctx.session().rng;
  const int64_t n = a.dims.numel();
  if (st.twister && !a.complex) return {twister_array(*st.twister, a.dims, a.cls, normal)};
  if (st.twister) {
    // Complex under the twister: real and imaginary parts from consecutive draws.
    Value re = twister_array(*st.twister, Dims(2 * n, 1), ClassId::Double, normal);
    const double* d = n ? re.tensor().data<double>() : nullptr;
    Tensor t = Tensor::uninit(a.cls, a.dims, true);
    const double sc = normal ? 1 / std::sqrt(2.0) : 1.0;
    for (int64_t i = 0; i < n; ++i)
      t.set_complex(i, std::complex<double>(d[2 * i] * sc, d[2 * i + 1] * sc));
    return {Value(std::move(t))};
  }
  if (a.complex) {
    // 'like' a complex prototype: real and imaginary parts from consecutive stream positions
    // (2i, 2i+1); randn scales both by 1/sqrt(2) so the complex value has unit variance.
    Tensor t = Tensor::uninit(a.cls, a.dims, true);
    const uint64_t off = st.take(static_cast<uint64_t>(2 * n));
    const double sc = normal ? 1 / std::sqrt(2.0) : 1.0;
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t c = off + 2 * static_cast<uint64_t>(i);
      double re, im;
      if (a.cls == ClassId::Single) {
        re = normal ? mf_randn_f(st.key, c) : mf_rand_f(st.key, c);
        im = normal ? mf_randn_f(st.key, c + 1) : mf_rand_f(st.key, c + 1);
      } else {
        re = normal ? mf_randn_d(st.key, c) : mf_rand_d(st.key, c);
        im = normal ? mf_randn_d(st.key, c + 1) : mf_rand_d(st.key, c + 1);
      }
      t.set_complex(i, std::complex<double>(re * sc, im * sc));
    }
    return {Value(std::move(t))};
  }
  if (accel::capture_generator(n, a.cls)) {
    const uint64_t off = st.take(static_cast<uint64_t>(n));
    const accel::NodeRef g = normal ? accel::randn(a.dims, a.cls, st.key, off)
                                    : accel::rand(a.dims, a.cls, st.key, off);
    return {Value(accel::lazy_generator(g))};
  }
  Tensor t = Tensor::uninit(a.cls, a.dims);
  const uint64_t off = st.take(static_cast<uint64_t>(n));
  if (a.cls == ClassId::Single) {
    float* d = n ? t.mutable_data<float>() : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t c = off + static_cast<uint64_t>(i);
      d[i] = normal ? mf_randn_f(st.key, c) : mf_rand_f(st.key, c);
    }
  } else {
    double* d = n ? t.mutable_data<double>() : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t c = off + static_cast<uint64_t>(i);
      d[i] = normal ? mf_randn_d(st.key, c) : mf_rand_d(st.key, c);
    }
  }
  return {Value(std::move(t))};
}

Outputs bi_rand(CallContext& ctx, Args args, int nargout) {
  return random_array(ctx, args, nargout, false);
}
Outputs bi_randn(CallContext& ctx, Args args, int nargout) {
  return random_array(ctx, args, nargout, true);
}

[[noreturn]] void bad_limits() {
  throw_error("MATLAB:randi:invalidLimits",
              "The first input must be a positive scalar integer value IMAX, or two integer "
              "values [IMIN IMAX] with IMIN less than or equal to IMAX.");
}

/// randi(imax, sz...), randi([imin imax], sz...), with a class name (double, single, integer
/// classes) or 'like', p. Element value = imin + floor(u * (imax - imin + 1)), u = rand double.
Outputs bi_randi(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, static_cast<size_t>(-1));
  check_nargout(nargout, 1);
  const Value& lim = args[0];
  if (!lim.is_tensor() || lim.numel() < 1 || lim.numel() > 2 || lim.is_char()) bad_limits();
  Tensor lt = lim.tensor();
  if (lt.is_complex()) bad_limits();
  double lo = 1, hi;
  if (lt.numel() == 1) {
    hi = lt.get_double(0);
  } else {
    lo = lt.get_double(0);
    hi = lt.get_double(1);
  }
  if (!(std::isfinite(lo) && std::isfinite(hi)) || lo != std::floor(lo) || hi != std::floor(hi) ||
      hi < lo)
    bad_limits();
  if (hi - lo + 1 > 9007199254740992.0)
    throw_error("MATLAB:randi:rangeTooLarge",
                "The range of integers IMAX-IMIN must be less than 2^53.");
  SizeClassArgs a = parse_size_class(args.subspan(1), "randi", ClassId::Double,
                                     [](ClassId c) { return c != ClassId::Logical && c != ClassId::Char; });
  if (is_integer_class(a.cls) && (lo < int_class_min(a.cls) || hi > int_class_max(a.cls)))
    throw_error("MATLAB:randi:invalidLimitsForClass",
                "IMAX and IMIN must be within the range of the output class '%s'.",
                std::string(class_name(a.cls)).c_str());
  Tensor t = Tensor::uninit(a.cls, a.dims);
  const int64_t n = t.numel();
  RngState& st = ctx.session().rng;
  const double span = hi - lo + 1;
  if (st.twister) {
    for (int64_t i = 0; i < n; ++i) {
      const double c = std::ceil(st.twister->next_res53() * span);
      t.set_double(i, lo - 1 + std::max(c, 1.0));
    }
    return {Value(std::move(t))};
  }
  const uint64_t off = st.take(static_cast<uint64_t>(n));
  for (int64_t i = 0; i < n; ++i)
    t.set_double(i, mf_randi_d(st.key, off + static_cast<uint64_t>(i), lo, span));
  return {Value(std::move(t))};
}

// ---- rng ------------------------------------------------------------------------------------

Value state_struct(const RngState& st) {
  StructArray s(Dims(1, 1));
  int ft = s.add_field("Type"), fs = s.add_field("Seed"), fst = s.add_field("State");
  if (st.twister) {
    s.at(0, ft) = Value::from_chars("twister");
    s.at(0, fs) = Value(static_cast<double>(st.seed));
    Tensor state = Tensor::uninit(ClassId::UInt32, Dims(625, 1));
    uint32_t* w = state.mutable_data<uint32_t>();
    for (int i = 0; i < 624; ++i) w[i] = st.twister->mt[i];
    w[624] = static_cast<uint32_t>(st.twister->mti);
    s.at(0, fst) = Value(std::move(state));
    return Value(std::move(s));
  }
  s.at(0, ft) = Value::from_chars("philox");
  s.at(0, fs) = Value(static_cast<double>(st.seed));
  Tensor state = Tensor::uninit(ClassId::UInt32, Dims(4, 1));
  uint32_t* w = state.mutable_data<uint32_t>();
  w[0] = static_cast<uint32_t>(st.key);
  w[1] = static_cast<uint32_t>(st.key >> 32);
  w[2] = static_cast<uint32_t>(st.offset);
  w[3] = static_cast<uint32_t>(st.offset >> 32);
  s.at(0, fst) = Value(std::move(state));
  return Value(std::move(s));
}

void restore_state(RngState& st, const StructArray& s) {
  int fs = s.field_index("Seed"), fst = s.field_index("State");
  if (s.numel() != 1 || fs < 0 || fst < 0)
    throw_error("MATLAB:rng:badSettings",
                "The settings structure must have fields Type, Seed and State, as returned by "
                "rng.");
  const Value& state = s.get(0, fst);
  const Value& seed = s.get(0, fs);
  if (state.is_tensor() && state.numel() == 625) {
    Tensor t = state.tensor();
    // Every word a uint32 and the position 0..625, checked as doubles (a NaN, negative or
    // huge value would be undefined to convert).
    auto bad = [] {
      throw_error("MATLAB:rng:badSettings", "Invalid random number generator state.");
    };
    const double sd = seed.to_double("Seed");
    if (!(sd >= 0 && sd < 18446744073709551616.0) || sd != std::floor(sd)) bad();
    for (int i = 0; i < 625; ++i) {
      const double w = t.get_double(i);
      if (!(w >= 0 && w <= (i < 624 ? 4294967295.0 : 625.0)) || w != std::floor(w)) bad();
    }
    st.set_twister(static_cast<uint64_t>(sd));
    for (int i = 0; i < 624; ++i) st.twister->mt[i] = static_cast<uint32_t>(t.get_double(i));
    st.twister->mti = static_cast<int>(t.get_double(624));
    return;
  }
  if (!state.is_tensor() || state.numel() != 4)
    throw_error("MATLAB:rng:badSettings", "Invalid random number generator state.");
  Tensor t = state.tensor();
  auto word = [&](int i) { return static_cast<uint64_t>(static_cast<uint32_t>(t.get_double(i))); };
  st.twister.reset();
  st.seed = static_cast<uint64_t>(seed.to_double("Seed"));
  st.key = word(0) | (word(1) << 32);
  st.offset = word(2) | (word(3) << 32);
}

std::string lower(const std::string& s) {
  std::string l;
  for (char c : s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return l;
}

/// Generator names that select the Mersenne Twister.
bool is_twister_name(const std::string& s) {
  const std::string l = lower(s);
  return l == "twister" || l == "mt19937ar";
}

bool is_generator_name(const std::string& s) {
  static const char* names[] = {"twister", "philox", "threefry", "combrecursive",
                                "multfibonacci", "simdtwister", "v4", "v5uniform", "v5normal",
                                "mt19937ar", "mrg32k3a", "mlfg6331_64", "philox4x32_10",
                                "threefry4x64_20", "dsfmt19937"};
  std::string l;
  for (char c : s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* n : names)
    if (l == n) return true;
  return false;
}

uint64_t seed_arg(const Value& v) {
  double d = v.is_tensor() && v.numel() == 1 && !v.is_char() ? v.to_double() : -1;
  if (!(d >= 0) || d != std::floor(d) || d > 4294967295.0)
    throw_error("MATLAB:rng:badSeed",
                "The seed value must be an integer between 0 and 2^32 - 1.");
  return static_cast<uint64_t>(d);
}

/// rng(...): see the file comment.
Outputs bi_rng(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 2);
  check_nargout(nargout, 1);
  RngState& st = ctx.session().rng;
  Value prev = state_struct(st);
  if (args.empty()) return {prev};
  // The generator of this call: the named one, else the current one.
  bool twister = static_cast<bool>(st.twister);
  if (args.size() == 2) {
    if (!args[1].is_text() || !is_generator_name(args[1].to_text()))
      throw_error("MATLAB:rng:badGenerator", "Unrecognized random number generator name.");
    twister = is_twister_name(args[1].to_text());
  }
  auto reseed = [&](uint64_t seed) {
    if (twister) st.set_twister(seed);
    else st.set_seed(seed);
  };
  const Value& a = args[0];
  if (a.is_struct()) {
    if (args.size() != 1) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
    restore_state(st, a.struct_array());
  } else if (a.is_text()) {
    std::string s = a.to_text();
    if (s == "default") {
      if (args.size() != 1) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
      st.set_seed(0);
    } else if (s == "shuffle") {
      auto now = std::chrono::system_clock::now().time_since_epoch();
      uint64_t ns = static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
      reseed((ns ^ (ns >> 32)) & 0xFFFFFFFFull);
    } else if (args.size() == 1 && is_generator_name(s)) {
      twister = is_twister_name(s);
      reseed(st.seed);  // rng(generator): reinitialise with the current seed
    } else {
      throw_error("MATLAB:rng:badFirstOpt",
                  "First input must be a nonnegative integer seed less than 2^32, 'shuffle', "
                  "'default', or a generator settings structure.");
    }
  } else {
    reseed(seed_arg(a));
  }
  if (nargout >= 1) return {prev};
  return {};
}

}  // namespace

void register_rng(Registry& r) {
  r.add("rand", bi_rand);
  r.add("randn", bi_randn);
  r.add("randi", bi_randi);
  r.add("rng", bi_rng);
}

}  // namespace matfuse
