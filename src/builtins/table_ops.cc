// Table rearrangement: head, tail, sortrows (the table method), addvars, removevars,
// renamevars, movevars; summary.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <ostream>

#include "builtins/shape_util.h"
#include "builtins/methods.h"
#include "builtins/data_util.h"
#include "builtins/table.h"

namespace matfuse {

using namespace table_detail;

namespace {

/// B = head(A[, k]) / tail(A[, k]): the first / last k rows (default 8) of a table or array.
Outputs head_tail(Args args, int nargout, bool head) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  const Value& a = args[0];
  int64_t k = args.size() > 1 ? args[1].to_index("number of rows") : 8;
  const int64_t h = a.dims()[0];
  k = std::min(k, h);
  std::vector<int64_t> sel;
  for (int64_t i = 0; i < k; ++i) sel.push_back(head ? i : h - k + i);
  if (const TableObject* t = as_table(a)) {
    std::vector<int64_t> all(static_cast<size_t>(t->width()));
    std::iota(all.begin(), all.end(), 0);
    auto r = t->select(sel, all);
    r->units = t->units;
    r->var_descriptions = t->var_descriptions;
    return {table_value(std::move(r))};
  }
  if (a.is_object() || a.is_function())
    throw_error("MATLAB:UndefinedFunction", "Undefined function '%s' for input arguments of type '%s'.",
                head ? "head" : "tail", a.class_name().c_str());
  return {take_rows(a, sel)};
}

Outputs bi_head(CallContext&, Args args, int nargout) { return head_tail(args, nargout, true); }
Outputs bi_tail(CallContext&, Args args, int nargout) { return head_tail(args, nargout, false); }

// ----- sortrows ------------------------------------------------------------------------------

}  // namespace

namespace table_detail {

void add_sort_keys(const Value& v, int64_t h, bool descend, std::vector<SortKey>& keys) {
  if (v.is_cell() || v.is_string() || (v.is_char())) {
    SortKey k;
    k.is_text = true;
    k.descend = descend;
    for (int64_t i = 0; i < h; ++i) {
      std::string s;
      bool miss = false;
      if (v.is_cell()) {
        const Value& e = v.cell()[i];
        if (!e.is_text() && !e.is_empty())
          throw_error("MATLAB:table:sortrows:SortrowsOnVarFailed",
                      "Unable to sort a cell variable that is not a cell array of character "
                      "vectors.");
        s = e.is_empty() ? std::string() : e.to_text();
      } else if (v.is_string()) {
        const auto& e = v.string_array()[i];
        miss = !e;
        s = e.value_or("");
      } else {
        Value row = take_rows(v, {i});
        s = row.is_empty() ? std::string() : row.to_text();
      }
      k.text.push_back(s);
      k.missing.push_back(miss);
    }
    keys.push_back(std::move(k));
    return;
  }
  if (!v.is_tensor())
    throw_error("MATLAB:table:sortrows:SortrowsOnVarFailed",
                "Unable to sort rows by a table variable of class '%s'.", v.class_name().c_str());
  Tensor t = v.tensor();
  const int64_t c = var_cols(v);
  for (int64_t j = 0; j < c; ++j) {
    SortKey k;
    k.descend = descend;
    for (int64_t i = 0; i < h; ++i) {
      const double d = t.is_complex() ? std::abs(t.get_complex(j * h + i)) : t.get_double(j * h + i);
      k.num.push_back(d);
      k.missing.push_back(std::isnan(d));
    }
    keys.push_back(std::move(k));
  }
}

/// Negative, zero, positive as row a sorts before, with, after row b (missing last when
/// ascending, first when descending: MATLAB's 'MissingPlacement','auto').
int compare_key_rows(const std::vector<SortKey>& ka, int64_t a, const std::vector<SortKey>& kb,
                     int64_t b) {
  for (size_t q = 0; q < ka.size(); ++q) {
    const SortKey& k = ka[q];
    const SortKey& l = kb[q];
    const bool ma = k.missing[static_cast<size_t>(a)], mb = l.missing[static_cast<size_t>(b)];
    int c = 0;
    if (ma || mb) {
      if (ma && mb) continue;
      c = ma ? 1 : -1;
      if (k.descend) c = -c;
      return c;
    }
    if (k.is_text) {
      const std::string& x = k.text[static_cast<size_t>(a)];
      const std::string& y = l.text[static_cast<size_t>(b)];
      c = x < y ? -1 : (x > y ? 1 : 0);
    } else {
      const double x = k.num[static_cast<size_t>(a)], y = l.num[static_cast<size_t>(b)];
      c = x < y ? -1 : (x > y ? 1 : 0);
    }
    if (c != 0) return k.descend ? -c : c;
  }
  return 0;
}

}  // namespace table_detail

