// Assignment into tables (MATLAB's table subsasgn): T.Var = v, T.Properties... = v,
// T(rows, vars) = table | cell | array, T{rows, vars} = array, and deletion T(rows, :) = [] /
// T(:, vars) = []. Each variable is updated through the interpreter's own indexed assignment
// (assign_paren with (rows, ':')), so class conversion, growth and object variables follow the
// same rules as for plain arrays. A shared table is copied first (value semantics).
#include <algorithm>

#include "builtins/table.h"
#include "interp/indexing.h"

namespace matfuse {

using namespace table_detail;

namespace {

/// The table to modify: this one when `self` is its only holder, else a copy put into self.
TableObject& writable(const TableObject* me, Value& self) {
  if (self.is_object() && self.object().get() == me && self.object().use_count() == 1)
    return const_cast<TableObject&>(*me);
  auto c = std::make_shared<TableObject>(*me);
  TableObject& r = *c;
  self = table_value(std::move(c));
  return r;
}

bool is_colon(const Value& v) { return v.is_char() && v.is_text() && v.to_text() == ":"; }

bool is_null(const Value& v) {
  return v.kind() == Value::Kind::Array && v.cls() == ClassId::Double && v.dims() == Dims(0, 0);
}

/// 1-based row numbers as a column of doubles.
Value rows_value(const std::vector<int64_t>& rows) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(rows.size()), 1));
  for (size_t i = 0; i < rows.size(); ++i) t.set_double(static_cast<int64_t>(i), double(rows[i] + 1));
  return Value(std::move(t));
}

/// v grown to n rows with MATLAB's fill (0, false, [] cells, <missing> strings).
Value grow_to(const Value& v, int64_t n) {
  const int64_t h = var_rows(v);
  if (h >= n) return v;
  Value g = v;
  Value idx[2] = {Value(static_cast<double>(n)), Value::from_chars(":")};
  // Growing by assigning the last row keeps the class; the row itself is then reset to fill.
  Value filler;
  if (v.is_cell()) filler = Value(CellArray(Dims(1, var_cols(v))));
  else if (v.is_string()) {
    StringArray s(Dims(1, var_cols(v)));
    for (int64_t i = 0; i < s.numel(); ++i) s.at(i) = std::nullopt;
    filler = Value(std::move(s));
  } else if (v.is_tensor())
    filler = Value(Tensor::zeros(v.cls(), Dims(1, var_cols(v))));
  else
    throw_error("MATLAB:table:UnsupportedVarType",
                "Unable to add rows to a table variable of class '%s'.", v.class_name().c_str());
  assign_paren(g, true, idx, filler);
  return g;
}

/// Applies a T.Var-style value check: rows must equal the height (a scalar is expanded).
Value fit_rows(const TableObject& t, const Value& rhs) {
  const int64_t h = var_rows(rhs);
  if (h == t.rows) return rhs;
  if (rhs.numel() == 1 && !rhs.is_object()) {
    std::vector<int64_t> sel(static_cast<size_t>(t.rows), 0);
    return take_rows(rhs, sel);
  }
  throw_error("MATLAB:table:RowDimensionMismatch",
              "To assign to or create a variable in a table, the number of rows must match the "
              "height of the table.");
}

/// The part of rhs for variable j of nv selected ones (cell: the cells of column j as that
/// variable's kind; array: column j, or the whole value for one variable).
Value piece_for(const Value& rhs, size_t j, size_t nv, int64_t nrows, const Value* target) {
  if (const TableObject* r = as_table(rhs)) {
    if (static_cast<size_t>(r->width()) != nv || (r->rows != nrows && r->rows != 1))
      throw_error("MATLAB:table:AssignmentDimensionMismatch",
                  "The right-hand side table must have the same size as the subscripted part of "
                  "the table.");
    return r->rows == nrows ? r->vars[j] : take_rows(r->vars[j], std::vector<int64_t>(nrows, 0));
  }
  if (rhs.is_cell()) {
    const CellArray& c = rhs.cell();
    const int64_t rr = c.dims().rows(), cc = c.dims().cols();
    const bool scalar = c.numel() == 1;
    if (!scalar && (cc != static_cast<int64_t>(nv) || rr != nrows))
      throw_error("MATLAB:table:AssignmentDimensionMismatch",
                  "The right-hand side cell array must have one cell for each subscripted table "
                  "element.");
    std::vector<Value> parts;
    for (int64_t i = 0; i < nrows; ++i)
      parts.push_back(scalar ? c[0] : c[static_cast<int64_t>(j) * rr + i]);
    if (target && target->is_cell()) {
      // A cell variable takes the cells themselves (each cell one row).
      CellArray col(Dims(nrows, 1));
      for (int64_t i = 0; i < nrows; ++i) {
        const Value& p = parts[static_cast<size_t>(i)];
        col.at(i) = p.is_cell() && p.numel() == 1 ? p.cell()[0] : p;
      }
      return Value(std::move(col));
    }
    return cat_rows(parts);
  }
  if (nv == 1) return rhs;
  if (rhs.numel() == 1) return rhs;
  if (rhs.dims().cols() != static_cast<int64_t>(nv))
    throw_error("MATLAB:table:AssignmentDimensionMismatch",
                "The right-hand side must have one column for each subscripted table variable.");
  const int64_t h = rhs.dims().rows();
  Tensor t = rhs.tensor();
  Tensor col = Tensor::uninit(t.cls(), Dims(h, 1), t.is_complex());
  for (int64_t i = 0; i < h; ++i) {
    if (t.is_complex()) col.set_complex(i, t.get_complex(static_cast<int64_t>(j) * h + i));
    else col.set_double(i, t.get_double(static_cast<int64_t>(j) * h + i));
  }
  return Value(std::move(col));
}

