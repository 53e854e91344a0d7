// eigs and svds: a few eigenvalues (singular values) of a large, usually sparse, matrix.
//
// eigs uses ARPACK (R. B. Lehoucq, D. C. Sorensen and C. Yang, "ARPACK Users' Guide: Solution
// of Large-Scale Eigenvalue Problems with Implicitly Restarted Arnoldi Methods", SIAM 1998;
// Debian: libarpack2-dev, optional, MATFUSE_HAVE_ARPACK): the implicitly restarted Lanczos
// method (dsaupd/dseupd) for symmetric A and the implicitly restarted Arnoldi method
// (dnaupd/dneupd) otherwise, in regular mode for 'largestabs', 'largestreal', 'smallestreal'
// and 'bothendsreal', and in shift-invert mode (OP = (A - sigma*I)^-1, applied with mldivide)
// for 'smallestabs' (sigma = 0) and a numeric sigma, as MATLAB's eigs does. svds computes the
// largest singular values as the square roots of the largest eigenvalues of A'*A (Lanczos on
// the Gram matrix A'*A or A*A', the smaller one), with U = A*V/S. Without ARPACK, matrices up to 5000-by-5000 are
// handled by the dense eig on full(A) (the k wanted values selected by the same criterion);
// larger ones raise matfuse:notAvailable.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <numeric>

#include "builtins/math_util.h"
#include "builtins/methods.h"
#include "builtins/numutil.h"
#include "builtins/sparse_util.h"

#ifdef MATFUSE_HAVE_ARPACK
extern "C" {
void dsaupd_c(int* ido, char const* bmat, int n, char const* which, int nev, double tol,
              double* resid, int ncv, double* v, int ldv, int* iparam, int* ipntr, double* workd,
              double* workl, int lworkl, int* info);
void dseupd_c(int rvec, char const* howmny, int const* select, double* d, double* z, int ldz,
              double sigma, char const* bmat, int n, char const* which, int nev, double tol,
              double* resid, int ncv, double* v, int ldv, int* iparam, int* ipntr, double* workd,
              double* workl, int lworkl, int* info);
void dnaupd_c(int* ido, char const* bmat, int n, char const* which, int nev, double tol,
              double* resid, int ncv, double* v, int ldv, int* iparam, int* ipntr, double* workd,
              double* workl, int lworkl, int* info);
void dneupd_c(int rvec, char const* howmny, int const* select, double* dr, double* di, double* z,
              int ldz, double sigmar, double sigmai, double* workev, char const* bmat, int n,
              char const* which, int nev, double tol, double* resid, int ncv, double* v, int ldv,
              int* iparam, int* ipntr, double* workd, double* workl, int lworkl, int* info);
}
#endif

namespace matfuse {

namespace {

using namespace sparse_detail;
using mathutil::call1;
using cplx = std::complex<double>;

Tensor column(const double* x, int64_t n) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(n, 1));
  std::memcpy(t.mutable_data<double>(), x, static_cast<size_t>(n) * sizeof(double));
  return t;
}

void read_column(const Value& v, double* y, int64_t n) {
  const Value d = densify(v);
  if (!d.is_tensor() || d.numel() != n)
    throw_error("MATLAB:eigs:InvalidFunctionOutput",
                "The function must return a column vector of length %lld.", static_cast<long long>(n));
  const Tensor t = d.tensor();
  if (t.is_complex())
    throw_error("MATLAB:eigs:ComplexFunctionOutput", "The operator must return real values.");
  for (int64_t i = 0; i < n; ++i) y[i] = t.get_double(i);
}

/// What eigs is asked for.
enum class Which { LargestAbs, SmallestAbs, LargestReal, SmallestReal, BothEnds, Sigma };

struct EigsProblem {
  Value A;              ///< matrix (sparse or full) or function handle
  bool handle = false;
  int64_t n = 0, k = 6;
  Which which = Which::LargestAbs;
  double sigma = 0;
  bool sym = false;
  double tol = 1e-14;
  int maxit = 300;
  int p = 0;            ///< Lanczos/Arnoldi basis size (0: MATLAB's default max(2k, 20))
  std::vector<double> v0;
};

/// |x| ordering of the wanted values: true when a comes before b.
bool before(Which w, cplx a, cplx b) {
  switch (w) {
    case Which::LargestAbs: return std::abs(a) > std::abs(b);
    case Which::SmallestAbs: return std::abs(a) < std::abs(b);
    case Which::LargestReal: return a.real() > b.real();
    case Which::SmallestReal: return a.real() < b.real();
    case Which::BothEnds: return a.real() > b.real();
    case Which::Sigma: return std::abs(a) < std::abs(b);  // distance from sigma (shifted by the caller)
  }
  return false;
}

