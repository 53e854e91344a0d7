// Host provider: elementwise, reduction and matmul kernels (see host_provider.h).
#include "providers/host/host_provider.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "accel/plan/placement.h"
#include "providers/host/host_eval.h"
#include "providers/host/thread_pool.h"
#include "runtime/error.h"
#include "runtime/pairwise.h"

namespace matfuse::host {

using accel::KReduce;
using accel::ReduceKind;
using accel::VType;

namespace {

int64_t chunks_of(int64_t n) { return (n + kChunk - 1) / kChunk; }

/// Runs `phase` over its whole space in chunks and stores the outputs.
void run_phase(const PhaseCtx& phase) {
  const int64_t total = phase.space.numel();
  parallel_for(chunks_of(total), [&](int64_t c) {
    const int64_t start = c * kChunk;
    const int len = static_cast<int>(std::min<int64_t>(kChunk, total - start));
    Scratch& s = thread_scratch();
    eval_chunk(phase, start, len, s);
    store_outputs(phase, start, len, s);
  });
}

RunResult result_of(const Fault& f) {
  RunResult r;
  if (f.raised.load()) {
    r.ok = false;
    r.fault = f.reason;
  }
  return r;
}

// ---- reductions -------------------------------------------------------------------------------

/// Partial fold of one reduction over a contiguous range (values of A held exactly in v).
struct Partial {
  double v = 0;
  int64_t count = 0;
  bool found = false;
  bool nan = false;
  double nan_v = 0;  ///< min/max: the first NaN met (returned as is, like the eager engine)
};

/// The eager pairwise sum (runtime/pairwise.h, documented in runtime/reduce.h).
template <class A> A pairwise(const A* x, int64_t n, bool omit) { return pairwise_sum(x, n, omit); }

template <class T> bool truth_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}

/// min or max of x[0..len) into an empty p when x holds no NaN (else false, p untouched): eight
/// running extremes, so that the comparisons do not wait on each other. Equal values have equal
/// bits except +0.0 and -0.0, where the first one met must win: a zero result is recomputed in
/// order by the caller (false).
template <class T> bool extreme_fast(const T* x, int len, bool mx, Partial& p) {
  bool nan = false;
  for (int j = 0; j < len; ++j) nan |= x[j] != x[j];
  if (nan || len < 8) return false;
  T m[8];
  for (int b = 0; b < 8; ++b) m[b] = x[b];
  int j = 8;
  if (mx) {
    for (; j + 8 <= len; j += 8)
#pragma GCC unroll 8
      for (int b = 0; b < 8; ++b) m[b] = x[j + b] > m[b] ? x[j + b] : m[b];
  } else {
    for (; j + 8 <= len; j += 8)
#pragma GCC unroll 8
      for (int b = 0; b < 8; ++b) m[b] = x[j + b] < m[b] ? x[j + b] : m[b];
  }
  T e = m[0];
  for (int b = 1; b < 8; ++b) e = (mx ? m[b] > e : m[b] < e) ? m[b] : e;
  for (; j < len; ++j) e = (mx ? x[j] > e : x[j] < e) ? x[j] : e;
  if (e == T{}) return false;
  p.v = static_cast<double>(e);
  p.found = true;
  return true;
}

/// Folds x[0..len) into p for reduce r (prod handled by the caller, sequentially).
template <class T> void fold_leaf(const KReduce& r, const T* x, bool uni, int len, Partial& p) {
  auto at = [&](int j) { return x[uni ? 0 : j]; };
  switch (r.kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      if constexpr (std::is_floating_point_v<T>) {
        if (uni) {
          // A uniform value still sums pairwise over len copies.
          std::vector<T> tmp(len, x[0]);
          p.v = pairwise(tmp.data(), len, r.omitnan);
        } else {
          p.v = pairwise(x, len, r.omitnan);
        }
        if (r.omitnan) {
          int64_t c = 0;
          for (int j = 0; j < len; ++j) c += !(at(j) != at(j));
          p.count = c;
        } else {
          p.count = len;
        }
      }
      break;
    case ReduceKind::Min:
    case ReduceKind::Max: {
      const bool mx = r.kind == ReduceKind::Max;
      if constexpr (std::is_floating_point_v<T>) {
        if (!uni && !p.found && !p.nan && len > 0 && extreme_fast(x, len, mx, p)) break;
      }
      for (int j = 0; j < len; ++j) {
        const T v = at(j);
        if (truth_nan(v)) {
          if (!p.nan) p.nan_v = static_cast<double>(v);
          p.nan = true;
          continue;
        }
        const double d = static_cast<double>(v);
        if (!p.found || (mx ? d > p.v : d < p.v)) {
          p.v = d;
          p.found = true;
        }
      }
      break;
    }
    case ReduceKind::Any:
      for (int j = 0; j < len; ++j) {
        const T v = at(j);
        if (!truth_nan(v) && v != T{}) p.found = true;
      }
      break;
    case ReduceKind::All:
      p.found = true;
      for (int j = 0; j < len; ++j)
        if (at(j) == T{}) p.found = false;
      break;
    case ReduceKind::Prod: break;
  }
}

template <class F> void with_value(const Scratch& s, VType t, int i, F&& f) {
  switch (t) {
    case VType::F64: return f(static_cast<const double*>(s.vals[i]));
    case VType::F32: return f(static_cast<const float*>(s.vals[i]));
    case VType::Bool: return f(static_cast<const bool*>(s.vals[i]));
  }
}

/// In-order combination of two partials (min/max/any/all); sums combine through the tree.
void combine_ordered(const KReduce& r, Partial& acc, const Partial& next) {
  switch (r.kind) {
    case ReduceKind::Min:
    case ReduceKind::Max: {
      const bool mx = r.kind == ReduceKind::Max;
      if (!acc.nan && next.nan) acc.nan_v = next.nan_v;
      acc.nan |= next.nan;
      if (next.found && (!acc.found || (mx ? next.v > acc.v : next.v < acc.v))) {
        acc.v = next.v;
        acc.found = true;
      }
      break;
    }
    case ReduceKind::Any: acc.found |= next.found; break;
    case ReduceKind::All: acc.found &= next.found; break;
    default: break;
  }
}

/// Pairwise tree above the frontier nodes of [lo, lo+len): same split points as pairwise().
void frontier(int64_t lo, int64_t len, std::vector<std::pair<int64_t, int>>& out) {
  if (len <= kChunk) {
    out.push_back({lo, static_cast<int>(len)});
    return;
  }
  const int64_t h = len / 2;
  frontier(lo, h, out);
  frontier(lo + h, len - h, out);
}
template <class A>
A combine_sum(const Partial* parts, size_t stride, size_t& idx, int64_t len) {
  if (len <= kChunk) return static_cast<A>(parts[(idx++) * stride].v);
  const int64_t h = len / 2;
  const A a = combine_sum<A>(parts, stride, idx, h);
  const A b = combine_sum<A>(parts, stride, idx, len - h);
  return a + b;
}

/// Final value of a reduction from its combined partial (sum in A, count for mean).
template <class A> A finish(const KReduce& r, A sum, const Partial& acc, int64_t n, int64_t count) {
  switch (r.kind) {
    case ReduceKind::Sum: return sum;
    case ReduceKind::Mean: return sum / static_cast<A>(r.omitnan ? count : n);
    case ReduceKind::Min:
    case ReduceKind::Max:
      if (acc.nan && (!r.omitnan || !acc.found)) return static_cast<A>(acc.nan_v);
      return static_cast<A>(acc.v);
    default: return A{};
  }
}

struct ReduceOut {
  std::vector<double> d;
  std::vector<float> f;
  std::vector<char> b;  // bool storage (std::vector<bool> is packed)
  const void* ptr() const {
    return !d.empty() ? static_cast<const void*>(d.data())
           : !f.empty() ? static_cast<const void*>(f.data())
                        : static_cast<const void*>(b.data());
  }
};

bool is_truth(const KReduce& r) { return r.kind == ReduceKind::Any || r.kind == ReduceKind::All; }

/// Writes the final value of reduce r at output index o.
void write_result(const KReduce& r, ReduceOut& out, int64_t o, double sum_or_prod,
                  const Partial& acc, int64_t n, int64_t count) {
  if (is_truth(r)) {
    out.b[o] = acc.found;
  } else if (r.acc == VType::F32) {
    out.f[o] = r.kind == ReduceKind::Prod
                   ? static_cast<float>(sum_or_prod)
                   : finish<float>(r, static_cast<float>(sum_or_prod), acc, n, count);
  } else {
    out.d[o] = r.kind == ReduceKind::Prod ? sum_or_prod
                                           : finish<double>(r, sum_or_prod, acc, n, count);
  }
}

/// One lane chunk's fold over a range of rows (strided reductions).
struct LaneOut {
  std::vector<double> sums;  ///< level-0 pairwise sums [reduce][lane]
  std::vector<double> prod;
  std::vector<Partial> st;
  std::vector<int64_t> cnt;
};

RunResult run_reduction(const accel::Kernel& k, const KernelArgs& args) {
  Fault fault;
  PhaseCtx body(k, k.body, k.space, args, fault);
  const int64_t pre = k.pre, n = k.n, post = k.post, nout = pre * post;
  const size_t nr = k.reduces.size();
  std::vector<ReduceOut> outs(nr);
  bool has_prod = false;
  for (size_t r = 0; r < nr; ++r) {
    const KReduce& kr = k.reduces[r];
    has_prod |= kr.kind == ReduceKind::Prod;
    if (is_truth(kr)) outs[r].b.assign(nout, 0);
    else if (kr.acc == VType::F32) outs[r].f.assign(nout, 0.0f);
    else outs[r].d.assign(nout, 0.0);
  }
  const std::vector<accel::Instr>& code = k.body;
  bool body_outputs = false;  // prologue values also written out (KOutput::in_body)
  for (const accel::KOutput& o : k.outputs) body_outputs |= o.in_body;

  if (pre == 1) {
    std::vector<std::pair<int64_t, int>> nodes;
    frontier(0, n, nodes);
    const size_t nn = nodes.size();
    std::vector<Partial> parts(post * nn * nr);
    std::vector<double> prods(post * nr, 1.0);
    // One leaf: evaluates the body over the node and folds every reduction.
    auto leaf = [&](int64_t p, size_t node, Scratch& s) {
      const int64_t start = p * n + nodes[node].first;
      const int len = nodes[node].second;
      eval_chunk(body, start, len, s);
      if (body_outputs) store_outputs(body, start, len, s);
      for (size_t r = 0; r < nr; ++r) {
        const KReduce& kr = k.reduces[r];
        const bool uni = code[kr.value].uniform;
        Partial& part = parts[(p * nn + node) * nr + r];
        if (kr.kind == ReduceKind::Prod) {
          double& acc = prods[p * nr + r];
          with_value(s, kr.acc, kr.value, [&](const auto* x) {
            using T = std::remove_cv_t<std::remove_pointer_t<decltype(x)>>;
            if constexpr (std::is_floating_point_v<T>) {
              T a = static_cast<T>(acc);
              for (int j = 0; j < len; ++j) {
                const T v = x[uni ? 0 : j];
                if (!(kr.omitnan && v != v)) a *= v;
              }
              acc = static_cast<double>(a);
            }
          });
        } else {
          with_value(s, kr.acc, kr.value, [&](const auto* x) { fold_leaf(kr, x, uni, len, part); });
        }
      }
    };
    if (has_prod) {
      parallel_for(post, [&](int64_t p) {
        Scratch& s = thread_scratch();
        for (size_t node = 0; node < nn; ++node) leaf(p, node, s);
      });
    } else {
      parallel_for(static_cast<int64_t>(post * nn), [&](int64_t t) {
        leaf(t / static_cast<int64_t>(nn), static_cast<size_t>(t % nn), thread_scratch());
      });
    }
    for (int64_t p = 0; p < post; ++p) {
      for (size_t r = 0; r < nr; ++r) {
        const KReduce& kr = k.reduces[r];
        const Partial* base = &parts[(p * nn) * nr + r];
        Partial acc = base[0];
        int64_t count = base[0].count;
        for (size_t node = 1; node < nn; ++node) {
          combine_ordered(kr, acc, base[node * nr]);
          count += base[node * nr].count;
        }
        double sum = 0;
        if (kr.kind == ReduceKind::Sum || kr.kind == ReduceKind::Mean) {
          size_t idx = 0;
          sum = kr.acc == VType::F32 ? static_cast<double>(combine_sum<float>(base, nr, idx, n))
                                     : combine_sum<double>(base, nr, idx, n);
        } else if (kr.kind == ReduceKind::Prod) {
          sum = prods[p * nr + r];
        }
        write_result(kr, outs[r], p, sum, acc, n, count);
      }
    }
  } else {
    // Strided: each lane follows the pairwise order of pre == 1 (rows in blocks of <= 128 left
    // to right, longer row ranges split at n/2, halves added), as runtime/reduce_core.cc's
    // pairwise_rows; prod, min, max, any, all fold rows left to right.
    const int64_t nlc = chunks_of(pre);
    int levels = 2;
    for (int64_t m = n; m > kPairwiseBlock; m = (m + 1) / 2) ++levels;
    // Folds rows [row_lo, row_lo + rows) of lane chunk (p, i0) into `out` (the level-0 sums of
    // that pairwise subtree, counts, products, ordered partials).
    auto lane = [&](int64_t p, int64_t i0, int64_t row_lo, int64_t rows, LaneOut& out) {
      const int len = static_cast<int>(std::min<int64_t>(kChunk, pre - i0));
      Scratch& s = thread_scratch();
      // sums[(level * nr + r) * len + i]: pairwise partial sums (values of A held in double).
      std::vector<double> sums(static_cast<size_t>(levels) * nr * len, 0.0);
      std::vector<double> prod(nr * len, 1.0);
      std::vector<Partial> st(nr * len);
      std::vector<int64_t> cnt(nr * len, 0);
      for (size_t r = 0; r < nr; ++r)
        if (k.reduces[r].kind == ReduceKind::All)
          for (int i = 0; i < len; ++i) st[r * len + i].found = true;
      // Folds `rows` consecutive rows whose values start at element `at` of the evaluated chunk
      // (row q at at + q*len), each lane in row order.
      auto fold_vals = [&](int level, int at, int64_t rows) {
        for (size_t r = 0; r < nr; ++r) {
          const KReduce& kr = k.reduces[r];
          const bool uni = code[kr.value].uniform;
          with_value(s, kr.acc, kr.value, [&](const auto* x0) {
            using T = std::remove_cv_t<std::remove_pointer_t<decltype(x0)>>;
            for (int64_t q = 0; q < rows; ++q) {
              const T* x = x0 + (uni ? 0 : at + q * len);
              switch (kr.kind) {
                case ReduceKind::Sum:
                case ReduceKind::Mean:
                  if constexpr (std::is_floating_point_v<T>) {
                    double* a = &sums[(static_cast<size_t>(level) * nr + r) * len];
                    int64_t* cn = &cnt[r * len];
                    if (!kr.omitnan && !uni) {
                      // The counts serve 'omitnan' only (a mean divides by n otherwise).
                      for (int i = 0; i < len; ++i)
                        a[i] = static_cast<double>(static_cast<T>(static_cast<T>(a[i]) + x[i]));
                      break;
                    }
                    for (int i = 0; i < len; ++i) {
                      const T v = x[uni ? 0 : i];
                      if (kr.omitnan && v != v) continue;
                      a[i] = static_cast<double>(static_cast<T>(static_cast<T>(a[i]) + v));
                      ++cn[i];
                    }
                  }
                  break;
                case ReduceKind::Prod:
                  if constexpr (std::is_floating_point_v<T>) {
                    double* a = &prod[r * len];
                    for (int i = 0; i < len; ++i) {
                      const T v = x[uni ? 0 : i];
                      if (kr.omitnan && v != v) continue;
                      a[i] = static_cast<double>(static_cast<T>(static_cast<T>(a[i]) * v));
                    }
                  }
                  break;
                default:
                  for (int i = 0; i < len; ++i) {
                    Partial one;
                    if (kr.kind == ReduceKind::All) one.found = true;
                    fold_leaf(kr, x + (uni ? 0 : i), true, 1, one);
                    combine_ordered(kr, st[r * len + i], one);
                  }
              }
            }
          });
        }
      };
      // Small lanes (len == pre, e.g. mean over dims 2:3 of a 4xHxW array): consecutive rows
      // are consecutive points, so one chunk evaluates several rows (folded in row order, as
      // row by row) instead of one chunk of `pre` points per row.
      const int64_t rows_per = len == pre ? std::max<int64_t>(1, kChunk / pre) : 1;
      auto fold_rows = [&](int64_t lo, int64_t c, int level) {
        for (int64_t j = lo; j < lo + c;) {
          const int64_t m = std::min<int64_t>(rows_per, lo + c - j);
          const int64_t at = (p * n + j) * pre + i0;
          const int cl = static_cast<int>(m * len);
          eval_chunk(body, at, cl, s);
          if (body_outputs) store_outputs(body, at, cl, s);
          fold_vals(level, 0, m);
          j += m;
        }
      };
      // Rows [lo, lo+cnt) into sums level `level` (levels above are scratch for the right half).
      std::function<void(int64_t, int64_t, int)> visit = [&](int64_t lo, int64_t c, int level) {
        if (c <= kPairwiseBlock) {
          std::fill(sums.begin() + static_cast<size_t>(level) * nr * len,
                    sums.begin() + static_cast<size_t>(level + 1) * nr * len, 0.0);
          fold_rows(lo, c, level);
          return;
        }
        const int64_t h = c / 2;
        visit(lo, h, level);
        visit(lo + h, c - h, level + 1);
        for (size_t r = 0; r < nr; ++r) {
          const KReduce& kr = k.reduces[r];
          if (kr.kind != ReduceKind::Sum && kr.kind != ReduceKind::Mean) continue;
          double* a = &sums[(static_cast<size_t>(level) * nr + r) * len];
          const double* b = &sums[(static_cast<size_t>(level + 1) * nr + r) * len];
          if (kr.acc == VType::F32)
            for (int i = 0; i < len; ++i)
              a[i] = static_cast<double>(static_cast<float>(a[i]) + static_cast<float>(b[i]));
          else
            for (int i = 0; i < len; ++i) a[i] += b[i];
        }
      };
      visit(row_lo, rows, 0);
      out.sums.assign(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(nr * len));
      out.prod = std::move(prod);
      out.st = std::move(st);
      out.cnt = std::move(cnt);
    };
    auto write_lane = [&](int64_t p, int64_t i0, const LaneOut& o) {
      const int len = static_cast<int>(std::min<int64_t>(kChunk, pre - i0));
      for (size_t r = 0; r < nr; ++r) {
        const KReduce& kr = k.reduces[r];
        const bool is_sum = kr.kind == ReduceKind::Sum || kr.kind == ReduceKind::Mean;
        for (int i = 0; i < len; ++i)
          write_result(kr, outs[r], p * pre + i0 + i,
                       is_sum ? o.sums[r * len + i] : o.prod[r * len + i], o.st[r * len + i], n,
                       o.cnt[r * len + i]);
      }
    };
    bool all_sums = true;
    for (const KReduce& kr : k.reduces)
      all_sums &= kr.kind == ReduceKind::Sum || kr.kind == ReduceKind::Mean;
    if (post * nlc < pool_threads() && all_sums && n > 4 * kPairwiseBlock) {
      // Fewer lane chunks than threads: the top two levels of each lane's pairwise tree run as
      // separate tasks and are added in the tree's order, so the bits are those of one task.
      struct Sub {
        int64_t lo, rows;
      };
      std::vector<Sub> subs;
      const auto split = [](int64_t lo, int64_t c) {
        const int64_t h = c / 2;
        return std::pair<Sub, Sub>{{lo, h}, {lo + h, c - h}};
      };
      const auto [l, r] = split(0, n);
      for (const Sub& q : {split(l.lo, l.rows).first, split(l.lo, l.rows).second,
                           split(r.lo, r.rows).first, split(r.lo, r.rows).second})
        subs.push_back(q);
      const int64_t lanes = post * nlc, ns = static_cast<int64_t>(subs.size());
      std::vector<LaneOut> res(static_cast<size_t>(lanes * ns));
      parallel_for(lanes * ns, [&](int64_t t) {
        const int64_t lc = t / ns, q = t % ns;
        lane(lc / nlc, (lc % nlc) * kChunk, subs[q].lo, subs[q].rows, res[t]);
      });
      for (int64_t lc = 0; lc < lanes; ++lc) {
        const int64_t i0 = (lc % nlc) * kChunk;
        const int len = static_cast<int>(std::min<int64_t>(kChunk, pre - i0));
        LaneOut* q = &res[static_cast<size_t>(lc * ns)];
        // ((q0 + q1) + (q2 + q3)) as visit adds its halves (float sums rounded to float).
        auto add = [&](LaneOut& a, const LaneOut& b) {
          for (size_t r = 0; r < nr; ++r)
            for (int i = 0; i < len; ++i) {
              double& x = a.sums[r * len + i];
              const double y = b.sums[r * len + i];
              x = k.reduces[r].acc == VType::F32
                      ? static_cast<double>(static_cast<float>(x) + static_cast<float>(y))
                      : x + y;
              a.cnt[r * len + i] += b.cnt[r * len + i];
            }
        };
        add(q[0], q[1]);
        add(q[2], q[3]);
        add(q[0], q[2]);
        write_lane(lc / nlc, i0, q[0]);
      }
    } else {
      parallel_for(post * nlc, [&](int64_t t) {
        LaneOut o;
        lane(t / nlc, (t % nlc) * kChunk, 0, n, o);
        write_lane(t / nlc, (t % nlc) * kChunk, o);
      });
    }
  }
  if (fault.raised.load()) return result_of(fault);
  PhaseCtx epi(k, k.epilogue, k.out_space, args, fault);
  for (size_t r = 0; r < nr; ++r) epi.reduce_results.push_back(outs[r].ptr());
  run_phase(epi);
  return result_of(fault);
}

// ---- matrix products --------------------------------------------------------------------------

RunResult run_matmul(HostProvider& hp, const accel::Kernel& k, const KernelArgs& args) {
  const accel::KMatMul& m = *k.matmul;
  Fault fault;
  std::vector<double> cd;
  std::vector<float> cf;
  GemmCall g;
  g.f32 = m.type == VType::F32;
  g.trans_a = m.trans_a;
  g.trans_b = m.trans_b;
  g.m = m.m;
  g.n = m.n;
  g.k = m.k;
  g.a = args.inputs[m.a];
  g.lda = m.lda;
  g.b = args.inputs[m.b];
  g.ldb = m.ldb;
  if (g.f32) {
    cf.assign(static_cast<size_t>(m.m * m.n), 0.0f);
    g.c = cf.data();
  } else {
    cd.assign(static_cast<size_t>(m.m * m.n), 0.0);
    g.c = cd.data();
  }
  g.alpha = m.alpha_slot >= 0 ? args.params[static_cast<size_t>(m.alpha_slot)].f : m.alpha_imm;
  if (m.alpha_div) g.alpha = 1.0 / g.alpha;
  if (m.syrk) {
    // One triangle by syrk, mirrored so that the epilogue reads the whole product.
    hp.syrk(SyrkCall{g.f32, m.trans_a, m.m, m.k, g.a, g.lda, g.c, g.alpha, 0.0});
    const size_t n = static_cast<size_t>(m.m);
    constexpr size_t B = 64;  // cache blocks: C(i,j) = C(j,i) for i < j
    for (size_t jb = 0; jb < n; jb += B)
      for (size_t ib = 0; ib <= jb; ib += B)
        for (size_t j = jb; j < std::min(n, jb + B); ++j)
          for (size_t i = ib; i < std::min(j, ib + B); ++i) {
            if (g.f32) cf[j * n + i] = cf[i * n + j];
            else cd[j * n + i] = cd[i * n + j];
          }
  } else {
    hp.gemm(g);
  }
  const void* c = g.c;
  if (m.diag) {  // epilogue over the main diagonal: point k reads C(k,k)
    const size_t len = static_cast<size_t>(std::min(m.m, m.n)), step = static_cast<size_t>(m.m + 1);
    for (size_t i = 0; i < len; ++i) {  // in place: i*step >= i
      if (m.type == VType::F32) cf[i] = cf[i * step];
      else cd[i] = cd[i * step];
    }
  }
  PhaseCtx epi(k, k.epilogue, k.out_space, args, fault);
  epi.matmul_c = c;
  run_phase(epi);
  return result_of(fault);
}

}  // namespace

