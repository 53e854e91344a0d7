// The builtin function table.
//
// Every builtin is registered once, by name, from its family file (elementwise.cc, reduce.cc,
// construct.cc, linalg.cc, types.cc, strings.cc, cells_structs.cc, io.cc, rng.cc, misc.cc).
// A builtin receives its evaluated arguments and the number of requested outputs (nargout, 0
// when called as a statement) and returns its outputs (at least one when nargout >= 1, or zero
// or one when nargout == 0; a value returned for nargout == 0 becomes `ans`).
//
// Errors: builtins throw MatlabError with MATLAB identifiers, e.g.
//   MATLAB:minrhs ("Not enough input arguments."), MATLAB:TooManyInputs ("Too many input
//   arguments."), MATLAB:TooManyOutputs ("Too many output arguments."),
//   MATLAB:sizeDimensionsMustMatch ("Arrays have incompatible sizes for this operation."),
//   MATLAB:UndefinedFunction ("Undefined function 'f' for input arguments of type 'cell'.").
// The interpreter fills in "Error using NAME" and the stack.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/session.h"
#include "runtime/value.h"

namespace matfuse {

using Args = std::span<const Value>;
using Outputs = std::vector<Value>;

/// Services the interpreter offers to builtins.
class CallContext {
public:
  virtual ~CallContext() = default;
  /// Process-wide state (RNG, display format, tic, warnings, last error, output streams).
  virtual Session& session() = 0;
  /// Calls a function handle or a function by name with arguments; returns nargout outputs
  /// (or up to one when nargout == 0). Used by cellfun, arrayfun, feval, ...
  virtual Outputs call(const Value& fn, Args args, int nargout) = 0;
  virtual Outputs call_named(std::string_view name, Args args, int nargout) = 0;
  /// Displays value as an unsuppressed statement result named `name` would ("x = ..."),
  /// or as disp() does when name is empty.
  virtual void display(const Value& v, std::string_view name) = 0;
  /// exist(): 1 variable in the caller's workspace, 2 file, 5 builtin, 0 none (MATLAB codes).
  virtual int exist(std::string_view name) = 0;
  /// Evaluates code text in the caller's workspace (eval).
  virtual Outputs eval_text(std::string_view code, int nargout) = 0;
  /// The caller's workspace variables as (name, value), sorted by name (save). Default: none.
  virtual std::vector<std::pair<std::string, Value>> workspace_variables() { return {}; }
  /// Assigns variable `name` in the caller's workspace (load). Default: matfuse:notAvailable.
  virtual void assign_variable(std::string_view name, const Value& v) {
    (void)v;
    throw_error("matfuse:notAvailable", "Cannot assign '%.*s': no caller workspace.",
                static_cast<int>(name.size()), name.data());
  }
};

using BuiltinFn = Outputs (*)(CallContext& ctx, Args args, int nargout);

struct Builtin {
  std::string name;
  BuiltinFn fn = nullptr;
  /// Optional fast paths for real double scalars (the interpreter's allocation-free loop path).
  /// Must agree exactly with fn on real double scalar arguments that give real results.
  double (*scalar1)(double) = nullptr;
  double (*scalar2)(double, double) = nullptr;
};

class Registry {
public:
  /// Registers `name`. A name is registered once only: a second registration of the same name
  /// is an internal error (InternalError naming the builtin), so no implementation is silently
  /// shadowed by another.
  void add(std::string name, BuiltinFn fn, double (*s1)(double) = nullptr,
           double (*s2)(double, double) = nullptr);
  const Builtin* find(std::string_view name) const;
  std::vector<std::string> names() const;  ///< sorted
  size_t size() const { return table_.size(); }

private:
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, Builtin, NameHash, std::equal_to<>> table_;
};

/// The process-wide table with every family registered.
const Registry& builtins();

// Family registration hooks (one per file, called by builtins()).
void register_elementwise(Registry& r);
void register_reduce(Registry& r);
void register_construct(Registry& r);
void register_linalg(Registry& r);
void register_types(Registry& r);
void register_strings(Registry& r);
void register_cells_structs(Registry& r);
void register_io(Registry& r);
void register_rng(Registry& r);
void register_misc(Registry& r);
void register_constants(Registry& r);
void register_find(Registry& r);
void register_math(Registry& r);        // special functions, number theory
void register_arrays(Registry& r);      // shape and construction extras
void register_data(Registry& r);        // data analysis, sorting, sets
void register_linalg_ext(Registry& r);  // factorizations and decompositions
void register_signal(Registry& r);      // polynomials, filters, interpolation, FFT
void register_text(Registry& r);        // regexp and text extras, containers.Map
void register_files(Registry& r);       // load/save, readmatrix/writematrix, time
void register_introspect(Registry& r);  // typecast, validateattributes, orderfields, mat2cell
void register_errors(Registry& r);      // MException and its methods (errors.cc)
void register_json(Registry& r);        // jsonencode, jsondecode (json.cc)
void register_gpu(Registry& r);         // gpuArray, gather, gpuDevice, gputimeit (gpu.cc)
void register_graphics(Registry& r);    // figures, axes, plots, export (src/graphics/)
void register_feature(Registry& r);     // feature(...) run-time switches (feature.cc)
void register_ode(Registry& r);         // ode45, ode23, ode23s, odeset, odeget, deval (ode.cc)
void register_optim(Registry& r);       // fzero, fminbnd, fminsearch, optimset, lsqnonneg
void register_quadrature(Registry& r);  // integral, integral2/3, quad, quadgk, dblquad
void register_console(Registry& r);     // clc, diary, more, beep, exit, quit (console.cc)

// Argument checking helpers.
/// Throws MATLAB:minrhs / MATLAB:TooManyInputs when args.size() is outside [lo, hi].
void check_nargin(Args args, size_t lo, size_t hi);
/// Throws MATLAB:TooManyOutputs when nargout > hi.
void check_nargout(int nargout, int hi);

}  // namespace matfuse
