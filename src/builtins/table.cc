// table: the TableObject's reads (T(rows, vars), T{rows, vars}, T.Var, T.Properties),
// concatenation, and the constructors and conversions table, array2table, cell2table,
// struct2table, table2array, table2cell, table2struct, istable, height, width.
// Assignment forms are in interp/table_assign.cc, display in interp/display_table.cc.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <set>

#include "builtins/construct.h"
#include "builtins/format.h"
#include "builtins/methods.h"
#include "builtins/shape_util.h"
#include "builtins/table.h"
#include "runtime/element_array.h"

namespace matfuse {

using namespace table_detail;

namespace {

bool is_colon(const Value& v) { return v.is_char() && v.is_text() && v.to_text() == ":"; }

bool is_text_list(const Value& v) {
  if (v.is_string()) return true;
  if (v.is_char()) return v.dims().rows() <= 1;
  if (v.is_cell()) {
    for (const Value& e : v.cell().elems())
      if (!e.is_text()) return false;
    return true;
  }
  return false;
}

[[noreturn]] void unknown_var(const std::string& n) {
  throw_error("MATLAB:table:UnrecognizedVarName", "Unrecognized table variable name '%s'.",
              n.c_str());
}

/// 0-based positions of a numeric or logical subscript with extent n (grow: larger allowed).
std::vector<int64_t> numeric_positions(const Value& s, int64_t n, bool grow, bool rows) {
  std::vector<int64_t> out;
  if (!s.is_tensor() || s.is_char())
    throw_error("MATLAB:badsubscript",
                "Subscripts must be real positive integers, logicals, character vectors, or "
                "cell arrays of character vectors.");
  Tensor t = s.tensor();
  if (t.cls() == ClassId::Logical) {
    const bool* m = t.data<bool>();
    for (int64_t i = 0; i < t.numel(); ++i)
      if (m[i]) out.push_back(i);
    if (t.numel() > n && !grow && !out.empty() && out.back() >= n) {
      if (rows) throw_error("MATLAB:table:RowIndexOutOfRange", "Row index exceeds table dimensions.");
      throw_error("MATLAB:table:VarIndexOutOfRange", "Variable index exceeds table dimensions.");
    }
    return out;
  }
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double d = t.get_double(i);
    if (!(d >= 1) || d != static_cast<double>(static_cast<int64_t>(d)))
      throw_error("MATLAB:badsubscript", "Array indices must be positive integers or logical values.");
    const int64_t k = static_cast<int64_t>(d) - 1;
    if (k >= n && !grow) {
      if (rows) throw_error("MATLAB:table:RowIndexOutOfRange", "Row index exceeds table dimensions.");
      throw_error("MATLAB:table:VarIndexOutOfRange", "Variable index exceeds table dimensions.");
    }
    out.push_back(k);
  }
  return out;
}

/// Checks the subscripts of T(...) / T{...}: two, or more with the extra ones 1 or ':'.
void check_two_subscripts(std::span<const Value> idx) {
  if (idx.size() < 2)
    throw_error("MATLAB:table:LinearSubscript",
                "Subscripting into a table using one subscript (as in t(i)) is not supported. "
                "Specify a row subscript and a variable subscript, as in t(rows,vars).");
  for (size_t k = 2; k < idx.size(); ++k) {
    if (is_colon(idx[k])) continue;
    if (idx[k].is_tensor() && idx[k].numel() == 1 && !idx[k].is_char() && idx[k].to_double() == 1)
      continue;
    throw_error("MATLAB:table:NDSubscript",
                "Subscripting into a table using more than two subscripts is not supported.");
  }
}

}  // namespace

