// Tensor: an N-d column-major numeric, logical or char array with copy-on-write storage.
//
// Semantics contract
// - Element layout is column-major over dims(); complex arrays store interleaved (re, im) pairs,
//   so data<std::complex<double>>() / data<std::complex<float>>() view them directly (the layout
//   LAPACK and FFT libraries expect).
// - Element C++ types: double, float, bool (logical), char16_t (char, UTF-16 code units),
//   int8_t ... uint64_t; see dispatch_class().
// - Copies share storage; mutable_data() clones the storage first when it is shared, so
//   assignment and argument passing are O(1) until a write.
// - Storage is the residency hook: later stages may hold the values in a lazy graph node or on a
//   device; host accessors (data(), mutable_data()) always return a valid host copy.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/dims.h"
#include "runtime/dtype.h"

namespace matfuse {

/// Host bytes of one array, 64-byte aligned. Reference counted through shared_ptr.
class Storage {
public:
  /// `capacity` >= bytes reserves room for amortised growth (Tensor::grow_linear).
  explicit Storage(size_t bytes, size_t capacity = 0);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* host() { return data_; }
  const void* host() const { return data_; }
  size_t bytes() const { return bytes_; }
  size_t capacity() const { return capacity_; }
  void set_bytes(size_t b) { bytes_ = b; }

private:
  void* data_;
  size_t bytes_;
  size_t capacity_;
};

class Tensor {
public:
  /// 0x0 double.
  Tensor();
  /// Uninitialised array of the given class and dims.
  static Tensor uninit(ClassId cls, const Dims& dims, bool complex = false);
  /// Zero-filled array (false for logical, char 0 for char).
  static Tensor zeros(ClassId cls, const Dims& dims, bool complex = false);
  /// 1x1 array of class cls holding v (converted with saturate_cast).
  static Tensor scalar(double v, ClassId cls = ClassId::Double);
  static Tensor complex_scalar(std::complex<double> v, ClassId cls = ClassId::Double);
  static Tensor logical_scalar(bool v);
  /// 1xN char row from UTF-8 text (decoded to UTF-16 code units). Empty text gives 0x0 char.
  static Tensor from_string(std::string_view utf8);

  ClassId cls() const { return cls_; }
  bool is_complex() const { return complex_; }
  const Dims& dims() const { return dims_; }
  int64_t numel() const { return dims_.numel(); }
  bool is_empty() const { return numel() == 0; }
  bool is_scalar() const { return dims_.is_scalar(); }
  /// Bytes per element (twice element_size for complex).
  int elem_bytes() const { return element_size(cls_) * (complex_ ? 2 : 1); }

  template <class T> const T* data() const { return static_cast<const T*>(raw()); }
  template <class T> T* mutable_data() { return static_cast<T*>(mutable_raw()); }
  const void* raw() const;
  /// Host pointer for writing; clones shared storage first (copy-on-write).
  void* mutable_raw();

  /// Element i (linear, 0-based) as double (real part for complex). No bounds check.
  double get_double(int64_t i) const;
  std::complex<double> get_complex(int64_t i) const;
  /// Writes element i from a double (saturating for integer classes). No bounds check.
  void set_double(int64_t i, double v);
  void set_complex(int64_t i, std::complex<double> v);

  /// Grows to dims nd keeping every element at its linear position and zero-filling the new
  /// tail (valid when the old layout is a prefix of the new one, e.g. appending to a vector or
  /// adding trailing pages). Reserves geometric capacity, so repeated appends (x(end+1) = v
  /// in a loop) cost amortised O(1) per element when the storage is unshared.
  void grow_linear(const Dims& nd);
  /// Same data, new dims (numel must match; MF_ASSERT otherwise). Shares storage.
  Tensor reshaped(const Dims& d) const;
  /// MATLAB class conversion (double(x), int8(x), logical(x) ...). logical() of NaN raises
  /// MATLAB:nologicalnan; complex to integer/char/logical drops the imaginary part only where
  /// MATLAB does (integers keep the complex flag off for real-valued input).
  Tensor to_class(ClassId cls) const;
  /// Complex copy with zero imaginary parts (no-op when already complex).
  Tensor to_complex() const;
  /// When complex and every imaginary part is +0 or -0, the real part; otherwise *this.
  /// MATLAB drops all-zero imaginary parts after most operations.
  Tensor drop_zero_imag() const;
  /// Char array contents as UTF-8 (column-major order, so a row reads naturally).
  std::string to_utf8() const;

  /// True when the storage is shared with another Tensor (a write would clone).
  bool shared() const { return storage_.use_count() > 1; }

private:
  Tensor(ClassId cls, const Dims& dims, bool complex, std::shared_ptr<Storage> s, size_t offset);
  std::shared_ptr<Storage> storage_;
  size_t offset_ = 0;  ///< byte offset into storage (views); 0 for owned arrays
  Dims dims_;
  ClassId cls_ = ClassId::Double;
  bool complex_ = false;
};

}  // namespace matfuse
