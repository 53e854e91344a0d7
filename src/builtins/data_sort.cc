// sort, sortrows and issorted (MATLAB semantics).
//
// sort: stable; NaN (and <missing>) placed last for 'ascend' and first for 'descend' unless
// 'MissingPlacement' says otherwise; complex values ordered by abs, then angle ('ComparisonMethod'
// 'abs' / 'real' select the other orders, also for real input); cell arrays of char vectors and
// string arrays sort by code point. The index output gives positions along the sorted dimension.
// sortrows: lexicographic, stable, column spec with negative entries for descending columns.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "accel/capture/capture.h"
#include "accel/run/indexing.h"
#include "builtins/data_util.h"
#include "builtins/shape_util.h"
#include "builtins/sort_kernels.h"

namespace matfuse::data {
namespace {

enum class Missing { Auto, First, Last };

struct SortOpts {
  bool descend = false;
  CompareMethod method = CompareMethod::Auto;
  Missing missing = Missing::Auto;
};

[[noreturn]] void bad_direction(const char* fname) {
  throw_error(fname[4] == 'r' ? "MATLAB:sortrows:sortDirection" : "MATLAB:sort:sortDirection",
              "Sorting direction must be 'ascend' or 'descend'.");
}

/// Parses direction and name-value options from args[i...]. Returns true when text was
/// consumed. Name-value pairs: ComparisonMethod, MissingPlacement.
bool parse_sort_text(Args args, size_t& i, SortOpts& o, const char* fname) {
  if (!args[i].is_text()) return false;
  std::string s = lower(args[i].to_text());
  if (s == "ascend" || s == "descend") {
    o.descend = s == "descend";
    return true;
  }
  if (s == "comparisonmethod" || s == "missingplacement") {
    if (i + 1 >= args.size() || !args[i + 1].is_text())
      throw_error("MATLAB:sort:InvalidNameValue", "Name-value arguments must come in pairs.");
    std::string v = lower(args[++i].to_text());
    if (s == "comparisonmethod") {
      if (v == "auto") o.method = CompareMethod::Auto;
      else if (v == "abs") o.method = CompareMethod::Abs;
      else if (v == "real") o.method = CompareMethod::Real;
      else
        throw_error("MATLAB:sort:InvalidComparisonMethod",
                    "'ComparisonMethod' value must be 'auto', 'real', or 'abs'.");
    } else {
      if (v == "auto") o.missing = Missing::Auto;
      else if (v == "first") o.missing = Missing::First;
      else if (v == "last") o.missing = Missing::Last;
      else
        throw_error("MATLAB:sort:InvalidMissingPlacement",
                    "'MissingPlacement' value must be 'auto', 'first', or 'last'.");
    }
    return true;
  }
  bad_direction(fname);
}

/// Sorts positions pos (linear indices) by keys; stable, NaN placement per options.
void sort_positions(std::vector<int64_t>& pos, const Keys& k, const SortOpts& o) {
  std::vector<int64_t> nans;
  std::vector<int64_t> vals;
  for (int64_t p : pos) (k.nan[p] ? nans : vals).push_back(p);
  if (o.descend)
    std::stable_sort(vals.begin(), vals.end(), [&](int64_t x, int64_t y) { return k.cmp(x, y) > 0; });
  else
    std::stable_sort(vals.begin(), vals.end(), [&](int64_t x, int64_t y) { return k.cmp(x, y) < 0; });
  bool nan_first = o.missing == Missing::First || (o.missing == Missing::Auto && o.descend);
  pos.clear();
  if (nan_first) pos.insert(pos.end(), nans.begin(), nans.end());
  pos.insert(pos.end(), vals.begin(), vals.end());
  if (!nan_first) pos.insert(pos.end(), nans.begin(), nans.end());
}

Outputs bi_sort(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 7);
  check_nargout(nargout, 2);
  const Value& a = args[0];
  if (a.is_cell() && !is_cellstr(a))
    throw_error("MATLAB:sort:InputType",
                "Only cell arrays of character vectors are supported for sort.");
  if (!a.is_tensor() && !a.is_cell() && !a.is_string())
    throw_error("MATLAB:UndefinedFunction",
                "Undefined function 'sort' for input arguments of type '%s'.",
                a.class_name().c_str());
  SortOpts o;
  bool has_dim = false;
  int dim = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    if (parse_sort_text(args, i, o, "sort")) continue;
    if (i != 1) bad_direction("sort");
    dim = dim_arg(args[i]);
    has_dim = true;
  }
  Dims d = a.dims();
  if (!has_dim) dim = first_nonsingleton_dim(d);
  Lanes L = lanes_of(d, dim);
  if (a.is_tensor() && !a.tensor().is_complex() && o.method != CompareMethod::Abs) {
    // Real numeric, logical or char: radix sort per lane (sort_kernels.h), same order.
    Tensor x = a.tensor();
    bool nan_first = o.missing == Missing::First || (o.missing == Missing::Auto && o.descend);
    // Contiguous lanes of a device-resident array sort on the device (same order); the rows
    // of a matrix (dim 2) as the columns of its transpose, transposed back.
    if (L.pre == 1 && d.numel() > 0)
      if (auto r = accel::device_sort(x, L.post, L.n, o.descend, nan_first, nargout > 1)) {
        Outputs out{Value(std::move(r->values))};
        if (nargout > 1) out.push_back(Value(std::move(r->index)));
        return out;
      }
    if (L.pre > 1 && L.post == 1 && d.ndims() == 2 && L.n > 1 && !x.is_lazy() &&
        x.storage()->device())
      if (std::optional<Tensor> xt = accel::capture_transpose(x, false))
        if (auto r = accel::device_sort(*xt, L.pre, L.n, o.descend, nan_first, nargout > 1)) {
          std::optional<Tensor> v = accel::capture_transpose(r->values, false);
          std::optional<Tensor> ix =
              nargout > 1 ? accel::capture_transpose(r->index, false) : std::optional<Tensor>(Tensor());
          if (v && ix) {
            Outputs out{Value(std::move(*v))};
            if (nargout > 1) out.push_back(Value(std::move(*ix)));
            return out;
          }
        }
    Tensor s = Tensor::uninit(x.cls(), d);
    Tensor ix = nargout > 1 ? Tensor::uninit(ClassId::Double, d) : Tensor();
    dispatch_class(x.cls(), [&](auto tag) {
      using T = decltype(tag);
      const T* src = x.data<T>();
      T* dst = s.mutable_data<T>();
      double* ip = nargout > 1 ? ix.mutable_data<double>() : nullptr;
      std::unique_ptr<T[]> lane(new T[L.pre > 1 ? static_cast<size_t>(L.n) : 1]);
      std::vector<int64_t> pos(ip ? static_cast<size_t>(L.n) : 0);
      for (int64_t b = 0; b < L.post; ++b)
        for (int64_t i = 0; i < L.pre; ++i) {
          const T* base = src + b * L.n * L.pre + i;
          T* lo = L.pre > 1 ? lane.get() : dst + b * L.n;
          fast::sort_lane<T>(base, L.n, L.pre, o.descend, nan_first, lo, ip ? pos.data() : nullptr);
          for (int64_t j = 0; j < L.n; ++j) {
            int64_t at = (b * L.n + j) * L.pre + i;
            if (L.pre > 1) dst[at] = lane[j];
            if (ip) ip[at] = static_cast<double>(pos[j] + 1);
          }
        }
    });
    Outputs out{Value(std::move(s))};
    if (nargout > 1) out.push_back(Value(std::move(ix)));
    return out;
  }
  Keys k = make_keys(a, "sort", a.is_tensor() ? o.method : CompareMethod::Auto);
  std::vector<int64_t> perm(static_cast<size_t>(d.numel()));
  std::vector<double> index(nargout > 1 ? perm.size() : 0);
  std::vector<int64_t> pos(static_cast<size_t>(L.n));
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) {
      for (int64_t j = 0; j < L.n; ++j) pos[j] = (b * L.n + j) * L.pre + i;
      sort_positions(pos, k, o);
      for (int64_t j = 0; j < L.n; ++j) {
        int64_t dst = (b * L.n + j) * L.pre + i;
        perm[dst] = pos[j];
        if (nargout > 1) index[dst] = static_cast<double>((pos[j] - i) / L.pre - b * L.n + 1);
      }
    }
  Outputs out{gather_elements(a, d, perm)};
  if (nargout > 1) out.push_back(Value(double_tensor(index, d)));
  return out;
}