namespace table_detail {

int64_t var_rows(const Value& v) {
  const Dims d = v.dims();
  return d.ndims() >= 1 ? d[0] : 0;
}

int64_t var_cols(const Value& v) {
  const int64_t r = var_rows(v);
  if (r > 0) return v.numel() / r;
  const Dims d = v.dims();
  int64_t c = 1;
  for (int k = 1; k < d.ndims(); ++k) c *= d[k];
  return c;
}

bool object_texts(const Value& v, std::vector<std::string>& out) {
  out.clear();
  if (const ElementArrayObject* e = as_element_array(v)) {
    out = e->element_texts();
    return static_cast<int64_t>(out.size()) == v.numel();
  }
  const ValueObject* o = as_value_object(v);
  return o && o->row_texts(out) && static_cast<int64_t>(out.size()) == var_rows(v);
}

Value take_rows(const Value& v, const std::vector<int64_t>& sel) {
  const int64_t k = static_cast<int64_t>(sel.size());
  if (const ElementArrayObject* e = as_element_array(v)) {
    // The element numbers of the selected rows, every column kept.
    const int64_t h = var_rows(v), c = var_cols(v);
    Dims out = v.dims();
    out.set(0, k);
    Tensor pos = Tensor::uninit(ClassId::Double, out);
    for (int64_t j = 0; j < c; ++j)
      for (int64_t i = 0; i < k; ++i)
        pos.set_double(j * k + i, static_cast<double>(j * h + sel[static_cast<size_t>(i)] + 1));
    return e->gather(pos, nullptr);
  }
  if (v.is_object()) {
    Tensor idx = Tensor::uninit(ClassId::Double, Dims(k, 1));
    for (int64_t i = 0; i < k; ++i) idx.set_double(i, static_cast<double>(sel[i] + 1));
    const Value sub[2] = {Value(std::move(idx)), Value::from_chars(":")};
    Value out;
    if (IndexableObject* o = as_indexable(v); o && o->paren_read(sub, out)) return out;
    throw_error("MATLAB:table:UnsupportedVarType",
                "Row indexing is not supported for a table variable of class '%s'.",
                v.class_name().c_str());
  }
  const Dims d = v.dims();
  const int64_t h = var_rows(v), c = var_cols(v);
  Dims out = d;
  out.set(0, k);
  std::vector<int64_t> src;
  src.reserve(static_cast<size_t>(k * c));
  for (int64_t j = 0; j < c; ++j)
    for (int64_t i = 0; i < k; ++i) src.push_back(j * h + sel[static_cast<size_t>(i)]);
  return gather_elements(v, out, src);
}

Value cat_rows(std::span<const Value> parts) { return cat_dim(1, parts); }

std::vector<std::string> text_list(const Value& v, const char* what) {
  std::vector<std::string> out;
  if (v.is_string()) {
    for (const auto& s : v.string_array().elems()) {
      if (!s) throw_error("MATLAB:table:InvalidName", "%s must not be missing.", what);
      out.push_back(*s);
    }
    return out;
  }
  if (v.is_char() && v.dims().rows() <= 1) {
    out.push_back(v.to_text());
    return out;
  }
  if (v.is_cell()) {
    for (const Value& e : v.cell().elems()) {
      if (!e.is_text())
        throw_error("MATLAB:table:InvalidName",
                    "%s must be a character vector, a string array, or a cell array of "
                    "character vectors.", what);
      out.push_back(e.to_text());
    }
    return out;
  }
  throw_error("MATLAB:table:InvalidName",
              "%s must be a character vector, a string array, or a cell array of character "
              "vectors.", what);
}

Value cellstr_row(const std::vector<std::string>& s) {
  CellArray c(Dims(1, static_cast<int64_t>(s.size())));
  for (size_t i = 0; i < s.size(); ++i) c.at(static_cast<int64_t>(i)) = Value::from_chars(s[i]);
  return Value(std::move(c));
}

Value cellstr_col(const std::vector<std::string>& s) {
  CellArray c(Dims(static_cast<int64_t>(s.size()), 1));
  for (size_t i = 0; i < s.size(); ++i) c.at(static_cast<int64_t>(i)) = Value::from_chars(s[i]);
  return Value(std::move(c));
}

bool valid_identifier(const std::string& s) {
  if (s.empty() || s.size() > 63 || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string make_valid_name(const std::string& s) {
  if (valid_identifier(s)) return s;
  // matlab.lang.makeValidName: blanks are removed and the next letter capitalised; other
  // invalid characters become '_'; a name not starting with a letter gets the prefix 'x'.
  std::string out;
  bool cap = false;
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isspace(u)) {
      cap = !out.empty();
      continue;
    }
    if (std::isalnum(u) || c == '_') {
      out += cap ? static_cast<char>(std::toupper(u)) : c;
    } else {
      out += '_';
    }
    cap = false;
  }
  if (out.empty() || !std::isalpha(static_cast<unsigned char>(out[0]))) out = "x" + out;
  if (out.size() > 63) out.resize(63);
  return out;
}

std::shared_ptr<TableObject> empty_like(const TableObject& t, int64_t rows) {
  auto r = std::make_shared<TableObject>();
  r->rows = rows;
  r->description = t.description;
  r->dim_names = t.dim_names;
  r->user_data = t.user_data;
  return r;
}

std::vector<int64_t> row_subscript(const TableObject& t, const Value& s, bool allow_grow) {
  std::vector<int64_t> out;
  if (is_colon(s)) {
    for (int64_t i = 0; i < t.rows; ++i) out.push_back(i);
    return out;
  }
  if (is_text_list(s)) {
    for (const std::string& n : text_list(s, "Row names")) {
      auto it = std::find(t.row_names.begin(), t.row_names.end(), n);
      if (it == t.row_names.end())
        throw_error("MATLAB:table:UnrecognizedRowName", "Unrecognized row name '%s'.", n.c_str());
      out.push_back(it - t.row_names.begin());
    }
    return out;
  }
  return numeric_positions(s, t.rows, allow_grow, true);
}

std::vector<int64_t> var_subscript(const TableObject& t, const Value& s, bool allow_new,
                                   std::vector<std::string>* new_names) {
  std::vector<int64_t> out;
  if (is_colon(s)) {
    for (int64_t i = 0; i < t.width(); ++i) out.push_back(i);
    return out;
  }
  if (is_text_list(s)) {
    for (const std::string& n : text_list(s, "Variable names")) {
      const int k = t.var_index(n);
      if (k >= 0) {
        out.push_back(k);
        continue;
      }
      if (!allow_new) unknown_var(n);
      auto it = std::find(new_names->begin(), new_names->end(), n);
      if (it == new_names->end()) {
        new_names->push_back(n);
        it = new_names->end() - 1;
      }
      out.push_back(t.width() + (it - new_names->begin()));
    }
    return out;
  }
  out = numeric_positions(s, t.width(), allow_new, false);
  if (allow_new) {
    int64_t top = t.width();
    for (int64_t k : out) top = std::max(top, k + 1);
    for (int64_t k = t.width() + static_cast<int64_t>(new_names->size()); k < top; ++k)
      new_names->push_back("Var" + std::to_string(k + 1));
  }
  return out;
}

}  // namespace table_detail

