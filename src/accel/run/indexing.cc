// Indexing on the device (see indexing.h).
#include "accel/run/indexing.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "accel/capture/lazy.h"
#include "accel/plan/placement.h"
#include "accel/run/dispatch.h"
#include "accel/run/provider.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

int64_t bytes_of(const Tensor& t) { return t.numel() * t.elem_bytes(); }

/// Forces a pending t for SinkReason::DeviceIndex (no-op when materialised).
void force_for_device(const Tensor& t) {
  if (!t.is_lazy()) return;
  SinkScope s(SinkReason::DeviceIndex);
  t.force();
}

/// Records one indexing library call as an evaluation of one group (--profile, telemetry).
class CallRecord {
 public:
  CallRecord(const char* kind, const Provider& p, int64_t elements) : t0_(telemetry_clock()) {
    g_.fusion_kind = kind;
    g_.provider = std::string(p.name());
    g_.elements = elements;
    g_.start = t0_;
    g_.placement = "device-resident operand";
  }
  void bytes(int64_t read, int64_t written) {
    g_.bytes_read += read;
    g_.bytes_written += written;
  }
  void uploaded(int64_t b) { g_.upload_bytes += b; }
  ~CallRecord() {
    g_.seconds = telemetry_clock() - t0_;
    EvaluationRecord e;
    e.reason = SinkReason::DeviceIndex;
    e.start = t0_;
    e.groups.push_back(std::move(g_));
    telemetry().record(std::move(e));
  }

 private:
  double t0_;
  GroupRecord g_;
};

/// Binds t on p, adding the bytes uploaded to rec.
const void* bind(Provider& p, const Tensor& t, CallRecord& rec) {
  int64_t b = 0;
  const void* a = p.bind_input(t, &b);
  rec.uploaded(b);
  return a;
}

/// Makes base's storage exclusively its own on the device (a device clone when shared or a
/// view), and returns the address of its elements there.
void* writable(Provider& p, Tensor& base, CallRecord& rec) {
  if (base.shared() || base.storage_offset() != 0) {
    void* addr = nullptr;
    Tensor fresh = p.new_output(base.cls(), base.dims(), &addr);
    p.copy(addr, bind(p, base, rec), static_cast<size_t>(bytes_of(base)));
    fresh.set_gpu_array(base.gpu_array());
    base = std::move(fresh);
    return addr;
  }
  return const_cast<void*>(bind(p, base, rec));
}

/// The index call over base's selection; index lists are bound on p (kept alive in `lists`).
bool make_call(Provider& p, const Tensor& base, std::span<const int64_t> eff,
               std::span<const IndexSub> subs, IndexCall& c, std::vector<Tensor>& lists,
               CallRecord& rec) {
  const int n = static_cast<int>(subs.size());
  if (n < 1 || n > kMaxIndexDims || static_cast<int>(eff.size()) != n) return false;
  c.elem_bytes = base.elem_bytes();
  c.ndims = n;
  c.count = 1;
  int64_t stride = 1;
  for (int d = 0; d < n; ++d) {
    IndexDim& dim = c.dims[d];
    dim.count = subs[d].count;
    dim.start = subs[d].start;
    dim.stride = stride;
    stride *= eff[d];
    c.count *= subs[d].count;
    if (subs[d].list) {
      const std::vector<int64_t>& l = *subs[d].list;
      Tensor t = Tensor::uninit(ClassId::Int64, Dims(static_cast<int64_t>(l.size()), 1));
      if (!l.empty()) std::memcpy(t.mutable_raw(), l.data(), l.size() * sizeof(int64_t));
      dim.list = static_cast<const int64_t*>(bind(p, t, rec));
      lists.push_back(std::move(t));
    }
  }
  return c.count > 0;
}

/// Whether a subscript list names a position twice.
bool has_duplicates(const std::vector<int64_t>& l) {
  if (std::is_sorted(l.begin(), l.end())) return std::adjacent_find(l.begin(), l.end()) != l.end();
  std::vector<int64_t> s = l;
  std::sort(s.begin(), s.end());
  return std::adjacent_find(s.begin(), s.end()) != s.end();
}

/// Whether mask is a logical mask of base's element count.
bool mask_ok(const Tensor& base, const Tensor& mask) {
  return mask.cls() == ClassId::Logical && !mask.is_complex() && mask.numel() == base.numel();
}

/// Runs f (a device call); a provider failure (compiler, device memory, driver) gives `fallback`
/// so that the host path runs, and is recorded; MATLAB's own errors (the caller's size checks)
/// propagate.
template <class R, class F>
R guarded(R fallback, F&& f) {
  try {
    return f();
  } catch (const MatlabError& e) {
    if (e.identifier().rfind("MATLAB:", 0) == 0) throw;
    EvaluationRecord rec;
    rec.reason = SinkReason::DeviceIndex;
    rec.start = telemetry_clock();
    GroupRecord g;
    g.fusion_kind = "index";
    g.provider = "eager";
    g.fallback = "device indexing failed, host ran it: " + e.message();
    rec.groups.push_back(std::move(g));
    telemetry().record(std::move(rec));
    return fallback;
  }
}

}  // namespace

