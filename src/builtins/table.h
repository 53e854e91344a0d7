// MATLAB table: a value object (copy on write) holding named, column-oriented variables of one
// height, with optional row names and the metadata MATLAB keeps in T.Properties.
//
// Data model
// - names[k] / vars[k]: variable k. A variable is any Value whose first dimension is the table
//   height: a numeric, logical or char array (one or more columns), a cell array, a string array,
//   a struct array, or an object (a datetime, a duration, ...) that implements row indexing
//   through IndexableObject::paren_read and ValueObject::paren_assign with (rows, ':'), and
//   ValueObject::concat and row_texts (runtime/value_object.h). Nothing here depends on the class of a variable beyond that.
// - rows: the height (kept separately so that a table without variables has one).
// - row_names: empty, or one distinct nonempty name per row.
// - description, units, var_descriptions (empty or one per variable), dim_names, user_data:
//   T.Properties.Description / VariableUnits / VariableDescriptions / DimensionNames / UserData.
//
// Indexing (MATLAB's table subsref/subsasgn)
// - T.Var, T.(name), T.Properties, T.Properties.X, T.Row (the row names, named by
//   DimensionNames{1}), T.Variables (every variable concatenated);
// - T(rows, vars): a table; T{rows, vars}: the contents concatenated horizontally. A row
//   subscript is ':', positive integers, a logical mask, or row names (char, cellstr, string);
//   a variable subscript is ':', integers, a mask, or variable names.
// - Assignment forms T.Var = v, T(rows, vars) = table | cell | array, T{rows, vars} = array,
//   and deletion T(rows, :) = [] / T(:, vars) = [] are implemented in interp/table_assign.cc
//   (they reuse the interpreter's indexed assignment for each variable).
//
// Errors use MATLAB's identifiers: MATLAB:table:UnrecognizedVarName, MATLAB:table:
// UnrecognizedRowName, MATLAB:table:RowIndexOutOfRange, MATLAB:table:VarIndexOutOfRange,
// MATLAB:table:LinearSubscript, MATLAB:table:UnequalVarLengths, MATLAB:table:DuplicateVarNames.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "builtins/registry.h"
#include "runtime/value_object.h"

namespace matfuse {

class TableObject : public ValueObject {
public:
  std::vector<std::string> names;
  std::vector<Value> vars;
  int64_t rows = 0;
  std::vector<std::string> row_names;
  std::string description;
  std::vector<std::string> units;
  std::vector<std::string> var_descriptions;
  std::vector<std::string> dim_names{"Row", "Variables"};
  Value user_data;

  std::string class_name() const override { return "table"; }
  Dims dims() const override { return Dims(rows, static_cast<int64_t>(names.size())); }
  int64_t width() const { return static_cast<int64_t>(names.size()); }

  bool paren_read(std::span<const Value> idx, Value& out) const override;
  bool paren_assign(std::span<const Value> idx, const Value& rhs, Value& self) override;
  bool brace_read(std::span<const Value> idx, std::vector<Value>& out) const override;
  bool brace_assign(std::span<const Value> idx, const Value& rhs, Value& self) override;
  bool get_property(std::string_view name, Value& out) const override;
  bool set_property(std::string_view name, const Value& rhs, Value& self) override;
  std::vector<std::string> property_names() const override;
  bool concat(int dim, std::span<const Value> parts, Value& out) const override;

