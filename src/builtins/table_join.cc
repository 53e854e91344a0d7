// Joins of two tables on key variables: join (every left row matched to one right row, left
// order kept), innerjoin (matching pairs only), outerjoin (matching pairs plus unmatched rows
// of the left, right or both tables, filled with missing values). innerjoin and outerjoin sort
// their rows by the key values, as MATLAB does. Options: 'Keys', 'LeftKeys', 'RightKeys',
// 'LeftVariables', 'RightVariables'; outerjoin also 'Type' ('full', 'left', 'right') and
// 'MergeKeys'. Variables with the same name in both outputs get the input tables' names as
// suffixes (Key1_Tleft, Key1_Tright; _left / _right for inputs that are not variables).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

#include "builtins/methods.h"
#include "builtins/data_util.h"
#include "builtins/table.h"

namespace matfuse {

using namespace table_detail;

namespace {

struct JoinSpec {
  std::vector<int64_t> lkeys, rkeys, lvars, rvars;
  bool lvars_given = false, rvars_given = false;
  bool merge = false;
  std::string type = "full";
};

JoinSpec parse_join(const TableObject& l, const TableObject& r, Args opts, bool outer,
                    const char* fname) {
  JoinSpec s;
  bool keys_given = false;
  if (opts.size() % 2 != 0)
    throw_error("MATLAB:table:join:InvalidParams", "Name-value arguments must come in pairs.");
  for (size_t i = 0; i < opts.size(); i += 2) {
    if (!opts[i].is_text())
      throw_error("MATLAB:table:join:InvalidParams", "Parameter names must be text.");
    const std::string n = data::lower(opts[i].to_text());
    const Value& v = opts[i + 1];
    if (n == "keys") {
      s.lkeys = var_subscript(l, v);
      s.rkeys = var_subscript(r, v);
      keys_given = true;
    } else if (n == "leftkeys") {
      s.lkeys = var_subscript(l, v);
      keys_given = true;
    } else if (n == "rightkeys") {
      s.rkeys = var_subscript(r, v);
      keys_given = true;
    } else if (n == "leftvariables") {
      s.lvars = var_subscript(l, v);
      s.lvars_given = true;
    } else if (n == "rightvariables") {
      s.rvars = var_subscript(r, v);
      s.rvars_given = true;
    } else if (outer && n == "mergekeys") {
      s.merge = v.truthy();
    } else if (outer && n == "type") {
      s.type = data::lower(v.to_text());
      if (s.type != "full" && s.type != "left" && s.type != "right")
        throw_error("MATLAB:table:join:InvalidType",
                    "Type must be 'full', 'left', or 'right'.");
    } else {
      throw_error("MATLAB:table:join:InvalidParams", "Invalid parameter name: %s.",
                  opts[i].to_text().c_str());
    }
  }
  if (!keys_given) {
    for (int64_t k = 0; k < l.width(); ++k) {
      const int j = r.var_index(l.names[static_cast<size_t>(k)]);
      if (j >= 0) {
        s.lkeys.push_back(k);
        s.rkeys.push_back(j);
      }
    }
    if (s.lkeys.empty())
      throw_error("MATLAB:table:join:CantInferKey",
                  "Cannot find a common table variable to use as a key variable.");
  }
  if (s.lkeys.size() != s.rkeys.size() || s.lkeys.empty())
    throw_error("MATLAB:table:join:UnequalNumKeyVars",
                "The left and right tables must have the same number of key variables.");
  (void)fname;
  return s;
}

std::vector<SortKey> keys_of(const TableObject& t, const std::vector<int64_t>& k) {
  std::vector<SortKey> out;
  for (int64_t v : k) add_sort_keys(t.vars[static_cast<size_t>(v)], t.rows, false, out);
  return out;
}

void check_key_kinds(const std::vector<SortKey>& a, const std::vector<SortKey>& b) {
  bool ok = a.size() == b.size();
  for (size_t i = 0; ok && i < a.size(); ++i) ok = a[i].is_text == b[i].is_text;
  if (!ok)
    throw_error("MATLAB:table:join:KeyVarTypeMismatch",
                "Left and right key variables must have compatible types.");
}

bool any_missing(const std::vector<SortKey>& k, int64_t r) {
  for (const SortKey& s : k)
    if (s.missing[static_cast<size_t>(r)]) return true;
  return false;
}

/// n rows of missing values shaped like variable v (NaN, 0, false, '' cells, <missing>).
Value missing_rows(const Value& v, int64_t n) {
  const int64_t c = var_cols(v);
  if (v.is_cell()) {
    bool cellstr = v.numel() > 0;
    for (const Value& e : v.cell().elems()) cellstr = cellstr && e.is_char();
    CellArray out(Dims(n, c));
    if (cellstr)
      for (int64_t i = 0; i < out.numel(); ++i) out.at(i) = Value::from_chars("");
    return Value(std::move(out));
  }
  if (v.is_string()) {
    StringArray s(Dims(n, c));
    for (int64_t i = 0; i < s.numel(); ++i) s.at(i) = std::nullopt;
    return Value(std::move(s));
  }
  if (v.is_tensor()) {
    Tensor t = Tensor::zeros(v.cls(), Dims(n, c));
    if (v.cls() == ClassId::Char) {
      for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, 32);
    } else if (is_float_class(v.cls())) {
      for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, std::nan(""));
    }
    return Value(std::move(t));
  }
  throw_error("MATLAB:table:join:UnsupportedFill",
              "Unable to fill unmatched rows of a variable of class '%s'.", v.class_name().c_str());
}