RunResult HostProvider::run(const accel::Kernel& k, const KernelArgs& args) {
  MF_ASSERT(args.inputs.size() == k.inputs.size() && args.params.size() == k.param_u64.size() &&
                args.outputs.size() == k.outputs.size(),
            "kernel arguments do not match the kernel");
  if (k.matmul) return run_matmul(*this, k, args);
  if (k.fusion_kind == accel::FusionKind::Reduction) return run_reduction(k, args);
  Fault fault;
  PhaseCtx body(k, k.body, k.space, args, fault);
  run_phase(body);
  return result_of(fault);
}

void HostProvider::gemm(const GemmCall& g) {
  const int M = static_cast<int>(g.m), N = static_cast<int>(g.n), K = static_cast<int>(g.k);
  const auto ta = g.trans_a ? CblasTrans : CblasNoTrans, tb = g.trans_b ? CblasTrans : CblasNoTrans;
  const int lda = static_cast<int>(g.lda), ldb = static_cast<int>(g.ldb);
  if (N == 1 && M > 1) {
    // y = alpha*op(A)*x + beta*y (gemv); x is a column of k elements (stride 1 either way).
    const int rows = g.trans_a ? K : M, cols = g.trans_a ? M : K;
    if (g.f32)
      cblas_sgemv(CblasColMajor, ta, rows, cols, static_cast<float>(g.alpha),
                  static_cast<const float*>(g.a), lda, static_cast<const float*>(g.b), 1,
                  static_cast<float>(g.beta), static_cast<float*>(g.c), 1);
    else
      cblas_dgemv(CblasColMajor, ta, rows, cols, g.alpha, static_cast<const double*>(g.a), lda,
                  static_cast<const double*>(g.b), 1, g.beta, static_cast<double*>(g.c), 1);
    return;
  }
  if (M == 1 && N > 1) {
    // y.' = alpha*x.'*op(B) + beta*y.': y = op(B).'*x (gemv on B with the other transpose).
    const auto tB = g.trans_b ? CblasNoTrans : CblasTrans;
    const int rows = g.trans_b ? N : K, cols = g.trans_b ? K : N;
    if (g.f32)
      cblas_sgemv(CblasColMajor, tB, rows, cols, static_cast<float>(g.alpha),
                  static_cast<const float*>(g.b), ldb, static_cast<const float*>(g.a), 1,
                  static_cast<float>(g.beta), static_cast<float*>(g.c), 1);
    else
      cblas_dgemv(CblasColMajor, tB, rows, cols, g.alpha, static_cast<const double*>(g.b), ldb,
                  static_cast<const double*>(g.a), 1, g.beta, static_cast<double*>(g.c), 1);
    return;
  }
  if (g.f32)
    cblas_sgemm(CblasColMajor, ta, tb, M, N, K, static_cast<float>(g.alpha),
                static_cast<const float*>(g.a), lda, static_cast<const float*>(g.b), ldb,
                static_cast<float>(g.beta), static_cast<float*>(g.c), M);
  else
    cblas_dgemm(CblasColMajor, ta, tb, M, N, K, g.alpha, static_cast<const double*>(g.a), lda,
                static_cast<const double*>(g.b), ldb, g.beta, static_cast<double*>(g.c), M);
}

