#include "runtime/tensor.h"

#include <sys/mman.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>
#include <new>

#include "runtime/array_size.h"
#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse {

namespace {
void* aligned_bytes(size_t bytes, size_t capacity, size_t* got) {
  size_t alloc = ((capacity > bytes ? capacity : bytes) + 63) / 64 * 64;
  if (alloc == 0) alloc = 64;
#ifdef MADV_HUGEPAGE
  // Large arrays on transparent huge pages (as NumPy does from 4 MiB): a fresh 40 MB result
  // then takes 20 page faults instead of 10,000 (find over 1e7 elements: 49 -> 15 ms here).
  constexpr size_t kHuge = size_t{2} << 20;
  if (alloc >= 2 * kHuge) {
    alloc = (alloc + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, alloc);
    if (!p) throw std::bad_alloc();
    madvise(p, alloc, MADV_HUGEPAGE);
    *got = alloc;
    return p;
  }
#endif
  void* p = std::aligned_alloc(64, alloc);
  if (!p) throw std::bad_alloc();
  *got = alloc;
  return p;
}
// Serialises gathers: a device-only storage may be read from several threads (the host
// provider's workers read input pointers the interpreter thread obtained, but builtins running
// callbacks may not); one lock for the rare download path keeps Storage small.
std::mutex g_gather_mu;
}  // namespace

Storage::Storage(size_t bytes, size_t capacity) : bytes_(bytes) {
  data_ = aligned_bytes(bytes, capacity, &capacity_);
}

Storage::~Storage() { std::free(data_); }

std::shared_ptr<Storage> Storage::device_only(size_t bytes, std::unique_ptr<DeviceCopy> dev) {
  std::shared_ptr<Storage> s(new Storage());
  s->bytes_ = bytes;
  s->host_valid_ = false;
  s->device_ = std::move(dev);
  return s;
}

const void* Storage::host_read() {
  if (!host_valid_) {
    std::lock_guard<std::mutex> l(g_gather_mu);
    if (!host_valid_) {
      MF_ASSERT(device_ != nullptr, "storage with neither a host nor a device copy");
      if (!data_) {
        try {
          data_ = aligned_bytes(bytes_, 0, &capacity_);
        } catch (const std::bad_alloc&) {
          throw_error("MATLAB:nomem", "Out of memory gathering a %.1f MB array to the host.",
                      static_cast<double>(bytes_) / 1e6);
        }
      }
      if (bytes_) device_->download(data_, bytes_);
      host_valid_ = true;
    }
  }
  return data_;
}

void Storage::device_written() {
  MF_ASSERT(device_ != nullptr, "device_written without a device copy");
  std::lock_guard<std::mutex> l(g_gather_mu);
  host_valid_ = false;
}

void* Storage::host_write() {
  host_read();
  device_.reset();
  return data_;
}

namespace {
// One shared buffer for every default-constructed (0x0) Tensor, so empty values (e.g. new cell
// elements) do not allocate. Writes never touch it: a 0x0 array has no elements.
const std::shared_ptr<Storage>& empty_storage() {
  static const std::shared_ptr<Storage> s = std::make_shared<Storage>(0);
  return s;
}
}  // namespace

Tensor::Tensor() : Tensor(ClassId::Double, Dims(0, 0), false, empty_storage(), 0) {}

Tensor::Tensor(ClassId cls, const Dims& dims, bool complex, std::shared_ptr<Storage> s, size_t offset)
    : storage_(std::move(s)), offset_(offset), dims_(dims), cls_(cls), complex_(complex) {}

double Tensor::max_array_bytes() {
  static const double limit = [] {
    // MATFUSE_MAX_ARRAY_BYTES lowers the limit (fuzzing and other runs with a memory budget).
    if (options().max_array_bytes > 0) return options().max_array_bytes;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page)
                                 : static_cast<double>(uint64_t(1) << 62);
  }();
  return limit;
}

void check_array_size(const Dims& dims, double elem_bytes) {
  for (int64_t d : dims)
    if (d < 0) throw_error("MATLAB:badDimension", "Size inputs must be nonnegative integers.");
  double want = elem_bytes;  // in double: the int64 product may overflow
  for (int64_t d : dims) want *= static_cast<double>(d);
  // MATLAB's default maximum array size is the machine's physical memory: a larger request
  // fails here instead of being overcommitted and killed while its pages are touched.
  const double limit = Tensor::max_array_bytes();
  if (want > limit)
    throw_error("MATLAB:array:SizeLimitExceeded",
                "Requested %s (%.1fGB) array exceeds maximum array size preference (%.1fGB).",
                dims.str().c_str(), want / 1e9, limit / 1e9);
}

