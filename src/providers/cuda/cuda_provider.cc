// The CUDA provider (see cuda_provider.h).
#include "providers/cuda/cuda_provider.h"

#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "accel/plan/placement.h"
#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse::cuda {
namespace {

/// A rendered program and, once compiled, its loaded module (the same canonical text always
/// renders and compiles to the same program, so both are done once per text).
struct Rendered {
  Program program;
  const CompiledProgram* compiled = nullptr;
};

/// Rendered programs by kernel canonical text.
Rendered& rendered(const accel::Kernel& k, const std::string* known_text, const Target& t) {
  static std::mutex mu;
  static auto* programs = new std::unordered_map<std::string, Rendered>();
  std::string computed;
  const std::string& text = known_text ? *known_text : (computed = k.text());
  std::lock_guard<std::mutex> l(mu);
  auto it = programs->find(text);
  if (it == programs->end()) it = programs->emplace(text, Rendered{render(k, t)}).first;
  return it->second;
}


const char* cache_name(CacheSource s) {
  switch (s) {
    case CacheSource::Memory: return "memory";
    case CacheSource::Disk: return "disk";
    case CacheSource::Compiled: return "compiled";
  }
  return "?";
}

/// Whether k is a plain product (no syrk, no diagonal) whose epilogue stores the product
/// unchanged, in its class, densely: BLAS can then write the output buffer itself.
bool direct_product(const accel::Kernel& k) {
  const accel::KMatMul& m = *k.matmul;
  if (m.syrk || m.diag || k.outputs.size() != 1 || k.epilogue.size() != 1) return false;
  const accel::Instr& in = k.epilogue[0];
  const accel::KOutput& o = k.outputs[0];
  if (in.kind != accel::IKind::MatMulResult || o.value != 0 || o.in_body) return false;
  if (o.cls != (m.type == accel::VType::F32 ? ClassId::Single : ClassId::Double)) return false;
  const accel::Access& acc = k.accesses[static_cast<size_t>(o.access)];
  if (acc.base != 0 || !acc.param_terms.empty()) return false;
  int64_t stride = 1;
  for (int d = 0; d < k.out_space.ndims(); ++d) {
    const int64_t size = k.out_space[d];
    if (size > 1 && (d >= static_cast<int>(acc.strides.size()) || acc.strides[d] != stride))
      return false;
    stride *= size;
  }
  return true;
}

}  // namespace

cublasHandle_t cublas_handle(Device& dev) {
  static cublasHandle_t h = [&dev] {
    if (!have_cublas())
      throw_error("matfuse:notAvailable", "GPU matrix products need cuBLAS (libcublas.so), which "
                  "is not installed.");
    cublasHandle_t handle = nullptr;
    const Api& a = dev.api();
    if (a.cublasCreate(&handle) != 0) throw_error("matfuse:cudaError", "cublasCreate failed.");
    a.cublasSetStream(handle, dev.stream());
    const bool allow = options().allow_tf32;
    a.cublasSetMathMode(handle, allow ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_PEDANTIC_MATH);
    return handle;
  }();
  return h;
}

