#include "builtins/registry.h"

#include <algorithm>

namespace matfuse {

// Families registered here only (declared locally so the shared header stays unchanged).
void register_bits(Registry& r);     // bitand ... bitshift, dec2bin ... (bits.cc)
void register_matfun(Registry& r);   // issymmetric, rref, rcond, pagemtimes, repelem (matfun.cc)
void register_polycalc(Registry& r); // polyder, polyint, spline, pchip, gradient (polycalc.cc)
void register_compat(Registry& r);   // structfun, cell2struct, evalc, iskeyword (compat.cc)
void register_rational(Registry& r); // rat, rats (rational.cc)
void register_missing(Registry& r);  // missing, standardizeMissing, rmmissing (missing.cc)
void register_specmat(Registry& r);  // hilb, pascal, rosser, vander, ... (specmat.cc)
void register_extras(Registry& r);   // statistics, strings and math extras (extras.cc)
void register_extras2(Registry& r);  // text predicates, matrix functions, folders (extras2.cc)
void register_special_functions(Registry& r);  // psi, Bessel functions, legendre (special_functions.cc)
void register_validators(Registry& r);  // mustBePositive ... mustBeFolder (validators.cc)
void register_datetime(Registry& r); // datetime, duration, calendarDuration (datetime*.cc)
void register_table(Registry& r);    // table and its functions (table*.cc)
void register_sparse(Registry& r);   // sparse matrices (sparse*.cc)

void Registry::add(std::string name, BuiltinFn fn, double (*s1)(double), double (*s2)(double, double)) {
  Builtin b;
  b.name = name;
  b.fn = fn;
  b.scalar1 = s1;
  b.scalar2 = s2;
  auto [it, inserted] = table_.try_emplace(std::move(name), std::move(b));
  MF_ASSERT(inserted, "builtin '" + it->first + "' is registered twice");
}

const Builtin* Registry::find(std::string_view name) const {
  auto it = table_.find(name);
  return it == table_.end() ? nullptr : &it->second;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  out.reserve(table_.size());
  for (const auto& [k, v] : table_) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

const Registry& builtins() {
  static const Registry table = [] {
    Registry r;
    register_elementwise(r);
    register_reduce(r);
    register_construct(r);
    register_linalg(r);
    register_types(r);
    register_strings(r);
    register_cells_structs(r);
    register_io(r);
    register_rng(r);
    register_misc(r);
    register_constants(r);
    register_find(r);
    register_math(r);
    register_arrays(r);
    register_data(r);
    register_linalg_ext(r);
    register_signal(r);
    register_text(r);
    register_files(r);
    register_introspect(r);
    register_errors(r);
    register_json(r);
    register_gpu(r);
    register_graphics(r);
    register_feature(r);
    register_ode(r);
    register_optim(r);
    register_quadrature(r);
    register_bits(r);
    register_matfun(r);
    register_polycalc(r);
    register_compat(r);
    register_rational(r);
    register_missing(r);
    register_specmat(r);
    register_extras(r);
    register_extras2(r);
    register_special_functions(r);
    register_validators(r);
    register_datetime(r);
    register_console(r);
    register_table(r);
    register_sparse(r);
    return r;
  }();
  return table;
}

void check_nargin(Args args, size_t lo, size_t hi) {
  if (args.size() < lo) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  if (args.size() > hi) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
}

void check_nargout(int nargout, int hi) {
  if (nargout > hi) throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
}

}  // namespace matfuse
