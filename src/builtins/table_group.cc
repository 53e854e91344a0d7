// Grouped and per-variable computations on tables: groupsummary, varfun, rowfun.
//
// Groups are the distinct combinations of the grouping variables' values, in sorted order
// (numbers ascending, text in code-unit order, missing values last), as MATLAB lists them.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

#include "builtins/construct.h"
#include "builtins/data_util.h"
#include "builtins/table.h"

namespace matfuse {

using namespace table_detail;

namespace {

/// The groups of rows of t by the variables gv: first row of each group and its members.
struct Groups {
  std::vector<int64_t> first;
  std::vector<std::vector<int64_t>> members;
};

Groups make_groups(const TableObject& t, const std::vector<int64_t>& gv) {
  std::vector<SortKey> keys;
  for (int64_t k : gv) add_sort_keys(t.vars[static_cast<size_t>(k)], t.rows, false, keys);
  std::vector<int64_t> order(static_cast<size_t>(t.rows));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return compare_key_rows(keys, a, keys, b) < 0; });
  Groups g;
  for (int64_t r : order) {
    if (g.first.empty() || compare_key_rows(keys, g.first.back(), keys, r) != 0) {
      g.first.push_back(r);
      g.members.emplace_back();
    }
    g.members.back().push_back(r);
  }
  return g;
}

std::string fn_name(const Value& f) {
  if (f.is_function()) {
    std::string n = f.function()->name();
    return n.empty() ? "Fun" : n;
  }
  return f.is_text() ? f.to_text() : "Fun";
}

/// One value from a call (the first output).
Value call1(CallContext& ctx, const Value& fn, std::vector<Value> args) {
  Outputs o = fn.is_function() ? ctx.call(fn, Args(args.data(), args.size()), 1)
                               : ctx.call_named(fn.to_text(), Args(args.data(), args.size()), 1);
  if (o.empty())
    throw_error("MATLAB:table:FunctionNoOutput", "The function returned no output.");
  return o[0];
}

/// The group-wise result of one method on one variable's rows x (a k-by-c array): 1-by-c.
Value apply_method(CallContext& ctx, const std::string& m, const Value& fn, const Value& x,
                   const std::string& var) {
  if (fn.is_function()) return call1(ctx, fn, {x});
  if (!x.is_tensor() || x.is_char())
    throw_error("MATLAB:groupsummary:InvalidMethodForDataVar",
                "Unable to apply method '%s' to data variable %s.", m.c_str(), var.c_str());
  const Value one(1.0);
  if (m == "mean" || m == "sum" || m == "median" || m == "mode") return call1(ctx, Value::from_chars(m), {x, one});
  if (m == "min" || m == "max") return call1(ctx, Value::from_chars(m), {x, Value(), one});
  if (m == "var" || m == "std") return call1(ctx, Value::from_chars(m), {x, Value(0.0), one});
  if (m == "range") {
    Value hi = call1(ctx, Value::from_chars("max"), {x, Value(), one});
    Value lo = call1(ctx, Value::from_chars("min"), {x, Value(), one});
    return call1(ctx, Value::from_chars("minus"), {hi, lo});
  }
  if (m == "nnz" || m == "nummissing") {
    Tensor t = x.tensor();
    const int64_t k = var_rows(x), c = var_cols(x);
    Tensor r = Tensor::zeros(ClassId::Double, Dims(1, c));
    for (int64_t j = 0; j < c; ++j) {
      double n = 0;
      for (int64_t i = 0; i < k; ++i) {
        const double v = t.get_double(j * k + i);
        n += m == "nnz" ? (v != 0 && !std::isnan(v)) : std::isnan(v);
      }
      r.set_double(j, n);
    }
    return Value(std::move(r));
  }
  throw_error("MATLAB:groupsummary:InvalidMethodOption",
              "Invalid method '%s'. Methods must be one of 'mean', 'sum', 'min', 'max', "
              "'range', 'median', 'mode', 'var', 'std', 'nnz', 'nummissing', or function "
              "handles.", m.c_str());
}