/// The k wanted eigenpairs out of all n (dense path and final sorting): indices in order.
std::vector<int64_t> pick(Which w, double sigma, const std::vector<cplx>& ev, int64_t k) {
  std::vector<int64_t> idx(ev.size());
  std::iota(idx.begin(), idx.end(), 0);
  if (w == Which::BothEnds) {
    std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return ev[a].real() > ev[b].real(); });
    std::vector<int64_t> r;
    int64_t lo = 0, hi = static_cast<int64_t>(idx.size()) - 1;
    // Alternately from the top and the bottom, the extra one from the top (ARPACK's 'BE').
    for (int64_t t = 0; t < k && lo <= hi; ++t) r.push_back(t % 2 == 0 ? idx[lo++] : idx[hi--]);
    std::stable_sort(r.begin(), r.end(), [&](int64_t a, int64_t b) { return ev[a].real() > ev[b].real(); });
    return r;
  }
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) {
    if (w == Which::Sigma) return std::abs(ev[a] - sigma) < std::abs(ev[b] - sigma);
    return before(w, ev[a], ev[b]);
  });
  idx.resize(static_cast<size_t>(std::min<int64_t>(k, static_cast<int64_t>(idx.size()))));
  return idx;
}

/// y = OP(x): A*x (regular mode) or (A - sigma*I) \ x (shift-invert).
struct Op {
  CallContext* ctx;
  const EigsProblem* pr;
  bool shift_invert = false;
  Value shifted;  ///< A - sigma*I for shift-invert with a matrix
  Csc csc;
  bool have_csc = false;
  void init(CallContext& c, const EigsProblem& p, bool si) {
    ctx = &c;
    pr = &p;
    shift_invert = si;
    if (p.handle) return;
    if (si) {
      const double s = p.which == Which::SmallestAbs ? 0.0 : p.sigma;
      Value I = as_sparse(p.A) ? call1(c, "speye", {Value(static_cast<double>(p.n))})
                               : call1(c, "eye", {Value(static_cast<double>(p.n))});
      shifted = s == 0 ? p.A : callv(c, "minus", {p.A, callv(c, "times", {Value(s), I})});
    } else if (const SparseMatrix* sm = as_sparse(p.A); sm && !sm->is_complex()) {
      csc = real_csc(*sm, "eigs");
      have_csc = true;
    }
  }
  void apply(const double* x, double* y) const {
    const int64_t n = pr->n;
    if (have_csc) {
      std::fill(y, y + n, 0.0);
      for (int64_t c = 0; c < n; ++c)
        for (int64_t q = csc.jc[c]; q < csc.jc[c + 1]; ++q) y[csc.ir[q]] += csc.x[q] * x[c];
      return;
    }
    const Value xv(column(x, n));
    if (pr->handle) {
      Outputs o = ctx->call(pr->A, std::span<const Value>(&xv, 1), 1);
      if (o.empty()) throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
      read_column(o[0], y, n);
      return;
    }
    read_column(shift_invert ? callv(*ctx, "mldivide", {shifted, xv}) : callv(*ctx, "mtimes", {pr->A, xv}), y, n);
  }
};

struct EigsResult {
  std::vector<cplx> d;
  std::vector<cplx> V;  ///< n x k, column-major
  bool real = true;
  int flag = 0;
};

/// The dense path: eig of full(A), the k wanted values selected.
EigsResult dense_eigs(CallContext& ctx, const EigsProblem& p, bool vectors) {
  if (p.handle)
    throw_error("matfuse:notAvailable",
                "eigs with a function handle needs ARPACK, which this build does not include "
                "(Debian: libarpack2-dev).");
  if (p.n > 5000)
    throw_error("matfuse:notAvailable",
                "eigs of a matrix larger than 5000-by-5000 needs ARPACK, which this build does "
                "not include (Debian: libarpack2-dev).");
  const Value F = densify(p.A);
  Outputs o = ctx.call_named("eig", std::span<const Value>(&F, 1), vectors ? 2 : 1);
  EigsResult r;
  std::vector<cplx> ev;
  const Tensor dt = densify(o.back()).tensor();
  const int64_t n = p.n;
  for (int64_t i = 0; i < n; ++i) ev.push_back(vectors ? dt.get_complex(i * n + i) : dt.get_complex(i));
  const std::vector<int64_t> idx = pick(p.which, p.sigma, ev, p.k);
  for (int64_t i : idx) r.d.push_back(ev[i]);
  if (vectors) {
    const Tensor vt = densify(o[0]).tensor();
    for (int64_t i : idx)
      for (int64_t t = 0; t < n; ++t) r.V.push_back(vt.get_complex(i * n + t));
  }
  for (const cplx& z : r.d) r.real = r.real && z.imag() == 0;
  return r;
}

