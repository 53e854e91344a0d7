// Indexing on the device (issue 18 item 5; DESIGN.md decisions 13 and 15): the interpreter's
// entry to the provider's indexing library calls (provider.h IndexCall, MaskCall), so that
// reading or assigning part of a device-resident array moves only the selected elements and
// never gathers the array to the host.
//
// Contract
// - index_provider(t) says whether t is served on the device: a device provider with
//   LibraryCall::Index is usable (not --device cpu) and t is real (not complex) and either has
//   a device copy already, or is a pending value of at least lazy_config().min_numel elements,
//   which is then forced for SinkReason::DeviceIndex (a sink that does not read the host, so
//   placement may compute it on the device). Host-resident tensors are never uploaded for
//   indexing: the host path serves them.
// - The functions below return false / nullopt when index_provider is null, when the request
//   has more than kMaxIndexDims subscripts, or (scatter) when a subscript list repeats a
//   position while the right side is not a scalar (MATLAB's last-write-wins order then needs
//   the host path). The caller has already resolved and checked the subscripts (MATLAB's errors
//   are raised there), converted the right side to the base's class, and handled empty
//   selections and growth.
// - Writes are in place on the device copy when the base's storage is unshared, else on a device
//   clone (copy-on-write); the host copy becomes stale (Storage::device_written), so the next
//   host access gathers once. Results of reads are device-only tensors.
// - Each call is recorded in telemetry as one evaluation (reason device_index) with one group
//   of fusion_kind index_gather, index_scatter, mask_compact or mask_scatter.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "runtime/tensor.h"

namespace matfuse {
class Provider;
}

namespace matfuse::accel {

/// One subscript as the interpreter resolved it: positions start .. start+count-1, or the
/// 0-based positions in *list (count of them) when list is not null.
struct IndexSub {
  int64_t count = 0;
  int64_t start = 0;
  const std::vector<int64_t>* list = nullptr;
};

/// The device provider that serves indexing of t, or null (see the contract). May force a
/// pending t.
Provider* index_provider(const Tensor& t);

/// base(subs...) over effective dims eff (one extent per subscript; column-major strides):
/// a device-only tensor of class base.cls() and dims out (out.numel() == product of counts > 0).
std::optional<Tensor> device_gather(const Tensor& base, std::span<const int64_t> eff,
                                    std::span<const IndexSub> subs, const Dims& out);

/// base(subs...) = rhs in place on the device. rhs has base's class, is real, and has 1 or
/// count elements (in selection order). Returns false when the device does not serve it.
bool device_scatter(Tensor& base, std::span<const int64_t> eff, std::span<const IndexSub> subs,
                    const Tensor& rhs);

/// base(mask) for a logical mask of base.numel() elements: a device-only k x 1 tensor of the
/// selected elements in order (the caller reshapes it to MATLAB's result orientation).
std::optional<Tensor> device_mask_read(const Tensor& base, const Tensor& mask);

/// base(mask) = rhs for a logical mask of base.numel() elements; rhs (base's class, real) is a
/// scalar, or has as many elements as the mask has true values: for a non-scalar rhs,
/// check_count(k) is called with that number before anything is written (it raises MATLAB's
/// size error).
bool device_mask_assign(Tensor& base, const Tensor& mask, const Tensor& rhs,
                        const std::function<void(int64_t)>& check_count);

/// find(x) for a device-served logical x: the 1-based linear indices of its true elements as a
/// device-only k x 1 double tensor; nullopt when the device does not serve x.
std::optional<Tensor> device_find(const Tensor& mask);

/// sort of `lanes` contiguous lanes of `len` elements of a device-served real x (see
/// provider.h SortCall for the order): device-only tensors of the sorted values (x's class and
/// dims) and, when want_index, of the 1-based positions within each lane (double); nullopt
/// when the device does not serve x or its provider has no sort.
struct DeviceSorted {
  Tensor values, index;
};
std::optional<DeviceSorted> device_sort(const Tensor& x, int64_t lanes, int64_t len, bool descend,
                                        bool nan_first, bool want_index);

/// Medians of `lanes` contiguous lanes of `len` elements of a device-served real double or
/// single x (lane b is x[b*len .. (b+1)*len)), by radix selection on the device (provider.h
/// SelectCall): a host 1 x lanes double tensor of MATLAB's medians (NaN when a lane has a NaN
/// and !omit, or no numbers); nullopt when the device does not serve x.
std::optional<Tensor> device_median(const Tensor& x, int64_t lanes, int64_t len, bool omit);

/// nnz(x) for a device-served logical x (8 bytes read back); nullopt when not served.
std::optional<int64_t> device_nnz(const Tensor& mask);

}  // namespace matfuse::accel
