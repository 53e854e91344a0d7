// Helpers of the misc family that other parts (interpreter, tests) may reuse.
#pragma once

#include <string>
#include <string_view>

#include "builtins/registry.h"

namespace matfuse {

/// MATLAB isequal (nan_equal = false) / isequaln (true) of two values: same dims and values;
/// class is ignored among numeric, char and logical; a char row equals a string scalar with the
/// same text; struct fields compare regardless of order; named function handles compare by name.
bool values_equal(const Value& a, const Value& b, bool nan_equal);

/// Identifier and message of error/warning/assert arguments (MATLAB rules):
///   (msg)                 -> message msg taken literally (no format, no escapes)
///   (id, fmt, A...)       -> when the first of 2+ arguments is a message identifier
///   (fmt, A...)           -> otherwise, message = sprintf(fmt, A...)
struct MessageParts {
  std::string identifier;
  std::string message;
};
MessageParts parse_message_args(Args args, std::string_view fname);

/// isvarname rules: letter, then letters/digits/underscores, at most 63 characters, no keyword.
bool is_valid_varname(std::string_view s);

}  // namespace matfuse