RunResult CudaProvider::run(const accel::Kernel& k, const KernelArgs& args) {
  const DeviceInfo& info = dev_.info();
  Target t;
  t.cc_major = info.cc_major;
  t.cc_minor = info.cc_minor;
  t.sm_count = info.sm_count;
  t.max_threads_per_block = info.max_threads_per_block;
  Rendered& r = rendered(k, args.text, t);
  const Program& prog = r.program;
  RunResult rr;
  if (!r.compiled) {
    const CompileResult cr = compile(dev_, prog);
    r.compiled = cr.program;
    rr.kernel_cache = cache_name(cr.source);
    rr.compile_seconds = cr.seconds;
  } else {
    note_memory_hit();
    rr.kernel_cache = cache_name(CacheSource::Memory);
  }
  const CompiledProgram& compiled = *r.compiled;
  const Api& a = dev_.api();

  CUevent ev0 = nullptr, ev1 = nullptr;
  if (timing_) {
    a.cuEventCreate(&ev0, 0);
    a.cuEventCreate(&ev1, 0);
    a.cuEventRecord(ev0, dev_.stream());
  }
  std::unique_ptr<DeviceCopy> mm;
  if (k.matmul && direct_product(k)) {
    // The product is the kernel's only output as it is: BLAS writes it in place, no launch.
    const accel::KMatMul& m = *k.matmul;
    const bool f32 = m.type == accel::VType::F32;
    const ClassId want = f32 ? ClassId::Single : ClassId::Double;
    if (k.inputs[m.a].cls != want || k.inputs[m.b].cls != want)
      throw_error("matfuse:codegen", "GPU matrix products need %s operands.",
                  f32 ? "single" : "double");
    double alpha =
        m.alpha_slot >= 0 ? args.params[static_cast<size_t>(m.alpha_slot)].f : m.alpha_imm;
    if (m.alpha_div) alpha = 1.0 / alpha;
    GemmCall g{f32, m.trans_a, m.trans_b, m.m, m.n, m.k, args.inputs[m.a], m.lda,
               args.inputs[m.b], m.ldb, args.outputs[0]};
    g.alpha = alpha;
    if (m.m != 0 && m.n != 0) gemm(g);
    if (timing_) {
      a.cuEventRecord(ev1, dev_.stream());
      a.cuEventSynchronize(ev1);
      float ms = 0;
      a.cuEventElapsedTime(&ms, ev0, ev1);
      rr.device_seconds = ms / 1e3;
      a.cuEventDestroy(ev0);
      a.cuEventDestroy(ev1);
    }
    return rr;
  }
  if (k.matmul) {
    // C = op(A) * op(B) into a fresh m x n device buffer.
    const accel::KMatMul& m = *k.matmul;
    const ClassId ca = k.inputs[m.a].cls, cb = k.inputs[m.b].cls;
    const bool f32 = m.type == accel::VType::F32;
    const ClassId want = f32 ? ClassId::Single : ClassId::Double;
    if (ca != want || cb != want)
      throw_error("matfuse:codegen", "GPU matrix products need %s operands.",
                  f32 ? "single" : "double");
    mm = dev_.allocate(static_cast<size_t>(m.m * m.n) * (f32 ? 4 : 8));
    double alpha =
        m.alpha_slot >= 0 ? args.params[static_cast<size_t>(m.alpha_slot)].f : m.alpha_imm;
    if (m.alpha_div) alpha = 1.0 / alpha;
    if (m.m != 0 && m.n != 0) {
      if (m.syrk) {
        // The lower triangle only; the epilogue reads C(i,j), i < j, at (j,i) (codegen).
        syrk(SyrkCall{f32, m.trans_a, m.m, m.k, args.inputs[m.a], m.lda, mm->device_ptr(),
                      alpha, 0.0});
      } else {
        GemmCall g{f32, m.trans_a, m.trans_b, m.m, m.n, m.k, args.inputs[m.a], m.lda,
                   args.inputs[m.b], m.ldb, mm->device_ptr()};
        g.alpha = alpha;
        gemm(g);
      }
    }
  }
  std::unique_ptr<DeviceCopy> scratch, fault;
  if (prog.scratch_bytes) scratch = dev_.allocate(prog.scratch_bytes);
  if (prog.may_fault) {
    fault = dev_.allocate(sizeof(int));
    dev_.check(a.cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(fault->device_ptr()), 0, 1,
                                  dev_.stream()),
               "cuMemsetD32Async");
  }

  // Argument values in launch-ABI order (codegen.h); kernelParams point at them.
  const size_t n_args = args.inputs.size() + args.outputs.size() + args.params.size() + 3;
  std::vector<CUdeviceptr> ptr_vals;
  std::vector<double> f_vals;
  std::vector<unsigned long long> u_vals;
  ptr_vals.reserve(n_args);
  f_vals.reserve(args.params.size());
  u_vals.reserve(args.params.size());
  std::vector<void*> params;
  params.reserve(n_args);
  for (const void* p : args.inputs) {
    ptr_vals.push_back(reinterpret_cast<CUdeviceptr>(p));
    params.push_back(&ptr_vals.back());
  }
  for (void* p : args.outputs) {
    ptr_vals.push_back(reinterpret_cast<CUdeviceptr>(p));
    params.push_back(&ptr_vals.back());
  }
  for (size_t i = 0; i < args.params.size(); ++i) {
    const bool u64 = i < k.param_u64.size() && k.param_u64[i];
    if (u64) {
      u_vals.push_back(args.params[i].u);
      params.push_back(&u_vals.back());
    } else {
      f_vals.push_back(args.params[i].f);
      params.push_back(&f_vals.back());
    }
  }
  for (const auto* extra : {mm.get(), scratch.get(), fault.get()}) {
    if (!extra) continue;
    ptr_vals.push_back(reinterpret_cast<CUdeviceptr>(extra->device_ptr()));
    params.push_back(&ptr_vals.back());
  }

  for (size_t i = 0; i < prog.launches.size(); ++i) {
    const Launch& l = prog.launches[i];
    if (l.grid_x == 0 || l.grid_y == 0 || l.grid_z == 0) continue;
    dev_.check(a.cuLaunchKernel(compiled.functions[i], l.grid_x, l.grid_y, l.grid_z, l.block_x,
                                l.block_y, l.block_z, l.shared_bytes, dev_.stream(),
                                params.data(), nullptr),
               "cuLaunchKernel");
  }
  if (timing_) {
    a.cuEventRecord(ev1, dev_.stream());
    a.cuEventSynchronize(ev1);
    float ms = 0;
    a.cuEventElapsedTime(&ms, ev0, ev1);
    rr.device_seconds = ms / 1e3;
    a.cuEventDestroy(ev0);
    a.cuEventDestroy(ev1);
  }
  if (fault && defer_faults_) {
    deferred_.push_back(std::move(fault));
    rr.fault_deferred = true;
  } else if (fault) {
    const int code = dev_.read_fault_flag(reinterpret_cast<CUdeviceptr>(fault->device_ptr()));
    if (code != kNoFault) {
      rr.ok = false;
      rr.fault = fault_message(code);
    }
  }
  return rr;
}

