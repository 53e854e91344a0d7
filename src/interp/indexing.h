// Indexing and indexed assignment on Values (MATLAB subsref/subsasgn semantics).
//
// Index arguments are already evaluated: a magic colon `:` is passed as the char value ':'
// (as MATLAB's subsref does); `end` has been replaced by the interpreter using end_index().
// Accepted index values: positive integer-valued numeric arrays, logical masks, ':'.
// Errors (MATLAB identifiers):
//   MATLAB:badsubscript      "Index exceeds the number of array elements. Index must not exceed N."
//                            "Index in position K exceeds array bounds. Index must not exceed N."
//   MATLAB:index:nonPositive / MATLAB:badsubscript "Array indices must be positive integers or
//                            logical values."
//   MATLAB:subsassigndimmismatch "Unable to perform assignment because the left and right sides
//                            have a different number of elements." (and size-mismatch variants)
//   MATLAB:nonExistentField  "Unrecognized field name \"f\"."
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "runtime/value.h"

namespace matfuse {

/// Value of `end` in index position k (0-based) of n index arguments into an array of dims d.
int64_t end_index(const Dims& d, int k, int n);

/// base(idx...) for every kind (numeric, logical, char, cell -> cell, struct array, string,
/// function handle call is NOT handled here).
Value index_paren(const Value& base, std::span<const Value> idx);
/// base{idx...}: the selected cell contents as a comma-separated list.
std::vector<Value> index_brace(const Value& base, std::span<const Value> idx);
/// base.name for a struct (array): one value per element (comma-separated list).
std::vector<Value> get_field(const Value& base, std::string_view name);

/// base(idx...) = rhs, growing base with zero/empty fill as MATLAB does. base may be an
/// undefined variable (pass a default Value and set `base_defined` false): then the result's
/// class follows rhs.
void assign_paren(Value& base, bool base_defined, std::span<const Value> idx, const Value& rhs);
/// base(idx...) = [] (deletion). MATLAB:nulldimmismatch-style errors for invalid deletions.
void delete_elements(Value& base, std::span<const Value> idx);
/// base{idx...} = rhs (base becomes or must be a cell).
void assign_brace(Value& base, bool base_defined, std::span<const Value> idx, const Value& rhs);
/// base.name = rhs (base becomes or must be a struct; a 1x1 struct for an undefined base).
/// For a struct array, rhs is assigned to every element only when base has one element;
/// otherwise MATLAB's error.
void set_field(Value& base, bool base_defined, std::string_view name, const Value& rhs);

}  // namespace matfuse
