// Builtins of the "json" family: jsonencode and jsondecode, on nlohmann/json (ordered_json keeps
// MATLAB's field order). MATLAB's mapping:
//   encode: numeric/logical scalar -> number/true/false; vector -> array; matrix -> array of
//   row arrays (N-d: nested by the first dimension, as MATLAB); [] -> []; char row -> string;
//   char matrix -> array of strings; string scalar -> string, string array -> array, <missing>
//   -> null; cell -> array of its encoded elements; scalar struct -> object; struct array ->
//   array of objects; NaN and Inf -> null ('ConvertInfAndNaN', true, the default) or the bare
//   tokens NaN, Infinity, -Infinity (false). 'PrettyPrint', true indents by two spaces.
//   decode: null -> [] ; true/false -> logical; number -> double; string -> char row; object ->
//   scalar struct (keys made valid names as matlab.lang.makeValidName does); an array of
//   numbers (null -> NaN) -> column vector, of booleans -> logical column, of equal-length
//   numeric arrays -> matrix (rows), of objects with the same keys -> struct array (Nx1),
//   anything else -> cell column; [] -> [].
// Without nlohmann/json at build time both raise matfuse:notAvailable.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "builtins/argparse.h"
#include "builtins/format.h"
#include "builtins/registry.h"
#include "runtime/stack_guard.h"

#ifdef MATFUSE_HAVE_NLOHMANN_JSON
#include <nlohmann/json.hpp>
#endif