/// Assigns pieces into the selected rows and variables (new variables and rows created).
void assign_cells(TableObject& t, const std::vector<int64_t>& rows,
                  const std::vector<int64_t>& vars, const std::vector<std::string>& new_names,
                  const Value& rhs, bool brace) {
  int64_t new_rows = t.rows;
  for (int64_t r : rows) new_rows = std::max(new_rows, r + 1);
  const int64_t width = t.width();
  // New variables start as fill of the new height, typed like their first piece.
  std::vector<Value> added(new_names.size());
  std::vector<bool> added_set(new_names.size(), false);
  const Value ridx = rows_value(rows);
  const Value sub[2] = {ridx, Value::from_chars(":")};
  for (size_t j = 0; j < vars.size(); ++j) {
    const int64_t k = vars[j];
    Value* target = k < width ? &t.vars[static_cast<size_t>(k)]
                              : &added[static_cast<size_t>(k - width)];
    const bool exists = k < width || added_set[static_cast<size_t>(k - width)];
    Value piece = piece_for(rhs, j, vars.size(), static_cast<int64_t>(rows.size()),
                            exists ? target : nullptr);
    if (brace && exists && target->is_cell() && !piece.is_cell()) {
      CellArray c(Dims(1, 1));
      c.at(0) = piece;
      piece = Value(std::move(c));
    }
    if (!exists) {
      Value nv;
      assign_paren(nv, false, sub, piece);
      *target = grow_to(nv, new_rows);
      added_set[static_cast<size_t>(k - width)] = true;
      continue;
    }
    assign_paren(*target, true, sub, piece);
  }
  for (size_t i = 0; i < new_names.size(); ++i) {
    if (!added_set[i]) {
      Value z = Value(Tensor::zeros(ClassId::Double, Dims(new_rows, 1)));
      added[i] = z;
    }
    t.add_var(new_names[i], added[i]);
  }
  if (new_rows > t.rows) {
    for (Value& v : t.vars) v = grow_to(v, new_rows);
    if (!t.row_names.empty())
      for (int64_t r = t.rows; r < new_rows; ++r) t.row_names.push_back("Row" + std::to_string(r + 1));
    t.rows = new_rows;
  }
}

}  // namespace

bool TableObject::paren_assign(std::span<const Value> idx, const Value& rhs, Value& self) {
  if (idx.size() < 2) {
    Value dummy;
    paren_read(idx, dummy);  // raises MATLAB's linear-subscript error
  }
  if (is_null(rhs)) {
    const bool all_rows = is_colon(idx[0]);
    const bool all_vars = is_colon(idx[1]);
    if (!all_rows && !all_vars)
      throw_error("MATLAB:table:InvalidEmptyAssignment",
                  "At least one subscript must be ':' when you delete rows or variables by "
                  "assigning [].");
    if (all_rows) {
      std::vector<int64_t> del = var_subscript(*this, idx[1]);
      std::sort(del.begin(), del.end());
      del.erase(std::unique(del.begin(), del.end()), del.end());
      TableObject& t = writable(this, self);
      for (auto it = del.rbegin(); it != del.rend(); ++it) t.remove_var(static_cast<size_t>(*it));
      return true;
    }
    std::vector<int64_t> del = row_subscript(*this, idx[0]);
    std::vector<char> gone(static_cast<size_t>(rows), 0);
    for (int64_t r : del) gone[static_cast<size_t>(r)] = 1;
    std::vector<int64_t> keep, all;
    for (int64_t r = 0; r < rows; ++r)
      if (!gone[static_cast<size_t>(r)]) keep.push_back(r);
    for (int64_t k = 0; k < width(); ++k) all.push_back(k);
    auto r = select(keep, all);
    r->units = units;
    r->var_descriptions = var_descriptions;
    self = table_value(std::move(r));
    return true;
  }
  std::vector<std::string> new_names;
  const std::vector<int64_t> rs = row_subscript(*this, idx[0], true);
  const std::vector<int64_t> vs = var_subscript(*this, idx[1], true, &new_names);
  TableObject& t = writable(this, self);
  assign_cells(t, rs, vs, new_names, rhs, false);
  return true;
}