Tensor Tensor::uninit(ClassId cls, const Dims& dims, bool complex) {
  size_t esz = static_cast<size_t>(element_size(cls)) * (complex ? 2 : 1);
  check_array_size(dims, static_cast<double>(esz));
  int64_t n = dims.numel();
  Dims d = dims;
  d.normalize();
  try {
    return Tensor(cls, d, complex, std::make_shared<Storage>(static_cast<size_t>(n) * esz), 0);
  } catch (const std::bad_alloc&) {
    throw_error("MATLAB:nomem", "Out of memory. The requested %s %s array needs %.1f GB.",
                d.str().c_str(), std::string(class_name(cls)).c_str(),
                static_cast<double>(n) * esz / 1e9);
  }
}

Tensor Tensor::zeros(ClassId cls, const Dims& dims, bool complex) {
  Tensor t = uninit(cls, dims, complex);
  std::memset(t.mutable_raw(), 0, static_cast<size_t>(t.numel()) * t.elem_bytes());
  return t;
}

Tensor Tensor::scalar(double v, ClassId cls) {
  Tensor t = uninit(cls, Dims::scalar());
  t.set_double(0, v);
  return t;
}

Tensor Tensor::complex_scalar(std::complex<double> v, ClassId cls) {
  Tensor t = uninit(cls, Dims::scalar(), true);
  t.set_complex(0, v);
  return t;
}

Tensor Tensor::logical_scalar(bool v) {
  Tensor t = uninit(ClassId::Logical, Dims::scalar());
  *t.mutable_data<bool>() = v;
  return t;
}

namespace {
// Decodes UTF-8 to UTF-16 code units; invalid bytes map to U+FFFD.
std::u16string utf8_to_utf16(std::string_view s) {
  std::u16string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = s[i];
    uint32_t cp;
    int len;
    if (c < 0x80) { cp = c; len = 1; }
    else if ((c >> 5) == 6) { cp = c & 0x1F; len = 2; }
    else if ((c >> 4) == 14) { cp = c & 0x0F; len = 3; }
    else if ((c >> 3) == 30) { cp = c & 0x07; len = 4; }
    else { out.push_back(0xFFFD); ++i; continue; }
    if (i + len > s.size()) { out.push_back(0xFFFD); break; }
    bool ok = true;
    for (int k = 1; k < len; ++k) {
      unsigned char cc = s[i + k];
      if ((cc >> 6) != 2) { ok = false; break; }
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (!ok) { out.push_back(0xFFFD); ++i; continue; }
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) out.push_back(static_cast<char>(cp));
  else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}
}  // namespace

Tensor Tensor::from_string(std::string_view utf8) {
  std::u16string u = utf8_to_utf16(utf8);
  Tensor t = uninit(ClassId::Char, u.empty() ? Dims(0, 0) : Dims(1, static_cast<int64_t>(u.size())));
  if (!u.empty()) std::memcpy(t.mutable_raw(), u.data(), u.size() * sizeof(char16_t));
  return t;
}

namespace {
Tensor::ForceHook g_force_hook = nullptr;
}  // namespace

void Tensor::set_force_hook(ForceHook hook) { g_force_hook = hook; }

Tensor Tensor::lazy(std::shared_ptr<const LazyRef> ref, ClassId cls, const Dims& dims, bool complex) {
  Dims d = dims;
  d.normalize();
  Tensor t(cls, d, complex, nullptr, 0);
  t.lazy_ = std::move(ref);
  return t;
}

std::shared_ptr<const accel::Node> Tensor::node() const {
  return lazy_ ? lazy_->node : nullptr;
}

void Tensor::force() const {
  if (!lazy_) return;
  MF_ASSERT(g_force_hook != nullptr, "lazy tensor without a force hook");
  Tensor v = g_force_hook(lazy_->node);
  MF_ASSERT(!v.lazy_ && v.cls_ == cls_ && v.numel() == numel(),
            "forced value does not match the lazy tensor's class and size");
  storage_ = v.storage_;
  offset_ = v.offset_;
  complex_ = v.complex_;
  lazy_.reset();
}

