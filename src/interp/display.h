// MATLAB-style display of values: unsuppressed statement results ("x = ...") and disp().
#pragma once

#include <ostream>
#include <string_view>

#include "runtime/session.h"
#include "runtime/value.h"

namespace matfuse {

/// What MATLAB prints for an unsuppressed `name = value` (or `ans = ...`), honouring
/// session.format (short/long/...) and session.compact. Includes the blank lines MATLAB prints
/// in format loose.
void display_value(std::ostream& os, const Value& v, std::string_view name, const Session& s);
/// What disp(v) prints.
void disp_value(std::ostream& os, const Value& v, const Session& s);

}  // namespace matfuse
