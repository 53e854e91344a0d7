// Helpers shared by the numerical-solver families (ode.cc, ode_stiff.cc, optim.cc,
// quadrature.cc): real vectors to and from values, calls of user functions through
// CallContext::call, and option structs (odeset/optimset) read by name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "builtins/registry.h"
#include "runtime/value.h"

namespace matfuse::num {

using Vec = std::vector<double>;

/// n x 1 / 1 x n double tensors from values.
Tensor colvec(const std::vector<double>& v);
Tensor rowvec(const std::vector<double>& v);
/// m x n double matrix from column-major values.
Tensor matrix(int64_t m, int64_t n, const std::vector<double>& v);
/// Every element of a real numeric/logical value as double (column-major). Complex values raise
/// `MATLAB:<fname>:complexValue`-style errors naming what; other kinds MATLAB:UndefinedFunction.
std::vector<double> reals(const Value& v, const char* fname, const char* what = "input");

/// Calls fn (function handle or name) with args; returns nargout outputs (at least one when
/// nargout >= 1; raises MATLAB:TooManyOutputs-style error if the function returned none).
Outputs callf(CallContext& ctx, const Value& fn, std::vector<Value> args, int nargout = 1);
/// Real scalar result of fn(args...); errors name `fname` when the value is not a real scalar.
double call_scalar(CallContext& ctx, const Value& fn, std::vector<Value> args, const char* fname);

/// Field `name` of an options struct (case-insensitive), or [] when opts is [] / lacks it.
Value opt(const Value& opts, std::string_view name);
/// Real scalar option with default when absent or empty.
double opt_double(const Value& opts, std::string_view name, double dflt);
/// Lower-cased text option, dflt when absent or empty.
std::string opt_text(const Value& opts, std::string_view name, std::string_view dflt);
/// True when v is [] (0x0 double) or any empty value.
inline bool absent(const Value& v) { return v.is_empty() && !v.is_function(); }

/// A 1x1 struct with the given fields in order.
Value make_struct(const std::vector<std::pair<std::string, Value>>& fields);

/// Index of option `name` in `fields`: the case-insensitive exact match, else the one field that
/// name is a prefix of; -1 when none matches, -2 when the prefix is ambiguous.
int find_option(const std::vector<std::string>& fields, std::string_view name);

/// Builds a set-style options struct: `fields` in order, all [] unless given by `args`
/// (old struct(s) and/or name/value pairs, names matched case-insensitively and by unique
/// prefix). Errors: `<id>:InvalidPropName` "Unrecognized property name 'x'.",
/// `<id>:NoPropValue` when a name has no value.
Value set_options(Args args, const std::vector<std::string>& fields, const char* id,
                  const char* fname);

/// Emits warning(id, msg) through the interpreter.
void warn(CallContext& ctx, const char* id, const std::string& msg);

/// Function-handle text for messages ("@(x)x.^2", "sin").
std::string fn_text(const Value& fn);

/// Infinity norm of v ./ w.
double wnorm_inf(const std::vector<double>& v, const std::vector<double>& w);

/// LU factorization of the n x n column-major A in place (LAPACK dgetrf); false when singular.
bool lu_factor(std::vector<double>& A, std::vector<int>& piv, int n);
/// Solves A x = b in place with the factors of lu_factor (LAPACK dgetrs).
void lu_solve(const std::vector<double>& LU, const std::vector<int>& piv, int n,
              std::vector<double>& b);

/// Solves A x = b in place (A n x n column-major, overwritten); false when singular.
bool solve_dense(std::vector<double> A, std::vector<double>& b, int n);

}  // namespace matfuse::num
