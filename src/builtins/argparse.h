// Shared parsing of MATLAB size-argument lists and trailing class options.
//
// Builtins such as zeros, ones, eye, rand, randn, randi, Inf, NaN, true, false, cell, strings ...
// take their output size in one of these forms (MATLAB semantics):
//   f()             -> 1x1
//   f(n)            -> n x n
//   f(m, n, p, ...) -> m x n x p ...   (each argument a real scalar)
//   f([m n p ...])  -> m x n x p ...   (one real vector with at least two elements)
//   f([])           -> 0x0 (an empty size vector)
// Negative sizes are treated as 0 (MATLAB). Trailing singleton dimensions are dropped.
// Size inputs must be real, finite integer values; numeric, logical and char size arguments are
// accepted as MATLAB does. Errors:
//   MATLAB:NonIntegerInput  "Size inputs must be integers."
//   MATLAB:NonScalarInput   "Size inputs must be scalar."
//   MATLAB:NonIntegerInput  "Size inputs must be real." for complex values
//   MATLAB:invalidSizeArg   "Size inputs must be numeric." for other kinds (cell, struct, ...).
// After the size list, constructors accept either a class name ('double', 'single', 'int8',
// ..., 'uint64', 'logical') or the pair 'like', p (class and complexity of prototype p).
// Text arguments (char rows or string scalars) never count as sizes.
#pragma once

#include <optional>
#include <string_view>

#include "builtins/registry.h"
#include "runtime/dims.h"
#include "runtime/dtype.h"
#include "runtime/value.h"

namespace matfuse {

/// Result of parse_size_class().
struct SizeClassArgs {
  Dims dims = Dims(1, 1);        ///< requested size, normalized
  ClassId cls = ClassId::Double; ///< class from a class name or 'like', else the default class
  bool class_given = false;      ///< a class name or 'like' was present
  bool like_given = false;       ///< the 'like', p form was used
  bool complex = false;          ///< 'like' prototype is complex
};

/// Parses a whole size list (no class options): the forms listed above. `fname` only names the
/// builtin in messages. An empty args span means 1x1.
Dims parse_size_list(Args args, std::string_view fname);

/// One size argument as an integer (negative clamped to 0). Throws MATLAB:NonIntegerInput for
/// NaN/Inf/fractional values and MATLAB:NonScalarInput for non-scalars.
int64_t size_arg_scalar(const Value& v);

/// The class named by text ("double", "single", "logical", "int8" ... "uint64"); nullopt for
/// other text or non-text values.
std::optional<ClassId> class_name_arg(const Value& v);

/// Parses `f(sizes..., CLASSNAME)` and `f(sizes..., 'like', p)`. Classes outside `allowed`
/// (a predicate; null accepts every class except char) raise MATLAB:invalidInputClass
/// "Class name '<c>' is not supported by <fname>."; unknown text raises
/// MATLAB:invalidInputClass "Invalid data type. Argument must be a numeric or logical class
/// name." A 'like' prototype that is not numeric/logical (cell, struct, ...) raises
/// MATLAB:invalidInputClass too; 'like' without a prototype raises MATLAB:minrhs.
SizeClassArgs parse_size_class(Args args, std::string_view fname, ClassId default_cls,
                               bool (*allowed)(ClassId) = nullptr);

}  // namespace matfuse
