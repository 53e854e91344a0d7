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
// - Lazy tensors (DESIGN.md decision 1): a Tensor may hold an acceleration graph node instead of
//   storage. cls(), dims(), numel() never force it; is_complex() forces only a value that may
//   turn complex at run time (LazyRef::maybe_complex) or a complex-typed one (which turns real
//   when its imaginary parts are all zero). raw() and everything that reads or writes
//   elements force it through the hook the acceleration layer registers (the runtime never
//   calls accel directly); the tensor then keeps the storage and behaves as a normal tensor.
#pragma once

#include <atomic>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/dims.h"
#include "runtime/dtype.h"

namespace matfuse::accel {
struct Node;
}

namespace matfuse {

/// The pending graph value of a lazy Tensor, shared by every copy of that tensor (so its
/// liveness says whether the value is still wanted: the acceleration layer keeps weak
/// references to find the pending values that share nodes with one being forced).
struct LazyRef {
  /// The pending node; once forced, an Input node of the stored value (the acceleration layer
  /// repoints it, never rewriting the interned node itself).
  mutable std::shared_ptr<const accel::Node> node;
  /// The node is typed real but the value may turn complex when computed (sqrt, log, power of
  /// real data outside the real domain); is_complex() forces such a value.
  bool maybe_complex = false;
};

/// A copy of a Storage's bytes in a device's memory, owned by a provider (DESIGN.md decision
/// 12). Destroying it frees the device memory (back to the provider's pool).
class DeviceCopy {
public:
  virtual ~DeviceCopy() = default;
  /// Device address of byte 0 (in the provider's address space).
  virtual void* device_ptr() const = 0;
  /// Copies the first `bytes` bytes to host memory; waits for pending device work on the
  /// buffer. May raise MatlabError (device failure).
  virtual void download(void* host, size_t bytes) const = 0;
  /// "cuda" ... (telemetry, gpuDevice).
  virtual const char* provider() const = 0;
};

/// The bytes of one array (64-byte aligned on the host), reference counted through shared_ptr.
///
/// Residency (DESIGN.md decision 12): a Storage holds a host copy, a device copy, or both, with
/// validity flags. host_read() returns a valid host copy, downloading the device copy first when
/// the host copy is missing (a gather); host_write() does the same and then drops the device
/// copy, since it is about to become stale. A device-only Storage (device_only()) allocates its
/// host bytes on the first host access.
class Storage {
public:
  /// `capacity` >= bytes reserves room for amortised growth (Tensor::grow_linear).
  explicit Storage(size_t bytes, size_t capacity = 0);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  /// A Storage of `bytes` whose only copy is `dev` (the result of a device kernel).
  static std::shared_ptr<Storage> device_only(size_t bytes, std::unique_ptr<DeviceCopy> dev);

  /// Valid host copy (downloads when needed; may raise MatlabError on device failure).
  const void* host_read();
  /// Valid host copy for writing: also drops the device copy.
  void* host_write();
  size_t bytes() const { return bytes_; }
  size_t capacity() const { return capacity_; }
  void set_bytes(size_t b) { bytes_ = b; }

  /// Whether the host copy is valid (false: only a device copy holds the bytes).
  bool host_valid() const { return host_valid_; }
  /// The device copy (null when there is none).
  const DeviceCopy* device() const { return device_.get(); }
  /// Attaches a device copy of the current bytes (after an upload); replaces any previous one.
  void attach_device(std::unique_ptr<DeviceCopy> dev) { device_ = std::move(dev); }
  /// The device copy was written in place (indexed assignment on the device): the host copy
  /// is stale, and the next host access gathers. Requires a device copy (MF_ASSERT).
  void device_written();

private:
  Storage() = default;
  void* data_ = nullptr;
  size_t bytes_ = 0;
  size_t capacity_ = 0;
  std::atomic<bool> host_valid_{true};
  std::unique_ptr<DeviceCopy> device_;
};

class Tensor {
public:
  /// 0x0 double.
  Tensor();
  /// Uninitialised array of the given class and dims.
  static Tensor uninit(ClassId cls, const Dims& dims, bool complex = false);
  /// The largest array in bytes (MATLAB's default maximum array size: physical memory); larger
  /// requests raise MATLAB:array:SizeLimitExceeded.
  static double max_array_bytes();
  /// Zero-filled array (false for logical, char 0 for char).
  static Tensor zeros(ClassId cls, const Dims& dims, bool complex = false);
  /// 1x1 array of class cls holding v (converted with saturate_cast).
  static Tensor scalar(double v, ClassId cls = ClassId::Double);
  static Tensor complex_scalar(std::complex<double> v, ClassId cls = ClassId::Double);
  static Tensor logical_scalar(bool v);
  /// 1xN char row from UTF-8 text (decoded to UTF-16 code units). Empty text gives 0x0 char.
  static Tensor from_string(std::string_view utf8);