const void* Tensor::raw() const {
  if (lazy_) force();
  return static_cast<const char*>(storage_->host_read()) + offset_;
}

Tensor Tensor::on_device(ClassId cls, const Dims& dims, bool complex,
                         std::unique_ptr<DeviceCopy> dev) {
  Dims d = dims;
  d.normalize();
  const size_t bytes =
      static_cast<size_t>(d.numel()) * static_cast<size_t>(element_size(cls)) * (complex ? 2 : 1);
  return Tensor(cls, d, complex, Storage::device_only(bytes, std::move(dev)), 0);
}

const std::shared_ptr<Storage>& Tensor::storage() const {
  if (lazy_) force();
  return storage_;
}

void* Tensor::mutable_raw() {
  if (lazy_) force();
  if (storage_.use_count() > 1 || offset_ != 0) {
    size_t bytes = static_cast<size_t>(numel()) * elem_bytes();
    auto fresh = std::make_shared<Storage>(bytes);
    if (bytes) std::memcpy(fresh->host_write(), raw(), bytes);
    storage_ = std::move(fresh);
    offset_ = 0;
  }
  return storage_->host_write();
}

double Tensor::get_double(int64_t i) const {
  if (lazy_) force();
  int64_t k = complex_ ? 2 * i : i;
  return dispatch_class(cls_, [&](auto tag) -> double {
    using T = decltype(tag);
    return static_cast<double>(data<T>()[k]);
  });
}

std::complex<double> Tensor::get_complex(int64_t i) const {
  if (lazy_) force();
  if (!complex_) return {get_double(i), 0.0};
  return dispatch_class(cls_, [&](auto tag) -> std::complex<double> {
    using T = decltype(tag);
    const T* p = data<T>();
    return {static_cast<double>(p[2 * i]), static_cast<double>(p[2 * i + 1])};
  });
}

void Tensor::set_double(int64_t i, double v) {
  if (lazy_) force();
  int64_t k = complex_ ? 2 * i : i;
  dispatch_class(cls_, [&](auto tag) {
    using T = decltype(tag);
    T* p = mutable_data<T>();
    p[k] = saturate_cast<T>(v);
    if (complex_) p[k + 1] = T{};
  });
}

void Tensor::set_complex(int64_t i, std::complex<double> v) {
  if (lazy_) force();
  if (!complex_) { set_double(i, v.real()); return; }
  dispatch_class(cls_, [&](auto tag) {
    using T = decltype(tag);
    T* p = mutable_data<T>();
    p[2 * i] = saturate_cast<T>(v.real());
    p[2 * i + 1] = saturate_cast<T>(v.imag());
  });
}

void Tensor::grow_linear(const Dims& nd) {
  if (lazy_) force();
  const size_t eb = static_cast<size_t>(elem_bytes());
  const size_t old_bytes = static_cast<size_t>(numel()) * eb;
  const size_t new_bytes = static_cast<size_t>(nd.numel()) * eb;
  MF_ASSERT(new_bytes >= old_bytes, "grow_linear cannot shrink");
  if (storage_.use_count() == 1 && offset_ == 0 && storage_->capacity() >= new_bytes) {
    std::memset(static_cast<char*>(storage_->host_write()) + old_bytes, 0, new_bytes - old_bytes);
    storage_->set_bytes(new_bytes);
  } else {
    size_t cap = new_bytes + new_bytes / 2;
    std::shared_ptr<Storage> fresh;
    try {
      fresh = std::make_shared<Storage>(new_bytes, cap);
    } catch (const std::bad_alloc&) {
      throw_error("MATLAB:nomem", "Out of memory. The requested %s array needs %.1f GB.",
                  nd.str().c_str(), static_cast<double>(new_bytes) / 1e9);
    }
    if (old_bytes) std::memcpy(fresh->host_write(), raw(), old_bytes);
    std::memset(static_cast<char*>(fresh->host_write()) + old_bytes, 0, new_bytes - old_bytes);
    storage_ = std::move(fresh);
    offset_ = 0;
  }
  dims_ = nd;
  dims_.normalize();
}

