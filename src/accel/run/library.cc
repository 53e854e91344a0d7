// Dense linear algebra where the data lives (see library.h).
#include "accel/run/library.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

#include "accel/plan/placement.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

std::mutex g_mu;
std::string g_override;
std::atomic<int64_t> g_host_calls{0}, g_device_calls{0};

bool real_float(const Tensor& t) {
  if (t.is_lazy()) {
    if (t.maybe_complex()) return false;
  } else if (t.is_complex()) {
    return false;
  }
  return t.cls() == ClassId::Single || t.cls() == ClassId::Double;
}

int64_t bytes_of(const Tensor& t) { return t.numel() * static_cast<int64_t>(t.elem_bytes()); }

char* offset(void* p, int64_t elems, bool f32) {
  return static_cast<char*>(p) + elems * (f32 ? 4 : 8);
}

}  // namespace

void set_linalg_override(std::string name) {
  std::lock_guard<std::mutex> l(g_mu);
  g_override = std::move(name);
}

LinalgStats linalg_stats() { return {g_host_calls.load(), g_device_calls.load()}; }

std::optional<Linalg> Linalg::on(std::string_view name, ClassId cls) {
  if (cls != ClassId::Single && cls != ClassId::Double) return std::nullopt;
  Provider* p = find_provider(name);
  if (!p || !p->supports(LibraryCall::Solve)) return std::nullopt;
  return Linalg(p, cls == ClassId::Single);
}

std::optional<Linalg> Linalg::choose(std::initializer_list<const Tensor*> operands,
                                     double flops) {
  bool f32 = false;
  for (const Tensor* t : operands) {
    if (!real_float(*t)) return std::nullopt;
    if (t->cls() == ClassId::Single) f32 = true;
  }
  std::string over;
  {
    std::lock_guard<std::mutex> l(g_mu);
    over = g_override;
  }
  auto counted = [](std::optional<Linalg> la) {
    if (la) (la->on_device() ? g_device_calls : g_host_calls)++;
    return la;
  };
  if (!over.empty()) return counted(on(over, f32 ? ClassId::Single : ClassId::Double));
  if (device_mode() == DeviceMode::Cpu) return std::nullopt;
  Provider* dev = device_provider();
  Provider* host = host_memory_provider();
  if (!dev || !host || !dev->supports(LibraryCall::Solve)) return std::nullopt;
  for (const Tensor* t : operands) t->force();
  for (const Tensor* t : operands)
    if (t->is_complex()) return std::nullopt;
  // A gpuArray operand computes on the GPU, as in MATLAB.
  for (const Tensor* t : operands)
    if (t->gpu_array()) return counted(Linalg(dev, f32));
  KernelCost d, h;
  d.flops = h.flops = flops;
  d.launches = 8;
  bool device_only = false;
  for (const Tensor* t : operands) {
    d.bytes_in += bytes_of(*t);
    h.bytes_in += bytes_of(*t);
    if (!dev->resident(*t)) d.bytes_to_bind += bytes_of(*t);
    if (t->device_only()) {
      h.bytes_to_bind += bytes_of(*t);
      device_only = true;
    }
  }
  // A device-only operand stays where it is unless the host is clearly cheaper (a gather of a
  // small matrix and a few microseconds of LAPACK beat several device launches and waits).
  const double td = dev->estimate_seconds(d), th = host->estimate_seconds(h);
  if (td < th || (device_only && th > 1e-3)) return counted(Linalg(dev, f32));
  return std::nullopt;
}

const void* Linalg::in(const Tensor& t) const {
  MF_ASSERT(t.cls() == cls(), "linear algebra operand of another class");
  return p_->bind_input(t);
}

void* Linalg::out(Tensor& t) const { return const_cast<void*>(in(t)); }

Tensor Linalg::alloc(int64_t m, int64_t n) const {
  void* addr = nullptr;
  return p_->new_output(cls(), Dims(m, n), &addr);
}

Tensor Linalg::alloc_index(int64_t n) const {
  void* addr = nullptr;
  return p_->new_output(ClassId::Int32, Dims(std::max<int64_t>(n, 1), 1), &addr);
}