void HostProvider::syrk(const SyrkCall& s) {
  const int N = static_cast<int>(s.n), K = static_cast<int>(s.k), lda = static_cast<int>(s.lda);
  const auto t = s.trans ? CblasTrans : CblasNoTrans;
  if (s.f32)
    cblas_ssyrk(CblasColMajor, CblasLower, t, N, K, static_cast<float>(s.alpha),
                static_cast<const float*>(s.a), lda, static_cast<float>(s.beta),
                static_cast<float*>(s.c), N);
  else
    cblas_dsyrk(CblasColMajor, CblasLower, t, N, K, s.alpha, static_cast<const double*>(s.a), lda,
                s.beta, static_cast<double*>(s.c), N);
}

double HostProvider::estimate_seconds(const KernelCost& c) const {
  const accel::Calibration& cal = accel::calibration();
  const double touched = static_cast<double>(c.bytes_in + c.bytes_out);
  return touched / (cal.host_bandwidth_gbs * 1e9) + c.flops / (cal.host_gemm_gflops * 1e9) +
         c.ops / (cal.host_op_rate_gops * 1e9) +
         static_cast<double>(c.bytes_to_bind) / (cal.download_gbs * 1e9) +
         static_cast<double>(c.bytes_to_device) / (cal.upload_gbs * 1e9) +
         (c.bytes_to_bind > 0 ? cal.host_sync_us * 1e-6 : 0.0);
}

const void* HostProvider::bind_input(const Tensor& t, int64_t* copied_bytes) {
  if (copied_bytes) *copied_bytes = t.device_only() ? t.numel() * t.elem_bytes() : 0;
  return t.raw();
}

Tensor HostProvider::new_output(ClassId cls, const Dims& dims, void** address, bool complex) {
  Tensor t = Tensor::uninit(cls, dims, complex);
  *address = t.mutable_raw();
  return t;
}

HostProvider& host_provider() {
  static HostProvider p;
  return p;
}

}  // namespace matfuse::host