Outputs sortrows_impl(Args args, int nargout) {
  check_nargin(args, 1, 6);
  check_nargout(nargout, 2);
  const Value& a = args[0];
  Dims d = a.dims();
  if (d.ndims() > 2)
    throw_error("MATLAB:sortrows:inputDimensionMismatch", "A must be a 2-D matrix.");
  if (a.is_cell() && !is_cellstr(a))
    throw_error("MATLAB:sortrows:InputType",
                "Only cell arrays of character vectors are supported for sortrows.");
  int64_t m = d.rows(), nc = d.cols();
  std::vector<int64_t> cols;
  std::vector<bool> desc;
  SortOpts o;
  bool dir_given = false;
  std::vector<int> dirs;  // per-column directions from a cell array
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i].is_cell()) {
      for (const Value& e : args[i].cell().elems()) {
        if (is_option(e, "ascend")) dirs.push_back(0);
        else if (is_option(e, "descend")) dirs.push_back(1);
        else bad_direction("sortrows");
      }
      continue;
    }
    if (args[i].is_text()) {
      parse_sort_text(args, i, o, "sortrows");
      if (is_option(args[i], "ascend") || is_option(args[i], "descend")) dir_given = true;
      continue;
    }
    if (i != 1) bad_direction("sortrows");
    Tensor c = numeric_arg(args[i], "sortrows");
    for (int64_t j = 0; j < c.numel(); ++j) {
      double v = c.get_double(j);
      if (v == 0 || v != std::floor(v) || std::fabs(v) > static_cast<double>(nc))
        throw_error("MATLAB:sortrows:ColOutOfRange",
                    "Column sorting vector must contain integers with absolute value between 1 "
                    "and the number of columns in the first argument.");
      cols.push_back(static_cast<int64_t>(std::fabs(v)) - 1);
      desc.push_back(v < 0);
    }
  }
  bool explicit_cols = !cols.empty();
  if (!explicit_cols)
    for (int64_t c = 0; c < nc; ++c) {
      cols.push_back(c);
      desc.push_back(false);
    }
  if (!dirs.empty()) {
    if (dirs.size() != cols.size())
      throw_error("MATLAB:sortrows:sortDirectionLength",
                  "Sorting direction must be a single direction or one per sorted column.");
    for (size_t c = 0; c < cols.size(); ++c) desc[c] = dirs[c] != 0;
  } else if (dir_given && o.descend) {
    for (size_t c = 0; c < cols.size(); ++c) desc[c] = true;
  }
  std::vector<int64_t> rows(static_cast<size_t>(m));
  std::iota(rows.begin(), rows.end(), 0);
  if (a.is_tensor() && !a.tensor().is_complex() && o.method != CompareMethod::Abs) {
    // Real matrix: least significant column first, each pass a stable radix sort of that
    // column's values in the current row order (so ties keep the order of later columns).
    Tensor x = a.tensor();
    dispatch_class(x.cls(), [&](auto tag) {
      using T = decltype(tag);
      const T* src = x.data<T>();
      std::unique_ptr<T[]> col(new T[static_cast<size_t>(std::max<int64_t>(m, 1))]);
      std::vector<int64_t> ord(static_cast<size_t>(m)), next(static_cast<size_t>(m));
      for (size_t c = cols.size(); c-- > 0;) {
        const T* cp = src + cols[c] * m;
        for (int64_t r = 0; r < m; ++r) col[r] = cp[rows[r]];
        bool nan_first = o.missing == Missing::First || (o.missing == Missing::Auto && desc[c]);
        fast::sort_lane<T>(col.get(), m, 1, desc[c], nan_first, nullptr, ord.data());
        for (int64_t r = 0; r < m; ++r) next[r] = rows[ord[r]];
        rows.swap(next);
      }
    });
  } else {
    Keys k = make_keys(a, "sortrows", a.is_tensor() ? o.method : CompareMethod::Auto);
    std::stable_sort(rows.begin(), rows.end(), [&](int64_t x, int64_t y) {
      for (size_t c = 0; c < cols.size(); ++c) {
        int64_t px = cols[c] * m + x, py = cols[c] * m + y;
        int r = k.cmp(px, py);
        if (r == 0) continue;
        bool nx = k.nan[px], ny = k.nan[py];
        if (nx || ny) {  // missing placement per column
          bool first = o.missing == Missing::First || (o.missing == Missing::Auto && desc[c]);
          return first ? nx : ny;
        }
        return desc[c] ? r > 0 : r < 0;
      }
      return false;
    });
  }
  std::vector<int64_t> perm(static_cast<size_t>(d.numel()));
  for (int64_t c = 0; c < nc; ++c)
    for (int64_t r = 0; r < m; ++r) perm[c * m + r] = c * m + rows[r];
  Outputs out{gather_elements(a, d, perm)};
  if (nargout > 1) out.push_back(Value(index_tensor(rows, Dims(m, 1))));
  return out;
}