Tensor Linalg::copy(const Tensor& a) const {
  return block(a, 0, 0, a.dims().rows(), a.dims().cols());
}

Tensor Linalg::block(const Tensor& a, int64_t r0, int64_t c0, int64_t m, int64_t n) const {
  Tensor c = alloc(m, n);
  if (m == 0 || n == 0) return c;
  const int64_t lda = std::max<int64_t>(a.dims().rows(), 1);
  GeamCall g;
  g.f32 = f32_;
  g.m = m;
  g.n = n;
  g.a = offset(const_cast<void*>(in(a)), c0 * lda + r0, f32_);
  g.lda = lda;
  g.c = out(c);
  g.ldc = std::max<int64_t>(m, 1);
  p_->geam(g);
  return c;
}

Tensor Linalg::transpose(const Tensor& a) const {
  const int64_t m = a.dims().rows(), n = a.dims().cols();
  Tensor c = alloc(n, m);
  if (m == 0 || n == 0) return c;
  GeamCall g;
  g.f32 = f32_;
  g.trans = true;
  g.m = n;
  g.n = m;
  g.a = in(a);
  g.lda = std::max<int64_t>(m, 1);
  g.c = out(c);
  g.ldc = std::max<int64_t>(n, 1);
  p_->geam(g);
  return c;
}

Tensor Linalg::diag(int64_t m, int64_t n, const Tensor* v, double value) const {
  Tensor c = alloc(m, n);
  fill(c, FillCall::Kind::Diag, 0, v, value);
  return c;
}

Tensor Linalg::diag_of(const Tensor& a) const {
  const int64_t m = a.dims().rows(), k = std::min(m, a.dims().cols());
  Tensor c = alloc(k, 1);
  if (k == 0) return c;
  // The diagonal is a 1 x k matrix with leading dimension m + 1.
  GeamCall g;
  g.f32 = f32_;
  g.m = 1;
  g.n = k;
  g.a = in(a);
  g.lda = m + 1;
  g.c = out(c);
  g.ldc = 1;
  p_->geam(g);
  return c;
}

Tensor Linalg::from_host(const std::vector<double>& v) const {
  Tensor h = Tensor::uninit(cls(), Dims(static_cast<int64_t>(v.size()), 1));
  for (size_t i = 0; i < v.size(); ++i) h.set_double(static_cast<int64_t>(i), v[i]);
  if (!on_device()) return h;
  Tensor c = alloc(static_cast<int64_t>(v.size()), 1);
  if (v.empty()) return c;
  GeamCall g;  // upload, then copy into a device-only tensor the caller may write
  g.f32 = f32_;
  g.m = static_cast<int64_t>(v.size());
  g.n = 1;
  g.a = in(h);
  g.lda = g.m;
  g.c = out(c);
  g.ldc = g.m;
  p_->geam(g);
  return c;
}

std::vector<double> Linalg::to_host(const Tensor& a) const {
  std::vector<double> v(static_cast<size_t>(a.numel()));
  for (int64_t i = 0; i < a.numel(); ++i) v[static_cast<size_t>(i)] = a.get_double(i);
  return v;
}

MatrixTraits Linalg::analyze(const Tensor& a) const {
  AnalyzeCall c;
  c.f32 = f32_;
  c.m = a.dims().rows();
  c.n = a.dims().cols();
  if (c.m == 0 || c.n == 0) {
    MatrixTraits t;
    t.upper = t.lower = t.symmetric = true;
    return t;
  }
  c.a = in(a);
  c.lda = c.m;
  return p_->analyze(c);
}

int Linalg::getrf(Tensor& a, Tensor& ipiv) const {
  GetrfCall c;
  c.f32 = f32_;
  c.m = a.dims().rows();
  c.n = a.dims().cols();
  if (std::min(c.m, c.n) == 0) return 0;
  c.a = out(a);
  c.lda = c.m;
  c.ipiv = static_cast<int32_t*>(const_cast<void*>(p_->bind_input(ipiv)));
  return p_->getrf(c);
}