namespace {

/// [B, index] = sortrows(T[, vars][, direction][, 'MissingPlacement', ...]): rows of a table
/// sorted (stably) by the given variables (names, indices, a negative index for descending
/// order, or the row-names dimension name / 'RowNames'), ascending unless direction says
/// 'descend' (one direction, or one per variable).
Outputs table_sortrows(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 2);
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const TableObject& t = table_arg(args[0], "sortrows");
  std::vector<std::pair<int64_t, bool>> by;  // variable (-1: row names), descending
  size_t next = 1;
  auto is_dir = [](const Value& v) {
    if (v.is_text()) {
      std::string s = data::lower(v.to_text());
      return s == "ascend" || s == "descend";
    }
    if (v.is_cell() && v.numel() > 0) {
      for (const Value& e : v.cell().elems())
        if (!e.is_text() || (data::lower(e.to_text()) != "ascend" && data::lower(e.to_text()) != "descend"))
          return false;
      return true;
    }
    return false;
  };
  if (args.size() > 1 && !is_dir(args[1]) && !data::is_option(args[1], "MissingPlacement") &&
      !data::is_option(args[1], "ComparisonMethod")) {
    const Value& v = args[1];
    next = 2;
    if (v.is_text() && (v.to_text() == t.dim_names[0] || v.to_text() == "RowNames") &&
        t.var_index(v.to_text()) < 0) {
      by.push_back({-1, false});
    } else if (v.is_tensor() && !v.is_char() && !v.is_logical()) {
      Tensor n = v.tensor();
      for (int64_t i = 0; i < n.numel(); ++i) {
        const double d = n.get_double(i);
        const int64_t k = static_cast<int64_t>(std::fabs(d)) - 1;
        if (d == 0 || k >= t.width() || d != std::trunc(d))
          throw_error("MATLAB:table:VarIndexOutOfRange", "Variable index exceeds table dimensions.");
        by.push_back({k, d < 0});
      }
    } else {
      for (int64_t k : var_subscript(t, v)) by.push_back({k, false});
    }
  } else {
    for (int64_t k = 0; k < t.width(); ++k) by.push_back({k, false});
  }
  if (next < args.size() && is_dir(args[next])) {
    const Value& d = args[next++];
    std::vector<std::string> dirs =
        d.is_cell() ? text_list(d, "Direction") : std::vector<std::string>{d.to_text()};
    if (dirs.size() != 1 && dirs.size() != by.size())
      throw_error("MATLAB:table:sortrows:WrongLengthDirection",
                  "The sorting direction must be a single value or one value for each sorting "
                  "variable.");
    for (size_t i = 0; i < by.size(); ++i)
      by[i].second = data::lower(dirs[dirs.size() == 1 ? 0 : i]) == "descend";
  }
  for (; next + 1 < args.size() + 1 && next < args.size(); next += 2) {
    if (!data::is_option(args[next], "MissingPlacement") && !data::is_option(args[next], "ComparisonMethod"))
      throw_error("MATLAB:sortrows:unknownOption", "Invalid option.");
  }
  std::vector<SortKey> keys;
  for (const auto& [k, desc] : by) {
    if (k < 0) {
      if (t.row_names.empty()) continue;
      SortKey key;
      key.is_text = true;
      key.descend = desc;
      key.text = t.row_names;
      key.missing.assign(t.row_names.size(), 0);
      keys.push_back(std::move(key));
    } else {
      add_sort_keys(t.vars[static_cast<size_t>(k)], t.rows, desc, keys);
    }
  }
  std::vector<int64_t> order(static_cast<size_t>(t.rows));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return compare_key_rows(keys, a, keys, b) < 0; });
  std::vector<int64_t> all(static_cast<size_t>(t.width()));
  std::iota(all.begin(), all.end(), 0);
  auto r = t.select(order, all);
  r->units = t.units;
  r->var_descriptions = t.var_descriptions;
  Outputs out{table_value(std::move(r))};
  if (nargout > 1) {
    Tensor idx = Tensor::uninit(ClassId::Double, Dims(t.rows, 1));
    for (int64_t i = 0; i < t.rows; ++i) idx.set_double(i, static_cast<double>(order[static_cast<size_t>(i)] + 1));
    out.push_back(Value(std::move(idx)));
  }
  return out;
}

