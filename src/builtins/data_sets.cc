// Set functions: unique, ismember, union, intersect, setdiff (MATLAB semantics).
//
// Elements (or rows with 'rows') of the inputs are compared with data::Keys: NaN and <missing>
// are distinct from everything, including each other, and sort last. Results are sorted unless
// 'stable' is given. Index outputs are column vectors of doubles; by default they point at the
// first occurrence ('last' selects the last occurrence for unique, as MATLAB's legacy flag).
// Output orientation: a row vector input (both inputs for union/intersect) gives a row vector,
// otherwise a column vector; with 'rows' the result has the inputs' column count.
// Text: cell arrays of char vectors and string arrays; a char row next to a cell array counts
// as one element. Numeric inputs of different classes combine with concatenation rules.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>

#include "builtins/data_util.h"
#include "builtins/format.h"
#include "builtins/shape_util.h"
#include "builtins/sort_kernels.h"

namespace matfuse::data {
namespace {

struct SetOpts {
  bool rows = false;
  bool stable = false;
  bool last = false;
  bool legacy = false;  ///< R2012b behaviour: last occurrences, row-vector outputs
};

SetOpts parse_set_opts(Args args, size_t start, const char* fname, bool allow_order,
                       bool allow_occurrence) {
  SetOpts o;
  bool order = false, occurrence = false, first = false;
  for (size_t i = start; i < args.size(); ++i) {
    if (!args[i].is_text())
      throw_error("MATLAB:UNIQUE:UnknownInput", "Options of %s must be character vectors.",
                  fname);
    std::string s = lower(args[i].to_text());
    if (s == "rows") o.rows = true;
    else if (allow_order && (s == "stable" || s == "sorted")) {
      if (order && o.stable != (s == "stable"))
        throw_error("MATLAB:UNIQUE:SetOrderConflict", "Cannot specify both 'sorted' and 'stable'.");
      order = true;
      o.stable = s == "stable";
    } else if (allow_occurrence && (s == "first" || s == "last")) {
      if ((s == "first" && o.last) || (s == "last" && first))
        throw_error("MATLAB:UNIQUE:OccurrenceConflict", "Cannot specify both 'first' and 'last'.");
      occurrence = true;
      first = s == "first";
      o.last = s == "last";
    } else if (s == "legacy") {
      o.legacy = true;
    } else
      throw_error("MATLAB:UNIQUE:UnknownInput", "Unknown input '%s' for %s.", s.c_str(), fname);
  }
  if (order && (occurrence || o.legacy))
    throw_error("MATLAB:UNIQUE:SetOrderConflict",
                "'sorted' and 'stable' cannot be combined with '%s'.",
                o.legacy ? "legacy" : first ? "first" : "last");
  if (o.legacy && !occurrence) o.last = true;
  return o;
}

/// The units (elements or rows) of one or two inputs, compared through one set of keys.
struct Units {
  Value all;         // elements of A then B (linear)
  Keys k;
  int64_t na = 0;    // elements of A
  int64_t ma = 0;    // units of A
  int64_t mb = 0;    // units of B
  int64_t ncols = 1; // elements per unit
  bool rows = false;
  int64_t pos(int64_t u, int64_t j) const {
    if (!rows) return u;
    return u < ma ? j * ma + u : na + j * mb + (u - ma);
  }
  int cmp(int64_t x, int64_t y) const {
    for (int64_t j = 0; j < ncols; ++j) {
      int r = k.cmp(pos(x, j), pos(y, j));
      if (r) return r;
    }
    return 0;
  }
  bool eq(int64_t x, int64_t y) const {
    for (int64_t j = 0; j < ncols; ++j)
      if (!k.eq(pos(x, j), pos(y, j))) return false;
    return true;
  }
  int64_t n() const { return ma + mb; }
};

Units make_units(const Value& a, const Value* b, bool rows, const char* fname) {
  Units u;
  // MATLAB ignores 'rows' for cell arrays (with a warning); string arrays have rows.
  const bool cells = a.is_cell() || (b && b->is_cell());
  if (cells && rows) rows = false;
  u.rows = rows;
  if (rows) {
    if (a.dims().ndims() > 2 || (b && b->dims().ndims() > 2))
      throw_error("MATLAB:UNIQUE:ANotAMatrix", "A must be a 2-D matrix when 'rows' is specified.");
    if (b && a.dims().cols() != b->dims().cols() && !(a.dims() == Dims(0, 0)) &&
        !(b->dims() == Dims(0, 0)))
      throw_error("MATLAB:UNION:AandBColnumAgree",
                  "A and B must have the same number of columns.");
  }
  int64_t nb = 0;
  u.all = b ? concat_elements(a, *b, &u.na, &nb) : a;
  if (!b) u.na = a.numel();
  if (a.is_cell() && !is_cellstr(a))
    throw_error("MATLAB:UNIQUE:InputClass",
                "Input A must be a cell array of character vectors.");
  u.k = make_keys(u.all, fname);
  if (rows) {
    u.ncols = a.dims() == Dims(0, 0) && b ? b->dims().cols() : a.dims().cols();
    u.ma = a.dims().rows();
    u.mb = b ? b->dims().rows() : 0;
    if (u.ncols == 0) {  // rows of zero columns: keep counts consistent
      u.ma = a.dims().rows();
    }
    if (a.dims() == Dims(0, 0)) u.ma = 0;
    if (b && b->dims() == Dims(0, 0)) u.mb = 0;
  } else {
    u.ma = u.na;
    u.mb = nb;
  }
  return u;
}

struct Group {
  std::vector<int64_t> members;  // unit indices, ascending
};

/// Groups of equal units, in sorted order (NaN-containing units each alone, at the end).
std::vector<Group> group_units(const Units& u) {
  std::vector<int64_t> order(static_cast<size_t>(u.n()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t x, int64_t y) { return u.cmp(x, y) < 0; });
  std::vector<Group> g;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || !u.eq(order[i - 1], order[i])) g.emplace_back();
    g.back().members.push_back(order[i]);
  }
  return g;
}