Outputs bi_sortrows(CallContext&, Args args, int nargout) { return sortrows_impl(args, nargout); }

Outputs bi_issorted(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  // 'strictascend' / 'strictdescend' / 'monotonic' / 'strictmonotonic' (MATLAB R2017a):
  // taken out here, the rest parsed as before.
  std::vector<Value> kept;
  bool strict = false, monotonic = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string t = i > 0 && args[i].is_text() ? lower(args[i].to_text()) : "";
    if (t == "strictascend" || t == "strictdescend" || t == "monotonic" ||
        t == "strictmonotonic") {
      strict = t.compare(0, 6, "strict") == 0;
      monotonic = t.find("monotonic") != std::string::npos;
      if (t == "strictdescend") kept.push_back(Value::from_chars("descend"));
      continue;
    }
    kept.push_back(args[i]);
  }
  if (strict || monotonic) {
    if (monotonic) {  // sorted either way (checked as ascend, then as descend)
      std::vector<Value> a1 = kept, a2 = kept;
      a2.push_back(Value::from_chars("descend"));
      if (strict) {
        a1.push_back(Value::from_chars("strictascend"));
        a2.back() = Value::from_chars("strictdescend");
      }
      Value r1 = bi_issorted(ctx, Args(a1.data(), a1.size()), 1)[0];
      if (r1.truthy()) return {r1};
      return bi_issorted(ctx, Args(a2.data(), a2.size()), 1);
    }
    // Strict: sorted, and no two neighbours along the lanes equal (NaN ends never compare).
    Value r = bi_issorted(ctx, Args(kept.data(), kept.size()), 1)[0];
    if (!r.truthy()) return {r};
    const Value& a = kept[0];
    if (a.is_tensor()) {
      Tensor t = a.tensor();
      int dim = first_nonsingleton_dim(a.dims());
      for (size_t i = 1; i < kept.size(); ++i)
        if (!kept[i].is_text()) dim = dim_arg(kept[i]);
      Lanes L = lanes_of(a.dims(), dim);
      for (int64_t b = 0; b < L.post; ++b)
        for (int64_t i = 0; i < L.pre; ++i)
          for (int64_t j = 1; j < L.n; ++j)
            if (t.get_complex((b * L.n + j - 1) * L.pre + i) == t.get_complex((b * L.n + j) * L.pre + i))
              return {Value::logical(false)};
    }
    return {Value::logical(true)};
  }
  args = Args(kept.data(), kept.size());
  const Value& a = args[0];
  bool rows = false;
  SortOpts o;
  bool has_dim = false;
  int dim = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    if (is_option(args[i], "rows")) { rows = true; continue; }
    if (!parse_sort_text(args, i, o, "issorted")) {
      dim = dim_arg(args[i]);
      has_dim = true;
    }
  }
  if (rows) {
    Value r = sortrows_impl(args.first(1), 2)[1];
    Tensor t = r.tensor();
    for (int64_t i = 0; i < t.numel(); ++i)
      if (t.get_double(i) != static_cast<double>(i + 1)) return {Value::logical(false)};
    return {Value::logical(true)};
  }
  // Sorted when every lane along dim (default: the first non-singleton one) is sorted.
  if (!has_dim) dim = first_nonsingleton_dim(a.dims());
  Keys k = make_keys(a, "issorted", a.is_tensor() ? o.method : CompareMethod::Auto);
  Lanes L = lanes_of(a.dims(), dim);
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i)
      for (int64_t j = 1; j < L.n; ++j) {
        int c = k.cmp((b * L.n + j - 1) * L.pre + i, (b * L.n + j) * L.pre + i);
        if (o.descend ? c < 0 : c > 0) return {Value::logical(false)};
      }
  return {Value::logical(true)};
}

}  // namespace

void register_data_sort(Registry& r) {
  r.add("sort", bi_sort);
  r.add("sortrows", bi_sortrows);
  r.add("issorted", bi_issorted);
}

}  // namespace matfuse::data