// ----- variables -----------------------------------------------------------------------------

/// A location argument of 'Before'/'After': a name or an index, as a 0-based variable.
int64_t location(const TableObject& t, const Value& v) {
  std::vector<int64_t> k = var_subscript(t, v);
  if (k.size() != 1)
    throw_error("MATLAB:table:InvalidLocation", "Specify one variable as the location.");
  return k[0];
}

/// T2 = addvars(T, var1, ..., varN[, 'Before', loc | 'After', loc][, 'NewVariableNames', n]):
/// the variables inserted (at the end by default), named after the caller's variables or
/// VarK (K their position in the result).
Outputs bi_addvars(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const TableObject& t = table_arg(args[0], "addvars");
  size_t nd = args.size();
  for (size_t i = 1; i < args.size(); ++i)
    if ((args.size() - i) % 2 == 0 &&
        (data::is_option(args[i], "Before") || data::is_option(args[i], "After") ||
         data::is_option(args[i], "NewVariableNames"))) {
      nd = i;
      break;
    }
  int64_t at = t.width();
  const Value* new_names = nullptr;
  for (size_t i = nd; i + 1 < args.size(); i += 2) {
    if (data::is_option(args[i], "Before")) at = location(t, args[i + 1]);
    else if (data::is_option(args[i], "After")) at = location(t, args[i + 1]) + 1;
    else if (data::is_option(args[i], "NewVariableNames")) new_names = &args[i + 1];
    else
      throw_error("MATLAB:table:addvars:InvalidParameter", "Invalid parameter name.");
  }
  std::vector<std::string> names;
  if (new_names) {
    names = text_list(*new_names, "NewVariableNames");
    if (names.size() != nd - 1)
      throw_error("MATLAB:table:addvars:IncorrectNumberOfVarNames",
                  "The number of new variable names must match the number of variables to add.");
  }
  auto r = std::make_shared<TableObject>(t);
  std::vector<std::string> order_names = r->names;
  std::vector<Value> order_vars = r->vars;
  std::vector<std::string> ins_names;
  std::vector<Value> ins_vars;
  for (size_t i = 1; i < nd; ++i) {
    const Value& v = args[i];
    if (var_rows(v) != t.rows && !(t.width() == 0 && t.rows == 0))
      throw_error("MATLAB:table:RowDimensionMismatch",
                  "To assign to or create a variable in a table, the number of rows must match "
                  "the height of the table.");
    std::string n = new_names ? names[i - 1] : caller_arg_name(ctx, i, args.size());
    if (n.empty()) n = "Var" + std::to_string(at + static_cast<int64_t>(i));
    ins_names.push_back(n);
    ins_vars.push_back(v);
  }
  order_names.insert(order_names.begin() + at, ins_names.begin(), ins_names.end());
  order_vars.insert(order_vars.begin() + at, ins_vars.begin(), ins_vars.end());
  if (!r->units.empty()) r->units.insert(r->units.begin() + at, ins_names.size(), std::string());
  if (!r->var_descriptions.empty())
    r->var_descriptions.insert(r->var_descriptions.begin() + at, ins_names.size(), std::string());
  r->vars = std::move(order_vars);
  r->names.assign(order_names.size(), std::string());
  for (size_t i = 0; i < r->names.size(); ++i) r->names[i] = "\x01" + std::to_string(i);
  r->set_var_names(std::move(order_names));
  if (t.width() == 0 && t.rows == 0 && !r->vars.empty()) r->rows = var_rows(r->vars[0]);
  return {table_value(std::move(r))};
}

