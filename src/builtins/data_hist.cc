// histcounts and accumarray.
//
// histcounts bins: [e(k), e(k+1)) with the last bin closed on the right; NaN and values outside
// the edges are not counted (bin index 0). Edge choice:
// - histcounts(X, edges): the given edges (monotonically nondecreasing vector).
// - 'BinLimits' [lo hi] with nbins: linspace(lo, hi, nbins+1); with 'BinWidth' w: lo:w:hi
//   (plus hi when the step does not reach it).
// - histcounts(X, nbins) and histcounts(X): "nice" edges in the manner of MATLAB's binpicker:
//   nbins gives raw width range/nbins, the left edge at a multiple of a rounded width at or
//   below min(X), then the width rounded up so that nbins bins reach max(X). Without nbins,
//   integer-valued data with a range of at most 50 get one bin per integer (edges at
//   half-integers); other data use Scott's rule (3.5*std(X)/numel(X)^(1/3)) rounded to 1, 2,
//   3, 5 or 10 times a power of ten. Nearly constant data get bins of unit total width
//   around the value. This automatic choice follows MATLAB's documented rules; exact agreement
//   with every MATLAB release is not guaranteed.
// 'Normalization': count (default), probability, countdensity, pdf, cumcount, cdf.
//
// accumarray(subs, vals, sz, fun, fillval): subs an index vector or an n-by-d subscript matrix;
// vals a scalar or one value per row of subs; default fun sums; fun is called through the call
// context with a column vector of each group's values (in input order) and must return a
// scalar; empty positions get fillval (default 0).
#include <algorithm>
#include <span>
#include <cmath>
#include <map>

#include "builtins/data_util.h"
#include "runtime/array_size.h"

