// Builtins of the "types" family: class conversions (double single logical int8 ... uint64 char
// cast), class queries (class isa isnumeric isfloat isinteger islogical ischar iscell isstruct
// isstring isreal iscomplex is_function_handle).
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "accel/capture/capture.h"
#include "builtins/argparse.h"
#include "builtins/registry.h"

namespace matfuse {

namespace {

[[noreturn]] void no_conversion(ClassId to, const Value& from) {
  throw_error("MATLAB:invalidConversion", "Conversion to %s from %s is not possible.",
              std::string(class_name(to)).c_str(), from.class_name().c_str());
}

/// Parses a string element as MATLAB's double("...") does: a real number or NaN.
double parse_number(const std::optional<std::string>& s) {
  if (!s) return NAN;
  const char* b = s->c_str();
  while (*b == ' ') ++b;
  if (!*b) return NAN;
  char* end = nullptr;
  double v = std::strtod(b, &end);
  while (end && *end == ' ') ++end;
  return (end && *end == 0) ? v : NAN;
}

/// x converted to class `to` with MATLAB's conversion rules (see Tensor::to_class).
Value convert(const Value& x, ClassId to) {
  if (x.is_tensor()) {
    if (x.is_scalar_double() && to == ClassId::Double) return x;
    if (to == ClassId::Logical && x.is_char()) no_conversion(to, x);
    const Tensor t = x.tensor();
    if (auto lazy = accel::capture_cast(t, to)) return Value(std::move(*lazy));
    return Value(t.to_class(to));
  }
  if (x.is_string() && (to == ClassId::Double || to == ClassId::Single)) {
    const StringArray& s = x.string_array();
    Tensor t = Tensor::uninit(ClassId::Double, s.dims());
    for (int64_t i = 0; i < s.numel(); ++i) t.set_double(i, parse_number(s[i]));
    return Value(to == ClassId::Double ? t : t.to_class(to));
  }
  no_conversion(to, x);
}

template <ClassId C>
Outputs bi_convert(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {convert(args[0], C)};
}

void append_utf8_row(std::vector<std::u16string>& rows, const std::string& utf8) {
  Tensor t = Tensor::from_string(utf8);
  rows.emplace_back(t.data<char16_t>(), t.data<char16_t>() + t.numel());
}

/// Appends the character rows of one char() argument.
void collect_rows(const Value& v, std::vector<std::u16string>& rows, bool in_cell) {
  if (v.is_string()) {
    const StringArray& s = v.string_array();
    for (int64_t i = 0; i < s.numel(); ++i) {
      if (!s[i])
        throw_error("MATLAB:string:MissingNotConvertible",
                    "Unable to convert <missing> string to char.");
      append_utf8_row(rows, *s[i]);
    }
    return;
  }
  if (v.is_cell()) {
    if (in_cell) throw_error("MATLAB:char:CellsMustContainChars",
                             "Cell elements must be character arrays.");
    const CellArray& c = v.cell();
    for (int64_t i = 0; i < c.numel(); ++i) collect_rows(c[i], rows, true);
    return;
  }
  if (!v.is_tensor()) no_conversion(ClassId::Char, v);
  if (in_cell && !v.is_char() && !v.is_empty())
    throw_error("MATLAB:char:CellsMustContainChars", "Cell elements must be character arrays.");
  Tensor t = v.tensor().to_class(ClassId::Char);
  const Dims& d = t.dims();
  if (d.numel() == 0) {
    rows.emplace_back();
    return;
  }
  const int64_t m = d.rows(), n = t.numel() / m;
  const char16_t* p = t.data<char16_t>();
  for (int64_t r = 0; r < m; ++r) {
    std::u16string row(static_cast<size_t>(n), u' ');
    for (int64_t c = 0; c < n; ++c) row[static_cast<size_t>(c)] = p[r + c * m];
    rows.push_back(std::move(row));
  }
}

/// char(x): numeric codes to characters; char(C) of a cell of char rows, char(S) of a string
/// array, char(a, b, ...): rows padded with blanks to a char matrix.
Outputs bi_char(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.empty()) return {Value(Tensor::zeros(ClassId::Char, Dims(0, 0)))};
  if (args.size() == 1 && args[0].is_tensor()) return {convert(args[0], ClassId::Char)};
  std::vector<std::u16string> rows;
  for (const Value& a : args) collect_rows(a, rows, false);
  size_t width = 0;
  for (const auto& r : rows) width = std::max(width, r.size());
  const int64_t m = static_cast<int64_t>(rows.size()), n = static_cast<int64_t>(width);
  if (m == 1 && n == 0) return {Value(Tensor::zeros(ClassId::Char, Dims(1, 0)))};
  Tensor t = Tensor::uninit(ClassId::Char, Dims(m, n));
  if (t.numel() > 0) {
    char16_t* p = t.mutable_data<char16_t>();
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < n; ++c)
        p[r + c * m] = c < static_cast<int64_t>(rows[r].size()) ? rows[r][c] : u' ';
  }
  return {Value(std::move(t))};
}