/// The value made of the given units (rows or elements) with the result orientation.
Value take_units(const Units& u, const std::vector<int64_t>& units, bool row_out) {
  int64_t k = static_cast<int64_t>(units.size());
  std::vector<int64_t> src;
  Dims d;
  if (u.rows) {
    d = Dims(k, u.ncols);
    src.resize(static_cast<size_t>(k * u.ncols));
    for (int64_t j = 0; j < u.ncols; ++j)
      for (int64_t r = 0; r < k; ++r) src[j * k + r] = u.pos(units[r], j);
  } else {
    d = row_out ? Dims(1, k) : Dims(k, 1);
    src = units;
  }
  return gather_elements(u.all, d, src);
}

bool is_rowish(const Value& v) { return v.dims().ndims() == 2 && v.dims().rows() == 1; }

Tensor col_index(const std::vector<int64_t>& idx0, int64_t offset = 0) {
  std::vector<int64_t> v = idx0;
  for (auto& x : v) x -= offset;
  return index_tensor(v, Dims(static_cast<int64_t>(v.size()), 1));
}

/// unique of a real numeric/logical/char array (no 'rows'): one radix sort with positions
/// (sort_kernels.h), groups of equal values in sorted order (each NaN alone, last). reps: the
/// first (or last) position of each group, in output order; ic: group number of each element.
void unique_fast(const Tensor& x, const SetOpts& o, std::vector<int64_t>& reps,
                 std::vector<int64_t>& ic) {
  const int64_t n = x.numel();
  std::vector<int64_t> pos(static_cast<size_t>(n));
  std::vector<int64_t> first, last;
  ic.assign(static_cast<size_t>(n), 0);
  dispatch_class(x.cls(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = x.data<T>();
    fast::sort_lane<T>(p, n, 1, false, false, nullptr, pos.data());
    for (int64_t i = 0; i < n; ++i) {
      if (i == 0 || !(p[pos[i]] == p[pos[i - 1]])) {  // NaN != NaN: each NaN is a group
        first.push_back(pos[i]);
        last.push_back(pos[i]);
      } else {
        last.back() = pos[i];
      }
      ic[pos[i]] = static_cast<int64_t>(first.size()) - 1;
    }
  });
  const int64_t g = static_cast<int64_t>(first.size());
  if (o.stable) {  // renumber groups by their first position
    std::vector<int64_t> group_at(static_cast<size_t>(n), -1), newid(static_cast<size_t>(g));
    for (int64_t k = 0; k < g; ++k) group_at[first[k]] = k;
    int64_t next = 0;
    reps.resize(static_cast<size_t>(g));
    for (int64_t q = 0; q < n; ++q)
      if (group_at[q] >= 0) {
        newid[group_at[q]] = next;
        reps[next++] = q;
      }
    for (auto& c : ic) c = newid[c];
  } else {
    reps = o.last ? std::move(last) : std::move(first);
  }
}