  /// Computes the host value of a lazy node (registered by the acceleration layer).
  using ForceHook = Tensor (*)(const std::shared_ptr<const accel::Node>&);
  static void set_force_hook(ForceHook hook);
  /// A lazy tensor of class cls and dims holding ref (ref->node's class and dims).
  static Tensor lazy(std::shared_ptr<const LazyRef> ref, ClassId cls, const Dims& dims,
                     bool complex = false);
  /// True while the value is a pending graph node (not yet forced).
  bool is_lazy() const { return lazy_ != nullptr; }
  /// The graph node of a lazy tensor (null when not lazy).
  std::shared_ptr<const accel::Node> node() const;
  /// Whether a lazy tensor may turn complex when forced (false when not lazy).
  bool maybe_complex() const { return lazy_ && lazy_->maybe_complex; }
  /// Computes a lazy tensor's value now (no-op otherwise). May raise the MatlabError of the
  /// eager operation.
  void force() const;

  ClassId cls() const { return cls_; }
  bool is_complex() const {
    // A lazy complex value may turn real (all-zero imaginary parts are dropped when computed).
    if (lazy_ && (lazy_->maybe_complex || complex_)) force();
    return complex_;
  }
  const Dims& dims() const { return dims_; }
  int64_t numel() const { return dims_.numel(); }
  bool is_empty() const { return numel() == 0; }
  bool is_scalar() const { return dims_.is_scalar(); }
  /// Bytes per element (twice element_size for complex).
  int elem_bytes() const { return element_size(cls_) * (is_complex() ? 2 : 1); }

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

  /// A tensor whose only copy is the device buffer `dev` (a device kernel's result; no host
  /// bytes until a host access gathers them).
  static Tensor on_device(ClassId cls, const Dims& dims, bool complex,
                          std::unique_ptr<DeviceCopy> dev);
  /// The storage of a materialised tensor (forces a lazy one); residency queries and uploads.
  const std::shared_ptr<Storage>& storage() const;
  /// Byte offset of element 0 in storage().
  size_t storage_offset() const { return offset_; }
  /// Whether the values live on a device and not (yet) on the host (never forces).
  bool device_only() const { return !lazy_ && storage_ && !storage_->host_valid(); }

  /// True when the storage is shared with another Tensor (a write would clone).
  bool shared() const { return lazy_ != nullptr || storage_.use_count() > 1; }

  /// MATLAB gpuArray-ness (DESIGN.md decision 12): a user-visible flag set by gpuArray(),
  /// 'gpuArray' constructors and propagation through functions of gpuArrays; class(x) then
  /// reads 'gpuArray'. Independent of residency: a flagged tensor may be host-backed (no
  /// device) and an unflagged one may live on the device (automatic placement). Copies carry
  /// the flag; values derived from a tensor (reshaped, to_class ...) do not (the interpreter
  /// propagates it).
  bool gpu_array() const { return gpu_array_; }
  void set_gpu_array(bool on) { gpu_array_ = on; }

private:
  Tensor(ClassId cls, const Dims& dims, bool complex, std::shared_ptr<Storage> s, size_t offset);
  // mutable: forcing a lazy tensor (a const operation) stores its value.
  mutable std::shared_ptr<Storage> storage_;
  mutable size_t offset_ = 0;  ///< byte offset into storage (views); 0 for owned arrays
  Dims dims_;
  ClassId cls_ = ClassId::Double;
  mutable bool complex_ = false;
  bool gpu_array_ = false;  ///< see gpu_array()
  mutable std::shared_ptr<const LazyRef> lazy_;  ///< pending value (null when materialised)
};

}  // namespace matfuse