#ifdef MATFUSE_HAVE_ARPACK
[[noreturn]] void arpack_error(const char* routine, int info) {
  throw_error("MATLAB:eigs:ARPACKroutineError", "Error with ARPACK routine %s: info = %d.", routine, info);
}

EigsResult arpack_eigs(CallContext& ctx, const EigsProblem& p, bool vectors) {
  const int n = static_cast<int>(p.n);
  const int nev = static_cast<int>(p.k);
  const bool si = p.which == Which::SmallestAbs || p.which == Which::Sigma;
  Op op;
  op.init(ctx, p, si);
  const char* which = "LM";
  if (!si) {
    switch (p.which) {
      case Which::LargestReal: which = p.sym ? "LA" : "LR"; break;
      case Which::SmallestReal: which = p.sym ? "SA" : "SR"; break;
      case Which::BothEnds: which = p.sym ? "BE" : "LR"; break;
      default: which = "LM"; break;
    }
  }
  int64_t ncv64 = p.p > 0 ? p.p : std::max<int64_t>(2 * int64_t{nev}, 20);
  ncv64 = std::min<int64_t>(ncv64, n);
  if (!p.sym && ncv64 < nev + int64_t{2}) ncv64 = std::min<int64_t>(n, nev + int64_t{2});
  // ARPACK's work array has ~3*ncv^2 32-bit-indexed entries.
  if (3 * ncv64 * ncv64 + 6 * ncv64 > INT32_MAX)
    throw_error("MATLAB:eigs:InvalidSubspaceDimension",
                "The subspace dimension (%lld) is too large for ARPACK's 32-bit work array.",
                static_cast<long long>(ncv64));
  const int ncv = static_cast<int>(ncv64);
  std::vector<double> resid(static_cast<size_t>(n), 0.0), v(static_cast<size_t>(n) * ncv),
      workd(3 * static_cast<size_t>(n));
  int info = 0;
  if (!p.v0.empty()) {
    resid = p.v0;
    info = 1;
  }
  const int lworkl = p.sym ? ncv * (ncv + 8) : 3 * ncv * ncv + 6 * ncv;
  std::vector<double> workl(static_cast<size_t>(lworkl));
  int iparam[11] = {1, 0, p.maxit, 1, 0, 0, si ? 3 : 1, 0, 0, 0, 0};
  int ipntr[14] = {};
  int ido = 0;
  for (;;) {
    if (p.sym)
      dsaupd_c(&ido, "I", n, which, nev, p.tol, resid.data(), ncv, v.data(), n, iparam, ipntr,
               workd.data(), workl.data(), lworkl, &info);
    else
      dnaupd_c(&ido, "I", n, which, nev, p.tol, resid.data(), ncv, v.data(), n, iparam, ipntr,
               workd.data(), workl.data(), lworkl, &info);
    if (ido != -1 && ido != 1) break;
    op.apply(workd.data() + ipntr[0] - 1, workd.data() + ipntr[1] - 1);
  }
  EigsResult r;
  if (info < 0) arpack_error(p.sym ? "DSAUPD" : "DNAUPD", info);
  if (info == 1) r.flag = 1;
  const double sigma = p.which == Which::Sigma ? p.sigma : 0.0;
  std::vector<int> select(static_cast<size_t>(ncv), 0);
  int ierr = 0;
  std::vector<cplx> vals;
  std::vector<cplx> vecs;  // n x count
  if (p.sym) {
    std::vector<double> d(static_cast<size_t>(nev)), z(static_cast<size_t>(n) * nev);
    dseupd_c(vectors ? 1 : 0, "A", select.data(), d.data(), z.data(), n, sigma, "I", n, which, nev,
             p.tol, resid.data(), ncv, v.data(), n, iparam, ipntr, workd.data(), workl.data(),
             lworkl, &ierr);
    if (ierr != 0) arpack_error("DSEUPD", ierr);
    const int nconv = iparam[4];
    for (int i = 0; i < nconv; ++i) vals.emplace_back(d[i], 0.0);
    if (vectors)
      for (int i = 0; i < nconv; ++i)
        for (int t = 0; t < n; ++t) vecs.emplace_back(z[static_cast<size_t>(i) * n + t], 0.0);
  } else {
    std::vector<double> dr(static_cast<size_t>(nev) + 1), di(static_cast<size_t>(nev) + 1),
        z(static_cast<size_t>(n) * (nev + 1)), workev(3 * static_cast<size_t>(ncv));
    dneupd_c(vectors ? 1 : 0, "A", select.data(), dr.data(), di.data(), z.data(), n, sigma, 0.0,
             workev.data(), "I", n, which, nev, p.tol, resid.data(), ncv, v.data(), n, iparam,
             ipntr, workd.data(), workl.data(), lworkl, &ierr);
    if (ierr != 0) arpack_error("DNEUPD", ierr);
    const int nconv = std::min(iparam[4], nev + 1);
    for (int i = 0; i < nconv; ++i) vals.emplace_back(dr[i], di[i]);
    if (vectors) {
      // A complex pair is stored as two columns: real part, imaginary part.
      for (int i = 0; i < nconv; ++i) {
        if (di[i] == 0) {
          for (int t = 0; t < n; ++t) vecs.emplace_back(z[static_cast<size_t>(i) * n + t], 0.0);
        } else if (i + 1 < nconv && di[i + 1] == -di[i]) {
          for (int t = 0; t < n; ++t)
            vecs.emplace_back(z[static_cast<size_t>(i) * n + t], z[static_cast<size_t>(i + 1) * n + t]);
          for (int t = 0; t < n; ++t)
            vecs.emplace_back(z[static_cast<size_t>(i) * n + t], -z[static_cast<size_t>(i + 1) * n + t]);
          ++i;
        } else {
          for (int t = 0; t < n; ++t) vecs.emplace_back(z[static_cast<size_t>(i) * n + t], z[static_cast<size_t>(i + 1 < nconv ? i + 1 : i) * n + t]);
        }
      }
    }
  }
  if (static_cast<int64_t>(vals.size()) < p.k) r.flag = 1;
  const std::vector<int64_t> idx = pick(p.which, sigma, vals, p.k);
  for (int64_t i : idx) {
    r.d.push_back(vals[i]);
    if (vectors)
      r.V.insert(r.V.end(), vecs.begin() + i * n, vecs.begin() + (i + 1) * n);
  }
  for (const cplx& z : r.d) r.real = r.real && z.imag() == 0;
  return r;
}
#endif

