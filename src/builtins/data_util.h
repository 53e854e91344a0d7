// Internal helpers of the "data" builtin family (data*.cc): argument parsing of dimension and
// NaN options, slice iteration along one dimension, element ordering keys shared by sort,
// sortrows and the set functions.
#pragma once

#include <complex>
#include <string>
#include <vector>

#include "builtins/reduce.h"
#include "builtins/registry.h"
#include "runtime/value.h"

namespace matfuse::data {

/// Lower-cased copy.
std::string lower(std::string s);
/// True when v is text equal (case-insensitively) to one of the given option names.
bool is_option(const Value& v, const char* name);

/// The numeric/logical/char array behind v; MATLAB:UndefinedFunction for other kinds.
Tensor numeric_arg(const Value& v, const char* fname);

/// A dimension argument (positive integer scalar) as a 0-based index.
int dim_arg(const Value& v);
/// A dimension argument that may be a vector of unique positive integers (0-based).
std::vector<int> vecdim_arg(const Value& v);

/// Reduction dimensions: the given ones, every dimension for 'all', or the first
/// non-singleton one. A 0x0 input without a dimension reduces to a scalar when
/// empty_to_scalar is set (median([]) is NaN).
struct DimSpec {
  bool given = false;
  bool all = false;
  std::vector<int> dims;
  std::vector<int> resolve(const Dims& d, bool empty_to_scalar = true) const;
};

/// Calls f(pre, n, post) layout for one dimension: element (i, k, b) of x is at linear index
/// (b * n + k) * pre + i.
struct Lanes {
  int64_t pre = 1, n = 1, post = 1;
};
Lanes lanes_of(const Dims& d, int dim);

/// x as a double (or complex double) tensor; single stays single only when keep_single.
Tensor to_work(const Tensor& x);

/// Result class of a floating statistic of x: single for single, otherwise double.
inline ClassId float_class(ClassId c) { return c == ClassId::Single ? ClassId::Single : ClassId::Double; }

/// Element keys for ordering and equality (sort, sortrows, unique, ismember, set ops).
/// Real numbers compare by value (long double, exact for 64-bit integers); complex numbers
/// (and real ones under 'abs' comparison) by magnitude, then phase angle in (-pi, pi], then by
/// real and imaginary part; text by UTF-8 bytes (code point order). NaN and <missing> compare
/// greater than every other value and are never equal to anything (each is distinct).
struct Keys {
  enum class Kind { Real, Complex, Text } kind = Kind::Real;
  std::vector<long double> a;   // Real: value; Complex: primary key
  std::vector<double> b;        // Complex: secondary key
  std::vector<double> re, im;   // Complex: exact value (tie break and equality)
  std::vector<std::string> s;   // Text
  std::vector<uint8_t> nan;     // NaN / missing
  int64_t size() const { return static_cast<int64_t>(nan.size()); }
  /// -1, 0, 1; NaN after everything; two NaNs compare 0 (ordering only).
  int cmp(int64_t i, int64_t j) const;
  /// Equality for the set functions (NaN never equal).
  bool eq(int64_t i, int64_t j) const { return !nan[i] && !nan[j] && cmp(i, j) == 0; }
};

enum class CompareMethod { Auto, Abs, Real };

/// Keys of every element of v (numeric/logical/char tensors, cell arrays of char vectors,
/// string arrays). `fname` names the builtin in errors (MATLAB:<fname>:InputType style).
Keys make_keys(const Value& v, const char* fname, CompareMethod m = CompareMethod::Auto,
               bool force_complex = false);

/// True for a cell array whose elements are all char row vectors (or empty char).
bool is_cellstr(const Value& v);

/// Concatenates the elements of a and b (linear order, a first) into one column Value of the
/// class MATLAB's set functions give: text inputs (char row, cellstr, string) give a cell
/// array of char vectors, or a string array when either input is a string; numeric inputs
/// follow concatenation rules (integer, then single, then char, then double, logical only with
/// logical). A char row combined with cellstr counts as one text element.
Value concat_elements(const Value& a, const Value& b, int64_t* na, int64_t* nb);

/// Number of elements seen by the set functions: a char row next to text counts as 1.
Value as_set_operand(const Value& v, bool other_is_text);

/// Tensor of doubles (column vector or given dims) from 0-based indices (+1 added).
Tensor index_tensor(const std::vector<int64_t>& idx0, const Dims& d);
Tensor double_tensor(const std::vector<double>& v, const Dims& d);

/// Registration of the family's parts.
void register_data_sort(Registry& r);
void register_data_sets(Registry& r);
void register_data_stats(Registry& r);
void register_data_cum(Registry& r);
void register_data_hist(Registry& r);
void register_data_mov(Registry& r);
void register_data_select(Registry& r);
void register_data_scale(Registry& r);

}  // namespace matfuse::data