Provider* index_provider(const Tensor& t) {
  if (device_mode() == DeviceMode::Cpu) return nullptr;
  if (t.is_lazy()) {
    if (t.maybe_complex() || t.numel() < lazy_config().min_numel || !device_available())
      return nullptr;
    force_for_device(t);
  }
  if (t.is_complex() || t.numel() == 0) return nullptr;
  const DeviceCopy* d = t.storage()->device();
  if (!d) return nullptr;
  Provider* p = device_provider();
  if (!p || !p->supports(LibraryCall::Index) || !p->resident(t)) return nullptr;
  return p;
}

static std::optional<Tensor> device_gather_on_device(const Tensor& base,
                                                     std::span<const int64_t> eff,
                                                     std::span<const IndexSub> subs,
                                                     const Dims& out) {
  Provider* p = index_provider(base);
  if (!p) return std::nullopt;
  CallRecord rec("index_gather", *p, out.numel());
  IndexCall c;
  std::vector<Tensor> lists;
  if (!make_call(*p, base, eff, subs, c, lists, rec)) return std::nullopt;
  c.base = const_cast<void*>(bind(*p, base, rec));
  Tensor r = p->new_output(base.cls(), out, &c.values);
  p->index_gather(c);
  rec.bytes(c.count * c.elem_bytes, c.count * c.elem_bytes);
  return r;
}

static bool device_scatter_on_device(Tensor& base, std::span<const int64_t> eff,
                                     std::span<const IndexSub> subs, const Tensor& rhs) {
  if (rhs.cls() != base.cls() || rhs.is_complex()) return false;
  Provider* p = index_provider(base);
  if (!p) return false;
  const bool scalar = rhs.numel() == 1;
  if (!scalar)
    for (const IndexSub& s : subs)
      if (s.list && has_duplicates(*s.list)) return false;
  force_for_device(rhs);
  CallRecord rec("index_scatter", *p, 0);
  IndexCall c;
  std::vector<Tensor> lists;
  if (!make_call(*p, base, eff, subs, c, lists, rec)) return false;
  if (!scalar && rhs.numel() != c.count) return false;
  c.values = const_cast<void*>(bind(*p, rhs, rec));
  c.scalar = scalar;
  c.base = writable(*p, base, rec);
  p->index_scatter(c);
  base.storage()->device_written();
  rec.bytes(rhs.numel() * c.elem_bytes, c.count * c.elem_bytes);
  return true;
}

static std::optional<Tensor> device_mask_read_on_device(const Tensor& base, const Tensor& mask) {
  if (!mask_ok(base, mask)) return std::nullopt;
  Provider* p = index_provider(base);
  if (!p) return std::nullopt;
  force_for_device(mask);
  CallRecord rec("mask_compact", *p, base.numel());
  MaskCall c;
  c.elem_bytes = base.elem_bytes();
  c.n = base.numel();
  c.mask = bind(*p, mask, rec);
  c.base = const_cast<void*>(bind(*p, base, rec));
  const int64_t k = p->mask_count(c.mask, c.n);
  Tensor r = p->new_output(base.cls(), Dims(k, 1), &c.values);
  if (k > 0) p->mask_compact(c);
  rec.bytes(c.n + c.n * c.elem_bytes, k * c.elem_bytes);
  return r;
}

static bool device_mask_assign_on_device(Tensor& base, const Tensor& mask, const Tensor& rhs,
                                         const std::function<void(int64_t)>& check_count) {
  if (!mask_ok(base, mask) || rhs.cls() != base.cls() || rhs.is_complex()) return false;
  Provider* p = index_provider(base);
  if (!p) return false;
  force_for_device(mask);
  force_for_device(rhs);
  CallRecord rec("mask_scatter", *p, base.numel());
  MaskCall c;
  c.elem_bytes = base.elem_bytes();
  c.n = base.numel();
  c.mask = bind(*p, mask, rec);
  c.scalar = rhs.numel() == 1;
  if (!c.scalar) check_count(p->mask_count(c.mask, c.n));
  c.values = const_cast<void*>(bind(*p, rhs, rec));
  c.base = writable(*p, base, rec);
  p->mask_scatter(c);
  base.storage()->device_written();
  rec.bytes(c.n + rhs.numel() * c.elem_bytes, 0);
  return true;
}

static std::optional<Tensor> device_find_on_device(const Tensor& mask) {
  if (mask.cls() != ClassId::Logical) return std::nullopt;
  Provider* p = index_provider(mask);
  if (!p) return std::nullopt;
  CallRecord rec("mask_compact", *p, mask.numel());
  MaskCall c;
  c.elem_bytes = 8;
  c.n = mask.numel();
  c.mask = bind(*p, mask, rec);
  const int64_t k = p->mask_count(c.mask, c.n);
  Tensor r = p->new_output(ClassId::Double, Dims(k, 1), &c.values);
  if (k > 0) p->mask_find(c);
  rec.bytes(c.n, k * 8);
  return r;
}