/// T2 = removevars(T, vars): the table without the given variables (names, indices, mask).
Outputs bi_removevars(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const TableObject& t = table_arg(args[0], "removevars");
  std::vector<int64_t> del = var_subscript(t, args[1]);
  std::sort(del.begin(), del.end());
  del.erase(std::unique(del.begin(), del.end()), del.end());
  auto r = std::make_shared<TableObject>(t);
  for (auto it = del.rbegin(); it != del.rend(); ++it) r->remove_var(static_cast<size_t>(*it));
  return {table_value(std::move(r))};
}

/// T2 = renamevars(T, vars, newNames): the given variables renamed.
Outputs bi_renamevars(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 1);
  const TableObject& t = table_arg(args[0], "renamevars");
  std::vector<int64_t> k = var_subscript(t, args[1]);
  std::vector<std::string> n = text_list(args[2], "New variable names");
  if (n.size() != k.size())
    throw_error("MATLAB:table:renamevars:NumberOfNamesMismatch",
                "The number of new variable names must match the number of variables to rename.");
  auto r = std::make_shared<TableObject>(t);
  std::vector<std::string> names = r->names;
  for (size_t i = 0; i < k.size(); ++i) names[static_cast<size_t>(k[i])] = n[i];
  r->set_var_names(std::move(names));
  return {table_value(std::move(r))};
}

/// T2 = movevars(T, vars, 'Before', loc | 'After', loc): the variables moved (to the end by
/// default).
Outputs bi_movevars(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.size() != 2 && args.size() != 4)
    throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const TableObject& t = table_arg(args[0], "movevars");
  std::vector<int64_t> mv = var_subscript(t, args[1]);
  int64_t at = t.width();
  bool after = false;
  if (args.size() == 4) {
    if (data::is_option(args[2], "Before")) at = location(t, args[3]);
    else if (data::is_option(args[2], "After")) {
      at = location(t, args[3]);
      after = true;
    } else
      throw_error("MATLAB:table:movevars:InvalidParameter", "Invalid parameter name.");
  }
  std::vector<char> moving(static_cast<size_t>(t.width()), 0);
  for (int64_t k : mv) moving[static_cast<size_t>(k)] = 1;
  std::vector<int64_t> order;
  for (int64_t k = 0; k < t.width(); ++k) {
    if (!after && k == at)
      for (int64_t m : mv) order.push_back(m);
    if (!moving[static_cast<size_t>(k)]) order.push_back(k);
    if (after && k == at)
      for (int64_t m : mv) order.push_back(m);
  }
  if (at == t.width())
    for (int64_t m : mv) order.push_back(m);
  std::vector<int64_t> rows(static_cast<size_t>(t.rows));
  std::iota(rows.begin(), rows.end(), 0);
  auto r = t.select(rows, order);
  return {table_value(std::move(r))};
}

/// The statistics summary(T) shows for one variable: (label, value) pairs. Numeric real
/// single-column variables: Min, Median, Max (NaN omitted) and NumMissing when any is NaN;
/// logical ones: True, False. Other variables: none.
std::vector<std::pair<std::string, Value>> variable_stats(CallContext& ctx, const Value& v) {
  std::vector<std::pair<std::string, Value>> out;
  if (!v.is_tensor() || v.is_char() || v.dims().cols() != 1 || v.dims().ndims() != 2) return out;
  const Tensor& t = v.tensor();
  if (t.is_complex()) return out;
  if (v.is_logical()) {
    double n = 0;
    for (int64_t i = 0; i < t.numel(); ++i) n += t.get_double(i) != 0;
    out.emplace_back("True", Value(n));
    out.emplace_back("False", Value(static_cast<double>(t.numel()) - n));
    return out;
  }
  const Value omit = Value::from_chars("omitnan"), none = Value(Tensor::zeros(ClassId::Double, Dims(0, 0)));
  auto call = [&](const char* f, std::vector<Value> a) {
    return ctx.call_named(f, Args(a.data(), a.size()), 1).at(0);
  };
  out.emplace_back("Min", call("min", {v, none, omit}));
  out.emplace_back("Median", call("median", {v, omit}));
  out.emplace_back("Max", call("max", {v, none, omit}));
  double missing = 0;
  for (int64_t i = 0; i < t.numel(); ++i) missing += std::isnan(t.get_double(i));
  if (missing > 0) out.emplace_back("NumMissing", Value(missing));
  return out;
}

