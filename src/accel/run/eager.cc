// Node-at-a-time evaluation with the eager engine (see eager.h).
#include "accel/run/eager.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "runtime/reduce.h"
#include "runtime/elementwise.h"
#include "runtime/error.h"

#include "runtime/philox.inc"

namespace matfuse::accel {
namespace {

std::vector<int> mask_dims(uint32_t mask) {
  std::vector<int> d;
  for (int k = 0; k < 32; ++k)
    if (mask & (1u << k)) d.push_back(k);
  return d;
}

OutType out_type(ReduceOut o) {
  switch (o) {
    case ReduceOut::Double: return OutType::Double;
    case ReduceOut::Native: return OutType::Native;
    default: return OutType::Default;
  }
}

Tensor reduce_eager(const Node& n, const Tensor& x) {
  const std::vector<int> dims = mask_dims(n.reduce_mask);
  const NanFlag nan = n.omitnan ? NanFlag::Omit : NanFlag::Include;
  Tensor r;
  switch (n.reduce) {
    case ReduceKind::Sum: r = sum_dims(x, dims, out_type(n.out_type), nan); break;
    case ReduceKind::Prod: r = prod_dims(x, dims, out_type(n.out_type), nan); break;
    case ReduceKind::Mean: r = mean_dims(x, dims, out_type(n.out_type), nan); break;
    case ReduceKind::Min: r = minmax_dims(x, dims, false, nan); break;
    case ReduceKind::Max: r = minmax_dims(x, dims, true, nan); break;
    case ReduceKind::Any: r = any_dims(x, dims); break;
    case ReduceKind::All: r = all_dims(x, dims); break;
  }
  // Dims past ndims only change the class: the eager functions already apply the class rules.
  if (r.cls() != n.cls) r = r.to_class(n.cls);
  return r;
}

Tensor matmul_eager(const Node& n, Tensor a, Tensor b) {
  const ClassId rc = n.cls == ClassId::Single ? ClassId::Single : ClassId::Double;
  if (a.cls() != rc) a = a.to_class(rc);
  if (b.cls() != rc) b = b.to_class(rc);
  const bool cx = a.is_complex() || b.is_complex();
  if (cx) {
    a = a.to_complex();
    b = b.to_complex();
  }
  const int m = static_cast<int>(a.dims().rows()), k = static_cast<int>(a.dims().cols()),
            nn = static_cast<int>(b.dims().cols());
  Tensor c = Tensor::zeros(rc, Dims(m, nn), cx);
  if (m == 0 || nn == 0 || k == 0) return c;
  const int lda = m, ldb = k, ldc = m;
  if (rc == ClassId::Single) {
    if (cx) {
      const std::complex<float> one(1, 0), zero(0, 0);
      cblas_cgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nn, k, &one, a.raw(), lda,
                  b.raw(), ldb, &zero, c.mutable_raw(), ldc);
    } else {
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nn, k, 1.0f, a.data<float>(), lda,
                  b.data<float>(), ldb, 0.0f, c.mutable_data<float>(), ldc);
    }
  } else {
    if (cx) {
      const std::complex<double> one(1, 0), zero(0, 0);
      cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nn, k, &one, a.raw(), lda,
                  b.raw(), ldb, &zero, c.mutable_raw(), ldc);
    } else {
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nn, k, 1.0, a.data<double>(), lda,
                  b.data<double>(), ldb, 0.0, c.mutable_data<double>(), ldc);
    }
  }
  return cx ? c.drop_zero_imag() : c;
}

Tensor transpose_eager(const Node& n, const Tensor& x) {
  const int64_t r = x.dims().rows(), c = x.dims().cols();
  Tensor out = Tensor::uninit(x.cls(), Dims(c, r), x.is_complex());
  const int eb = x.elem_bytes();
  const char* s = static_cast<const char*>(x.raw());
  char* d = static_cast<char*>(out.mutable_raw());
  for (int64_t j = 0; j < c; ++j)
    for (int64_t i = 0; i < r; ++i) std::memcpy(d + (i * c + j) * eb, s + (j * r + i) * eb, eb);
  if (n.conj && x.is_complex()) {
    const int64_t num = out.numel();
    for (int64_t i = 0; i < num; ++i) out.set_complex(i, std::conj(out.get_complex(i)));
  }
  return out;
}