/// Rows of v by index, where -1 selects a missing row.
Value rows_or_missing(const Value& v, const std::vector<int64_t>& sel) {
  bool any = false;
  for (int64_t i : sel) any = any || i < 0;
  if (!any) return take_rows(v, sel);
  const int64_t h = var_rows(v);
  const Value parts[2] = {v, missing_rows(v, 1)};
  Value ext = cat_rows(parts);
  std::vector<int64_t> s2(sel);
  for (int64_t& i : s2)
    if (i < 0) i = h;
  return take_rows(ext, s2);
}

/// Output variable names: a name used on both sides gets the suffix _NAME, NAME the input
/// table's variable name in the caller (MATLAB: Key1_Tleft, Key1_Tright), else left / right.
void disambiguate(std::vector<std::string>& left, std::vector<std::string>& right,
                  const std::string& lname, const std::string& rname) {
  for (std::string& a : left) {
    auto it = std::find(right.begin(), right.end(), a);
    if (it == right.end()) continue;
    *it += "_" + (rname.empty() ? std::string("right") : rname);
    a += "_" + (lname.empty() ? std::string("left") : lname);
  }
}

struct Names {
  std::string left, right;
};
Names input_names(CallContext& ctx, Args args) {
  Names n{caller_arg_name(ctx, 0, args.size()), caller_arg_name(ctx, 1, args.size())};
  if (n.left == n.right) n.left.clear(), n.right.clear();
  return n;
}

struct Pairs {
  std::vector<int64_t> li, ri;
};