Tensor Tensor::reshaped(const Dims& d) const {
  MF_ASSERT(d.numel() == numel(), "reshape must keep numel");
  if (lazy_) force();
  Dims nd = d;
  nd.normalize();
  return Tensor(cls_, nd, complex_, storage_, offset_);
}

namespace {
template <class To, class From>
void convert_loop(const From* src, To* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<To, From>) dst[i] = src[i];
    else if constexpr (std::is_integral_v<To> && !std::is_same_v<To, bool>)
      dst[i] = saturate_cast<To>(static_cast<double>(src[i]));
    else if constexpr (std::is_same_v<To, bool>) dst[i] = src[i] != From{};
    else dst[i] = static_cast<To>(src[i]);
  }
}
}  // namespace

Tensor Tensor::to_class(ClassId cls) const {
  if (cls == cls_) return *this;
  if (lazy_) force();
  if (cls == ClassId::Logical) {
    if (complex_)
      throw_error("MATLAB:nologicalcomplex", "Complex values cannot be converted to logicals.");
    if (is_float_class(cls_)) {
      int64_t n = numel();
      for (int64_t i = 0; i < n; ++i)
        if (std::isnan(get_double(i)))
          throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
    }
  }
  bool keep_complex = complex_ && (is_float_class(cls) || is_integer_class(cls));
  Tensor out = uninit(cls, dims_, keep_complex);
  int64_t n = numel() * (keep_complex ? 2 : 1);
  int64_t stride = complex_ && !keep_complex ? 2 : 1;
  dispatch_class(cls_, [&](auto from_tag) {
    using From = decltype(from_tag);
    dispatch_class(cls, [&](auto to_tag) {
      using To = decltype(to_tag);
      const From* src = data<From>();
      To* dst = out.mutable_data<To>();
      if (stride == 1) {
        convert_loop<To, From>(src, dst, n);
      } else {
        for (int64_t i = 0; i < n; ++i) convert_loop<To, From>(src + 2 * i, dst + i, 1);
      }
    });
  });
  return out;
}

Tensor Tensor::to_complex() const {
  if (lazy_) force();
  if (complex_) return *this;
  ClassId c = cls_ == ClassId::Single ? ClassId::Single
              : is_integer_class(cls_) ? cls_
                                       : ClassId::Double;
  Tensor src = c == cls_ ? *this : to_class(c);
  Tensor out = uninit(c, dims_, true);
  int64_t n = numel();
  dispatch_class(c, [&](auto tag) {
    using T = decltype(tag);
    const T* s = src.data<T>();
    T* d = out.mutable_data<T>();
    for (int64_t i = 0; i < n; ++i) {
      d[2 * i] = s[i];
      d[2 * i + 1] = T{};
    }
  });
  return out;
}

Tensor Tensor::drop_zero_imag() const {
  if (lazy_ && lazy_->maybe_complex) force();
  if (!complex_) return *this;
  int64_t n = numel();
  bool all_zero = dispatch_class(cls_, [&](auto tag) {
    using T = decltype(tag);
    const T* p = data<T>();
    for (int64_t i = 0; i < n; ++i)
      if (p[2 * i + 1] != T{}) return false;
    return true;
  });
  if (!all_zero) return *this;
  Tensor out = uninit(cls_, dims_, false);
  dispatch_class(cls_, [&](auto tag) {
    using T = decltype(tag);
    const T* p = data<T>();
    T* d = out.mutable_data<T>();
    for (int64_t i = 0; i < n; ++i) d[i] = p[2 * i];
  });
  return out;
}

std::string Tensor::to_utf8() const {
  std::string out;
  int64_t n = numel();
  if (cls_ == ClassId::Char) {
    const char16_t* p = data<char16_t>();
    for (int64_t i = 0; i < n; ++i) {
      uint32_t cp = p[i];
      if (cp >= 0xD800 && cp < 0xDC00 && i + 1 < n && p[i + 1] >= 0xDC00 && p[i + 1] < 0xE000) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (p[i + 1] - 0xDC00);
        ++i;
      }
      append_utf8(out, cp);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      double v = get_double(i);
      append_utf8(out, v < 0 || v != v ? 0 : v > 0x10FFFF ? 0xFFFD : static_cast<uint32_t>(v));
    }
  }
  return out;
}

}  // namespace matfuse
