// Methods of value classes implemented in C++ (datetime, duration, calendarDuration, table): MATLAB's
// method dispatch for them. A call f(args...) of a function, or an operator (plus, eq, colon,
// transpose, ...), whose arguments include an object of a class that registered a method of
// that name runs the method instead (the first object argument with such a method wins); a
// method that is no function of its own (datevec of a datetime) is found the same way.
// Methods are registered once per (class, name) while the builtin table is built
// (builtins()); a second registration is an internal error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "builtins/registry.h"

namespace matfuse {

void add_class_method(std::string cls, std::string name, BuiltinFn fn);
/// The method `name` of class `cls`, or null.
const Builtin* find_class_method(std::string_view cls, std::string_view name);
/// The method `name` of the first object argument whose class has one, or null.
const Builtin* dispatch_class_method(std::string_view name, Args args);

/// Builtins that take sparse matrices as they are (the sparse family's own functions); the
/// interpreter passes other builtins without a sparse method full operands.
void add_sparse_aware(std::string name);
bool is_sparse_aware(std::string_view name);

/// The caller's variable name of argument k of the builtin call running now when that argument
/// is a plain variable (MATLAB's inputname), else "". nargs: the call's argument count.
std::string caller_arg_name(CallContext& ctx, size_t k, size_t nargs);
/// Installed by the interpreter: answers caller_arg_name.
using ArgNameHook = std::string (*)(CallContext& ctx, size_t k, size_t nargs);
void set_arg_name_hook(ArgNameHook hook);

}  // namespace matfuse
