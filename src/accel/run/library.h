// Dense linear algebra where the data lives (DESIGN.md decisions 13-15): the builtins' access
// to the LibraryCall::Solve entries of a provider (LAPACK on the host, cuSOLVER on a device)
// without naming one, so builtins never include providers/ headers.
//
// Semantics contract
// - Linalg::choose() picks the provider for one builtin call. It returns nullopt, and the
//   builtin runs its own host code, when: placement is forced to the CPU (MATFUSE_DEVICE=cpu),
//   no usable device provider implements Solve, an operand is not real single or double
//   (complex, integer, logical, char), or the cost model prefers the host. Otherwise it returns
//   the device: when an operand is a gpuArray (MATLAB's rule) or lives only on the device (unless
//   the host is cheaper, gather included, by the estimates below), or when the device's estimate
//   (launches, flops at the calibrated rate, uploads of operands without a device copy) is
//   below the host's (flops at the host rate, gathers of device-only operands). Lazy operands
//   are forced first (where their groups run is placement's decision).
// - Tests may set an override provider (set_linalg_override): choose() then returns it for
//   every real single/double operand, so the same algorithms run on the host provider in CI and
//   on the device in the GPU tests.
// - Matrices are Tensors in the chosen provider's memory: alloc() gives fresh (uninitialised)
//   ones (device-only tensors on a device, gathered on first host access); inputs are bound
//   (uploaded once) on use. Methods that write modify only tensors made by alloc()/copy() of
//   this Linalg, never an operand.
// - All matrices are 2-D column-major with leading dimension = rows; the class is the Linalg's
//   (single or double). Errors are MatlabErrors; a device workspace that does not fit raises
//   matfuse:gpuOutOfMemory (builtins then fall back to their host code).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "accel/run/provider.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

class Linalg {
public:
  /// The provider for a call on `operands` doing about `flops` floating-point operations (see
  /// the contract); nullopt: use the builtin's host code.
  static std::optional<Linalg> choose(std::initializer_list<const Tensor*> operands,
                                      double flops);
  /// A Linalg on the provider named `name` for class cls (tests).
  static std::optional<Linalg> on(std::string_view name, ClassId cls);

  bool on_device() const { return !p_->host_memory(); }
  std::string_view provider_name() const { return p_->name(); }
  bool f32() const { return f32_; }
  ClassId cls() const { return f32_ ? ClassId::Single : ClassId::Double; }

  // ---- matrices in the provider's memory
  /// A fresh m x n matrix (uninitialised).
  Tensor alloc(int64_t m, int64_t n) const;
  /// A fresh int32 vector of n elements (pivots, permutations).
  Tensor alloc_index(int64_t n) const;
  /// A fresh copy of a (m x n) with rows m..ld-1 of each column undefined when ld > m:
  /// copy(a) has ld = rows.
  Tensor copy(const Tensor& a) const;
  /// rows r0..r0+m-1, columns c0..c0+n-1 of a (a fresh m x n matrix).
  Tensor block(const Tensor& a, int64_t r0, int64_t c0, int64_t m, int64_t n) const;
  /// a.' (fresh).
  Tensor transpose(const Tensor& a) const;
  /// A fresh m x n matrix with v (a vector of min(m, n) values, or none) on the diagonal and
  /// zeros elsewhere; value fills the diagonal when v is null (eye: value 1).
  Tensor diag(int64_t m, int64_t n, const Tensor* v, double value = 1) const;
  /// The main diagonal of a (fresh min(m,n) x 1).
  Tensor diag_of(const Tensor& a) const;
  /// A host vector uploaded to the provider (a fresh n x 1 matrix).
  Tensor from_host(const std::vector<double>& v) const;
  /// Host values of a (a gather for a device matrix).
  std::vector<double> to_host(const Tensor& a) const;

  // ---- LAPACK (see provider.h; `a` etc. must come from alloc/copy of this Linalg when written)
  MatrixTraits analyze(const Tensor& a) const;
  /// LU in place of a; ipiv gets min(m,n) 1-based pivots; returns info.
  int getrf(Tensor& a, Tensor& ipiv) const;
  void getrs(const Tensor& lu, const Tensor& ipiv, Tensor& b, bool trans = false) const;
  int potrf(Tensor& a, bool upper) const;
  void potrs(const Tensor& r, Tensor& b, bool upper) const;
  /// QR in place of a; returns tau (min(m,n) x 1).
  Tensor geqrf(Tensor& a) const;
  /// c = Q' * c (trans) or Q * c with Q from geqrf's first k reflectors in qr.
  void ormqr(const Tensor& qr, const Tensor& tau, int64_t k, Tensor& c, bool trans) const;
  /// The first `cols` columns of Q (fresh m x cols) from geqrf's factors (m x n) and tau.
  Tensor orgqr(const Tensor& qr, const Tensor& tau, int64_t cols) const;
  /// Eigenvalues (ascending, fresh n x 1) of symmetric a; a becomes the eigenvectors when
  /// vectors is set. Returns info through *info.
  Tensor syevd(Tensor& a, bool vectors, int* info) const;
  /// SVD of a (any m x n; a is destroyed): s (fresh min(m,n) x 1, descending), and when job is
  /// 'A' or 'S', u (m x m or m x k) and v (n x n or n x k; V, not V'). Returns info.
  int gesvd(Tensor& a, char job, Tensor& s, Tensor* u, Tensor* v) const;
  /// b = op(A) \ b for triangular a.
  void trsm(const Tensor& a, Tensor& b, bool upper, bool trans, bool unit_diag = false) const;
  /// In-place maps of provider.h FillCall on a.
  void fill(Tensor& a, FillCall::Kind kind, int64_t k = 0, const Tensor* v = nullptr,
            double value = 0) const;
  /// Fresh c with c(i,:) = a(perm[i],:), or c(perm[i],:) = a(i,:) when inverse (perm: int32,
  /// 0-based, in this provider's memory).
  Tensor permute_rows(const Tensor& a, const Tensor& perm, bool inverse) const;
  /// c = op(a) * op(b) (fresh).
  Tensor gemm(const Tensor& a, const Tensor& b, bool ta = false, bool tb = false) const;

private:
  Linalg(Provider* p, bool f32) : p_(p), f32_(f32) {}
  const void* in(const Tensor& t) const;
  void* out(Tensor& t) const;
  Provider* p_;
  bool f32_;
};

/// Makes choose() return the provider named `name` for every real single/double operand (""
/// restores the cost model). Tests only.
void set_linalg_override(std::string name);

/// Library calls made through Linalg::choose() per provider since start (tests, telemetry).
struct LinalgStats {
  int64_t host_calls = 0, device_calls = 0;
};
LinalgStats linalg_stats();

}  // namespace matfuse::accel
