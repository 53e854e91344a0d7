// Methods of classes implemented in C++ (table, ...), and the caller's argument names.
//
// A method registered for class C under a name runs instead of the builtin or function that
// name resolves to when the first object argument of a call is of class C (MATLAB's method
// dispatch): sortrows(T) with a table T runs the table's sortrows.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "builtins/registry.h"

namespace matfuse {

/// Registers fn as method `name` of class `cls`. A pair is registered once (internal error
/// otherwise, as Registry::add).
void add_builtin_method(std::string_view cls, std::string_view name, BuiltinFn fn);
/// The method `name` of class `cls`, or null.
const Builtin* find_builtin_method(std::string_view cls, std::string_view name);

/// The caller's variable name of argument k of the builtin call running now when that argument
/// is a plain variable (MATLAB's inputname), else "". nargs: the call's argument count.
std::string caller_arg_name(CallContext& ctx, size_t k, size_t nargs);
/// Installed by the interpreter: answers caller_arg_name.
using ArgNameHook = std::string (*)(CallContext& ctx, size_t k, size_t nargs);
void set_arg_name_hook(ArgNameHook hook);

}  // namespace matfuse