void set_field(StructArray& s, const std::string& name, Value v) {
  s.at(0, s.add_field(name)) = std::move(v);
}

/// MATLAB's name of a variable's type in summary: the class, "cell array of character
/// vectors" for a cellstr.
std::string summary_type(const Value& v) {
  if (v.is_cell()) {
    const CellArray& c = v.cell();
    for (int64_t i = 0; i < c.numel(); ++i)
      if (!c[i].is_char() || c[i].dims().rows() > 1) return "cell";
    return "cell array of character vectors";
  }
  return v.class_name();
}

std::string size_text(const Dims& d) {
  std::string s;
  for (int k = 0; k < d.ndims(); ++k) s += (k ? "\u00d7" : "") + std::to_string(d[k]);
  return s;
}

std::string stat_text(const Value& v) {
  if (!v.is_tensor() || v.numel() != 1) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.5g", v.tensor().get_double(0));
  return buf;
}

/// summary(T): prints, for each variable, its name, size and type, its units and description
/// when set, and its statistics (variable_stats) in MATLAB's layout. s = summary(T) returns
/// them instead: a struct with one field per variable holding Size, Type, Description, Units,
/// Continuity and the statistics.
Outputs table_summary(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const TableObject& t = table_arg(args[0], "summary");
  if (nargout > 0) {
    StructArray s(Dims(1, 1));
    for (size_t k = 0; k < t.vars.size(); ++k) {
      const Value& v = t.vars[k];
      StructArray f(Dims(1, 1));
      Tensor sz = Tensor::uninit(ClassId::Double, Dims(1, v.dims().ndims()));
      for (int d = 0; d < v.dims().ndims(); ++d) sz.set_double(d, static_cast<double>(v.dims()[d]));
      set_field(f, "Size", Value(sz));
      set_field(f, "Type", Value::from_chars(summary_type(v)));
      set_field(f, "Description", Value::from_chars(k < t.var_descriptions.size() ? t.var_descriptions[k] : ""));
      set_field(f, "Units", Value::from_chars(k < t.units.size() ? t.units[k] : ""));
      set_field(f, "Continuity", Value(Tensor::zeros(ClassId::Double, Dims(0, 0))));
      for (auto& [label, val] : variable_stats(ctx, v)) set_field(f, label, val);
      set_field(s, t.names[k], Value(std::move(f)));
    }
    return {Value(std::move(s))};
  }
  std::ostream& os = *ctx.session().out;
  if (!t.description.empty()) os << "\nDescription:  " << t.description << "\n";
  os << "\nVariables:\n\n";
  for (size_t k = 0; k < t.vars.size(); ++k) {
    const Value& v = t.vars[k];
    os << "    " << t.names[k] << ": " << size_text(v.dims()) << " " << summary_type(v) << "\n\n";
    const bool has_units = k < t.units.size() && !t.units[k].empty();
    const bool has_desc = k < t.var_descriptions.size() && !t.var_descriptions[k].empty();
    if (has_units || has_desc) {
      os << "        Properties:\n";
      if (has_units) os << "            Units:  " << t.units[k] << "\n";
      if (has_desc) os << "            Description:  " << t.var_descriptions[k] << "\n";
      os << "\n";
    }
    auto stats = variable_stats(ctx, v);
    if (stats.empty()) continue;
    os << "        Values:\n\n";
    for (auto& [label, val] : stats) {
      std::string line = "            " + label;
      line.resize(std::max<size_t>(line.size() + 2, 25), ' ');
      os << line << stat_text(val) << "\n";
    }
    os << "\n";
  }
  return {};
}

}  // namespace

namespace table_detail {

void register_table_ops(Registry& r) {
  add_class_method("table", "summary", table_summary);
  r.add("head", bi_head);
  r.add("tail", bi_tail);
  add_class_method("table", "sortrows", table_sortrows);
  r.add("addvars", bi_addvars);
  r.add("removevars", bi_removevars);
  r.add("renamevars", bi_renamevars);
  r.add("movevars", bi_movevars);
}

}  // namespace table_detail

}  // namespace matfuse