namespace matfuse {

namespace {

#ifdef MATFUSE_HAVE_NLOHMANN_JSON
using json = nlohmann::ordered_json;

struct EncodeOptions {
  bool convert_inf_nan = true;
  bool pretty = false;
};

// Bare NaN/Infinity tokens cannot live in a json value: strings with this prefix stand for them
// and are unquoted after dumping.
const char* const kRawMark = "\x01raw:";

json number_json(double v, const EncodeOptions& o) {
  if (std::isnan(v) || std::isinf(v)) {
    if (o.convert_inf_nan) return nullptr;
    return std::string(kRawMark) + (std::isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
  }
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0)
    return static_cast<int64_t>(v);
  return v;
}

json encode(const Value& v, const EncodeOptions& o);

/// Elements [off, off + count) of a tensor along the first dims for N-d nesting.
json encode_tensor(const Tensor& t, const EncodeOptions& o) {
  const Dims& d = t.dims();
  auto elem = [&](int64_t i) -> json {
    if (t.cls() == ClassId::Logical) return t.get_double(i) != 0;
    if (t.is_complex())
      throw_error("MATLAB:json:ComplexNotSupported", "Complex numbers are not supported.");
    return number_json(t.get_double(i), o);
  };
  if (t.numel() == 1) return elem(0);
  if (t.numel() == 0) return json::array();
  if (d.ndims() == 2 && (d.rows() == 1 || d.cols() == 1)) {
    json a = json::array();
    for (int64_t i = 0; i < t.numel(); ++i) a.push_back(elem(i));
    return a;
  }
  // Matrix / N-d: index (i1, ..., in) nested with the first dimension outermost.
  std::vector<int64_t> dims;
  for (int k = 0; k < d.ndims(); ++k) dims.push_back(d[k]);
  std::function<json(size_t, int64_t, int64_t)> nest = [&](size_t k, int64_t off,
                                                           int64_t stride) -> json {
    json a = json::array();
    for (int64_t i = 0; i < dims[k]; ++i) {
      const int64_t o2 = off + i * stride;
      if (k + 1 == dims.size()) a.push_back(elem(o2));
      else a.push_back(nest(k + 1, o2, stride * dims[k]));
    }
    return a;
  };
  return nest(0, 0, 1);
}

json encode(const Value& v, const EncodeOptions& o) {
  // Nested cells and structs recurse here and again in dump(): use at most half the stack.
  check_stack_depth(size_t{1} << 20, 0.5);
  if (v.is_char()) {
    const Tensor t = v.tensor();
    if (t.dims().rows() <= 1) return v.is_empty() ? std::string() : v.to_text();
    json a = json::array();
    const int64_t rows = t.dims().rows(), cols = t.dims().cols();
    for (int64_t r = 0; r < rows; ++r) {
      Tensor row = Tensor::uninit(ClassId::Char, Dims(1, cols));
      for (int64_t c = 0; c < cols; ++c) row.set_double(c, t.get_double(r + c * rows));
      a.push_back(Value(std::move(row)).to_text());
    }
    return a;
  }
  if (v.is_tensor()) return encode_tensor(v.tensor(), o);
  if (v.is_string()) {
    const StringArray& s = v.string_array();
    auto one = [](const std::optional<std::string>& x) -> json {
      if (!x) return nullptr;
      return *x;
    };
    if (s.numel() == 1) return one(s[0]);
    json a = json::array();
    for (int64_t i = 0; i < s.numel(); ++i) a.push_back(one(s[i]));
    return a;
  }
  if (v.is_cell()) {
    json a = json::array();
    for (const Value& e : v.cell().elems()) a.push_back(encode(e, o));
    return a;
  }
  if (v.is_struct()) {
    const StructArray& s = v.struct_array();
    auto obj = [&](int64_t i) {
      json j = json::object();
      for (size_t f = 0; f < s.fields().size(); ++f)
        j[s.fields()[f]] = encode(s.get(i, static_cast<int>(f)), o);
      return j;
    };
    if (s.numel() == 1) return obj(0);
    json a = json::array();
    for (int64_t i = 0; i < s.numel(); ++i) a.push_back(obj(i));
    return a;
  }
  throw_error("MATLAB:json:UnsupportedClass", "Unable to encode values of class '%s' as JSON.",
              v.class_name().c_str());
}

/// txt = jsonencode(data [, 'ConvertInfAndNaN', tf] [, 'PrettyPrint', tf]).
Outputs bi_jsonencode(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 5);
  check_nargout(nargout, 1);
  EncodeOptions o;
  if (args.size() % 2 == 0)
    throw_error("MATLAB:json:NameValuePairs", "Name-value arguments must come in pairs.");
  for (size_t k = 1; k + 1 < args.size(); k += 2) {
    std::string name = text_arg(args[k], "jsonencode", static_cast<int>(k + 1));
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool val = args[k + 1].to_double("option value") != 0;
    if (name == "convertinfandnan") o.convert_inf_nan = val;
    else if (name == "prettyprint") o.pretty = val;
    else
      throw_error("MATLAB:json:UnknownOption", "'%s' is not a recognized parameter.",
                  name.c_str());
  }
  std::string s = encode(args[0], o).dump(o.pretty ? 2 : -1);
  // Unquote the raw NaN/Infinity tokens.
  const std::string mark = std::string("\"") + kRawMark;
  for (size_t p = s.find(mark); p != std::string::npos; p = s.find(mark, p)) {
    const size_t end = s.find('"', p + mark.size());
    s = s.substr(0, p) + s.substr(p + mark.size(), end - p - mark.size()) + s.substr(end + 1);
  }
  // nlohmann writes the control character \x01 of the mark as \u0001: handle that form too.
  const std::string umark = "\"\\u0001raw:";
  for (size_t p = s.find(umark); p != std::string::npos; p = s.find(umark, p)) {
    const size_t end = s.find('"', p + umark.size());
    s = s.substr(0, p) + s.substr(p + umark.size(), end - p - umark.size()) + s.substr(end + 1);
  }
  return {char_row(s)};
}

/// matlab.lang.makeValidName: whitespace removed (the next letter upper-cased), other invalid
/// characters to '_', a leading non-letter prefixed with 'x', at most 63 characters.
std::string valid_name(const std::string& key) {
  std::string r;
  bool up = false;
  for (unsigned char c : key) {
    if (std::isspace(c)) {
      up = !r.empty();
      continue;
    }
    char ch = std::isalnum(c) || c == '_' ? static_cast<char>(c) : '_';
    if (up && std::isalpha(static_cast<unsigned char>(ch)))
      ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    up = false;
    r += ch;
  }
  if (r.empty() || !std::isalpha(static_cast<unsigned char>(r[0]))) r = "x" + r;
  if (r.size() > 63) r.resize(63);
  return r;
}

Value decode(const json& j);

bool all_numeric(const json& a) {
  for (const auto& e : a)
    if (!e.is_number() && !e.is_null()) return false;
  return true;
}

Value decode_array(const json& a) {
  if (a.empty()) return Value();
  bool nums = all_numeric(a) && !std::all_of(a.begin(), a.end(), [](const json& e) {
    return e.is_null();
  });
  if (nums) {
    Tensor t = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(a.size()), 1));
    for (size_t i = 0; i < a.size(); ++i)
      t.set_double(static_cast<int64_t>(i), a[i].is_null() ? NAN : a[i].get<double>());
    return Value(std::move(t));
  }
  if (std::all_of(a.begin(), a.end(), [](const json& e) { return e.is_boolean(); })) {
    Tensor t = Tensor::uninit(ClassId::Logical, Dims(static_cast<int64_t>(a.size()), 1));
    for (size_t i = 0; i < a.size(); ++i) t.set_double(static_cast<int64_t>(i), a[i].get<bool>());
    return Value(std::move(t));
  }
  // Equal-length numeric rows -> matrix.
  if (std::all_of(a.begin(), a.end(), [&](const json& e) {
        return e.is_array() && !e.empty() && e.size() == a[0].size() && all_numeric(e);
      })) {
    const int64_t rows = static_cast<int64_t>(a.size()), cols = static_cast<int64_t>(a[0].size());
    Tensor t = Tensor::uninit(ClassId::Double, Dims(rows, cols));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const json& e = a[static_cast<size_t>(r)][static_cast<size_t>(c)];
        t.set_double(r + c * rows, e.is_null() ? NAN : e.get<double>());
      }
    return Value(std::move(t));
  }
  // Objects with the same keys -> struct array.
  if (std::all_of(a.begin(), a.end(), [&](const json& e) {
        if (!e.is_object() || e.size() != a[0].size()) return false;
        auto i1 = e.begin();
        for (auto i0 = a[0].begin(); i0 != a[0].end(); ++i0, ++i1)
          if (i0.key() != i1.key()) return false;
        return true;
      })) {
    StructArray s(Dims(static_cast<int64_t>(a.size()), 1));
    for (auto it = a[0].begin(); it != a[0].end(); ++it) s.add_field(valid_name(it.key()));
    for (size_t i = 0; i < a.size(); ++i) {
      int f = 0;
      for (auto it = a[i].begin(); it != a[i].end(); ++it, ++f)
        s.at(static_cast<int64_t>(i), f) = decode(it.value());
    }
    return Value(std::move(s));
  }
  CellArray c(Dims(static_cast<int64_t>(a.size()), 1));
  for (size_t i = 0; i < a.size(); ++i) c.at(static_cast<int64_t>(i)) = decode(a[i]);
  return Value(std::move(c));
}