namespace matfuse::data {
namespace {

double eps_of(double x) { return std::nextafter(std::fabs(x), INFINITY) - std::fabs(x); }

std::vector<double> binpicker(double xmin, double xmax, int64_t nbins, double raw) {
  double xscale = std::max(std::fabs(xmin), std::fabs(xmax));
  double xrange = xmax - xmin;
  raw = std::max(raw, eps_of(xscale));
  double left, right, width;
  int64_t nb;
  if (xrange > std::max(std::sqrt(eps_of(xscale)), 2.2250738585072014e-308)) {
    double p10 = std::pow(10.0, std::floor(std::log10(raw)));
    double rel = raw / p10;
    if (nbins <= 0) {
      width = rel < 1.5 ? p10 : rel < 2.5 ? 2 * p10 : rel < 4 ? 3 * p10 : rel < 7.5 ? 5 * p10 : 10 * p10;
      left = std::min(width * std::floor(xmin / width), xmin);
      nb = std::max<int64_t>(1, static_cast<int64_t>(std::ceil((xmax - left) / width)));
      right = std::max(left + static_cast<double>(nb) * width, xmax);
    } else {
      width = p10 * std::floor(rel);
      left = std::min(width * std::floor(xmin / width), xmin);
      if (nbins > 1) {
        double ll = (xmax - left) / static_cast<double>(nbins);
        double ul = (xmax - left) / static_cast<double>(nbins - 1);
        double q = std::pow(10.0, std::floor(std::log10(ul - ll)));
        width = q * std::ceil(ll / q);
      }
      nb = nbins;
      right = std::max(left + static_cast<double>(nb) * width, xmax);
    }
  } else {
    nb = nbins <= 0 ? 1 : nbins;
    double br = std::max(1.0, std::ceil(static_cast<double>(nb) * eps_of(xscale)));
    left = std::floor(2 * (xmin - br / 4)) / 2;
    right = std::ceil(2 * (xmax + br / 4)) / 2;
    width = (right - left) / static_cast<double>(nb);
  }
  std::vector<double> e(static_cast<size_t>(nb + 1));
  e[0] = left;
  for (int64_t k = 1; k < nb; ++k) e[k] = left + static_cast<double>(k) * width;
  e[nb] = right;
  return e;
}

/// The number of bins of a given width over a range (range/width, rounded up); more than
/// MATLAB's maximum of 65536 bins is an error (a tiny BinWidth over a wide range).
int64_t bin_count(double ratio) {
  const double n = std::ceil(ratio);
  if (!(n <= 65536))
    throw_error("MATLAB:histcounts:MaxNumBinsExceeded",
                "The bin width results in more than the maximum of 65536 bins. Specify a larger "
                "bin width.");
  return static_cast<int64_t>(n);
}

Outputs bi_histcounts(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 8);
  check_nargout(nargout, 3);
  Tensor xt = numeric_arg(args[0], "histcounts");
  if (xt.is_complex())
    throw_error("MATLAB:histcounts:complexData", "Input data must be real.");
  // The data as doubles, read where they lie (a double array is not copied).
  const Tensor xd = xt.cls() == ClassId::Double ? xt : xt.to_class(ClassId::Double);
  const std::span<const double> x(xd.data<double>(), static_cast<size_t>(xd.numel()));
  size_t i = 1;
  int64_t nbins = 0;
  std::vector<double> edges;
  bool have_edges = false;
  if (i < args.size() && !args[i].is_text()) {
    Tensor a = numeric_arg(args[i++], "histcounts");
    if (a.numel() == 1) {
      double v = a.get_double(0);
      if (!(v >= 1) || v != std::floor(v) || std::isinf(v))
        throw_error("MATLAB:histcounts:InvalidNumBins",
                    "Number of bins must be a positive integer scalar.");
      // 2^63 and up would be undefined to convert; the size check below refuses them.
      nbins = v < 9.2e18 ? static_cast<int64_t>(v) : INT64_MAX;
    } else {
      for (int64_t k = 0; k < a.numel(); ++k) edges.push_back(a.get_double(k));
      for (size_t k = 1; k < edges.size(); ++k)
        if (!(edges[k] >= edges[k - 1]))
          throw_error("MATLAB:histcounts:InvalidEdges",
                      "Bin edges must be a vector that is real, numeric or logical, and "
                      "monotonically nondecreasing.");
      if (edges.size() < 2)
        throw_error("MATLAB:histcounts:InvalidEdges",
                    "Bin edges must be a vector with at least two elements.");
      have_edges = true;
    }
  }
  std::string norm = "count";
  double width = 0, blo = NAN, bhi = NAN;
  for (; i < args.size(); i += 2) {
    if (i + 1 >= args.size() || !args[i].is_text())
      throw_error("MATLAB:histcounts:ArgNameValueMismatch",
                  "Incorrect number of arguments. Each parameter name must be followed by a "
                  "corresponding value.");
    std::string n = lower(args[i].to_text());
    if (n == "normalization") norm = lower(args[i + 1].to_text("Normalization"));
    else if (n == "binwidth") {
      width = args[i + 1].to_double("BinWidth");
      if (!(width > 0) || std::isinf(width))
        throw_error("MATLAB:histcounts:InvalidBinWidth",
                    "Bin width must be a finite, positive scalar.");
    }
    else if (n == "numbins") nbins = args[i + 1].to_index("NumBins");
    else if (n == "binedges") {
      Tensor a = numeric_arg(args[i + 1], "histcounts");
      edges.clear();
      for (int64_t k = 0; k < a.numel(); ++k) edges.push_back(a.get_double(k));
      have_edges = true;
    } else if (n == "binlimits") {
      Tensor a = numeric_arg(args[i + 1], "histcounts");
      if (a.numel() != 2)
        throw_error("MATLAB:histcounts:InvalidBinLimits", "BinLimits must be a 2-element vector.");
      blo = a.get_double(0);
      bhi = a.get_double(1);
    } else
      throw_error("MATLAB:histcounts:UnknownOption", "Invalid parameter name '%s'.", n.c_str());
  }
  static const char* kNorms[] = {"count", "probability", "countdensity", "pdf", "cumcount", "cdf"};
  if (std::find(std::begin(kNorms), std::end(kNorms), norm) == std::end(kNorms))
    throw_error("MATLAB:histcounts:InvalidNormalization",
                "Normalization must be 'count', 'probability', 'countdensity', 'pdf', "
                "'cumcount', or 'cdf'.");
  // nbins + 1 edges and nbins counts: a count beyond memory (1e12) is MATLAB's size error
  // before anything is allocated.
  if (nbins > 0) check_array_size(Dims(1, nbins), sizeof(double));
  if (!have_edges) {
    double mn = INFINITY, mx = -INFINITY;
    std::vector<double> fin;  // finite values, gathered only for the automatic bin width
    int64_t nfin = 0;
    bool limits = !std::isnan(blo);
    if (!limits) {
      // Branch-free over the finite values (v - v is 0 exactly for them), four independent
      // minima and maxima. A zero extreme is found again in order, so that its sign is the one
      // the first zero had (as one running min/max gives).
      double lo[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
      double hi[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
      int64_t cnt = 0;
      const size_t n = x.size();
      size_t k = 0;
      auto step = [&](int u, double v) {
        const bool f = v - v == 0;
        const double a = f ? v : INFINITY, b = f ? v : -INFINITY;
        lo[u] = a < lo[u] ? a : lo[u];
        hi[u] = b > hi[u] ? b : hi[u];
        cnt += f;
      };
      for (; k + 4 <= n; k += 4)
        for (int u = 0; u < 4; ++u) step(u, x[k + u]);
      for (; k < n; ++k) step(0, x[k]);
      mn = std::min({lo[0], lo[1], lo[2], lo[3]});
      mx = std::max({hi[0], hi[1], hi[2], hi[3]});
      nfin = cnt;
      if (mn == 0 || mx == 0) {
        mn = INFINITY;
        mx = -INFINITY;
        for (double v : x)
          if (std::isfinite(v)) {
            mn = std::min(mn, v);
            mx = std::max(mx, v);
          }
      }
    } else {
      for (double v : x)
        if (std::isfinite(v) && v >= blo && v <= bhi) {
          mn = std::min(mn, v);
          mx = std::max(mx, v);
          ++nfin;
        }
    }
    if (limits) {
      int64_t nb = nbins;
      if (width > 0) {
        const int64_t n = bin_count((bhi - blo) / width);
        for (int64_t k = 0; k < n; ++k) {
          const double e = blo + static_cast<double>(k) * width;
          if (e >= bhi) break;
          edges.push_back(e);
        }
        edges.push_back(bhi);
      } else {
        if (nb <= 0) nb = 10;  // unspecified count inside fixed limits
        for (int64_t k = 0; k <= nb; ++k)
          edges.push_back(blo + (bhi - blo) * static_cast<double>(k) / static_cast<double>(nb));
        edges[nb] = bhi;
      }
    } else if (nfin == 0) {
      int64_t nb = nbins > 0 ? nbins : 1;
      for (int64_t k = 0; k <= nb; ++k) edges.push_back(static_cast<double>(k) / static_cast<double>(nb));
    } else if (width > 0) {
      double left = width * std::floor(mn / width);
      int64_t nb = std::max<int64_t>(1, bin_count((mx - left) / width));
      if (left + static_cast<double>(nb) * width == mx) ++nb;
      for (int64_t k = 0; k <= nb; ++k) edges.push_back(left + static_cast<double>(k) * width);
    } else if (nbins > 0) {
      edges = binpicker(mn, mx, nbins, (mx - mn) / static_cast<double>(nbins));
    } else {
      for (double v : x)
        if (std::isfinite(v)) fin.push_back(v);
      bool integers = true;
      for (double v : fin) integers = integers && v == std::round(v);
      // MATLAB's integer rule: integer data spanning at most 50, within +-flintmax/2 (beyond,
      // unit steps are not representable and Scott's rule applies).
      if (integers && mx - mn <= 50 && mx <= 4503599627370496.0 && mn >= -4503599627370496.0) {
        for (double e = mn - 0.5; e <= mx + 0.5; e += 1) edges.push_back(e);
      } else {
        double mu = 0, ss = 0;
        for (double v : fin) mu += v;
        mu /= static_cast<double>(fin.size());
        for (double v : fin) ss += (v - mu) * (v - mu);
        double sd = fin.size() > 1 ? std::sqrt(ss / static_cast<double>(fin.size() - 1)) : 0;
        double raw = 3.5 * sd / std::cbrt(static_cast<double>(fin.size()));
        edges = binpicker(mn, mx, 0, raw);
      }
    }
  }
  int64_t nb = static_cast<int64_t>(edges.size()) - 1;
  std::vector<double> cnt(static_cast<size_t>(nb), 0.0);
  std::vector<double> bin(nargout > 2 ? x.size() : 0, 0.0);
  {
    // Bin of v: the last edge <= v (the last bin closed on the right). The guess
    // (v - e0) / width is exact for uniform edges and corrected by comparisons against the
    // edges themselves, so any nondecreasing edges give upper_bound's answer.
    const double e0 = edges.front(), e1 = edges.back();
    const double* e = edges.data();
    const double inv = nb > 0 && e1 > e0 ? static_cast<double>(nb) / (e1 - e0) : 0.0;
    std::vector<int64_t> cnt_i(static_cast<size_t>(nb), 0);
    for (size_t k = 0; k < x.size(); ++k) {
      double v = x[k];
      if (nb <= 0 || !(v >= e0 && v <= e1)) continue;  // no bins, NaN and outside
      double g = (v - e0) * inv;
      int64_t b = g < static_cast<double>(nb) ? static_cast<int64_t>(g) : nb - 1;
      while (b > 0 && v < e[b]) --b;
      while (b < nb - 1 && v >= e[b + 1]) ++b;
      ++cnt_i[b];
      if (!bin.empty()) bin[k] = static_cast<double>(b + 1);
    }
    for (int64_t b = 0; b < nb; ++b) cnt[b] = static_cast<double>(cnt_i[b]);
  }
  double total = static_cast<double>(x.size());
  std::vector<double> out = cnt;
  for (int64_t b = 0; b < nb; ++b) {
    double w = edges[b + 1] - edges[b];
    if (norm == "probability") out[b] = cnt[b] / total;
    else if (norm == "countdensity") out[b] = cnt[b] / w;
    else if (norm == "pdf") out[b] = cnt[b] / (total * w);
    else if (norm == "cumcount") out[b] = (b ? out[b - 1] : 0) + cnt[b];
    else if (norm == "cdf") out[b] = (b ? out[b - 1] : 0) + cnt[b] / total;
  }
  Outputs res{Value(double_tensor(out, Dims(1, nb)))};
  if (nargout > 1) res.push_back(Value(double_tensor(edges, Dims(1, nb + 1))));
  if (nargout > 2) {
    bin.resize(x.size(), 0.0);
    res.push_back(Value(double_tensor(bin, xt.dims())));
  }
  return res;
}

Outputs bi_accumarray(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 6);
  check_nargout(nargout, 1);
  if (args[0].is_cell())
    throw_error("matfuse:notAvailable", "accumarray with a cell array of subscripts is not supported yet.");
  Tensor st = numeric_arg(args[0], "accumarray");
  Tensor vt = numeric_arg(args[1], "accumarray");
  // A column of subscripts indexes a column; any other matrix holds one N-D subscript a row
  // (a 1-by-2 SUBS is the one subscript (i, j), as MATLAB reads it).
  const bool column_subs = st.dims().ndims() == 2 && st.dims().cols() == 1;
  if (args.size() == 2 && column_subs && st.cls() == ClassId::Double &&
      !st.is_complex() && vt.cls() == ClassId::Double && !vt.is_complex() &&
      (vt.numel() == st.numel() || vt.numel() == 1)) {
    // accumarray(subs, vals) with a column of double subscripts: sums in two passes over the
    // subscripts (check and extent, then accumulate), no index vector.
    const double* sp = st.data<double>();
    const double* vp = vt.data<double>();
    const int64_t n = st.numel();
    double hi = 0;
    bool bad = false;
    for (int64_t r = 0; r < n; ++r) {
      const double v = sp[r];
      bad |= !(v >= 1) || v != std::floor(v) || std::isinf(v);
      hi = v > hi ? v : hi;
    }
    if (bad)
      throw_error("MATLAB:accumarray:nonPosIntSubs",
                  "First input SUBS must contain positive integer subscripts.");
    if (hi > 281474976710656.0)
      throw_error("MATLAB:pmaxsize", "Maximum variable size allowed by the program is exceeded.");
    Tensor out = Tensor::zeros(ClassId::Double, Dims(static_cast<int64_t>(hi), 1));
    double* o = out.mutable_data<double>() - 1;  // 1-based subscripts
    if (vt.numel() == 1 && n != 1)
      for (int64_t r = 0; r < n; ++r) o[static_cast<int64_t>(sp[r])] += vp[0];
    else
      for (int64_t r = 0; r < n; ++r) o[static_cast<int64_t>(sp[r])] += vp[r];
    return {Value(std::move(out))};
  }
  int64_t n, d;
  if (column_subs) {
    n = st.numel();
    d = 1;
  } else {
    if (st.dims().ndims() > 2)
      throw_error("MATLAB:accumarray:InvalidSubs", "Second input must be a vector or a matrix.");
    n = st.dims().rows();
    d = st.dims().cols();
  }
  std::vector<int64_t> subs(static_cast<size_t>(n * d));
  {
    // One pass over the subscripts (typed: most are doubles), checked: positive integers, and
    // below 2^48 (past that no array can hold the result, and the int64 index arithmetic of
    // the output must not overflow).
    if (st.is_complex())
      throw_error("MATLAB:accumarray:nonPosIntSubs",
                  "First input SUBS must contain positive integer subscripts.");
    const Tensor sd = st.cls() == ClassId::Double ? st : st.to_class(ClassId::Double);
    const double* sp = sd.data<double>();
    bool bad = false, huge = false;
    for (int64_t k = 0; k < n * d; ++k) {
      const double v = sp[k];
      bad |= !(v >= 1) || v != std::floor(v) || std::isinf(v);
      huge |= v > 281474976710656.0;
      subs[k] = bad || huge ? 0 : static_cast<int64_t>(v) - 1;
    }
    if (bad)
      throw_error("MATLAB:accumarray:nonPosIntSubs",
                  "First input SUBS must contain positive integer subscripts.");
    if (huge)
      throw_error("MATLAB:pmaxsize", "Maximum variable size allowed by the program is exceeded.");
  }
  if (vt.numel() != 1 && vt.numel() != n)
    throw_error("MATLAB:accumarray:nValsMismatch",
                "Second input VAL must be a vector with one element for each row in SUBS, or a "
                "scalar.");
  std::vector<int64_t> ext(static_cast<size_t>(std::max<int64_t>(d, 2)), d == 1 ? 1 : 0);
  for (int64_t j = 0; j < d; ++j) {
    int64_t m = 0;
    for (int64_t r = 0; r < n; ++r) m = std::max(m, subs[j * n + r] + 1);
    ext[j] = m;
  }
  if (d == 1) ext[1] = 1;
  if (args.size() > 2 && !args[2].is_empty()) {
    Tensor sz = numeric_arg(args[2], "accumarray");
    if ((d == 1 && (sz.numel() != 2 || (sz.get_double(1) != 1 && sz.get_double(0) != 1))) ||
        (d > 1 && sz.numel() != d))
      throw_error("MATLAB:accumarray:InvalSzLen",
                  "Third input SZ must be a vector with one element for each column of SUBS.");
    if (d == 1 && sz.get_double(0) == 1 && sz.get_double(1) != 1) {
      // Row output: index into the second dimension.
      const double e1 = sz.get_double(1);
      if (!(e1 >= 0) || e1 != std::floor(e1) || e1 > 281474976710656.0)
        throw_error("MATLAB:accumarray:InvalSz",
                    "Third input SZ must be a vector of nonnegative integers.");
      ext = {1, static_cast<int64_t>(e1)};
      std::vector<int64_t> s2(static_cast<size_t>(2 * n));
      for (int64_t r = 0; r < n; ++r) {
        if (subs[r] >= ext[1])
          throw_error("MATLAB:accumarray:InvalSz",
                      "Third input SZ must be a vector with one element for each column of SUBS.");
        s2[r] = 0;
        s2[n + r] = subs[r];
      }
      subs = s2;
      d = 2;
    } else {
      for (int64_t j = 0; j < sz.numel(); ++j) {
        const double ej = sz.get_double(j);
        if (!(ej >= 0) || ej != std::floor(ej) || ej > 281474976710656.0)
          throw_error("MATLAB:accumarray:InvalSz",
                      "Third input SZ must be a vector of nonnegative integers.");
        int64_t e = static_cast<int64_t>(ej);
        if (j < d && e < ext[j])
          throw_error("MATLAB:accumarray:InvalSz",
                      "Third input SZ must be a vector with one element for each column of SUBS.");
        ext[j] = e;
      }
    }
  }
  Dims outd;
  for (size_t j = 0; j < ext.size(); ++j) outd.set(static_cast<int>(j), ext[j]);
  outd.normalize();
  double want = 1;  // in double: the int64 product of the extents may overflow
  for (int64_t e : ext) want *= static_cast<double>(e);
  if (want > 9007199254740992.0)
    throw_error("MATLAB:pmaxsize", "Maximum variable size allowed by the program is exceeded.");
  std::vector<int64_t> lin;
  if (d == 1) {
    lin = std::move(subs);  // a column of subscripts is already linear
  } else {
    lin.resize(static_cast<size_t>(n));
    const int dd = static_cast<int>(d);
    for (int64_t r = 0; r < n; ++r) {
      int64_t li = 0, stride = 1;
      for (int j = 0; j < dd; ++j) {
        li += subs[j * n + r] * stride;
        stride *= ext[j];
      }
      lin[r] = li;
    }
  }
  bool has_fun = args.size() > 3 && !args[3].is_empty();
  double fill = 0;
  if (args.size() > 4 && !args[4].is_empty()) fill = args[4].to_double("fillval");
  if (args.size() > 5 && args[5].truthy())
    throw_error("matfuse:notAvailable", "accumarray sparse output is not supported.");
  int64_t total = outd.numel();
  if (!has_fun) {
    bool cx = vt.is_complex();
    Tensor out = Tensor::zeros(ClassId::Double, outd, cx);
    if (!cx) {  // real values: typed accumulation
      Tensor vd = vt.cls() == ClassId::Double ? vt : vt.to_class(ClassId::Double);
      const double* vp = vd.data<double>();
      double* o = out.mutable_data<double>();
      if (vd.numel() == 1)
        for (int64_t r = 0; r < n; ++r) o[lin[r]] += vp[0];
      else
        for (int64_t r = 0; r < n; ++r) o[lin[r]] += vp[r];
    } else {
      for (int64_t r = 0; r < n; ++r) {
        std::complex<double> v = vt.get_complex(vt.numel() == 1 ? 0 : r);
        out.set_complex(lin[r], out.get_complex(lin[r]) + v);
      }
    }
    if (fill != 0) {  // positions no subscript names hold the fill value
      std::vector<uint8_t> hit(static_cast<size_t>(total), 0);
      for (int64_t r = 0; r < n; ++r) hit[lin[r]] = 1;
      for (int64_t k = 0; k < total; ++k)
        if (!hit[k]) out.set_double(k, fill);
    }
    ClassId rc = vt.cls() == ClassId::Logical || vt.cls() == ClassId::Char ? ClassId::Double : vt.cls();
    out = out.drop_zero_imag();
    return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
  }
  std::map<int64_t, std::vector<int64_t>> groups;
  for (int64_t r = 0; r < n; ++r) groups[lin[r]].push_back(r);
  Tensor out;
  bool first = true;
  for (auto& [pos, rows] : groups) {
    Tensor g = Tensor::uninit(vt.cls(), Dims(static_cast<int64_t>(rows.size()), 1), vt.is_complex());
    for (size_t k = 0; k < rows.size(); ++k)
      g.set_complex(static_cast<int64_t>(k), vt.get_complex(vt.numel() == 1 ? 0 : rows[k]));
    std::vector<Value> fa{Value(g)};
    Outputs o = ctx.call(args[3], Args(fa.data(), fa.size()), 1);
    if (o.empty() || !o[0].is_tensor() || o[0].numel() != 1)
      throw_error("MATLAB:accumarray:nonscalarFunOutput",
                  "The function FUN must return a scalar.");
    Tensor v = o[0].tensor();
    if (first) {
      out = Tensor::zeros(v.cls(), outd, v.is_complex());
      if (fill != 0)
        for (int64_t k = 0; k < total; ++k) out.set_double(k, fill);
      first = false;
    } else if (v.is_complex() && !out.is_complex()) {
      out = out.to_complex();
    }
    out.set_complex(pos, v.get_complex(0));
  }
  if (first) {
    out = Tensor::zeros(ClassId::Double, outd);
    if (fill != 0)
      for (int64_t k = 0; k < total; ++k) out.set_double(k, fill);
  }
  return {Value(out)};
}

}  // namespace

void register_data_hist(Registry& r) {
  r.add("histcounts", bi_histcounts);
  r.add("accumarray", bi_accumarray);
}

}  // namespace matfuse::data