void Linalg::getrs(const Tensor& lu, const Tensor& ipiv, Tensor& b, bool trans) const {
  GetrsCall c;
  c.f32 = f32_;
  c.trans = trans;
  c.n = lu.dims().rows();
  c.nrhs = b.dims().cols();
  if (c.n == 0 || c.nrhs == 0) return;
  c.a = in(lu);
  c.lda = c.n;
  c.ipiv = static_cast<const int32_t*>(p_->bind_input(ipiv));
  c.b = out(b);
  c.ldb = c.n;
  p_->getrs(c);
}

int Linalg::potrf(Tensor& a, bool upper) const {
  PotrfCall c;
  c.f32 = f32_;
  c.upper = upper;
  c.n = a.dims().rows();
  if (c.n == 0) return 0;
  c.a = out(a);
  c.lda = c.n;
  return p_->potrf(c);
}

void Linalg::potrs(const Tensor& r, Tensor& b, bool upper) const {
  PotrsCall c;
  c.f32 = f32_;
  c.upper = upper;
  c.n = r.dims().rows();
  c.nrhs = b.dims().cols();
  if (c.n == 0 || c.nrhs == 0) return;
  c.a = in(r);
  c.lda = c.n;
  c.b = out(b);
  c.ldb = c.n;
  p_->potrs(c);
}

Tensor Linalg::geqrf(Tensor& a) const {
  GeqrfCall c;
  c.f32 = f32_;
  c.m = a.dims().rows();
  c.n = a.dims().cols();
  Tensor tau = alloc(std::max<int64_t>(std::min(c.m, c.n), 1), 1);
  if (std::min(c.m, c.n) == 0) return tau;
  c.a = out(a);
  c.lda = c.m;
  c.tau = out(tau);
  p_->geqrf(c);
  return tau;
}

void Linalg::ormqr(const Tensor& qr, const Tensor& tau, int64_t k, Tensor& cm, bool trans) const {
  OrmqrCall c;
  c.f32 = f32_;
  c.trans = trans;
  c.m = cm.dims().rows();
  c.n = cm.dims().cols();
  c.k = k;
  if (c.m == 0 || c.n == 0 || k == 0) return;
  c.a = in(qr);
  c.lda = std::max<int64_t>(qr.dims().rows(), 1);
  c.tau = in(tau);
  c.c = out(cm);
  c.ldc = c.m;
  p_->ormqr(c);
}

Tensor Linalg::orgqr(const Tensor& qr, const Tensor& tau, int64_t cols) const {
  const int64_t m = qr.dims().rows(), n = qr.dims().cols(), k = std::min(m, n);
  // Q's first `cols` columns: the reflectors (first min(cols, n) columns of qr), the rest of
  // the columns of an identity (orgqr only reads the reflectors' lower parts).
  Tensor q = alloc(m, cols);
  if (m == 0 || cols == 0) return q;
  if (k == 0) {
    fill(q, FillCall::Kind::Diag, 0, nullptr, 1);
    return q;
  }
  if (cols > n) fill(q, FillCall::Kind::Diag, 0, nullptr, 1);
  GeamCall g;
  g.f32 = f32_;
  g.m = m;
  g.n = std::min(cols, n);
  g.a = in(qr);
  g.lda = m;
  g.c = out(q);
  g.ldc = m;
  p_->geam(g);
  OrgqrCall c;
  c.f32 = f32_;
  c.m = m;
  c.n = cols;
  c.k = k;
  c.a = out(q);
  c.lda = m;
  c.tau = in(tau);
  p_->orgqr(c);
  return q;
}

Tensor Linalg::syevd(Tensor& a, bool vectors, int* info) const {
  SyevdCall c;
  c.f32 = f32_;
  c.vectors = vectors;
  c.n = a.dims().rows();
  Tensor w = alloc(c.n, 1);
  *info = 0;
  if (c.n == 0) return w;
  c.a = out(a);
  c.lda = c.n;
  c.w = out(w);
  *info = p_->syevd(c);
  return w;
}