std::string CudaProvider::fault_message(int code) {
  return code == kFaultLogicalNaN ? "NaN converted to logical" : "a value left the real domain";
}

void CudaProvider::gemm(const GemmCall& g) {
  cublasHandle_t h = cublas_handle(dev_);
  const Api& a = dev_.api();
  const int ta = g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, tb = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int m = static_cast<int>(g.m), n = static_cast<int>(g.n), kk = static_cast<int>(g.k);
  const int lda = static_cast<int>(g.lda), ldb = static_cast<int>(g.ldb);
  const float af = static_cast<float>(g.alpha), bf = static_cast<float>(g.beta);
  const double ad = g.alpha, bd = g.beta;
  int st;
  const bool have_gemv = g.f32 ? a.cublasSgemv != nullptr : a.cublasDgemv != nullptr;
  if (have_gemv && ((n == 1 && m > 1) || (m == 1 && n > 1))) {
    // Matrix-vector forms as gemv (cuBLAS manual, cublas<t>gemv): y = op(M)*x with M = A
    // (n == 1) or, for a row times a matrix, y = op(B).'*x with M = B (m == 1).
    const bool col = n == 1;
    const void* M = col ? g.a : g.b;
    const void* x = col ? g.b : g.a;
    const int ldm = col ? lda : ldb;
    const int op = col ? ta : (g.trans_b ? CUBLAS_OP_N : CUBLAS_OP_T);
    const bool mt = col ? g.trans_a : g.trans_b;  // M is stored transposed
    const int rows = col ? (mt ? kk : m) : (mt ? n : kk);
    const int cols = col ? (mt ? m : kk) : (mt ? kk : n);
    if (g.f32)
      st = a.cublasSgemv(h, op, rows, cols, &af, static_cast<const float*>(M), ldm,
                         static_cast<const float*>(x), 1, &bf, static_cast<float*>(g.c), 1);
    else
      st = a.cublasDgemv(h, op, rows, cols, &ad, static_cast<const double*>(M), ldm,
                         static_cast<const double*>(x), 1, &bd, static_cast<double*>(g.c), 1);
    if (st != 0) throw_error("matfuse:cudaError", "cuBLAS gemv failed (status %d).", st);
    return;
  }
  if (g.f32)
    st = a.cublasSgemm(h, ta, tb, m, n, kk, &af, static_cast<const float*>(g.a), lda,
                       static_cast<const float*>(g.b), ldb, &bf, static_cast<float*>(g.c), m);
  else
    st = a.cublasDgemm(h, ta, tb, m, n, kk, &ad, static_cast<const double*>(g.a), lda,
                       static_cast<const double*>(g.b), ldb, &bd, static_cast<double*>(g.c), m);
  if (st != 0) throw_error("matfuse:cudaError", "cuBLAS gemm failed (status %d).", st);
}