/// G = groupsummary(T, groupvars[, method[, datavars]]): one row per group (the grouping
/// variables' values), GroupCount, then method_var for each data variable and method (data
/// variables default to every nongrouping variable). method: a name ('mean', 'sum', 'min',
/// 'max', 'range', 'median', 'mode', 'var', 'std', 'nnz', 'nummissing'), a function handle
/// (named fun1_var, fun2_var, ...), or a cell or string array of these.
Outputs bi_groupsummary(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const TableObject& t = table_arg(args[0], "groupsummary");
  const std::vector<int64_t> gv = var_subscript(t, args[1]);
  std::vector<std::pair<std::string, Value>> methods;  // (prefix, handle or [])
  int nfun = 0;
  if (args.size() > 2) {
    auto add = [&](const Value& m) {
      if (m.is_function()) methods.push_back({"fun" + std::to_string(++nfun), m});
      else methods.push_back({data::lower(m.to_text("method")), Value()});
    };
    const Value& m = args[2];
    if (m.is_cell()) {
      for (const Value& e : m.cell().elems()) add(e);
    } else if (m.is_string()) {
      for (const auto& s : m.string_array().elems()) methods.push_back({data::lower(s.value_or("")), Value()});
    } else {
      add(m);
    }
  }
  std::vector<int64_t> dv;
  if (args.size() > 3) {
    dv = var_subscript(t, args[3]);
  } else if (!methods.empty()) {
    for (int64_t k = 0; k < t.width(); ++k)
      if (std::find(gv.begin(), gv.end(), k) == gv.end()) dv.push_back(k);
  }
  if (args.size() > 4)
    throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
  Groups g = make_groups(t, gv);
  const int64_t ng = static_cast<int64_t>(g.first.size());
  auto out = std::make_shared<TableObject>();
  out->rows = ng;
  for (int64_t k : gv)
    out->add_var(t.names[static_cast<size_t>(k)], take_rows(t.vars[static_cast<size_t>(k)], g.first));
  Tensor cnt = Tensor::uninit(ClassId::Double, Dims(ng, 1));
  for (int64_t i = 0; i < ng; ++i)
    cnt.set_double(i, static_cast<double>(g.members[static_cast<size_t>(i)].size()));
  out->add_var("GroupCount", Value(std::move(cnt)));
  for (int64_t k : dv) {
    const Value& v = t.vars[static_cast<size_t>(k)];
    const std::string& vn = t.names[static_cast<size_t>(k)];
    for (const auto& [prefix, fn] : methods) {
      std::vector<Value> per;
      for (const auto& mem : g.members) per.push_back(apply_method(ctx, prefix, fn, take_rows(v, mem), vn));
      out->add_var(prefix + "_" + vn, cat_rows(per));
    }
  }
  return {table_value(out)};
}

/// Parses trailing name-value options of varfun / rowfun into a lower-case map.
std::vector<std::pair<std::string, Value>> options(Args a, const char* fname) {
  if (a.size() % 2 != 0)
    throw_error("MATLAB:table:InvalidParams", "%s: name-value arguments must come in pairs.", fname);
  std::vector<std::pair<std::string, Value>> o;
  for (size_t i = 0; i < a.size(); i += 2) o.push_back({data::lower(a[i].to_text("parameter name")), a[i + 1]});
  return o;
}

/// B = varfun(func, T, Name, Value): func applied to each variable (options 'InputVariables',
/// 'GroupingVariables', 'OutputFormat' 'table' | 'uniform' | 'cell'). Output variables are
/// named Fun_Var (Fun the function's name, "Fun" for an anonymous function); with grouping
/// variables, the output has one row per group with GroupCount.
Outputs bi_varfun(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const Value& fn = args[0];
  const TableObject& t = table_arg(args[1], "varfun");
  std::vector<int64_t> in, gv;
  bool in_given = false;
  std::string fmt = "table";
  for (auto& [k, v] : options(args.subspan(2), "varfun")) {
    if (k == "inputvariables") {
      in = var_subscript(t, v);
      in_given = true;
    } else if (k == "groupingvariables") gv = var_subscript(t, v);
    else if (k == "outputformat") fmt = data::lower(v.to_text());
    else throw_error("MATLAB:table:InvalidParams", "Invalid parameter name: %s.", k.c_str());
  }
  if (!in_given)
    for (int64_t k = 0; k < t.width(); ++k)
      if (std::find(gv.begin(), gv.end(), k) == gv.end()) in.push_back(k);
  const std::string fname = fn_name(fn);
  std::vector<std::vector<int64_t>> groups;
  std::vector<int64_t> firsts;
  if (gv.empty()) {
    std::vector<int64_t> all(static_cast<size_t>(t.rows));
    std::iota(all.begin(), all.end(), 0);
    groups.push_back(all);
  } else {
    Groups g = make_groups(t, gv);
    groups = g.members;
    firsts = g.first;
  }
  std::vector<std::vector<Value>> res(in.size());
  for (size_t j = 0; j < in.size(); ++j)
    for (const auto& mem : groups)
      res[j].push_back(call1(ctx, fn, {take_rows(t.vars[static_cast<size_t>(in[j])], mem)}));
  if (fmt == "cell") {
    CellArray c(Dims(static_cast<int64_t>(groups.size()), static_cast<int64_t>(in.size())));
    for (size_t j = 0; j < in.size(); ++j)
      for (size_t i = 0; i < groups.size(); ++i)
        c.at(static_cast<int64_t>(j * groups.size() + i)) = res[j][i];
    return {Value(std::move(c))};
  }
  if (fmt == "uniform") {
    std::vector<Value> cols;
    for (auto& r : res) {
      for (const Value& v : r)
        if (v.numel() != 1)
          throw_error("MATLAB:table:varfun:NotAScalarOutput",
                      "The function must return a scalar when 'OutputFormat' is 'uniform'.");
      cols.push_back(cat_rows(r));
    }
    return {cols.empty() ? Value() : horzcat(cols)};
  }
  auto out = std::make_shared<TableObject>();
  out->rows = static_cast<int64_t>(groups.size());
  if (!gv.empty()) {
    for (int64_t k : gv)
      out->add_var(t.names[static_cast<size_t>(k)], take_rows(t.vars[static_cast<size_t>(k)], firsts));
    Tensor cnt = Tensor::uninit(ClassId::Double, Dims(out->rows, 1));
    for (int64_t i = 0; i < out->rows; ++i)
      cnt.set_double(i, static_cast<double>(groups[static_cast<size_t>(i)].size()));
    out->add_var("GroupCount", Value(std::move(cnt)));
  }
  for (size_t j = 0; j < in.size(); ++j) {
    Value col = cat_rows(res[j]);
    if (gv.empty() && var_rows(col) != 1 && res[j].size() == 1) {
      // An ungrouped function of a whole variable: its result is the variable (one row per
      // table row when it keeps the height, else one row).
      col = res[j][0];
      out->rows = var_rows(col);
    }
    out->add_var(fname + "_" + t.names[static_cast<size_t>(in[j])], col);
  }
  for (const Value& v : out->vars)
    if (var_rows(v) != out->rows)
      throw_error("MATLAB:table:varfun:OutputRowsMismatch",
                  "The function outputs must all have the same number of rows.");
  return {table_value(out)};
}