Outputs bi_unique(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 5);
  check_nargout(nargout, 3);
  const Value& a = args[0];
  SetOpts o = parse_set_opts(args, 1, "unique", true, true);
  if (o.rows && a.is_cell()) {
    Value w[2] = {char_row("MATLAB:UNIQUE:RowsFlagIgnored"),
                  char_row("The 'rows' input is not supported for cell array inputs.")};
    ctx.call_named("warning", Args(w, 2), 0);
  }
  if (!o.rows && a.is_tensor() && !a.tensor().is_complex() && nargout <= 1 && !o.stable &&
      a.dims() != Dims(0, 0)) {
    // The sorted distinct values only: sort the values (no positions), drop repeats in place
    // (NaN != NaN: every NaN stays, after the numbers).
    const Tensor x = a.tensor();
    const int64_t n = x.numel();
    Tensor s = Tensor::uninit(x.cls(), Dims(n, 1));
    int64_t k = 0;
    dispatch_class(x.cls(), [&](auto tag) {
      using T = decltype(tag);
      T* d = s.mutable_data<T>();
      fast::sort_lane<T>(x.data<T>(), n, 1, false, false, d, nullptr);
      for (int64_t i = 0; i < n; ++i)
        if (k == 0 || !(d[i] == d[k - 1])) d[k++] = d[i];
    });
    const Dims od = is_rowish(a) ? Dims(1, k) : Dims(k, 1);
    if (k == n) return {Value(s.reshaped(od))};
    Tensor out = Tensor::uninit(x.cls(), od);
    std::memcpy(out.mutable_raw(), s.raw(), static_cast<size_t>(k) * static_cast<size_t>(s.elem_bytes()));
    return {Value(std::move(out))};
  }
  if (!o.rows && a.is_tensor() && !a.tensor().is_complex()) {
    Tensor x = a.tensor();
    std::vector<int64_t> reps, ic;
    unique_fast(x, o, reps, ic);
    bool row_out = is_rowish(a);
    int64_t k = static_cast<int64_t>(reps.size());
    Value c = gather_elements(a, row_out ? Dims(1, k) : Dims(k, 1), reps);
    if (a.dims() == Dims(0, 0)) c = reshape_value(c, Dims(0, 0));
    Outputs out{c};
    auto idx = [&](const std::vector<int64_t>& v) {
      Value t(col_index(v));
      return o.legacy && row_out ? reshape_value(t, Dims(1, static_cast<int64_t>(v.size()))) : t;
    };
    if (nargout > 1) out.push_back(idx(reps));
    if (nargout > 2) out.push_back(idx(ic));
    return out;
  }
  Units u = make_units(a, nullptr, o.rows, "unique");
  std::vector<Group> groups = group_units(u);
  if (o.stable)
    std::stable_sort(groups.begin(), groups.end(), [](const Group& x, const Group& y) {
      return x.members.front() < y.members.front();
    });
  std::vector<int64_t> reps, ic(static_cast<size_t>(u.n()));
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const auto& m = groups[gi].members;
    reps.push_back(o.last ? m.back() : m.front());
    for (int64_t x : m) ic[x] = static_cast<int64_t>(gi);
  }
  bool row_out = !u.rows && is_rowish(a);
  Value c = take_units(u, reps, row_out);
  if (!u.rows && a.dims() == Dims(0, 0)) c = reshape_value(c, Dims(0, 0));
  Outputs out{c};
  auto idx = [&](const std::vector<int64_t>& v) {
    Value t(col_index(v));
    return o.legacy && row_out ? reshape_value(t, Dims(1, static_cast<int64_t>(v.size()))) : t;
  };
  if (nargout > 1) out.push_back(idx(reps));
  if (nargout > 2) out.push_back(idx(ic));
  return out;
}

