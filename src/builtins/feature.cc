// feature(NAME[, VALUE]): matfuse's run-time switches from a script (MATLAB's own `feature` is
// an undocumented switchboard of the same shape). Names (case-insensitive):
//   'MathMode'  'exact' (default) or 'fast' (DESIGN.md decision 7, docs/math-modes.md): the mode
//               of kernels lowered from now on. Returns the mode before the call, as a char row.
// Errors: matfuse:feature:unknownName for another name, matfuse:feature:badValue for another
// value.
#include <cctype>
#include <optional>
#include <string>

#include "accel/fast_math.h"
#include "builtins/registry.h"

namespace matfuse {
namespace {

Outputs bi_feature(CallContext&, Args args, int) {
  check_nargin(args, 1, 2);
  const std::string name = args[0].to_text("feature name");
  std::string lname = name;
  for (char& c : lname) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lname != "mathmode")
    throw_error("matfuse:feature:unknownName", "Unknown feature '%s'. Known: 'MathMode'.",
                name.c_str());
  const std::string before(accel::math_mode_name(accel::math_mode()));
  if (args.size() == 2) {
    const std::string v = args[1].to_text("math mode");
    const std::optional<accel::MathMode> m = accel::parse_math_mode(v);
    if (!m)
      throw_error("matfuse:feature:badValue",
                  "MathMode must be 'exact' or 'fast', not '%s'.", v.c_str());
    accel::set_math_mode(*m);
  }
  return {Value::from_chars(before)};
}

}  // namespace

void register_feature(Registry& r) { r.add("feature", bi_feature); }

}  // namespace matfuse
