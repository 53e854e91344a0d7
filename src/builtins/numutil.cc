#include "builtins/numutil.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "builtins/lapack_inc.h"

namespace matfuse::num {

namespace {
std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}
}  // namespace

Tensor colvec(const std::vector<double>& v) {
  return matrix(static_cast<int64_t>(v.size()), 1, v);
}
Tensor rowvec(const std::vector<double>& v) {
  return matrix(1, static_cast<int64_t>(v.size()), v);
}
Tensor matrix(int64_t m, int64_t n, const std::vector<double>& v) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(m, n));
  double* d = t.mutable_data<double>();
  std::copy(v.begin(), v.begin() + m * n, d);
  return t;
}

std::vector<double> reals(const Value& v, const char* fname, const char* what) {
  if (v.is_scalar_double()) return {v.scalar()};
  if (!v.is_tensor())
    throw_error("MATLAB:UndefinedFunction", "Undefined function '%s' for input arguments of type '%s'.",
                fname, v.class_name().c_str());
  Tensor t = v.tensor();
  if (t.is_complex())
    throw_error(("MATLAB:" + std::string(fname) + ":complexInput").c_str(),
                "%s: the %s must be real.", fname, what);
  std::vector<double> r(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) r[i] = t.get_double(i);
  return r;
}

Outputs callf(CallContext& ctx, const Value& fn, std::vector<Value> args, int nargout) {
  Outputs o = ctx.call(fn, Args(args.data(), args.size()), nargout);
  if (static_cast<int>(o.size()) < std::max(nargout, 1))
    throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  return o;
}

double call_scalar(CallContext& ctx, const Value& fn, std::vector<Value> args, const char* fname) {
  Value r = callf(ctx, fn, std::move(args), 1)[0];
  if (r.is_scalar_double()) return r.scalar();
  if (!r.is_tensor() || r.numel() != 1)
    throw_error("MATLAB:optimfcnchk:checkfun:NonScalarFunctionValue",
                "%s: the function must return a scalar value.", fname);
  Tensor t = r.tensor();
  if (t.is_complex() && t.get_complex(0).imag() != 0)
    throw_error("MATLAB:optimfcnchk:checkfun:ComplexFval",
                "%s: the function returned a complex value; it must return a real value.", fname);
  return t.get_double(0);
}

Value opt(const Value& opts, std::string_view name) {
  if (!opts.is_struct() || opts.numel() < 1) return Value();
  const StructArray& s = opts.struct_array();
  std::string ln = lower(name);
  for (size_t i = 0; i < s.fields().size(); ++i)
    if (lower(s.fields()[i]) == ln) return s.get(0, static_cast<int>(i));
  return Value();
}

double opt_double(const Value& opts, std::string_view name, double dflt) {
  Value v = opt(opts, name);
  if (absent(v)) return dflt;
  if (v.is_text()) return dflt;  // e.g. '200*numberofvariables' placeholders
  return v.to_double(std::string(name).c_str());
}

std::string opt_text(const Value& opts, std::string_view name, std::string_view dflt) {
  Value v = opt(opts, name);
  if (absent(v)) return std::string(dflt);
  if (v.is_text()) return lower(v.to_text());
  if (v.is_logical() || v.is_numeric()) return v.to_double() != 0 ? "on" : "off";
  return std::string(dflt);
}

Value make_struct(const std::vector<std::pair<std::string, Value>>& fields) {
  StructArray s(Dims(1, 1));
  for (const auto& [k, v] : fields) s.at(0, s.add_field(k)) = v;
  return Value(s);
}

int find_option(const std::vector<std::string>& fields, std::string_view name) {
  std::string g = lower(std::string(name));
  int found = -1, nfound = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    std::string f = lower(fields[i]);
    if (f == g) return static_cast<int>(i);
    if (f.compare(0, g.size(), g) == 0) {
      found = static_cast<int>(i);
      ++nfound;
    }
  }
  return nfound == 1 ? found : nfound > 1 ? -2 : -1;
}

Value set_options(Args args, const std::vector<std::string>& fields, const char* id,
                  const char* fname) {
  StructArray s(Dims(1, 1));
  for (const auto& f : fields) s.add_field(f);
  auto match = [&](const std::string& given) -> int {
    int f = find_option(fields, given);
    if (f >= 0) return f;
    if (f == -2)
      throw_error((std::string(id) + ":AmbiguousPropName").c_str(),
                  "Ambiguous property name '%s'.", given.c_str());
    throw_error((std::string(id) + ":InvalidPropName").c_str(), "Unrecognized property name '%s'.",
                given.c_str());
  };
  size_t i = 0;
  // Leading structs: their fields (known ones) override in order.
  while (i < args.size() && (args[i].is_struct() || (args[i].is_empty() && !args[i].is_text()))) {
    if (args[i].is_struct() && args[i].numel() >= 1) {
      const StructArray& o = args[i].struct_array();
      for (size_t k = 0; k < o.fields().size(); ++k) {
        const Value& v = o.get(0, static_cast<int>(k));
        int f = -1;
        std::string lf = lower(o.fields()[k]);
        for (size_t j = 0; j < fields.size(); ++j)
          if (lower(fields[j]) == lf) f = static_cast<int>(j);
        if (f < 0) continue;
        if (!absent(v)) s.at(0, f) = v;
      }
    }
    ++i;
  }
  for (; i < args.size(); i += 2) {
    if (!args[i].is_text())
      throw_error((std::string(id) + ":NoPropName").c_str(),
                  "Expected argument %d to be a string property name.", static_cast<int>(i + 1));
    std::string name = args[i].to_text();
    int f = match(name);
    if (i + 1 >= args.size())
      throw_error((std::string(id) + ":NoValueForProp").c_str(), "Value for property '%s' is missing.",
                  name.c_str());
    s.at(0, f) = args[i + 1];
  }
  (void)fname;
  return Value(s);
}

void warn(CallContext& ctx, const char* id, const std::string& msg) {
  Value a[3] = {Value::from_chars(id), Value::from_chars("%s"), Value::from_chars(msg)};
  ctx.call_named("warning", Args(a, 3), 0);
}

std::string fn_text(const Value& fn) {
  if (fn.is_function()) {
    std::string n = fn.function()->name();
    return n.empty() ? fn.function()->display() : n;
  }
  if (fn.is_text()) return fn.to_text();
  return "function";
}

double wnorm_inf(const std::vector<double>& v, const std::vector<double>& w) {
  double m = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    double a = std::abs(v[i] / w[i]);
    if (a > m || std::isnan(a)) m = a;
  }
  return m;
}

bool lu_factor(std::vector<double>& A, std::vector<int>& piv, int n) {
  std::vector<lapack_int> ip(static_cast<size_t>(n));
  lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, A.data(), n, ip.data());
  piv.assign(ip.begin(), ip.end());
  return info == 0;
}

void lu_solve(const std::vector<double>& LU, const std::vector<int>& piv, int n,
              std::vector<double>& b) {
  std::vector<lapack_int> ip(piv.begin(), piv.end());
  LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, 1, LU.data(), n, ip.data(), b.data(), n);
}

bool solve_dense(std::vector<double> A, std::vector<double>& b, int n) {
  std::vector<lapack_int> piv(static_cast<size_t>(n));
  lapack_int info = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, A.data(), n, piv.data(), b.data(), n);
  return info == 0;
}

}  // namespace matfuse::num