/// cast(x, 'class') or cast(x, 'like', p).
Outputs bi_cast(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  ClassId to;
  bool complex = false;
  if (args.size() == 3) {
    if (!args[1].is_text() || args[1].to_text() != "like")
      throw_error("MATLAB:cast:UnsupportedClass", "Invalid option. Expected 'like'.");
    const Value& p = args[2];
    if (!p.is_tensor()) throw_error("MATLAB:cast:UnsupportedPrototype",
                                    "Unsupported prototype class '%s'.", p.class_name().c_str());
    to = p.cls();
    complex = p.kind() == Value::Kind::Array && p.tensor().is_complex();
  } else {
    std::string name = args[1].is_text() ? args[1].to_text() : std::string();
    auto c = class_from_name(name);
    if (!c) throw_error("MATLAB:cast:UnsupportedClass", "Unsupported data type '%s'.",
                        name.c_str());
    to = *c;
  }
  Value r = convert(args[0], to);
  if (complex && r.is_tensor()) r = Value(r.tensor().to_complex());
  return {r};
}

Outputs bi_class(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  // A gpuArray's class is 'gpuArray' (classUnderlying gives its element class).
  return {Value::from_chars(args[0].is_gpu_array() ? "gpuArray" : args[0].class_name())};
}

bool is_float_value(const Value& v) { return v.is_tensor() && is_float_class(v.cls()); }
bool is_integer_value(const Value& v) { return v.is_tensor() && is_integer_class(v.cls()); }

/// isa(x, name): name is a class name or one of the categories 'numeric', 'float', 'integer'.
Outputs bi_isa(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  std::string name = args[1].to_text("class name");
  const Value& x = args[0];
  bool r;
  if (name == "numeric") r = x.is_numeric();
  else if (name == "float") r = is_float_value(x);
  else if (name == "integer") r = is_integer_value(x);
  else if (x.is_gpu_array()) r = name == "gpuArray";
  else if (x.is_object()) r = x.object()->isa(name);
  else r = x.class_name() == name;
  return {Value::logical(r)};
}

template <bool (*Pred)(const Value&)>
Outputs class_pred(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value::logical(Pred(args[0]))};
}

bool p_numeric(const Value& v) { return v.is_numeric(); }
bool p_logical(const Value& v) { return v.is_logical(); }
bool p_char(const Value& v) { return v.is_char(); }
bool p_cell(const Value& v) { return v.is_cell(); }
bool p_struct(const Value& v) { return v.is_struct(); }
bool p_string(const Value& v) { return v.is_string(); }
bool p_function(const Value& v) { return v.is_function(); }
bool p_complex(const Value& v) { return v.kind() == Value::Kind::Array && v.tensor().is_complex(); }
bool p_real(const Value& v) { return v.is_tensor() && !p_complex(v); }

}  // namespace

void register_types(Registry& r) {
  r.add("double", bi_convert<ClassId::Double>, [](double x) { return x; });
  r.add("single", bi_convert<ClassId::Single>);
  r.add("logical", bi_convert<ClassId::Logical>);
  r.add("int8", bi_convert<ClassId::Int8>);
  r.add("int16", bi_convert<ClassId::Int16>);
  r.add("int32", bi_convert<ClassId::Int32>);
  r.add("int64", bi_convert<ClassId::Int64>);
  r.add("uint8", bi_convert<ClassId::UInt8>);
  r.add("uint16", bi_convert<ClassId::UInt16>);
  r.add("uint32", bi_convert<ClassId::UInt32>);
  r.add("uint64", bi_convert<ClassId::UInt64>);
  r.add("char", bi_char);
  r.add("cast", bi_cast);
  r.add("class", bi_class);
  r.add("isa", bi_isa);
  r.add("isnumeric", class_pred<p_numeric>);
  r.add("isfloat", class_pred<is_float_value>);
  r.add("isinteger", class_pred<is_integer_value>);
  r.add("islogical", class_pred<p_logical>);
  r.add("ischar", class_pred<p_char>);
  r.add("iscell", class_pred<p_cell>);
  r.add("isstruct", class_pred<p_struct>);
  r.add("isstring", class_pred<p_string>);
  r.add("isreal", class_pred<p_real>);
  r.add("iscomplex", class_pred<p_complex>);
  r.add("is_function_handle", class_pred<p_function>);
}

}  // namespace matfuse