bool TableObject::brace_assign(std::span<const Value> idx, const Value& rhs, Value& self) {
  if (idx.size() < 2) {
    std::vector<Value> dummy;
    brace_read(idx, dummy);  // raises MATLAB's linear-subscript error
  }
  std::vector<std::string> new_names;
  const std::vector<int64_t> rs = row_subscript(*this, idx[0], true);
  const std::vector<int64_t> vs = var_subscript(*this, idx[1], true, &new_names);
  TableObject& t = writable(this, self);
  if (vs.size() > 1 && !rhs.is_cell() && !as_table(rhs) && rhs.numel() != 1) {
    // T{rows, [a b]} = M: the columns of M go to the variables in turn (by their widths).
    int64_t col = 0;
    const int64_t base_width = t.width();
    for (size_t j = 0; j < vs.size(); ++j) {
      const int64_t k = vs[j];
      const int64_t w = k < t.width() ? var_cols(t.vars[static_cast<size_t>(k)]) : 1;
      if (col + w > rhs.dims().cols())
        throw_error("MATLAB:table:AssignmentDimensionMismatch",
                    "The right-hand side must have one column for each subscripted table "
                    "variable column.");
      Tensor ct = Tensor::uninit(ClassId::Double, Dims(1, w));
      for (int64_t c = 0; c < w; ++c) ct.set_double(c, static_cast<double>(col + c + 1));
      col += w;
      Value part = index_paren(rhs, std::vector<Value>{Value::from_chars(":"), Value(std::move(ct))});
      std::vector<std::string> nn;
      std::vector<int64_t> kk{k};
      if (k >= base_width) {
        nn.push_back(new_names[static_cast<size_t>(k - base_width)]);
        kk[0] = t.width();  // appended as the next variable
      }
      assign_cells(t, rs, kk, nn, part, true);
    }
    return true;
  }
  assign_cells(t, rs, vs, new_names, rhs, true);
  return true;
}

bool TableObject::set_property(std::string_view name, const Value& rhs, Value& self) {
  if (name == "Properties") {
    auto copy = std::make_shared<TableObject>(*this);
    copy->apply_properties(rhs);
    self = table_value(std::move(copy));
    return true;
  }
  if (name == dim_names[0] && var_index(name) < 0) {
    auto copy = std::make_shared<TableObject>(*this);
    copy->set_row_names(rhs.is_empty() ? std::vector<std::string>{} : text_list(rhs, "RowNames"));
    self = table_value(std::move(copy));
    return true;
  }
  if (name == dim_names[1] && var_index(name) < 0) {
    // T.Variables = M: each variable takes its columns of M.
    if (var_rows(rhs) != rows)
      throw_error("MATLAB:table:RowDimensionMismatch",
                  "To assign to or create a variable in a table, the number of rows must match "
                  "the height of the table.");
    TableObject& t = writable(this, self);
    int64_t col = 0;
    for (Value& v : t.vars) {
      const int64_t w = var_cols(v);
      Tensor ct = Tensor::uninit(ClassId::Double, Dims(1, w));
      for (int64_t c = 0; c < w; ++c) ct.set_double(c, static_cast<double>(col + c + 1));
      col += w;
      v = index_paren(rhs, std::vector<Value>{Value::from_chars(":"), Value(std::move(ct))});
    }
    return true;
  }
  const int k = var_index(name);
  if (k < 0 && width() == 0 && row_names.empty()) {
    TableObject& t = writable(this, self);
    t.rows = var_rows(rhs);
    t.add_var(std::string(name), rhs);
    return true;
  }
  if (is_null(rhs) && k >= 0) {  // T.Var = [] deletes the variable
    TableObject& t = writable(this, self);
    t.remove_var(static_cast<size_t>(k));
    return true;
  }
  Value v = fit_rows(*this, rhs);
  TableObject& t = writable(this, self);
  if (k >= 0) t.vars[static_cast<size_t>(k)] = std::move(v);
  else t.add_var(std::string(name), std::move(v));
  return true;
}

}  // namespace matfuse