int Linalg::gesvd(Tensor& a, char job, Tensor& s, Tensor* u, Tensor* v) const {
  const int64_t m = a.dims().rows(), n = a.dims().cols(), k = std::min(m, n);
  if (m < n) {
    // svd(A.') = U2 S V2'  =>  A = V2 S U2': U = V2, V = U2.
    Tensor at = transpose(a);
    return gesvd(at, job, s, v, u);
  }
  s = alloc(k, 1);
  const bool vec = job != 'N';
  Tensor uu = vec ? alloc(m, job == 'A' ? m : k) : Tensor();
  Tensor vt = vec ? alloc(n, n) : Tensor();
  if (k == 0) {
    if (vec) {
      fill(uu, FillCall::Kind::Diag, 0, nullptr, 1);
      fill(vt, FillCall::Kind::Diag, 0, nullptr, 1);
      *u = uu;
      *v = vt;
    }
    return 0;
  }
  GesvdCall c;
  c.f32 = f32_;
  c.job = job;
  c.m = m;
  c.n = n;
  c.a = out(a);
  c.lda = m;
  c.s = out(s);
  if (vec) {
    c.u = out(uu);
    c.ldu = m;
    c.vt = out(vt);
    c.ldvt = n;
  }
  const int info = p_->gesvd(c);
  if (vec) {
    *u = uu;
    *v = transpose(vt);
  }
  return info;
}

void Linalg::trsm(const Tensor& a, Tensor& b, bool upper, bool trans, bool unit_diag) const {
  TrsmCall c;
  c.f32 = f32_;
  c.upper = upper;
  c.trans = trans;
  c.unit_diag = unit_diag;
  c.m = b.dims().rows();
  c.n = b.dims().cols();
  if (c.m == 0 || c.n == 0) return;
  c.a = in(a);
  c.lda = std::max<int64_t>(a.dims().rows(), 1);
  c.b = out(b);
  c.ldb = c.m;
  p_->trsm(c);
}

void Linalg::fill(Tensor& a, FillCall::Kind kind, int64_t k, const Tensor* v, double value) const {
  FillCall c;
  c.f32 = f32_;
  c.kind = kind;
  c.m = a.dims().rows();
  c.n = a.dims().cols();
  if (c.m == 0 || c.n == 0) return;
  c.a = out(a);
  c.lda = c.m;
  c.k = k;
  c.v = v ? in(*v) : nullptr;
  c.value = value;
  p_->fill(c);
}

Tensor Linalg::permute_rows(const Tensor& a, const Tensor& perm, bool inverse) const {
  Tensor c = alloc(a.dims().rows(), a.dims().cols());
  PermuteRowsCall p;
  p.f32 = f32_;
  p.inverse = inverse;
  p.m = a.dims().rows();
  p.n = a.dims().cols();
  if (p.m == 0 || p.n == 0) return c;
  p.a = in(a);
  p.lda = p.m;
  p.perm = static_cast<const int32_t*>(p_->bind_input(perm));
  p.c = out(c);
  p.ldc = p.m;
  p_->permute_rows(p);
  return c;
}

Tensor Linalg::gemm(const Tensor& a, const Tensor& b, bool ta, bool tb) const {
  const int64_t m = ta ? a.dims().cols() : a.dims().rows();
  const int64_t k = ta ? a.dims().rows() : a.dims().cols();
  const int64_t n = tb ? b.dims().rows() : b.dims().cols();
  Tensor c = alloc(m, n);
  if (m == 0 || n == 0) return c;
  if (k == 0) {
    fill(c, FillCall::Kind::Diag, 0, nullptr, 0);
    return c;
  }
  GemmCall g;
  g.f32 = f32_;
  g.trans_a = ta;
  g.trans_b = tb;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = in(a);
  g.lda = std::max<int64_t>(a.dims().rows(), 1);
  g.b = in(b);
  g.ldb = std::max<int64_t>(b.dims().rows(), 1);
  g.c = out(c);
  p_->gemm(g);
  return c;
}

}  // namespace matfuse::accel