/// B = rowfun(func, T, Name, Value): func called once per row with the row's variables as
/// arguments (a cell variable passes its 1x1 cell unless 'ExtractCellContents' is true).
/// Options 'InputVariables', 'OutputVariableNames', 'NumOutputs', 'OutputFormat' ('table',
/// 'uniform', 'cell'), 'ExtractCellContents'. Default output names Var1, Var2, ...
Outputs bi_rowfun(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const Value& fn = args[0];
  const TableObject& t = table_arg(args[1], "rowfun");
  std::vector<int64_t> in(static_cast<size_t>(t.width()));
  std::iota(in.begin(), in.end(), 0);
  std::vector<std::string> out_names;
  int nout = -1;
  bool extract = false;
  std::string fmt = "table";
  for (auto& [k, v] : options(args.subspan(2), "rowfun")) {
    if (k == "inputvariables") in = var_subscript(t, v);
    else if (k == "outputvariablenames") out_names = text_list(v, "OutputVariableNames");
    else if (k == "numoutputs") nout = static_cast<int>(v.to_index("NumOutputs"));
    else if (k == "outputformat") fmt = data::lower(v.to_text());
    else if (k == "extractcellcontents") extract = v.truthy();
    else throw_error("MATLAB:table:InvalidParams", "Invalid parameter name: %s.", k.c_str());
  }
  if (nout < 0) nout = out_names.empty() ? 1 : static_cast<int>(out_names.size());
  if (out_names.empty())
    for (int k = 0; k < nout; ++k) out_names.push_back("Var" + std::to_string(k + 1));
  std::vector<std::vector<Value>> res(static_cast<size_t>(nout));
  for (int64_t i = 0; i < t.rows; ++i) {
    std::vector<Value> a;
    for (int64_t k : in) {
      const Value& v = t.vars[static_cast<size_t>(k)];
      Value r = take_rows(v, {i});
      if (extract && v.is_cell() && r.numel() == 1) r = r.cell()[0];
      a.push_back(r);
    }
    Outputs o = fn.is_function() ? ctx.call(fn, Args(a.data(), a.size()), nout)
                                 : ctx.call_named(fn.to_text(), Args(a.data(), a.size()), nout);
    if (static_cast<int>(o.size()) < nout)
      throw_error("MATLAB:table:rowfun:TooFewOutputs", "The function returned too few outputs.");
    for (int k = 0; k < nout; ++k) res[static_cast<size_t>(k)].push_back(o[static_cast<size_t>(k)]);
  }
  if (fmt == "cell") {
    CellArray c(Dims(t.rows, nout));
    for (int k = 0; k < nout; ++k)
      for (int64_t i = 0; i < t.rows; ++i) c.at(k * t.rows + i) = res[static_cast<size_t>(k)][static_cast<size_t>(i)];
    return {Value(std::move(c))};
  }
  if (fmt == "uniform") {
    std::vector<Value> cols;
    for (auto& r : res) cols.push_back(cat_rows(r));
    return {horzcat(cols)};
  }
  auto out = std::make_shared<TableObject>();
  out->rows = t.rows;
  out->row_names = t.row_names;
  for (int k = 0; k < nout; ++k) {
    auto& r = res[static_cast<size_t>(k)];
    Value col = t.rows == 0 ? Value(Tensor::zeros(ClassId::Double, Dims(0, 1))) : cat_rows(r);
    out->add_var(out_names[static_cast<size_t>(k)], col);
  }
  return {table_value(out)};
}

}  // namespace

namespace table_detail {

void register_table_group(Registry& r) {
  r.add("groupsummary", bi_groupsummary);
  r.add("varfun", bi_varfun);
  r.add("rowfun", bi_rowfun);
}

}  // namespace table_detail

}  // namespace matfuse
