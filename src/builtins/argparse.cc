// Size-list and class-option parsing shared by constructors (see argparse.h).
#include "builtins/argparse.h"

#include <cctype>
#include <cmath>
#include <string>

namespace matfuse {

namespace {

int64_t size_from_double(double d) {
  if (std::isnan(d) || std::isinf(d) || d != std::floor(d))
    throw_error("MATLAB:NonIntegerInput", "Size inputs must be integers.");
  if (d < 0) return 0;
  if (d > 9.0e15) throw_error("MATLAB:array:SizeLimitExceeded",
                              "Requested array exceeds the maximum possible variable size.");
  return static_cast<int64_t>(d);
}

void require_numeric_size(const Value& v) {
  if (!v.is_tensor())
    throw_error("MATLAB:invalidSizeArg", "Size inputs must be numeric.");
  if (v.kind() == Value::Kind::Array && v.tensor().is_complex())
    throw_error("MATLAB:NonIntegerInput", "Size inputs must be real.");
}

}  // namespace

int64_t size_arg_scalar(const Value& v) {
  if (v.is_scalar_double()) return size_from_double(v.scalar());
  require_numeric_size(v);
  if (v.numel() != 1) throw_error("MATLAB:NonScalarInput", "Size inputs must be scalar.");
  return size_from_double(v.tensor().get_double(0));
}

Dims parse_size_list(Args args, std::string_view fname) {
  (void)fname;
  if (args.empty()) return Dims(1, 1);
  if (args.size() == 1) {
    const Value& v = args[0];
    if (v.is_scalar_double() || (v.is_tensor() && v.numel() == 1)) {
      int64_t n = size_arg_scalar(v);
      return Dims(n, n);
    }
    require_numeric_size(v);
    Tensor t = v.tensor();
    if (t.numel() == 0) return Dims(0, 0);
    // MATLAB requires a row vector of sizes; accept any vector shape.
    if (!t.dims().is_vector())
      throw_error("MATLAB:checkDimCommon:nonRowSize",
                  "Size vector must be a row vector with real elements.");
    Dims d;
    d = Dims(size_from_double(t.get_double(0)), size_from_double(t.get_double(1)));
    for (int64_t i = 2; i < t.numel(); ++i) d.push_back(size_from_double(t.get_double(i)));
    d.normalize();
    return d;
  }
  Dims d(size_arg_scalar(args[0]), size_arg_scalar(args[1]));
  for (size_t i = 2; i < args.size(); ++i) d.push_back(size_arg_scalar(args[i]));
  d.normalize();
  return d;
}

std::optional<ClassId> class_name_arg(const Value& v) {
  if (!v.is_text()) return std::nullopt;
  std::string s = v.to_text();
  auto c = class_from_name(s);
  if (!c || *c == ClassId::Char) return std::nullopt;
  return c;
}

SizeClassArgs parse_size_class(Args args, std::string_view fname, ClassId default_cls,
                               bool (*allowed)(ClassId)) {
  SizeClassArgs out;
  out.cls = default_cls;
  size_t n = args.size();
  auto is_like = [](const Value& v) {
    if (!v.is_text()) return false;
    std::string s = v.to_text();
    if (s.size() != 4) return false;
    for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s == "like";
  };
  std::string fn(fname);
  if (n >= 1 && is_like(args[n - 1]) && !(n >= 2 && is_like(args[n - 2])))
    throw_error("MATLAB:minrhs", "Not enough input arguments.");
  if (n >= 2 && is_like(args[n - 2])) {
    const Value& p = args[n - 1];
    if (!p.is_tensor())
      throw_error("MATLAB:invalidInputClass",
                  "The 'like' prototype of %s must be a numeric or logical array, not %s.",
                  fn.c_str(), p.class_name().c_str());
    out.cls = p.cls() == ClassId::Char ? ClassId::Double : p.cls();
    out.complex = p.kind() == Value::Kind::Array && p.tensor().is_complex();
    out.class_given = out.like_given = true;
    n -= 2;
  } else if (n >= 1 && args[n - 1].is_text()) {
    std::string s = args[n - 1].to_text();
    auto c = class_from_name(s);
    if (!c || *c == ClassId::Char)
      throw_error("MATLAB:invalidInputClass",
                  "Invalid data type. Argument must be a numeric or logical class name.");
    out.cls = *c;
    out.class_given = true;
    n -= 1;
  }
  if (out.class_given && allowed && !allowed(out.cls))
    throw_error("MATLAB:invalidInputClass", "Class name '%s' is not supported by %s.",
                std::string(class_name(out.cls)).c_str(), fn.c_str());
  for (size_t i = 0; i < n; ++i)
    if (args[i].is_text())
      throw_error("MATLAB:invalidInputClass",
                  "Invalid data type. Argument must be a numeric or logical class name.");
  out.dims = parse_size_list(args.subspan(0, n), fname);
  return out;
}

}  // namespace matfuse