static std::optional<Tensor> device_median_on_device(const Tensor& x, int64_t lanes, int64_t len,
                                                     bool omit) {
  if (x.cls() != ClassId::Double && x.cls() != ClassId::Single) return std::nullopt;
  if (lanes < 1 || len < 1 || lanes * len != x.numel()) return std::nullopt;
  Provider* p = index_provider(x);
  if (!p || !p->supports(LibraryCall::Sort)) return std::nullopt;
  CallRecord rec("select", *p, x.numel());
  const char* base = static_cast<const char*>(bind(*p, x, rec));
  const int eb = x.elem_bytes();
  Tensor r = Tensor::uninit(ClassId::Double, Dims(1, lanes));
  double* out = r.mutable_data<double>();
  for (int64_t b = 0; b < lanes; ++b) {
    SelectCall c;
    c.f64 = x.cls() == ClassId::Double;
    c.x = base + b * len * eb;
    c.n = len;
    const int64_t nans = p->count_nan(c);
    const int64_t m = len - nans;
    if ((nans > 0 && !omit) || m == 0) {
      out[b] = std::nan("");
      continue;
    }
    c.k = m / 2;
    const double hi = p->select_kth(c);
    if (m % 2) {
      out[b] = hi;
      continue;
    }
    c.k = m / 2 - 1;
    const double lo = p->select_kth(c);
    out[b] = std::isinf(lo) && std::isinf(hi) && lo != hi ? std::nan("") : lo + (hi - lo) / 2;
  }
  rec.bytes(x.numel() * eb, lanes * 8);
  return r;
}

static std::optional<DeviceSorted> device_sort_on_device(const Tensor& x, int64_t lanes,
                                                         int64_t len, bool descend,
                                                         bool nan_first, bool want_index) {
  if (lanes < 1 || len < 1 || lanes * len != x.numel()) return std::nullopt;
  Provider* p = index_provider(x);
  if (!p || !p->supports(LibraryCall::Sort)) return std::nullopt;
  CallRecord rec("sort", *p, x.numel());
  SortCall c;
  c.cls = x.cls();
  c.descend = descend;
  c.nan_first = nan_first;
  c.lanes = lanes;
  c.len = len;
  c.x = bind(*p, x, rec);
  DeviceSorted r;
  r.values = p->new_output(x.cls(), x.dims(), &c.values);
  if (want_index) {
    void* ip = nullptr;
    r.index = p->new_output(ClassId::Double, x.dims(), &ip);
    c.index = static_cast<double*>(ip);
  }
  p->sort(c);
  const int64_t eb = x.elem_bytes();
  rec.bytes(x.numel() * eb, x.numel() * (eb + (want_index ? 8 : 0)));
  return r;
}

static std::optional<int64_t> device_nnz_on_device(const Tensor& mask) {
  if (mask.cls() != ClassId::Logical) return std::nullopt;
  Provider* p = index_provider(mask);
  if (!p) return std::nullopt;
  CallRecord rec("mask_count", *p, mask.numel());
  const int64_t k = p->mask_count(bind(*p, mask, rec), mask.numel());
  rec.bytes(mask.numel(), 0);
  return k;
}

std::optional<Tensor> device_gather(const Tensor& base, std::span<const int64_t> eff,
                                    std::span<const IndexSub> subs, const Dims& out) {
  return guarded(std::optional<Tensor>{},
                 [&] { return device_gather_on_device(base, eff, subs, out); });
}

bool device_scatter(Tensor& base, std::span<const int64_t> eff, std::span<const IndexSub> subs,
                    const Tensor& rhs) {
  return guarded(false, [&] { return device_scatter_on_device(base, eff, subs, rhs); });
}

std::optional<Tensor> device_mask_read(const Tensor& base, const Tensor& mask) {
  return guarded(std::optional<Tensor>{}, [&] { return device_mask_read_on_device(base, mask); });
}

bool device_mask_assign(Tensor& base, const Tensor& mask, const Tensor& rhs,
                        const std::function<void(int64_t)>& check_count) {
  return guarded(false, [&] { return device_mask_assign_on_device(base, mask, rhs, check_count); });
}

std::optional<Tensor> device_find(const Tensor& mask) {
  return guarded(std::optional<Tensor>{}, [&] { return device_find_on_device(mask); });
}

std::optional<Tensor> device_median(const Tensor& x, int64_t lanes, int64_t len, bool omit) {
  return guarded(std::optional<Tensor>{},
                 [&] { return device_median_on_device(x, lanes, len, omit); });
}

std::optional<DeviceSorted> device_sort(const Tensor& x, int64_t lanes, int64_t len, bool descend,
                                        bool nan_first, bool want_index) {
  return guarded(std::optional<DeviceSorted>{}, [&] {
    return device_sort_on_device(x, lanes, len, descend, nan_first, want_index);
  });
}

std::optional<int64_t> device_nnz(const Tensor& mask) {
  return guarded(std::optional<int64_t>{}, [&] { return device_nnz_on_device(mask); });
}

}  // namespace matfuse::accel