EigsResult solve(CallContext& ctx, const EigsProblem& p, bool vectors) {
#ifdef MATFUSE_HAVE_ARPACK
  // ARPACK needs k < n (symmetric) and k < n-1 (otherwise); smaller problems go dense.
  if (p.handle || p.k < p.n - (p.sym ? 0 : 1)) return arpack_eigs(ctx, p, vectors);
#endif
  return dense_eigs(ctx, p, vectors);
}

Tensor complex_or_real(const std::vector<cplx>& v, const Dims& d, bool real) {
  Tensor t = Tensor::uninit(ClassId::Double, d, !real);
  for (size_t i = 0; i < v.size(); ++i) {
    if (real) t.set_double(static_cast<int64_t>(i), v[i].real());
    else t.set_complex(static_cast<int64_t>(i), v[i]);
  }
  return t;
}

bool is_which_name(const Value& v) {
  std::string s = v.to_text();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* n : {"largestabs", "lm", "smallestabs", "sm", "largestreal", "lr", "la",
                        "smallestreal", "sr", "sa", "bothendsreal", "be"})
    if (s == n) return true;
  return false;
}

Which which_of(const Value& v, double& sigma) {
  if (!v.is_text()) {
    const Value d = densify(v);
    if (!d.is_tensor() || d.numel() != 1)
      throw_error("MATLAB:eigs:InvalidSigma", "Sigma must be a scalar or one of the documented options.");
    sigma = d.tensor().get_double(0);
    return sigma == 0 ? Which::SmallestAbs : Which::Sigma;
  }
  std::string s = v.to_text();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "largestabs" || s == "lm") return Which::LargestAbs;
  if (s == "smallestabs" || s == "sm") return Which::SmallestAbs;
  if (s == "largestreal" || s == "lr" || s == "la") return Which::LargestReal;
  if (s == "smallestreal" || s == "sr" || s == "sa") return Which::SmallestReal;
  if (s == "bothendsreal" || s == "be") return Which::BothEnds;
  throw_error("MATLAB:eigs:InvalidSigma",
              "Sigma must be 'largestabs', 'smallestabs', 'largestreal', 'smallestreal', "
              "'bothendsreal' or a numeric scalar.");
}