Outputs bi_ismember(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 2);
  SetOpts o = parse_set_opts(args, 2, "ismember", false, false);
  const Value& a = args[0];
  const Value& bv = args[1];
  if (!o.rows && a.is_tensor() && bv.is_tensor() && a.cls() == bv.cls() &&
      !a.tensor().is_complex() && !bv.tensor().is_complex()) {
    // Same real class: sort B once (stable, so a value's first entry is its first position),
    // then a binary search per element of A.
    Tensor x = a.tensor(), y = bv.tensor();
    Tensor tf = Tensor::uninit(ClassId::Logical, x.dims());
    Tensor loc = nargout > 1 ? Tensor::uninit(ClassId::Double, x.dims()) : Tensor();
    bool* tp = tf.mutable_data<bool>();
    double* lp = nargout > 1 ? loc.mutable_data<double>() : nullptr;
    dispatch_class(x.cls(), [&](auto tag) {
      using T = decltype(tag);
      const int64_t nb = y.numel();
      std::vector<int64_t> pos(static_cast<size_t>(nb));
      std::unique_ptr<T[]> sv(new T[static_cast<size_t>(std::max<int64_t>(nb, 1))]);
      fast::sort_lane<T>(y.data<T>(), nb, 1, false, false, sv.get(), pos.data());
      int64_t m = 0;  // distinct non-NaN values, each with its first position
      for (int64_t i = 0; i < nb; ++i) {
        if (sv[i] != sv[i]) break;  // NaN (sorted last)
        if (m > 0 && sv[i] == sv[m - 1]) continue;
        sv[m] = sv[i];
        pos[m++] = pos[i];
      }
      const T* px = x.data<T>();
      const T* b0 = sv.get();
      for (int64_t i = 0, n = x.numel(); i < n; ++i) {
        T v = px[i];
        const T* f = std::lower_bound(b0, b0 + m, v);
        bool hit = f != b0 + m && *f == v;
        tp[i] = hit;
        if (lp) lp[i] = hit ? static_cast<double>(pos[f - b0] + 1) : 0.0;
      }
    });
    Outputs out{Value(std::move(tf))};
    if (nargout > 1) out.push_back(Value(std::move(loc)));
    return out;
  }
  Units u = make_units(a, &args[1], o.rows, "ismember");
  std::vector<Group> groups = group_units(u);
  std::vector<double> loc(static_cast<size_t>(u.ma), 0.0);
  for (const Group& g : groups) {
    int64_t firstb = -1;
    for (int64_t x : g.members)
      if (x >= u.ma) { firstb = x - u.ma; break; }
    if (firstb < 0) continue;
    for (int64_t x : g.members)
      if (x < u.ma) loc[x] = static_cast<double>(firstb + 1);
  }
  Dims d = u.rows ? Dims(u.ma, 1) : (a.is_char() && (args[1].is_cell() || args[1].is_string()))
                                        ? Dims(1, 1)
                                        : a.dims();
  Tensor tf = Tensor::uninit(ClassId::Logical, d);
  bool* p = tf.mutable_data<bool>();
  for (int64_t i = 0; i < d.numel(); ++i) p[i] = loc[i] != 0;
  Outputs out{Value(tf)};
  if (nargout > 1) out.push_back(Value(double_tensor(loc, d)));
  return out;
}

enum class SetOp { Union, Intersect, Setdiff };

