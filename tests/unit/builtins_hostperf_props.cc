// Property tests of the fast host paths of the data builtins: on random shapes, classes (double,
// single, integer, logical), with NaN, -0 and ties, each result is compared with a plain
// reference computed here from MATLAB's definition (stable sort with NaN last for ascending and
// first for descending, first occurrences, windows clipped at the ends, ...).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "builtins_check.h"

namespace matfuse::test {
namespace {

std::mt19937_64 rng_for(int seed) { return std::mt19937_64(1000 + seed); }

/// A random r x c tensor of class T: values from a small set (ties), some NaN and -0 for
/// floating classes.
template <class T>
Tensor random_tensor(std::mt19937_64& g, int64_t r, int64_t c, bool specials) {
  Tensor t = Tensor::uninit(class_of_type<T>::value, Dims(r, c));
  T* p = t.mutable_data<T>();
  std::uniform_int_distribution<int> pick(-20, 20), special(0, 15);
  for (int64_t i = 0; i < r * c; ++i) {
    int v = pick(g);
    if constexpr (std::is_same_v<T, bool>) {
      p[i] = v > 0;
    } else if constexpr (std::is_floating_point_v<T>) {
      T x = static_cast<T>(v) / T(4);
      int s = specials ? special(g) : 99;
      if (s == 0)
        x = std::numeric_limits<T>::quiet_NaN();
      else if (s == 1)
        x = T(-0.0);
      else if (s == 2)
        x = std::numeric_limits<T>::infinity() * (v > 0 ? 1 : -1);
      p[i] = x;
    } else if constexpr (std::is_unsigned_v<T>) {
      p[i] = static_cast<T>(v + 20);
    } else {
      p[i] = static_cast<T>(v * 3);
    }
  }
  return t;
}

template <class T>
bool isnan_t(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return v != v;
  else
    return false;
}

template <class T>
bool same_bits(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return (a != a && b != b) || (a == b && std::signbit(a) == std::signbit(b));
  else
    return a == b;
}

/// Stable order of positions of v by MATLAB's sort rules.
template <class T>
std::vector<int64_t> ref_order(const std::vector<T>& v, bool descend) {
  std::vector<int64_t> o(v.size());
  std::iota(o.begin(), o.end(), 0);
  std::stable_sort(o.begin(), o.end(), [&](int64_t i, int64_t j) {
    bool ni = isnan_t(v[i]), nj = isnan_t(v[j]);
    if (ni || nj) return descend ? (ni && !nj) : (!ni && nj);
    return descend ? v[i] > v[j] : v[i] < v[j];
  });
  return o;
}

/// Lane k (0-based) of an r x c tensor along dim (0: columns, 1: rows).
template <class T>
std::vector<T> lane(const Tensor& t, int dim, int64_t k) {
  int64_t r = t.dims().rows(), c = t.dims().cols();
  const T* p = t.data<T>();
  std::vector<T> v;
  if (dim == 0)
    for (int64_t i = 0; i < r; ++i) v.push_back(p[k * r + i]);
  else
    for (int64_t j = 0; j < c; ++j) v.push_back(p[j * r + k]);
  return v;
}

template <class T>
void sort_case(int seed) {
  auto g = rng_for(seed);
  std::uniform_int_distribution<int64_t> len(0, 700);
  for (int rep = 0; rep < 6; ++rep) {
    int64_t r = len(g) / (rep % 2 ? 1 : 50) + 1, c = rep % 3 + 1;
    if (rep == 5) std::swap(r, c);
    Tensor x = random_tensor<T>(g, r, c, true);
    for (int dim = 0; dim < 2; ++dim)
      for (int desc = 0; desc < 2; ++desc) {
        Snippet s;
        s.in.set_base_var("x", Value(x));
        s("[s, i] = sort(x, " + std::to_string(dim + 1) + (desc ? ", 'descend'" : "") + ");");
        Tensor st = s.in.base_var("s")->tensor(), it = s.in.base_var("i")->tensor();
        ASSERT_EQ(st.cls(), x.cls());
        int64_t nl = dim == 0 ? c : r;
        for (int64_t k = 0; k < nl; ++k) {
          std::vector<T> v = lane<T>(x, dim, k), sv = lane<T>(st, dim, k);
          std::vector<double> iv = lane<double>(it, dim, k);
          std::vector<int64_t> o = ref_order(v, desc);
          for (size_t m = 0; m < o.size(); ++m) {
            ASSERT_TRUE(same_bits<T>(sv[m], v[o[m]])) << "lane " << k << " pos " << m;
            ASSERT_EQ(iv[m], static_cast<double>(o[m] + 1)) << "lane " << k << " pos " << m;
          }
        }
      }
  }
}

TEST(BuiltinsHostPerf, SortMatchesStableReference) {
  sort_case<double>(1);
  sort_case<float>(2);
  sort_case<int8_t>(3);
  sort_case<uint16_t>(4);
  sort_case<int32_t>(5);
  sort_case<int64_t>(6);
  sort_case<uint64_t>(7);
  sort_case<bool>(8);
}

template <class T>
void unique_case(int seed) {
  auto g = rng_for(seed);
  for (int rep = 0; rep < 4; ++rep) {
    int64_t n = rep == 0 ? 0 : rep * 300 + 7;
    Tensor x = random_tensor<T>(g, n, 1, true);
    const T* p = x.data<T>();
    std::vector<T> v(p, p + n);
    std::vector<int64_t> o = ref_order(v, false);
    // Groups of equal values in sorted order; each NaN alone.
    std::vector<std::vector<int64_t>> groups;
    for (size_t m = 0; m < o.size(); ++m) {
      if (m == 0 || isnan_t(v[o[m]]) || !(v[o[m]] == v[o[m - 1]])) groups.emplace_back();
      groups.back().push_back(o[m]);
    }
    for (int stable = 0; stable < 2; ++stable) {
      auto gs = groups;
      if (stable)
        std::sort(gs.begin(), gs.end(), [](auto& a, auto& b) {
          return *std::min_element(a.begin(), a.end()) < *std::min_element(b.begin(), b.end());
        });
      Snippet s;
      s.in.set_base_var("x", Value(x));
      s(std::string("[u, ia, ic] = unique(x") + (stable ? ", 'stable'" : "") + ");");
      Tensor u = s.in.base_var("u")->tensor(), ia = s.in.base_var("ia")->tensor(),
             ic = s.in.base_var("ic")->tensor();
      ASSERT_EQ(u.numel(), static_cast<int64_t>(gs.size()));
      for (size_t k = 0; k < gs.size(); ++k) {
        int64_t first = *std::min_element(gs[k].begin(), gs[k].end());
        EXPECT_TRUE(same_bits<T>(u.data<T>()[k], v[first]));
        EXPECT_EQ(ia.get_double(static_cast<int64_t>(k)), static_cast<double>(first + 1));
        for (int64_t m : gs[k]) EXPECT_EQ(ic.get_double(m), static_cast<double>(k + 1));
      }
    }
  }
}

TEST(BuiltinsHostPerf, UniqueMatchesGroups) {
  unique_case<double>(11);
  unique_case<float>(12);
  unique_case<int16_t>(13);
  unique_case<bool>(14);
}

TEST(BuiltinsHostPerf, IsmemberLowestIndex) {
  auto g = rng_for(21);
  Tensor a = random_tensor<double>(g, 500, 1, true), b = random_tensor<double>(g, 300, 1, true);
  Snippet s;
  s.in.set_base_var("a", Value(a));
  s.in.set_base_var("b", Value(b));
  s("[tf, loc] = ismember(a, b);");
  Tensor tf = s.in.base_var("tf")->tensor(), loc = s.in.base_var("loc")->tensor();
  for (int64_t i = 0; i < 500; ++i) {
    double want = 0;
    for (int64_t j = 0; j < 300 && want == 0; ++j)
      if (a.data<double>()[i] == b.data<double>()[j]) want = static_cast<double>(j + 1);
    EXPECT_EQ(loc.get_double(i), want) << i;
    EXPECT_EQ(tf.get_double(i), want != 0 ? 1.0 : 0.0) << i;
  }
}

TEST(BuiltinsHostPerf, FindAndMaskReads) {
  auto g = rng_for(31);
  Tensor x = random_tensor<double>(g, 257, 3, true);
  Snippet s;
  s.in.set_base_var("x", Value(x));
  s("k = find(x > 1); v = x(x > 1); n = nnz(x); [r, c, w] = find(x, 5, 'last');");
  Tensor k = s.in.base_var("k")->tensor(), v = s.in.base_var("v")->tensor();
  std::vector<int64_t> hits, nz;
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (x.data<double>()[i] > 1) hits.push_back(i);
    if (x.data<double>()[i] != 0) nz.push_back(i);
  }
  ASSERT_EQ(k.numel(), static_cast<int64_t>(hits.size()));
  ASSERT_EQ(v.dims(), Dims(static_cast<int64_t>(hits.size()), 1));
  for (size_t m = 0; m < hits.size(); ++m) {
    EXPECT_EQ(k.get_double(static_cast<int64_t>(m)), static_cast<double>(hits[m] + 1));
    EXPECT_EQ(v.get_double(static_cast<int64_t>(m)), x.data<double>()[hits[m]]);
  }
  EXPECT_EQ(s.num("n"), static_cast<double>(nz.size()));
  Tensor r = s.in.base_var("r")->tensor(), c = s.in.base_var("c")->tensor();
  for (int64_t m = 0; m < 5; ++m) {
    int64_t want = nz[nz.size() - 5 + static_cast<size_t>(m)];
    EXPECT_EQ(r.get_double(m), static_cast<double>(want % 257 + 1));
    EXPECT_EQ(c.get_double(m), static_cast<double>(want / 257 + 1));
  }
  // Masks of other classes and shapes, and a row vector keeps its orientation.
  s("i8 = int8(1:100); s1 = single((1:100)');");
  check(s, "i8(mod(i8, 40) == 0)", "int8([40 80])");
  check(s, "s1(mod(s1, 40) == 0)", "single([40; 80])");
  check(s, "find(zeros(1, 0))", "zeros(1, 0)");
}

TEST(BuiltinsHostPerf, MaxkMinkAreSortPrefixes) {
  auto g = rng_for(41);
  Tensor x = random_tensor<double>(g, 400, 3, true);
  Snippet s;
  s.in.set_base_var("x", Value(x));
  for (int k : {1, 5, 60, 500}) {
    std::string ks = std::to_string(k);
    s("[a, ia] = maxk(x, " + ks + "); [sa, si] = sort(x, 'descend'); m = min(" + ks +
      ", 400); eqa = isequaln(a, sa(1:m, :)) && isequal(ia, si(1:m, :));");
    EXPECT_EQ(s.num("eqa"), 1.0) << k;
    s("[b, ib] = mink(x, " + ks + ", 2); [sb, sj] = sort(x, 2); m = min(" + ks +
      ", 3); eqb = isequaln(b, sb(:, 1:m)) && isequal(ib, sj(:, 1:m));");
    EXPECT_EQ(s.num("eqb"), 1.0) << k;
  }
}

/// Reference moving statistic of a window of values (NaN rules of the mov* functions).
double ref_window(std::vector<double> w, const std::string& f, bool omit) {
  bool nan = std::any_of(w.begin(), w.end(), [](double v) { return v != v; });
  if (omit)
    w.erase(std::remove_if(w.begin(), w.end(), [](double v) { return v != v; }), w.end());
  else if (nan)
    return NAN;
  double n = static_cast<double>(w.size());
  double sum = std::accumulate(w.begin(), w.end(), 0.0);
  if (f == "movsum") return sum;
  if (w.empty()) return NAN;
  if (f == "movmean") return sum / n;
  if (f == "movmax") return *std::max_element(w.begin(), w.end());
  if (f == "movmin") return *std::min_element(w.begin(), w.end());
  if (f == "movmedian") {
    std::sort(w.begin(), w.end());
    size_t m = w.size();
    return m % 2 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2;
  }
  double mu = sum / n, ss = 0;
  for (double v : w) ss += (v - mu) * (v - mu);
  double var = w.size() == 1 ? 0 : ss / (n - 1);
  return f == "movvar" ? var : std::sqrt(var);
}

TEST(BuiltinsHostPerf, MovingStatisticsMatchWindows) {
  auto g = rng_for(51);
  std::uniform_real_distribution<double> u(-3, 3);
  for (int withnan = 0; withnan < 2; ++withnan) {
    const int64_t n = 2500;  // longer than the exact-recomputation period
    Tensor x = Tensor::uninit(ClassId::Double, Dims(n, 2));
    double* p = x.mutable_data<double>();
    for (int64_t i = 0; i < 2 * n; ++i) p[i] = u(g) + 100;  // an offset tests cancellation
    if (withnan)
      for (int64_t i = 7; i < 2 * n; i += 97) p[i] = NAN;
    Snippet s;
    s.in.set_base_var("x", Value(x));
    for (const char* f : {"movsum", "movmean", "movmax", "movmin", "movvar", "movstd", "movmedian"})
      for (auto [kb, kf] : {std::pair<int, int>{3, 3}, {4, 0}, {0, 5}, {31, 32}})
        for (int omit = 0; omit < 2; ++omit) {
          std::string call = std::string("y = ") + f + "(x, [" + std::to_string(kb) + " " +
                             std::to_string(kf) + "]" + (omit ? ", 'omitnan'" : "") + ");";
          s(call);
          Tensor y = s.in.base_var("y")->tensor();
          for (int64_t col = 0; col < 2; ++col)
            for (int64_t k = 0; k < n; ++k) {
              std::vector<double> w;
              for (int64_t j = std::max<int64_t>(0, k - kb); j <= std::min<int64_t>(n - 1, k + kf);
                   ++j)
                w.push_back(p[col * n + j]);
              double want = ref_window(w, f, omit), got = y.data<double>()[col * n + k];
              if (std::isnan(want)) {
                ASSERT_TRUE(std::isnan(got)) << call << " at " << k;
              } else {
                ASSERT_NEAR(got, want, 1e-9 * std::max(1.0, std::fabs(want)))
                    << call << " at " << k;
              }
            }
        }
  }
}

TEST(BuiltinsHostPerf, VarStdAlongRowsAndColumns) {
  auto g = rng_for(61);
  std::uniform_real_distribution<double> u(-1, 1);
  const int64_t r = 700, c = 5;
  Tensor x = Tensor::uninit(ClassId::Double, Dims(r, c));
  double* p = x.mutable_data<double>();
  for (int64_t i = 0; i < r * c; ++i) p[i] = (i % 41 == 3) ? NAN : 1e6 + u(g);
  Snippet s;
  s.in.set_base_var("x", Value(x));
  s("v1 = var(x, 0, 1, 'omitnan'); v2 = var(x, 1, 2, 'omitnan'); s2 = std(x, [1 2 3 4 5], 2, "
    "'omitnan'); v3 = var(x, 0, 2);");
  auto ref = [&](const std::vector<double>& v, const std::vector<double>& w, int norm) {
    double sw = 0, sm = 0, cnt = 0;
    for (size_t k = 0; k < v.size(); ++k)
      if (v[k] == v[k]) {
        sw += w[k];
        sm += w[k] * v[k];
        cnt += 1;
      }
    double mu = sm / sw, ss = 0;
    for (size_t k = 0; k < v.size(); ++k)
      if (v[k] == v[k]) ss += w[k] * (v[k] - mu) * (v[k] - mu);
    return norm == 2 ? ss / sw : norm == 1 ? ss / cnt : ss / (cnt - 1);
  };
  Tensor v1 = s.in.base_var("v1")->tensor(), v2 = s.in.base_var("v2")->tensor(),
         s2 = s.in.base_var("s2")->tensor(), v3 = s.in.base_var("v3")->tensor();
  for (int64_t j = 0; j < c; ++j) {
    std::vector<double> col(p + j * r, p + (j + 1) * r), ones(r, 1.0);
    EXPECT_NEAR(v1.get_double(j), ref(col, ones, 0), 1e-12);
  }
  for (int64_t i = 0; i < r; ++i) {
    std::vector<double> row, ones(c, 1.0), w = {1, 2, 3, 4, 5};
    bool nan = false;
    for (int64_t j = 0; j < c; ++j) {
      row.push_back(p[j * r + i]);
      nan = nan || std::isnan(p[j * r + i]);
    }
    EXPECT_NEAR(v2.get_double(i), ref(row, ones, 1), 1e-12) << i;
    EXPECT_NEAR(s2.get_double(i), std::sqrt(ref(row, w, 2)), 1e-12) << i;
    if (nan)
      EXPECT_TRUE(std::isnan(v3.get_double(i))) << i;
    else
      EXPECT_NEAR(v3.get_double(i), ref(row, ones, 0), 1e-12) << i;
  }
}

TEST(BuiltinsHostPerf, HistcountsAndInterp1MatchSearches) {
  auto g = rng_for(71);
  std::uniform_real_distribution<double> u(-0.2, 1.2);
  Tensor x = Tensor::uninit(ClassId::Double, Dims(5000, 1));
  for (int64_t i = 0; i < 5000; ++i) x.mutable_data<double>()[i] = u(g);
  x.mutable_data<double>()[3] = NAN;
  x.mutable_data<double>()[4] = 1.0;  // the last edge: closed bin
  Snippet s;
  s.in.set_base_var("x", Value(x));
  for (const char* edges : {"linspace(0, 1, 11)", "[0 0.1 0.15 0.5 0.5 0.9 1]", "(0:0.1:1).^2"}) {
    s(std::string("e = ") + edges + "; [c, ~, b] = histcounts(x, e);");
    Tensor e = s.in.base_var("e")->tensor(), c = s.in.base_var("c")->tensor(),
           b = s.in.base_var("b")->tensor();
    std::vector<double> ev(e.data<double>(), e.data<double>() + e.numel()), want(ev.size() - 1);
    for (int64_t i = 0; i < 5000; ++i) {
      double v = x.data<double>()[i];
      double bin = 0;
      if (v >= ev.front() && v <= ev.back()) {
        int64_t k = std::upper_bound(ev.begin(), ev.end(), v) - ev.begin() - 1;
        k = std::min<int64_t>(k, static_cast<int64_t>(ev.size()) - 2);
        want[k] += 1;
        bin = static_cast<double>(k + 1);
      }
      ASSERT_EQ(b.get_double(i), bin) << edges << " element " << i;
    }
    for (size_t k = 0; k < want.size(); ++k)
      EXPECT_EQ(c.get_double(static_cast<int64_t>(k)), want[k]) << edges << " bin " << k;
  }
  for (const char* grid : {"linspace(0, 1, 101)", "sort([0 rand(1, 50) 1])"}) {
    s(std::string("gx = ") + grid +
      "; gy = cos(7 * gx); y = interp1(gx, gy, x); "
      "ye = interp1(gx, gy, x, 'linear', 'extrap');");
    Tensor gx = s.in.base_var("gx")->tensor(), gy = s.in.base_var("gy")->tensor(),
           y = s.in.base_var("y")->tensor(), ye = s.in.base_var("ye")->tensor();
    const double* xp = gx.data<double>();
    int64_t n = gx.numel();
    for (int64_t i = 0; i < 5000; ++i) {
      double q = x.data<double>()[i];
      if (std::isnan(q)) continue;
      int64_t k = std::upper_bound(xp, xp + n, q) - xp - 1;
      k = std::clamp<int64_t>(k, 0, n - 2);
      double want = gy.get_double(k) +
                    (gy.get_double(k + 1) - gy.get_double(k)) / (xp[k + 1] - xp[k]) * (q - xp[k]);
      EXPECT_NEAR(ye.get_double(i), want, 1e-12) << grid << " " << q;
      if (q < xp[0] || q > xp[n - 1])
        EXPECT_TRUE(std::isnan(y.get_double(i)));
      else
        EXPECT_NEAR(y.get_double(i), want, 1e-12) << grid << " " << q;
    }
  }
}

TEST(BuiltinsHostPerf, FilterAndConvMatchDirectSums) {
  Snippet s;
  // filter over many columns (groups of four and a remainder) against the recursion itself.
  s("x = reshape(sin(1:(300 * 7)), 300, 7); b = [0.2 0.3 -0.1 0.4]; a = [1 -0.5 0.25];"
    "[y, zf] = filter(b, a, x); r = zeros(size(x)); zr = zeros(3, 7);"
    "for c = 1:7, z = [0 0 0];"
    "  for n = 1:300, xi = x(n, c); yi = b(1) * xi + z(1);"
    "    z(1) = b(2) * xi + z(2) - a(2) * yi; z(2) = b(3) * xi + z(3) - a(3) * yi;"
    "    z(3) = b(4) * xi; r(n, c) = yi; end, zr(:, c) = z'; end");
  s("d1 = max(abs(y(:) - r(:))); d2 = max(abs(zf(:) - zr(:)));");
  EXPECT_LT(s.num("d1"), 1e-13);
  EXPECT_LT(s.num("d2"), 1e-13);
  // Along rows, with initial conditions.
  s("y2 = filter([1 2], [2 1], x', ones(1, 7), 2); r2 = filter([1 2], [2 1], x, ones(1, 7));"
    "d3 = max(max(abs(y2 - r2')));");
  EXPECT_LT(s.num("d3"), 1e-13);
  // conv through the FFT (long kernel) against direct sums.
  s("u = sin(0.1 * (1:3000)); v = cos(0.37 * (1:200)); c = conv(u, v); w = zeros(1, 3199);"
    "for k = 1:200, w(k:k + 2999) = w(k:k + 2999) + v(k) * u; end; d4 = max(abs(c - w));"
    "cs = conv(u, v, 'same'); d5 = max(abs(cs - w(101:3100)));"
    "cv = conv(u', v, 'valid'); d6 = max(abs(cv - w(200:3000)'));");
  EXPECT_LT(s.num("d4"), 1e-10);
  EXPECT_LT(s.num("d5"), 1e-10);
  EXPECT_LT(s.num("d6"), 1e-10);
}

TEST(BuiltinsHostPerf, PercentilesMatchSortedFormula) {
  Snippet s;
  s("x = [sin(1:101)'; NaN]; y = prctile(x, [0 2.5 50 97.5 100]); q = quantile(x, 0.3);"
    "t = sort(x(1:101)); n = 101;"
    "f = @(p) interp1([0; ((1:n)' - 0.5) / n; 1], [t(1); t; t(n)], p);"
    "d = max(abs(y - f([0 2.5 50 97.5 100]' / 100))); dq = abs(q - f(0.3));");
  EXPECT_LT(s.num("d"), 1e-14);
  EXPECT_LT(s.num("dq"), 1e-14);
  check(s, "prctile([1 2; 3 4; 5 6], 50)", "[3 4]");
  check(s, "quantile(single([4 1 3 2]), 0.5)", "single(2.5)");
  check(s, "prctile([NaN NaN], 50)", "NaN");
}

}  // namespace
}  // namespace matfuse::test
