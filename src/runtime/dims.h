// Dims: the size vector of a MATLAB array.
//
// Contract: always at least two dimensions (a scalar is 1x1); trailing singleton dimensions
// beyond the second are dropped by normalize(), matching MATLAB's `size`. Stored inline (no heap)
// so that scalar values never allocate. At most kMaxDims dimensions; more raises
// `matfuse:tooManyDims`.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace matfuse {

class Dims {
public:
  static constexpr int kMaxDims = 12;

  Dims() : n_(2) { d_[0] = 0; d_[1] = 0; }
  Dims(int64_t rows, int64_t cols) : n_(2) { d_[0] = rows; d_[1] = cols; }
  Dims(std::initializer_list<int64_t> list);

  static Dims scalar() { return Dims(1, 1); }
  static Dims row(int64_t n) { return Dims(1, n); }
  static Dims column(int64_t n) { return Dims(n, 1); }

  /// Number of stored dimensions (>= 2, after normalize() no trailing singletons past 2).
  int ndims() const { return n_; }
  /// Size along dimension k (0-based); dimensions past ndims() are 1.
  int64_t operator[](int k) const { return k < n_ ? d_[k] : 1; }
  int64_t rows() const { return d_[0]; }
  int64_t cols() const { return d_[1]; }
  /// Sets dimension k (0-based), growing ndims with singletons as needed.
  void set(int k, int64_t v);
  /// Appends a dimension.
  void push_back(int64_t v);
  /// Drops trailing singleton dimensions past the second.
  Dims& normalize();

  int64_t numel() const;
  bool is_empty() const { return numel() == 0; }
  bool is_scalar() const { return n_ == 2 && d_[0] == 1 && d_[1] == 1; }
  bool is_vector() const { return n_ == 2 && (d_[0] == 1 || d_[1] == 1); }
  bool is_row() const { return n_ == 2 && d_[0] == 1; }
  bool is_column() const { return n_ == 2 && d_[1] == 1; }
  bool is_matrix() const { return n_ == 2; }

  /// "3x4", "2x3x5": MATLAB's size string used in messages and empty displays.
  std::string str() const;

  bool operator==(const Dims& o) const;
  bool operator!=(const Dims& o) const { return !(*this == o); }

  const int64_t* begin() const { return d_.data(); }
  const int64_t* end() const { return d_.data() + n_; }

private:
  std::array<int64_t, kMaxDims> d_{};
  int n_;
};

/// Column-major strides (in elements) of dims.
std::array<int64_t, Dims::kMaxDims> strides_of(const Dims& d);

/// Implicit expansion (MATLAB "compatible sizes"): each dimension must be equal or one of them 1.
/// Throws `MATLAB:sizeDimensionsMustMatch` when incompatible.
Dims broadcast_dims(const Dims& a, const Dims& b);

}  // namespace matfuse