Outputs join_output(const TableObject& l, const TableObject& r, const JoinSpec& s,
                    const Pairs& p, bool outer, int nargout, const Names& inputs) {
  std::vector<int64_t> lv = s.lvars, rv = s.rvars;
  if (!s.lvars_given) {
    lv.resize(static_cast<size_t>(l.width()));
    std::iota(lv.begin(), lv.end(), 0);
  }
  if (!s.rvars_given) {
    rv.clear();
    for (int64_t k = 0; k < r.width(); ++k)
      if (outer || std::find(s.rkeys.begin(), s.rkeys.end(), k) == s.rkeys.end()) rv.push_back(k);
  }
  const int64_t n = static_cast<int64_t>(p.li.size());
  auto out = std::make_shared<TableObject>();
  out->rows = n;
  std::vector<std::string> ln, rn;
  std::vector<Value> lvals, rvals;
  for (int64_t k : lv) {
    const size_t ks = static_cast<size_t>(k);
    Value col = rows_or_missing(l.vars[ks], p.li);
    auto kp = std::find(s.lkeys.begin(), s.lkeys.end(), k);
    if (outer && s.merge && kp != s.lkeys.end()) {
      // Merged key: the left value, or the right one where the row has no left match.
      const size_t q = static_cast<size_t>(kp - s.lkeys.begin());
      Value rcol = rows_or_missing(r.vars[static_cast<size_t>(s.rkeys[q])], p.ri);
      std::vector<int64_t> pick;
      const Value parts[2] = {col, rcol};
      Value both = cat_rows(parts);
      for (int64_t i = 0; i < n; ++i) pick.push_back(p.li[static_cast<size_t>(i)] >= 0 ? i : n + i);
      col = take_rows(both, pick);
      ln.push_back(l.names[ks]);
    } else {
      ln.push_back(l.names[ks]);
    }
    lvals.push_back(col);
  }
  for (int64_t k : rv) {
    if (outer && s.merge && std::find(s.rkeys.begin(), s.rkeys.end(), k) != s.rkeys.end()) continue;
    rn.push_back(r.names[static_cast<size_t>(k)]);
    rvals.push_back(rows_or_missing(r.vars[static_cast<size_t>(k)], p.ri));
  }
  disambiguate(ln, rn, inputs.left, inputs.right);
  for (size_t i = 0; i < ln.size(); ++i) out->add_var(ln[i], lvals[i]);
  for (size_t i = 0; i < rn.size(); ++i) out->add_var(rn[i], rvals[i]);
  Outputs res{table_value(out)};
  auto index_col = [&](const std::vector<int64_t>& v) {
    Tensor t = Tensor::uninit(ClassId::Double, Dims(n, 1));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t x = v[static_cast<size_t>(i)];
      t.set_double(i, x < 0 ? 0.0 : static_cast<double>(x + 1));
    }
    return Value(std::move(t));
  };
  if (nargout > 1) res.push_back(index_col(p.li));
  if (nargout > 2) res.push_back(index_col(p.ri));
  return res;
}

/// Matching (left, right) row pairs, and which rows of each side matched.
Pairs match(const std::vector<SortKey>& lk, int64_t nl, const std::vector<SortKey>& rk, int64_t nr,
            std::vector<char>& lm, std::vector<char>& rm) {
  Pairs p;
  lm.assign(static_cast<size_t>(nl), 0);
  rm.assign(static_cast<size_t>(nr), 0);
  std::vector<int64_t> ro(static_cast<size_t>(nr));
  std::iota(ro.begin(), ro.end(), 0);
  std::stable_sort(ro.begin(), ro.end(),
                   [&](int64_t a, int64_t b) { return compare_key_rows(rk, a, rk, b) < 0; });
  for (int64_t i = 0; i < nl; ++i) {
    if (any_missing(lk, i)) continue;
    auto lo = std::lower_bound(ro.begin(), ro.end(), i, [&](int64_t rr, int64_t li) {
      return compare_key_rows(rk, rr, lk, li) < 0;
    });
    for (auto it = lo; it != ro.end() && compare_key_rows(rk, *it, lk, i) == 0; ++it) {
      if (any_missing(rk, *it)) continue;
      p.li.push_back(i);
      p.ri.push_back(*it);
      lm[static_cast<size_t>(i)] = 1;
      rm[static_cast<size_t>(*it)] = 1;
    }
  }
  return p;
}

/// [T, ileft, iright] = innerjoin(Tleft, Tright, Name, Value).
Outputs bi_innerjoin(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 3);
  if (args.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const TableObject& l = table_arg(args[0], "innerjoin");
  const TableObject& r = table_arg(args[1], "innerjoin");
  JoinSpec s = parse_join(l, r, args.subspan(2), false, "innerjoin");
  std::vector<SortKey> lk = keys_of(l, s.lkeys), rk = keys_of(r, s.rkeys);
  check_key_kinds(lk, rk);
  std::vector<char> lm, rm;
  Pairs p = match(lk, l.rows, rk, r.rows, lm, rm);
  // Sorted by key, then left row, then right row.
  std::vector<size_t> o(p.li.size());
  std::iota(o.begin(), o.end(), 0);
  std::stable_sort(o.begin(), o.end(), [&](size_t a, size_t b) {
    const int c = compare_key_rows(lk, p.li[a], lk, p.li[b]);
    return c != 0 ? c < 0 : p.li[a] < p.li[b];
  });
  Pairs q;
  for (size_t i : o) {
    q.li.push_back(p.li[i]);
    q.ri.push_back(p.ri[i]);
  }
  return join_output(l, r, s, q, false, nargout, input_names(ctx, args));
}