Tensor slice_eager(const Node& n, const Tensor& x) {
  const Dims& xd = x.dims();
  const int nd = xd.ndims();
  auto st = strides_of(xd);
  int64_t base = 0;
  for (int k = 0; k < nd; ++k) base += (static_cast<int64_t>(n.inputs[k + 1]->value) - 1) * st[k];
  Tensor out = Tensor::uninit(x.cls(), n.dims, x.is_complex());
  const int64_t total = n.dims.numel();
  const int eb = x.elem_bytes();
  const char* s = static_cast<const char*>(x.raw());
  char* d = total ? static_cast<char*>(out.mutable_raw()) : nullptr;
  std::vector<int64_t> idx(nd, 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t off = base;
    for (int k = 0; k < nd; ++k) off += idx[k] * n.steps[k] * st[k];
    std::memcpy(d + i * eb, s + off * eb, eb);
    for (int k = 0; k < nd; ++k) {
      if (++idx[k] < n.dims[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

/// Main diagonal of the 2-D x (any class, complex kept): min(m,n) x 1, element k = x(k*(m+1)),
/// the bits of the eager diag builtin.
Tensor diag_eager(const Tensor& x) {
  const int64_t r = x.dims().rows(), c = x.dims().cols(), len = std::min(r, c);
  Tensor out = Tensor::uninit(x.cls(), Dims(len, 1), x.is_complex());
  const int eb = x.elem_bytes();
  const char* s = static_cast<const char*>(x.raw());
  char* d = len ? static_cast<char*>(out.mutable_raw()) : nullptr;
  for (int64_t k = 0; k < len; ++k) std::memcpy(d + k * eb, s + k * (r + 1) * eb, eb);
  return out;
}

}  // namespace

Tensor generate(const Node& g) {
  MF_ASSERT(g.kind == NodeKind::Generator, "generate() needs a generator node");
  const int64_t num = g.numel();
  const bool single = g.cls == ClassId::Single;
  switch (g.gen) {
    case GenKind::Rand:
    case GenKind::Randn: {
      const uint64_t key = g.inputs[0]->bits, off = g.inputs[1]->bits;
      Tensor t = Tensor::uninit(g.cls, g.dims);
      const bool normal = g.gen == GenKind::Randn;
      if (single) {
        float* d = num ? t.mutable_data<float>() : nullptr;
        for (int64_t i = 0; i < num; ++i) {
          const uint64_t c = off + static_cast<uint64_t>(i);
          d[i] = normal ? mf_randn_f(key, c) : mf_rand_f(key, c);
        }
      } else {
        double* d = num ? t.mutable_data<double>() : nullptr;
        for (int64_t i = 0; i < num; ++i) {
          const uint64_t c = off + static_cast<uint64_t>(i);
          d[i] = normal ? mf_randn_d(key, c) : mf_rand_d(key, c);
        }
      }
      return t;
    }
    case GenKind::Zeros: return Tensor::zeros(g.cls, g.dims);
    case GenKind::Ones: {
      Tensor t = Tensor::uninit(g.cls, g.dims);
      for (int64_t i = 0; i < num; ++i) t.set_double(i, 1.0);
      return t;
    }
    case GenKind::Eye: {
      Tensor t = Tensor::zeros(g.cls, g.dims);
      const int64_t m = g.dims.rows(), n = std::min(g.dims.rows(), g.dims.cols());
      for (int64_t i = 0; i < n; ++i) t.set_double(i * m + i, 1.0);
      return t;
    }
    case GenKind::Linspace: {
      const double a = g.inputs[0]->value, b = g.inputs[1]->value;
      Tensor t = Tensor::uninit(ClassId::Double, g.dims);
      const double n1 = static_cast<double>(num - 1);
      const double diff = b - a;
      for (int64_t i = 0; i < num; ++i) {
        double v;
        if (i == num - 1) v = b;
        else if (i == 0) v = a;
        else if (std::isinf(diff)) v = a + (b / n1) * i - (a / n1) * i;
        else v = a + (static_cast<double>(i) * diff) / n1;
        t.set_double(i, v);
      }
      return single ? t.to_class(ClassId::Single) : t;
    }
    case GenKind::Colon: {
      const double a = g.inputs[0]->value, d = g.inputs[1]->value, last = g.inputs[2]->value;
      Tensor t = Tensor::uninit(g.cls, g.dims);
      if (single) {
        float* o = t.mutable_data<float>();
        for (int64_t k = 0; k < num; ++k)
          o[k] = k == num - 1 ? static_cast<float>(last)
                              : static_cast<float>(a) + static_cast<float>(k) * static_cast<float>(d);
      } else {
        double* o = t.mutable_data<double>();
        for (int64_t k = 0; k < num; ++k) o[k] = k == num - 1 ? last : a + static_cast<double>(k) * d;
      }
      return t;
    }
  }
  return Tensor();
}

Tensor eval_node_eager(const Node& n, std::span<const Tensor> in) {
  switch (n.kind) {
    case NodeKind::Input: return n.tensor;
    case NodeKind::Constant: return Tensor::scalar(n.value, n.cls);
    case NodeKind::Param: return Tensor::scalar(n.value);
    case NodeKind::Elementwise:
      return op_arity(n.op) == 1 ? apply_unary(n.op, in[0]) : apply_binary(n.op, in[0], in[1]);
    case NodeKind::Generator: return generate(n);
    case NodeKind::Reduce: return reduce_eager(n, in[0]);
    case NodeKind::Cast: return in[0].to_class(n.cls);
    case NodeKind::MatMul: return matmul_eager(n, in[0], in[1]);
    case NodeKind::Transpose: return transpose_eager(n, in[0]);
    case NodeKind::Slice: return slice_eager(n, in[0]);
    case NodeKind::Diag: return diag_eager(in[0]);
  }
  MF_ASSERT(false, "unknown node kind");
  return Tensor();
}

std::vector<Tensor> evaluate_eager(std::span<const NodeRef> roots) {
  std::unordered_map<const Node*, Tensor> memo;
  // Creation order is a topological order (inputs exist before their consumers) and is the
  // program order, so the first failing operation raises its error.
  std::vector<const Node*> order = topo_order(roots);
  std::sort(order.begin(), order.end(),
            [](const Node* a, const Node* b) { return a->serial < b->serial; });
  for (const Node* n : order) {
    std::vector<Tensor> ins;
    ins.reserve(n->inputs.size());
    for (const NodeRef& i : n->inputs) ins.push_back(memo.at(i.get()));
    memo[n] = eval_node_eager(*n, ins);
  }
  std::vector<Tensor> out;
  for (const NodeRef& r : roots) out.push_back(memo.at(r.get()));
  return out;
}

}  // namespace matfuse::accel