/// d = eigs(A), eigs(A, k), eigs(A, k, sigma), eigs(A, k, sigma, opts), eigs(Afun, n, ...),
/// [V, D] = eigs(...), [V, D, flag] = eigs(...). Options (a struct or name-value pairs):
/// Tolerance (tol), MaxIterations (maxit), SubspaceDimension (p), StartVector (v0),
/// IsSymmetricDefinite/IsFunctionSymmetric (issym). d is sorted by the criterion; D is diagonal.
Outputs bi_eigs(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 3);
  if (args.empty()) throw_error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.");
  EigsProblem p;
  size_t at = 1;
  p.A = args[0];
  if (args[0].is_function()) {
    p.handle = true;
    if (args.size() < 2) throw_error("MATLAB:eigs:InvalidN", "The size n must be given with a function handle.");
    p.n = size_arg(args[1], "eigs");
    at = 2;
  } else {
    const Dims d = args[0].dims();
    if (d.ndims() != 2 || d[0] != d[1]) throw_error("MATLAB:eigs:NonSquareMatrix", "Matrix must be square.");
    p.n = d[0];
    if (const SparseMatrix* s = as_sparse(args[0])) {
      if (s->is_complex())
        throw_error("matfuse:notAvailable", "eigs of a complex matrix is not supported yet.");
      p.sym = callv(ctx, "issymmetric", {args[0]}).truthy();
    } else {
      if (!args[0].is_tensor() || args[0].tensor().is_complex())
        throw_error("matfuse:notAvailable", "eigs of a complex matrix is not supported yet.");
      p.sym = callv(ctx, "issymmetric", {args[0]}).truthy();
    }
  }
  if (p.n > INT32_MAX)  // ARPACK's dimensions are 32-bit
    throw_error("MATLAB:eigs:InvalidN", "The size n must be below 2^31 (ARPACK's limit).");
  p.k = std::min<int64_t>(6, p.n);
  if (args.size() > at && !args[at].is_text()) p.k = size_arg(args[at++], "eigs");
  if (p.k > p.n) p.k = p.n;
  if (args.size() > at && !args[at].is_struct() && (!args[at].is_text() || is_which_name(args[at])))
    p.which = which_of(args[at++], p.sigma);
  // Options: a struct or name-value pairs.
  auto option = [&](std::string name, const Value& v) {
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const Value d = densify(v);
    if (name == "tolerance" || name == "tol") p.tol = d.tensor().get_double(0);
    else if (name == "maxiterations" || name == "maxit") p.maxit = static_cast<int>(std::clamp<int64_t>(count_option(d, "eigs", "MaxIterations"), 1, INT32_MAX));
    else if (name == "subspacedimension" || name == "p") p.p = static_cast<int>(std::min<int64_t>(count_option(d, "eigs", "SubspaceDimension"), INT32_MAX));
    else if (name == "startvector" || name == "v0") {
      const Tensor t = d.tensor();
      p.v0.resize(static_cast<size_t>(t.numel()));
      for (int64_t i = 0; i < t.numel(); ++i) p.v0[i] = t.get_double(i);
      if (static_cast<int64_t>(p.v0.size()) != p.n)
        throw_error("MATLAB:eigs:InvalidStartingVector", "Start vector must have length n.");
    } else if (name == "issymmetricdefinite" || name == "isfunctionsymmetric" || name == "issym") {
      if (p.handle) p.sym = d.truthy();
    } else if (name == "display" || name == "disp" || name == "failuretreatment" || name == "fail") {
      // accepted; matfuse prints no iteration log
    } else {
      throw_error("MATLAB:eigs:InvalidOption", "Invalid option '%s'.", name.c_str());
    }
  };
  if (args.size() > at && args[at].is_struct()) {
    const StructArray& sa = args[at].struct_array();
    for (size_t f = 0; f < sa.fields().size(); ++f) option(sa.fields()[f], sa.get(0, static_cast<int>(f)));
    ++at;
  }
  for (; at + 1 < args.size(); at += 2) {
    if (!args[at].is_text()) throw_error("MATLAB:eigs:InvalidOption", "Options must be name-value pairs.");
    option(args[at].to_text(), args[at + 1]);
  }
  if (at < args.size()) throw_error("MATLAB:eigs:InvalidOption", "Options must be name-value pairs.");
  if (p.k == 0) {
    return {Value(Tensor::zeros(ClassId::Double, Dims(0, 1)))};
  }
  const bool vectors = nargout >= 2;
  const EigsResult r = solve(ctx, p, vectors);
  if (r.flag && nargout < 3) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "Only %lld of the %lld requested eigenvalues converged.",
                  static_cast<long long>(r.d.size()), static_cast<long long>(p.k));
    num::warn(ctx, "MATLAB:eigs:NotAllEigsConverged", buf);
  }
  const int64_t k = static_cast<int64_t>(r.d.size());
  if (!vectors) return {Value(complex_or_real(r.d, Dims(k, 1), r.real))};
  bool vreal = r.real;
  for (const cplx& z : r.V) vreal = vreal && z.imag() == 0;
  std::vector<cplx> D(static_cast<size_t>(k * k), 0.0);
  for (int64_t i = 0; i < k; ++i) D[i * k + i] = r.d[i];
  Outputs o{Value(complex_or_real(r.V, Dims(p.n, k), vreal)), Value(complex_or_real(D, Dims(k, k), r.real))};
  if (nargout >= 3) o.push_back(Value(static_cast<double>(r.flag)));
  return o;
}

