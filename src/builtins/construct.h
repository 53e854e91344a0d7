// Concatenation (used by the interpreter for [ ] and { } literals and by cat/horzcat/vertcat).
#pragma once

#include <span>

#include "runtime/value.h"

namespace matfuse {

/// [a, b, ...]: MATLAB rules: empty [] operands are skipped, class of the result follows
/// MATLAB's concatenation rules (char wins over numbers, integer wins over double, cell
/// concatenation, struct arrays with equal fields, string arrays). Errors:
/// MATLAB:catenate:dimensionMismatch ("Dimensions of arrays being concatenated are not
/// consistent.").
Value horzcat(std::span<const Value> parts);
/// [a; b; ...].
Value vertcat(std::span<const Value> parts);
/// cat(dim, ...), dim is 1-based.
Value cat_dim(int dim, std::span<const Value> parts);

}  // namespace matfuse