/// [T, ileft, iright] = outerjoin(Tleft, Tright, Name, Value): missing values fill the
/// variables of the side a row has no match in; ileft/iright are 0 there.
Outputs bi_outerjoin(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 3);
  if (args.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const TableObject& l = table_arg(args[0], "outerjoin");
  const TableObject& r = table_arg(args[1], "outerjoin");
  JoinSpec s = parse_join(l, r, args.subspan(2), true, "outerjoin");
  std::vector<SortKey> lk = keys_of(l, s.lkeys), rk = keys_of(r, s.rkeys);
  check_key_kinds(lk, rk);
  std::vector<char> lm, rm;
  Pairs p = match(lk, l.rows, rk, r.rows, lm, rm);
  if (s.type != "right")
    for (int64_t i = 0; i < l.rows; ++i)
      if (!lm[static_cast<size_t>(i)]) {
        p.li.push_back(i);
        p.ri.push_back(-1);
      }
  if (s.type != "left")
    for (int64_t i = 0; i < r.rows; ++i)
      if (!rm[static_cast<size_t>(i)]) {
        p.li.push_back(-1);
        p.ri.push_back(i);
      }
  // Sorted by the key of each row (from whichever side it has).
  auto cmp = [&](size_t a, size_t b) {
    const bool la = p.li[a] >= 0, lb = p.li[b] >= 0;
    const int c = compare_key_rows(la ? lk : rk, la ? p.li[a] : p.ri[a], lb ? lk : rk,
                                   lb ? p.li[b] : p.ri[b]);
    if (c != 0) return c < 0;
    if (la != lb) return la;
    return la ? p.li[a] < p.li[b] : p.ri[a] < p.ri[b];
  };
  std::vector<size_t> o(p.li.size());
  std::iota(o.begin(), o.end(), 0);
  std::stable_sort(o.begin(), o.end(), cmp);
  Pairs q;
  for (size_t i : o) {
    q.li.push_back(p.li[i]);
    q.ri.push_back(p.ri[i]);
  }
  return join_output(l, r, s, q, true, nargout, input_names(ctx, args));
}

/// T = join(Tleft, Tright, Name, Value): Tleft with the nonkey variables of Tright whose keys
/// match each row; every left key must occur in Tright exactly once.
Outputs table_join(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 3);
  if (args.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const TableObject& l = table_arg(args[0], "join");
  const TableObject& r = table_arg(args[1], "join");
  JoinSpec s = parse_join(l, r, args.subspan(2), false, "join");
  std::vector<SortKey> lk = keys_of(l, s.lkeys), rk = keys_of(r, s.rkeys);
  check_key_kinds(lk, rk);
  for (int64_t a = 0; a < r.rows; ++a)
    for (int64_t b = a + 1; b < r.rows; ++b)
      if (compare_key_rows(rk, a, rk, b) == 0)
        throw_error("MATLAB:table:join:DuplicateRightKeyVarValues",
                    "The key variables for the right table must have unique values.");
  Pairs p;
  for (int64_t i = 0; i < l.rows; ++i) {
    int64_t found = -1;
    for (int64_t j = 0; j < r.rows && found < 0; ++j)
      if (!any_missing(lk, i) && compare_key_rows(lk, i, rk, j) == 0) found = j;
    if (found < 0)
      throw_error("MATLAB:table:join:LeftKeyValueNotFound",
                  "The key variables for the right table must contain all values in the key "
                  "variables for the left table.");
    p.li.push_back(i);
    p.ri.push_back(found);
  }
  Outputs out = join_output(l, r, s, p, false, nargout, input_names(ctx, args));
  if (!l.row_names.empty()) as_table(out[0])->row_names = l.row_names;
  return out;
}

}  // namespace

namespace table_detail {

void register_table_join(Registry& r) {
  r.add("innerjoin", bi_innerjoin);
  r.add("outerjoin", bi_outerjoin);
  add_class_method("table", "join", table_join);
}

}  // namespace table_detail

}  // namespace matfuse