/// s = svds(A), svds(A, k), svds(A, k, 'largest'), [U, S, V] = svds(...), [U, S, V, flag]:
/// the k (default 6) largest singular values, descending.
Outputs bi_svds(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 4);
  const Value& A = args[0];
  const Dims d = A.dims();
  if (!(as_sparse(A) || A.is_tensor()) || d.ndims() != 2) mathutil::undefined_for("svds", A);
  const int64_t m = d[0], n = d[1];
  int64_t k = std::min<int64_t>({6, m, n});
  if (args.size() >= 2) k = std::min<int64_t>({size_arg(args[1], "svds"), m, n});
  if (args.size() >= 3) {
    const std::string s = args[2].is_text() ? args[2].to_text() : "";
    if (s != "largest" && s != "L")
      throw_error("matfuse:notAvailable", "svds: only the 'largest' singular values are supported.");
  }
  // The Gram operator on the smaller side.
  const bool tall = m >= n;
  const Value At = callv(ctx, "ctranspose", {A});
  EigsProblem p;
  p.n = tall ? n : m;
  p.k = k;
  p.sym = true;
  p.which = Which::LargestAbs;
  // The Gram matrix of the smaller side (sparse stays sparse), then its largest eigenvalues.
  p.A = tall ? callv(ctx, "mtimes", {At, A}) : callv(ctx, "mtimes", {A, At});
  const EigsResult r = solve(ctx, p, nargout >= 2);
  std::vector<double> s;
  for (const cplx& z : r.d) s.push_back(std::sqrt(std::max(0.0, z.real())));
  const int64_t kk = static_cast<int64_t>(s.size());
  if (nargout <= 1) return {Value(column(s.data(), kk))};
  // Vectors of the Gram side; the other side is A*V/S (or A'*U/S).
  std::vector<double> W(static_cast<size_t>(p.n * kk));
  for (size_t i = 0; i < W.size(); ++i) W[i] = r.V[i].real();
  Tensor Wt = Tensor::uninit(ClassId::Double, Dims(p.n, kk));
  std::copy(W.begin(), W.end(), Wt.mutable_data<double>());
  Tensor St = Tensor::zeros(ClassId::Double, Dims(kk, kk));
  Tensor Sinv = Tensor::zeros(ClassId::Double, Dims(kk, kk));
  for (int64_t i = 0; i < kk; ++i) {
    St.set_double(i * kk + i, s[i]);
    Sinv.set_double(i * kk + i, s[i] > 0 ? 1 / s[i] : 0);
  }
  const Value other = densify(callv(ctx, "mtimes", {callv(ctx, "mtimes", {tall ? A : At, Value(Wt)}), Value(Sinv)}));
  Outputs o;
  if (tall) o = {other, Value(St), Value(Wt)};
  else o = {Value(Wt), Value(St), other};
  if (nargout >= 4) o.push_back(Value(static_cast<double>(r.flag)));
  return o;
}

}  // namespace

void register_sparse_eigs(Registry& r) {
  r.add("eigs", bi_eigs);
  r.add("svds", bi_svds);
  add_sparse_aware("eigs");
  add_sparse_aware("svds");
}

}  // namespace matfuse