Outputs set_op(Args args, int nargout, SetOp op, const char* fname) {
  check_nargin(args, 2, 5);
  check_nargout(nargout, op == SetOp::Setdiff ? 2 : 3);
  SetOpts o = parse_set_opts(args, 2, fname, true, false);
  const Value &a = args[0], &b = args[1];
  Units u = make_units(a, &b, o.rows, fname);
  std::vector<Group> groups = group_units(u);
  struct Pick {
    int64_t rep, ia = -1, ib = -1, key;
  };
  std::vector<Pick> picks;
  for (const Group& g : groups) {
    int64_t fa = -1, fb = -1;
    for (int64_t x : g.members) {  // first occurrences (last ones with 'legacy')
      if (x < u.ma && (fa < 0 || o.legacy)) fa = x;
      if (x >= u.ma && (fb < 0 || o.legacy)) fb = x;
    }
    Pick p{};
    p.ia = -1;
    p.ib = -1;
    if (op == SetOp::Union) {
      // Elements in both come from A (from B with 'legacy').
      if (fa >= 0 && !(o.legacy && fb >= 0)) p.ia = fa;
      else p.ib = fb;
      p.rep = fa >= 0 ? fa : fb;
    } else if (op == SetOp::Intersect) {
      if (fa < 0 || fb < 0) continue;
      p.ia = fa;
      p.ib = fb;
      p.rep = fa;
    } else {
      if (fa < 0 || fb >= 0) continue;
      p.ia = fa;
      p.rep = fa;
    }
    p.key = p.rep;  // stable order: A's units first (by position), then B's
    picks.push_back(p);
  }
  if (o.stable)
    std::stable_sort(picks.begin(), picks.end(),
                     [](const Pick& x, const Pick& y) { return x.key < y.key; });
  std::vector<int64_t> reps, ia, ib;
  for (const Pick& p : picks) {
    reps.push_back(p.rep);
    if (p.ia >= 0) ia.push_back(p.ia);
    if (p.ib >= 0) ib.push_back(p.ib - u.ma);
  }
  bool a_row = is_rowish(a) || a.dims() == Dims(0, 0);
  bool b_row = is_rowish(b) || b.dims() == Dims(0, 0);
  bool row_out = op == SetOp::Setdiff ? is_rowish(a) || (a.dims() == Dims(0, 0) && is_rowish(b))
                                      : a_row && b_row && (is_rowish(a) || is_rowish(b));
  if (o.legacy && op != SetOp::Setdiff) {  // a column only when both inputs are columns
    auto col = [](const Value& v) { return v.dims().ndims() == 2 && v.dims().cols() == 1 && v.dims().rows() > 1; };
    row_out = !(col(a) && col(b));
  }
  Value c = take_units(u, reps, !u.rows && row_out);
  // An empty text result beside a 0x0 input is 0x0 ({} or '').
  if (c.is_empty() && (c.is_cell() || c.is_char()) &&
      (a.dims() == Dims(0, 0) || b.dims() == Dims(0, 0)) && op == SetOp::Intersect)
    c = c.is_cell() ? Value(CellArray(Dims(0, 0))) : Value(Tensor::uninit(ClassId::Char, Dims(0, 0)));
  Outputs out{c};
  auto idx = [&](const std::vector<int64_t>& v) {
    Value t(col_index(v));
    return o.legacy && !u.rows && row_out
               ? reshape_value(t, Dims(1, static_cast<int64_t>(v.size())))
               : t;
  };
  if (nargout > 1) out.push_back(idx(ia));
  if (nargout > 2) out.push_back(idx(ib));
  return out;
}

Outputs bi_union(CallContext&, Args args, int nargout) {
  return set_op(args, nargout, SetOp::Union, "union");
}
Outputs bi_intersect(CallContext&, Args args, int nargout) {
  return set_op(args, nargout, SetOp::Intersect, "intersect");
}
Outputs bi_setdiff(CallContext&, Args args, int nargout) {
  return set_op(args, nargout, SetOp::Setdiff, "setdiff");
}

}  // namespace

void register_data_sets(Registry& r) {
  r.add("unique", bi_unique);
  r.add("ismember", bi_ismember);
  r.add("union", bi_union);
  r.add("intersect", bi_intersect);
  r.add("setdiff", bi_setdiff);
}

}  // namespace matfuse::data