void CudaProvider::syrk(const SyrkCall& s) {
  cublasHandle_t h = cublas_handle(dev_);
  const Api& a = dev_.api();
  const int n = static_cast<int>(s.n), k = static_cast<int>(s.k), lda = static_cast<int>(s.lda);
  const int t = s.trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  const bool have = s.f32 ? a.cublasSsyrk != nullptr : a.cublasDsyrk != nullptr;
  // A small n (a 256 x 256 covariance of 2e6 rows) has few output tiles: gemm's kernels that
  // split the inner dimension keep the device busy there, so the full product is computed
  // (twice the flops of one triangle, but a far higher rate); syrk from n = 1024 on.
  if (!have || s.n < 1024) {  // the full product by gemm: its lower triangle is the answer
    GemmCall g{s.f32, s.trans, !s.trans, s.n, s.n, s.k, s.a, s.lda, s.a, s.lda, s.c};
    g.alpha = s.alpha;
    g.beta = s.beta;
    gemm(g);
    return;
  }
  int st;
  if (s.f32) {
    const float af = static_cast<float>(s.alpha), bf = static_cast<float>(s.beta);
    st = a.cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, t, n, k, &af, static_cast<const float*>(s.a),
                       lda, &bf, static_cast<float*>(s.c), n);
  } else {
    st = a.cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, t, n, k, &s.alpha,
                       static_cast<const double*>(s.a), lda, &s.beta, static_cast<double*>(s.c),
                       n);
  }
  if (st != 0) throw_error("matfuse:cudaError", "cuBLAS syrk failed (status %d).", st);
}

double CudaProvider::estimate_seconds(const KernelCost& c) const {
  const accel::Calibration& cal = accel::calibration();
  const double touched = static_cast<double>(c.bytes_in + c.bytes_out);
  return c.launches * cal.launch_us * 1e-6 + touched / (cal.device_bandwidth_gbs * 1e9) +
         c.flops / (cal.device_gemm_gflops * 1e9) + c.ops / (cal.device_op_rate_gops * 1e9) +
         static_cast<double>(c.bytes_to_bind) / (cal.upload_gbs * 1e9) +
         static_cast<double>(c.bytes_to_host) / (cal.download_gbs * 1e9);
}

bool CudaProvider::resident(const Tensor& t) const { return t.device_only() || on_cuda(t); }

const void* CudaProvider::bind_input(const Tensor& t, int64_t* copied_bytes) {
  const int64_t up0 = dev_.stats().upload_bytes;
  const void* p = reinterpret_cast<const void*>(device_pointer(dev_, t));
  if (copied_bytes) *copied_bytes = dev_.stats().upload_bytes - up0;
  return p;
}

Tensor CudaProvider::new_output(ClassId cls, const Dims& dims, void** address, bool complex) {
  Tensor t = device_tensor(dev_, cls, dims, complex);
  *address = t.storage()->device()->device_ptr();
  return t;
}

std::optional<DeviceProperties> CudaProvider::device_properties() {
  const DeviceInfo& in = dev_.info();
  DeviceProperties p;
  p.name = in.name;
  p.ordinal = in.ordinal;
  p.cc_major = in.cc_major;
  p.cc_minor = in.cc_minor;
  p.multiprocessors = in.sm_count;
  p.max_threads_per_block = in.max_threads_per_block;
  p.total_memory = in.total_memory;
  try {
    const auto [free_b, total_b] = dev_.memory_info();
    p.free_memory = free_b;
    if (total_b) p.total_memory = total_b;
  } catch (const MatlabError&) {
  }
  p.driver_version = in.driver_version;
  p.compiler_major = in.nvrtc_major;
  p.compiler_minor = in.nvrtc_minor;
  return p;
}

std::string CudaProvider::take_deferred_faults(size_t mark) {
  if (mark >= deferred_.size()) return "";
  std::vector<CUdeviceptr> flags;
  for (size_t i = mark; i < deferred_.size(); ++i)
    flags.push_back(reinterpret_cast<CUdeviceptr>(deferred_[i]->device_ptr()));
  const std::vector<int> codes = dev_.read_fault_flags(flags);
  deferred_.resize(mark);
  for (int c : codes)
    if (c != kNoFault) return fault_message(c);
  return "";
}

CudaProvider* cuda_provider() {
  static CudaProvider* p = [] {
    Device* d = Device::get();
    return d ? new CudaProvider(*d) : nullptr;
  }();
  return p;
}

}  // namespace matfuse::cuda
