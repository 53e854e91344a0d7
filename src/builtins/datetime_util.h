// Helpers shared by the datetime files (datetime_funcs.cc, datetime_ops.cc).
#pragma once

#include <string>
#include <vector>

#include "builtins/datetime.h"
#include "builtins/registry.h"

namespace matfuse::datetime_detail {

/// Every element of a numeric or logical argument as double (MATLAB:datetime:InvalidNumericData
/// for other classes or complex values).
std::vector<double> numbers(const Value& v, const char* fname);
/// The common size of numeric arguments that must agree or be scalars.
Dims common_dims(Args args, const char* fname);
/// Lower-case text of an option argument ("" when it is not text).
std::string option_name(const Value& v);
/// A double array of dims d holding v.
Tensor doubles_tensor(const Dims& d, const std::vector<double>& v);
/// The datetime array of v, or MATLAB:UndefinedFunction naming fname.
const DatetimeArray& datetime_arg(const Value& v, const char* fname);
/// Local clock ms plus a number of calendar months (the day clamped to the month's end).
double add_months_local(double local, double months);

}  // namespace matfuse::datetime_detail