Value decode(const json& j) {
  check_stack_depth();
  switch (j.type()) {
    case json::value_t::null: return Value();
    case json::value_t::boolean: return Value::logical(j.get<bool>());
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return Value(j.get<double>());
    case json::value_t::string: return char_row(j.get<std::string>());
    case json::value_t::array: return decode_array(j);
    case json::value_t::object: {
      StructArray s(Dims(1, 1));
      for (auto it = j.begin(); it != j.end(); ++it) {
        const int f = s.add_field(valid_name(it.key()));
        s.at(0, f) = decode(it.value());
      }
      return Value(std::move(s));
    }
    default: return Value();
  }
}

/// val = jsondecode(txt): see the file comment for the mapping.
Outputs bi_jsondecode(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const std::string txt = text_arg(args[0], "jsondecode", 1);
  json j;
  try {
    j = json::parse(txt, nullptr, true, false);
  } catch (const json::parse_error& e) {
    throw_error("MATLAB:json:ExpectedValueAtLine", "JSON syntax error: %s", e.what());
  }
  return {decode(j)};
}
#else
Outputs bi_jsonencode(CallContext&, Args, int) {
  throw_error("matfuse:notAvailable", "jsonencode needs nlohmann/json, absent from this build.");
}
Outputs bi_jsondecode(CallContext&, Args, int) {
  throw_error("matfuse:notAvailable", "jsondecode needs nlohmann/json, absent from this build.");
}
#endif

}  // namespace

void register_json(Registry& r) {
  r.add("jsonencode", bi_jsonencode);
  r.add("jsondecode", bi_jsondecode);
}

}  // namespace matfuse