// ----- TableObject reads -------------------------------------------------------------------

int TableObject::var_index(std::string_view name) const {
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return static_cast<int>(k);
  return -1;
}

std::shared_ptr<TableObject> TableObject::select(const std::vector<int64_t>& rows_sel,
                                                 const std::vector<int64_t>& vars_sel) const {
  auto r = empty_like(*this, static_cast<int64_t>(rows_sel.size()));
  for (int64_t k : vars_sel) {
    const size_t v = static_cast<size_t>(k);
    r->names.push_back(names[v]);
    r->vars.push_back(take_rows(vars[v], rows_sel));
    if (!units.empty()) r->units.push_back(units[v]);
    if (!var_descriptions.empty()) r->var_descriptions.push_back(var_descriptions[v]);
  }
  // A variable selected twice gets a unique name, as MATLAB does (x, x_1).
  for (size_t i = 0; i < r->names.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (r->names[i] == r->names[j]) {
        int n = 1;
        std::string cand;
        do cand = r->names[j] + "_" + std::to_string(n++);
        while (std::find(r->names.begin(), r->names.end(), cand) != r->names.end());
        r->names[i] = cand;
      }
  if (!row_names.empty()) {
    for (int64_t i : rows_sel) r->row_names.push_back(row_names[static_cast<size_t>(i)]);
    // Repeated rows keep distinct names (MATLAB appends _1, _2, ...).
    for (size_t i = 0; i < r->row_names.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (r->row_names[i] == r->row_names[j]) {
          int n = 1;
          std::string cand;
          do cand = r->row_names[j] + "_" + std::to_string(n++);
          while (std::find(r->row_names.begin(), r->row_names.end(), cand) !=
                 r->row_names.end());
          r->row_names[i] = cand;
        }
  }
  return r;
}

bool TableObject::paren_read(std::span<const Value> idx, Value& out) const {
  check_two_subscripts(idx);
  out = table_value(select(row_subscript(*this, idx[0]), var_subscript(*this, idx[1])));
  return true;
}

bool TableObject::brace_read(std::span<const Value> idx, std::vector<Value>& out) const {
  check_two_subscripts(idx);
  const std::vector<int64_t> r = row_subscript(*this, idx[0]);
  const std::vector<int64_t> v = var_subscript(*this, idx[1]);
  std::vector<Value> parts;
  for (int64_t k : v) parts.push_back(take_rows(vars[static_cast<size_t>(k)], r));
  if (parts.empty()) {
    out.push_back(Value(Tensor::zeros(ClassId::Double, Dims(static_cast<int64_t>(r.size()), 0))));
    return true;
  }
  try {
    out.push_back(horzcat(parts));
  } catch (const MatlabError&) {
    throw_error("MATLAB:table:ExtractDataIncompatibleTypeError",
                "Unable to concatenate the specified table variables.");
  }
  return true;
}

Value TableObject::properties_struct() const {
  StructArray s(Dims::scalar());
  auto set = [&](const char* f, Value v) { s.at(0, s.add_field(f)) = std::move(v); };
  set("Description", Value::from_chars(description));
  set("UserData", user_data);
  set("DimensionNames", cellstr_row(dim_names));
  set("VariableNames", cellstr_row(names));
  set("VariableDescriptions", var_descriptions.empty() ? Value(CellArray(Dims(1, 0)))
                                                       : cellstr_row(var_descriptions));
  set("VariableUnits", units.empty() ? Value(CellArray(Dims(1, 0))) : cellstr_row(units));
  set("VariableContinuity", Value());
  set("RowNames", row_names.empty() ? Value(CellArray(Dims(0, 1))) : cellstr_col(row_names));
  set("CustomProperties", Value(StructArray(Dims::scalar())));
  return Value(std::move(s));
}

bool TableObject::get_property(std::string_view name, Value& out) const {
  if (name == "Properties") {
    out = properties_struct();
    return true;
  }
  const int k = var_index(name);
  if (k >= 0) {
    out = vars[static_cast<size_t>(k)];
    return true;
  }
  if (name == dim_names[0]) {
    out = row_names.empty() ? Value(CellArray(Dims(0, 1))) : cellstr_col(row_names);
    return true;
  }
  if (name == dim_names[1]) {
    if (vars.empty()) out = Value(Tensor::zeros(ClassId::Double, Dims(rows, 0)));
    else out = horzcat(vars);
    return true;
  }
  unknown_var(std::string(name));
}

std::vector<std::string> TableObject::property_names() const {
  std::vector<std::string> r{"Properties"};
  r.insert(r.end(), names.begin(), names.end());
  return r;
}

void TableObject::set_var_names(std::vector<std::string> n) {
  if (n.size() != names.size())
    throw_error("MATLAB:table:IncorrectNumberOfVarNames",
                "The VariableNames property must contain one name for each variable in the "
                "table.");
  std::set<std::string> seen;
  for (const std::string& s : n) {
    if (s.empty())
      throw_error("MATLAB:table:InvalidVarNames", "Variable names must be nonempty.");
    if (s == "Properties" || s == dim_names[0] || s == dim_names[1])
      throw_error("MATLAB:table:ReservedNameConflict",
                  "The variable name '%s' conflicts with a reserved name.", s.c_str());
    if (!seen.insert(s).second)
      throw_error("MATLAB:table:DuplicateVarNames", "Duplicate table variable name: '%s'.",
                  s.c_str());
  }
  names = std::move(n);
}

void TableObject::set_row_names(std::vector<std::string> n) {
  if (!n.empty() && static_cast<int64_t>(n.size()) != rows)
    throw_error("MATLAB:table:IncorrectNumberOfRowNames",
                "The RowNames property must contain one name for each row in the table.");
  std::set<std::string> seen;
  for (const std::string& s : n) {
    if (s.empty())
      throw_error("MATLAB:table:InvalidRowNames", "Row names must be nonempty.");
    if (!seen.insert(s).second)
      throw_error("MATLAB:table:DuplicateRowNames", "Duplicate row name: '%s'.", s.c_str());
  }
  row_names = std::move(n);
}

void TableObject::add_var(std::string name, Value v) {
  if (var_index(name) >= 0)
    throw_error("MATLAB:table:DuplicateVarNames", "Duplicate table variable name: '%s'.",
                name.c_str());
  if (name.empty()) throw_error("MATLAB:table:InvalidVarNames", "Variable names must be nonempty.");
  names.push_back(std::move(name));
  vars.push_back(std::move(v));
  if (!units.empty()) units.emplace_back();
  if (!var_descriptions.empty()) var_descriptions.emplace_back();
}

void TableObject::remove_var(size_t k) {
  names.erase(names.begin() + static_cast<std::ptrdiff_t>(k));
  vars.erase(vars.begin() + static_cast<std::ptrdiff_t>(k));
  if (!units.empty()) units.erase(units.begin() + static_cast<std::ptrdiff_t>(k));
  if (!var_descriptions.empty())
    var_descriptions.erase(var_descriptions.begin() + static_cast<std::ptrdiff_t>(k));
}

void TableObject::apply_properties(const Value& props) {
  if (!props.is_struct() || props.numel() != 1)
    throw_error("MATLAB:table:InvalidPropertiesAssignment",
                "Table properties must be assigned as a scalar structure.");
  const StructArray& s = props.struct_array();
  auto get = [&](const char* f) -> const Value* {
    const int k = s.field_index(f);
    return k < 0 ? nullptr : &s.get(0, k);
  };
  auto per_var = [&](const Value& v, const char* what) {
    if (v.is_empty()) return std::vector<std::string>{};
    std::vector<std::string> l = text_list(v, what);
    if (l.size() != names.size())
      throw_error("MATLAB:table:IncorrectNumberOfVarNames",
                  "The %s property must contain one entry for each variable in the table.", what);
    return l;
  };
  if (const Value* v = get("DimensionNames")) {
    std::vector<std::string> d = text_list(*v, "DimensionNames");
    if (d.size() != 2)
      throw_error("MATLAB:table:IncorrectNumberOfDimNames",
                  "The DimensionNames property must contain two names.");
    dim_names = d;
  }
  if (const Value* v = get("VariableNames")) set_var_names(text_list(*v, "VariableNames"));
  if (const Value* v = get("RowNames"))
    set_row_names(v->is_empty() ? std::vector<std::string>{} : text_list(*v, "RowNames"));
  if (const Value* v = get("Description")) {
    if (!v->is_empty() && !v->is_text())
      throw_error("MATLAB:table:InvalidDescription",
                  "The Description property must be a character vector or a string scalar.");
    description = v->is_empty() ? std::string() : v->to_text();
  }
  if (const Value* v = get("VariableUnits")) units = per_var(*v, "VariableUnits");
  if (const Value* v = get("VariableDescriptions"))
    var_descriptions = per_var(*v, "VariableDescriptions");
  if (const Value* v = get("UserData")) user_data = *v;
}

bool TableObject::concat(int dim, std::span<const Value> parts, Value& out) const {
  std::vector<const TableObject*> ts;
  for (const Value& p : parts) {
    if (p.is_tensor() && p.dims() == Dims(0, 0)) continue;  // [] is skipped
    const TableObject* t = as_table(p);
    if (!t)
      throw_error("MATLAB:table:ConcatenationWithNonTable",
                  "Concatenation of a table with a value of class '%s' is not supported; "
                  "convert it to a table first.", p.class_name().c_str());
    ts.push_back(t);
  }
  const TableObject& first = *ts[0];
  if (dim == 1) {
    auto r = empty_like(first, 0);
    r->names = first.names;
    r->units = first.units;
    r->var_descriptions = first.var_descriptions;
    bool all_rn = true;
    for (const TableObject* t : ts) {
      if (t->width() != first.width())
        throw_error("MATLAB:table:vertcat:SizeMismatch",
                    "All tables being vertically concatenated must have the same number of "
                    "variables.");
      all_rn = all_rn && (!t->row_names.empty() || t->rows == 0);
      r->rows += t->rows;
    }
    for (size_t k = 0; k < first.names.size(); ++k) {
      std::vector<Value> col;
      for (const TableObject* t : ts) {
        const int j = t->var_index(first.names[k]);
        if (j < 0)
          throw_error("MATLAB:table:vertcat:UnequalVarNames",
                      "All tables being vertically concatenated must have the same variable "
                      "names.");
        col.push_back(t->vars[static_cast<size_t>(j)]);
      }
      r->vars.push_back(cat_rows(col));
    }
    bool any_rn = false;
    for (const TableObject* t : ts) any_rn = any_rn || !t->row_names.empty();
    if (any_rn && all_rn) {
      std::vector<std::string> rn;
      for (const TableObject* t : ts) rn.insert(rn.end(), t->row_names.begin(), t->row_names.end());
      r->set_row_names(std::move(rn));
    }
    out = table_value(std::move(r));
    return true;
  }
  if (dim != 2)
    throw_error("MATLAB:table:cat:InvalidDim", "Tables can only be concatenated along dimension 1 or 2.");
  auto r = empty_like(first, first.rows);
  r->row_names = first.row_names;
  const bool meta = std::any_of(ts.begin(), ts.end(), [](const TableObject* t) {
    return !t->units.empty() || !t->var_descriptions.empty();
  });
  for (const TableObject* t : ts) {
    if (t->rows != first.rows)
      throw_error("MATLAB:table:horzcat:SizeMismatch",
                  "All tables being horizontally concatenated must have the same number of "
                  "rows.");
    for (size_t k = 0; k < t->names.size(); ++k) {
      r->add_var(t->names[k], t->vars[k]);
      if (meta) {
        r->units.push_back(t->units.empty() ? std::string() : t->units[k]);
        r->var_descriptions.push_back(t->var_descriptions.empty() ? std::string()
                                                                  : t->var_descriptions[k]);
      }
    }
  }
  out = table_value(std::move(r));
  return true;
}

const TableObject& table_arg(const Value& v, const char* fname) {
  const TableObject* t = as_table(v);
  if (!t)
    throw_error("MATLAB:UndefinedFunction",
                "Undefined function '%s' for input arguments of type '%s'.", fname,
                v.class_name().c_str());
  return *t;
}

// ----- constructors and conversions ----------------------------------------------------------

namespace {

bool name_is(const Value& v, const char* name) {
  if (!v.is_text()) return false;
  std::string s = v.to_text();
  if (s.size() != std::strlen(name)) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(name[i])))
      return false;
  return true;
}

struct TableOptions {
  const Value* var_names = nullptr;
  const Value* row_names = nullptr;
  const Value* dim_names = nullptr;
  const Value* size = nullptr;
  const Value* var_types = nullptr;
};

/// Splits args into data and trailing name-value options (the first text argument that names
/// an option of `allowed`, with an even count after it, starts the options).
size_t split_options(Args args, const std::vector<const char*>& allowed, TableOptions& o,
                     const char* fname) {
  size_t first = args.size();
  for (size_t i = 0; i < args.size(); ++i) {
    if ((args.size() - i) % 2 != 0 || !args[i].is_text()) continue;
    bool known = false;
    for (const char* a : allowed) known = known || name_is(args[i], a);
    if (known) {
      first = i;
      break;
    }
  }
  for (size_t i = first; i + 1 < args.size() + 1 && i < args.size(); i += 2) {
    const Value& n = args[i];
    const Value* v = &args[i + 1];
    if (name_is(n, "VariableNames")) o.var_names = v;
    else if (name_is(n, "RowNames")) o.row_names = v;
    else if (name_is(n, "DimensionNames")) o.dim_names = v;
    else if (name_is(n, "Size")) o.size = v;
    else if (name_is(n, "VariableTypes")) o.var_types = v;
    else
      throw_error("MATLAB:table:parseArgs:BadParamName", "Invalid parameter name: %s.",
                  n.is_text() ? n.to_text().c_str() : "?");
    bool ok = false;
    for (const char* a : allowed) ok = ok || name_is(n, a);
    if (!ok)
      throw_error("MATLAB:table:parseArgs:BadParamName", "Invalid parameter name: %s.",
                  n.to_text().c_str());
  }
  (void)fname;
  return first;
}

/// Applies 'VariableNames', 'RowNames', 'DimensionNames' to a built table.
void apply_name_options(TableObject& t, const TableOptions& o) {
  if (o.var_names) {
    std::vector<std::string> n = text_list(*o.var_names, "VariableNames");
    if (n.size() != t.names.size())
      throw_error("MATLAB:table:IncorrectNumberOfVarNames",
                  "The VariableNames property must contain one name for each variable in the "
                  "table.");
    t.set_var_names(std::move(n));
  }
  if (o.dim_names) {
    std::vector<std::string> d = text_list(*o.dim_names, "DimensionNames");
    if (d.size() != 2)
      throw_error("MATLAB:table:IncorrectNumberOfDimNames",
                  "The DimensionNames property must contain two names.");
    t.dim_names = d;
  }
  if (o.row_names && !o.row_names->is_empty())
    t.set_row_names(text_list(*o.row_names, "RowNames"));
}

/// A default value of a 'VariableTypes' type with n rows.
Value typed_empty(const std::string& type, int64_t n) {
  if (type == "cell" || type == "cellstr") {
    CellArray c(Dims(n, 1));
    if (type == "cellstr")
      for (int64_t i = 0; i < n; ++i) c.at(i) = Value::from_chars("");
    return Value(std::move(c));
  }
  if (type == "string") {
    StringArray s(Dims(n, 1));
    for (int64_t i = 0; i < n; ++i) s.at(i) = std::nullopt;
    return Value(std::move(s));
  }
  if (type == "logical") return Value(Tensor::zeros(ClassId::Logical, Dims(n, 1)));
  if (type == "char") return Value(Tensor::zeros(ClassId::Char, Dims(n, 0)));
  if (auto c = class_from_name(type)) return Value(Tensor::zeros(*c, Dims(n, 1)));
  throw_error("MATLAB:table:InvalidVariableType",
              "Specify variable types as a string array or a cell array of character vectors, "
              "such as [\"string\", \"datetime\", \"double\"]; '%s' is not supported.", type.c_str());
}

/// T = table(var1, ..., varN, Name, Value): variables named after the caller's variables
/// (inputname) or Var1..VarN; every variable must have the same number of rows.
/// T = table('Size', [n m], 'VariableTypes', types): preallocated (0, false, {''}, <missing>).
/// Options: 'VariableNames', 'RowNames', 'DimensionNames'. Errors: MATLAB:table:
/// UnequalVarLengths, MATLAB:table:IncorrectNumberOfVarNames, MATLAB:table:DuplicateVarNames.
Outputs bi_table(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  TableOptions o;
  const size_t nd = split_options(
      args, {"VariableNames", "RowNames", "DimensionNames", "Size", "VariableTypes"}, o, "table");
  auto t = std::make_shared<TableObject>();
  if (o.size) {
    if (nd != 0)
      throw_error("MATLAB:table:InvalidSizeSyntax",
                  "Specify 'Size' and 'VariableTypes' without data variables.");
    if (!o.var_types)
      throw_error("MATLAB:table:MissingVariableTypes",
                  "Specify variable types using the 'VariableTypes' parameter.");
    Tensor sz = o.size->tensor();
    if (sz.numel() != 2)
      throw_error("MATLAB:table:InvalidSize", "Specify size as a two-element numeric vector.");
    // Nonnegative integers (NaN or 1e300 would be undefined to cast to int64); rows beyond
    // memory fail when the variables are made.
    for (int k = 0; k < 2; ++k) {
      const double v = sz.get_double(k);
      if (!(v >= 0 && v < 9.2e18) || v != std::floor(v))
        throw_error("MATLAB:table:InvalidSize", "Specify size as a two-element numeric vector.");
    }
    const int64_t n = static_cast<int64_t>(sz.get_double(0));
    const int64_t m = static_cast<int64_t>(sz.get_double(1));
    std::vector<std::string> types = text_list(*o.var_types, "VariableTypes");
    if (static_cast<int64_t>(types.size()) != m)
      throw_error("MATLAB:table:VariableTypesAndSizeMismatch",
                  "The number of variable types must match the number of variables in 'Size'.");
    t->rows = n;
    for (int64_t k = 0; k < m; ++k)
      t->add_var("Var" + std::to_string(k + 1), typed_empty(types[static_cast<size_t>(k)], n));
    apply_name_options(*t, o);
    return {table_value(t)};
  }
  for (size_t k = 0; k < nd; ++k) {
    const Value& v = args[k];
    if (v.is_function())
      throw_error("MATLAB:table:InvalidVarType", "Function handles cannot be table variables.");
    const int64_t h = var_rows(v);
    if (k == 0) t->rows = h;
    else if (h != t->rows)
      throw_error("MATLAB:table:UnequalVarLengths",
                  "All table variables must have the same number of rows.");
    std::string name = caller_arg_name(ctx, k, args.size());
    if (name.empty() || t->var_index(name) >= 0) name = "Var" + std::to_string(k + 1);
    t->add_var(name, v);
  }
  if (o.row_names && nd == 0 && !o.row_names->is_empty())
    t->rows = static_cast<int64_t>(text_list(*o.row_names, "RowNames").size());
  apply_name_options(*t, o);
  return {table_value(t)};
}

/// T = array2table(A, Name, Value): one variable per column of the matrix A (numeric, logical,
/// char, string, cell), named after the input (A1, A2, ...) or Var1...; options VariableNames,
/// RowNames, DimensionNames.
Outputs bi_array2table(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  TableOptions o;
  split_options(args.subspan(1), {"VariableNames", "RowNames", "DimensionNames"}, o,
                "array2table");
  const Value& a = args[0];
  if (a.dims().ndims() > 2)
    throw_error("MATLAB:array2table:NDArray", "Input must be a 2-D array.");
  if (as_table(a) || a.is_function())
    throw_error("MATLAB:array2table:InvalidInput", "Input must be a matrix.");
  const int64_t n = a.dims().rows(), m = a.dims().cols();
  const std::string base = caller_arg_name(ctx, 0, args.size());
  auto t = std::make_shared<TableObject>();
  t->rows = n;
  for (int64_t j = 0; j < m; ++j) {
    std::vector<int64_t> src;
    for (int64_t i = 0; i < n; ++i) src.push_back(j * n + i);
    Value col = a.is_object() ? a : gather_elements(a, Dims(n, 1), src);
    std::string name = base.empty() ? "Var" + std::to_string(j + 1) : base + std::to_string(j + 1);
    t->add_var(name, col);
  }
  apply_name_options(*t, o);
  return {table_value(t)};
}

/// T = cell2table(C, Name, Value): one variable per column of C; a column whose cells are all
/// scalars of one numeric/logical class (or all char rows / string scalars) becomes an array
/// (cellstr stays a cell column), any other column stays a cell column.
Outputs bi_cell2table(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  if (!args[0].is_cell())
    throw_error("MATLAB:cell2table:InvalidInput", "Input must be a cell array.");
  TableOptions o;
  split_options(args.subspan(1), {"VariableNames", "RowNames", "DimensionNames"}, o,
                "cell2table");
  const CellArray& c = args[0].cell();
  if (c.dims().ndims() > 2)
    throw_error("MATLAB:cell2table:NDCell", "Input must be a 2-D cell array.");
  const int64_t n = c.dims().rows(), m = c.dims().cols();
  const std::string base = caller_arg_name(ctx, 0, args.size());
  auto t = std::make_shared<TableObject>();
  t->rows = n;
  for (int64_t j = 0; j < m; ++j) {
    bool all_text = n > 0, all_scalar = n > 0, all_string = n > 0;
    for (int64_t i = 0; i < n; ++i) {
      const Value& e = c[j * n + i];
      all_text = all_text && e.is_char() && e.dims().rows() <= 1;
      all_string = all_string && e.is_string() && e.numel() == 1;
      all_scalar = all_scalar && e.is_tensor() && !e.is_char() && e.numel() == 1 &&
                   e.cls() == c[j * n].cls();
    }
    Value col;
    if (all_scalar || all_string) {
      std::vector<Value> parts;
      for (int64_t i = 0; i < n; ++i) parts.push_back(c[j * n + i]);
      col = vertcat(parts);
    } else {
      CellArray cc(Dims(n, 1));
      for (int64_t i = 0; i < n; ++i) cc.at(i) = c[j * n + i];
      col = Value(std::move(cc));
    }
    (void)all_text;
    std::string name = base.empty() ? "Var" + std::to_string(j + 1) : base + std::to_string(j + 1);
    t->add_var(name, col);
  }
  apply_name_options(*t, o);
  return {table_value(t)};
}

/// T = struct2table(S, Name, Value): a scalar struct gives one row per field value row (each
/// field a variable); a struct array gives one row per element (fields concatenated
/// vertically). Option 'AsArray' (true: each field value is one cell, for a scalar struct).
Outputs bi_struct2table(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  if (!args[0].is_struct())
    throw_error("MATLAB:struct2table:InvalidInput", "Input must be a structure.");
  const StructArray& s = args[0].struct_array();
  bool as_array = false;
  std::vector<Value> rest;
  for (size_t i = 1; i + 1 < args.size(); i += 2) {
    if (name_is(args[i], "AsArray")) as_array = args[i + 1].truthy();
    else {
      rest.push_back(args[i]);
      rest.push_back(args[i + 1]);
    }
  }
  TableOptions o;
  split_options(Args(rest.data(), rest.size()), {"RowNames", "DimensionNames", "VariableNames"},
                o, "struct2table");
  auto t = std::make_shared<TableObject>();
  if (s.numel() == 1 && !as_array) {
    for (size_t f = 0; f < s.fields().size(); ++f) {
      const Value& v = s.get(0, static_cast<int>(f));
      const int64_t h = var_rows(v);
      if (f == 0) t->rows = h;
      else if (h != t->rows)
        throw_error("MATLAB:table:UnequalFieldLengths",
                    "Field values must have the same number of rows.");
      t->add_var(s.fields()[f], v);
    }
  } else {
    const int64_t n = s.numel();
    t->rows = n;
    for (size_t f = 0; f < s.fields().size(); ++f) {
      std::vector<Value> parts;
      bool uniform = true;
      for (int64_t i = 0; i < n; ++i) {
        const Value& v = s.get(i, static_cast<int>(f));
        parts.push_back(v);
        uniform = uniform && !v.is_cell() && !v.is_struct() && !v.is_object() &&
                  (v.is_tensor() ? (!v.is_char() && var_rows(v) == 1) : v.numel() == 1) &&
                  v.kind() == parts[0].kind() && (!v.is_tensor() || v.cls() == parts[0].cls()) &&
                  v.numel() == parts[0].numel();
      }
      Value col;
      if (uniform && n > 0) {
        col = vertcat(parts);
      } else {
        CellArray c(Dims(n, 1));
        for (int64_t i = 0; i < n; ++i) c.at(i) = parts[static_cast<size_t>(i)];
        col = Value(std::move(c));
      }
      t->add_var(s.fields()[f], col);
    }
  }
  apply_name_options(*t, o);
  return {table_value(t)};
}

/// A = table2array(T): the variables concatenated horizontally (T{:,:}).
Outputs bi_table2array(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const TableObject& t = table_arg(args[0], "table2array");
  std::vector<Value> out;
  const Value colon = Value::from_chars(":");
  const Value idx[2] = {colon, colon};
  t.brace_read(idx, out);
  return {out.at(0)};
}

/// C = table2cell(T): an height-by-width cell array, one cell per variable row (a multi-column
/// variable's row stays one row vector).
Outputs bi_table2cell(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const TableObject& t = table_arg(args[0], "table2cell");
  CellArray c(Dims(t.rows, t.width()));
  for (int64_t j = 0; j < t.width(); ++j) {
    const Value& v = t.vars[static_cast<size_t>(j)];
    for (int64_t i = 0; i < t.rows; ++i) {
      Value r = take_rows(v, {i});
      if (v.is_cell() && var_cols(v) == 1) r = v.cell()[i];
      c.at(j * t.rows + i) = r;
    }
  }
  return {Value(std::move(c))};
}

/// S = table2struct(T): an height-by-1 struct array, one field per variable;
/// table2struct(T, 'ToScalar', true): a scalar struct whose fields are the variables.
Outputs bi_table2struct(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const TableObject& t = table_arg(args[0], "table2struct");
  bool scalar = false;
  for (size_t i = 1; i + 1 < args.size(); i += 2) {
    if (!name_is(args[i], "ToScalar"))
      throw_error("MATLAB:table2struct:BadParamName", "Invalid parameter name.");
    scalar = args[i + 1].truthy();
  }
  if (scalar) {
    StructArray s(Dims::scalar());
    for (size_t k = 0; k < t.names.size(); ++k) s.at(0, s.add_field(t.names[k])) = t.vars[k];
    return {Value(std::move(s))};
  }
  StructArray s(Dims(t.rows, 1));
  for (size_t k = 0; k < t.names.size(); ++k) {
    const int f = s.add_field(t.names[k]);
    const Value& v = t.vars[k];
    for (int64_t i = 0; i < t.rows; ++i) {
      Value r = take_rows(v, {i});
      if (v.is_cell() && var_cols(v) == 1) r = v.cell()[i];
      s.at(i, f) = r;
    }
  }
  return {Value(std::move(s))};
}

/// tf = istable(A).
Outputs bi_istable(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value::logical(as_table(args[0]) != nullptr)};
}

/// h = height(A): the number of rows of a table or array (size(A, 1)).
Outputs bi_height(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value(static_cast<double>(args[0].dims()[0]))};
}

/// w = width(A): the number of variables of a table, or size(A, 2) of an array.
Outputs bi_width(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value(static_cast<double>(args[0].dims().cols()))};
}

}  // namespace

namespace table_detail {

void register_table_core(Registry& r) {
  r.add("table", bi_table);
  r.add("array2table", bi_array2table);
  r.add("cell2table", bi_cell2table);
  r.add("struct2table", bi_struct2table);
  r.add("table2array", bi_table2array);
  r.add("table2cell", bi_table2cell);
  r.add("table2struct", bi_table2struct);
  r.add("istable", bi_istable);
  r.add("height", bi_height);
  r.add("width", bi_width);
}

}  // namespace table_detail

void register_table(Registry& r) {
  table_detail::register_table_core(r);
  table_detail::register_table_ops(r);
  table_detail::register_table_join(r);
  table_detail::register_table_group(r);
  table_detail::register_table_io(r);
}

}  // namespace matfuse