  /// Index of a variable name, or -1.
  int var_index(std::string_view name) const;
  /// T.Properties as a struct (Description, UserData, DimensionNames, VariableNames,
  /// VariableDescriptions, VariableUnits, VariableContinuity, RowNames, CustomProperties).
  Value properties_struct() const;
  /// Applies a (modified) T.Properties struct; validates names and lengths.
  void apply_properties(const Value& props);
  /// Sets every variable name, checking validity and uniqueness (MATLAB's messages).
  void set_var_names(std::vector<std::string> n);
  /// Sets the row names (empty clears them), checking count and uniqueness.
  void set_row_names(std::vector<std::string> n);
  /// Appends a variable (name checked), with the metadata vectors kept in step.
  void add_var(std::string name, Value v);
  /// Removes variable k.
  void remove_var(size_t k);
  /// The table of the selected rows (0-based) and variables, metadata kept.
  std::shared_ptr<TableObject> select(const std::vector<int64_t>& rows_sel,
                                      const std::vector<int64_t>& vars_sel) const;
};

/// The TableObject of v, or null.
inline TableObject* as_table(const Value& v) {
  return v.is_object() ? dynamic_cast<TableObject*>(v.object().get()) : nullptr;
}
/// A table Value from an object.
inline Value table_value(std::shared_ptr<TableObject> t) {
  return Value(std::static_pointer_cast<Object>(std::move(t)));
}
/// The table argument of fname, or MATLAB's "Undefined function 'f' for input arguments of type
/// 'X'." error.
const TableObject& table_arg(const Value& v, const char* fname);

namespace table_detail {

/// Number of rows of a table variable (its first dimension).
int64_t var_rows(const Value& v);
/// Number of columns of a variable (numel / rows; 1 for an empty variable).
int64_t var_cols(const Value& v);
/// The rows sel (0-based) of a variable, every other dimension kept.
Value take_rows(const Value& v, const std::vector<int64_t>& sel);
/// The display texts of an object variable's elements, column-major: ValueObject::row_texts
/// (one column) or ElementArrayObject::element_texts (datetime, duration, ...). False for
/// other values or when the object gives no texts.
bool object_texts(const Value& v, std::vector<std::string>& out);
/// Variables stacked vertically (same kind rules as vertcat).
Value cat_rows(std::span<const Value> parts);
/// The 0-based rows a row subscript selects (':' all, integers, mask, row names).
std::vector<int64_t> row_subscript(const TableObject& t, const Value& s, bool allow_grow = false);
/// The 0-based variables a variable subscript selects (':' all, integers, mask, names). With
/// allow_new, names not in t (and integers past the width) are returned as width + k and their
/// names appended to *new_names.
std::vector<int64_t> var_subscript(const TableObject& t, const Value& s, bool allow_new = false,
                                   std::vector<std::string>* new_names = nullptr);
/// Text list of a names argument: char row, cellstr, string array. Error naming `what`.
std::vector<std::string> text_list(const Value& v, const char* what);
/// A 1xN cellstr of texts.
Value cellstr_row(const std::vector<std::string>& s);
/// An Nx1 cellstr of texts.
Value cellstr_col(const std::vector<std::string>& s);
/// Whether s is a valid MATLAB identifier (letter, then letters, digits, underscores; <= 63).
bool valid_identifier(const std::string& s);
/// matlab.lang.makeValidName: invalid characters become '_', a leading non-letter gets an 'x'
/// prefix, blanks start a capitalised word ("my var" -> "myVar").
std::string make_valid_name(const std::string& s);
/// A new empty table with the same metadata as t but no variables and `rows` rows.
std::shared_ptr<TableObject> empty_like(const TableObject& t, int64_t rows);
/// One sort or match key: a column of numbers or of texts of some table rows (table_ops.cc).
struct SortKey {
  std::vector<double> num;
  std::vector<std::string> text;
  std::vector<char> missing;  ///< NaN, <missing>
  bool is_text = false;
  bool descend = false;
};
/// The keys of variable v (h rows): one per column of a numeric/logical variable, one for a
/// text variable (cellstr, string, char rows). Other kinds: MATLAB:table:sortrows error.
void add_sort_keys(const Value& v, int64_t h, bool descend, std::vector<SortKey>& keys);
/// Compares row a of keys ka with row b of keys kb (same key structure): negative, zero,
/// positive. Missing values sort last when ascending, first when descending.
int compare_key_rows(const std::vector<SortKey>& ka, int64_t a, const std::vector<SortKey>& kb,
                     int64_t b);
/// Registers the table family (table*.cc).
void register_table_core(Registry& r);
void register_table_ops(Registry& r);
void register_table_join(Registry& r);
void register_table_group(Registry& r);
void register_table_io(Registry& r);

}  // namespace table_detail

/// Registers table, array2table, ... (called by builtins()).
void register_table(Registry& r);

}  // namespace matfuse
