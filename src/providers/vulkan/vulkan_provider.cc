// The Vulkan provider (see vulkan_provider.h).
#include "providers/vulkan/vulkan_provider.h"

#include <cmath>
#include <cstring>

#include "accel/plan/placement.h"
#include "runtime/error.h"

namespace matfuse::vk {
namespace {

constexpr int kProbeCount = 1 << 14;

/// The probe kernel: quotients, square roots and fma(a, b, c) in single and (when f64) double
/// precision, and the narrowing conversions double -> float (of a) and uint64 -> double (of b's
/// bits). Argument block (addresses): a64, b64, q64, s64, a32, b32, q32, s32, c64, fma64, c32,
/// fma32, cvt32, u2d64.
std::string probe_source(bool f64) {
  std::string s =
      "#version 460\n"
      "#extension GL_EXT_buffer_reference : require\n"
      "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n"
      "layout(local_size_x = 256) in;\n"
      "layout(buffer_reference, std430, buffer_reference_align = 8) buffer MfU64 { uint64_t v; };\n"
      "layout(buffer_reference, std430, buffer_reference_align = 4) buffer MfF32 { float v; };\n";
  if (f64)
    s += "layout(buffer_reference, std430, buffer_reference_align = 8) buffer MfF64 { double v; };\n";
  s += "layout(push_constant) uniform MfPush { uint64_t args; } pc;\n"
       "uint64_t arg(int k) { return MfU64(pc.args + uint64_t(8 * k)).v; }\n"
       "void main() {\n"
       "  const uint64_t i = uint64_t(gl_GlobalInvocationID.x);\n"
       "  if (i >= " + std::to_string(kProbeCount) + "UL) return;\n";
  if (f64)
    s += "  precise double a = MfF64(arg(0) + 8UL * i).v, b = MfF64(arg(1) + 8UL * i).v;\n"
         "  precise double q = a / b, r = sqrt(abs(a));\n"
         "  MfF64(arg(2) + 8UL * i).v = q;\n"
         "  MfF64(arg(3) + 8UL * i).v = r;\n"
         "  precise double c = MfF64(arg(8) + 8UL * i).v;\n"
         "  precise double f = fma(a, b, c);\n"
         "  MfF64(arg(9) + 8UL * i).v = f;\n"
         "  MfF32(arg(12) + 4UL * i).v = float(a);\n"
         "  MfF64(arg(13) + 8UL * i).v = double(doubleBitsToUint64(b));\n";
  s += "  precise float fa = MfF32(arg(4) + 4UL * i).v, fb = MfF32(arg(5) + 4UL * i).v;\n"
       "  precise float fq = fa / fb, fr = sqrt(abs(fa));\n"
       "  MfF32(arg(6) + 4UL * i).v = fq;\n"
       "  MfF32(arg(7) + 4UL * i).v = fr;\n"
       "  precise float fc = MfF32(arg(10) + 4UL * i).v;\n"
       "  precise float ff = fma(fa, fb, fc);\n"
       "  MfF32(arg(11) + 4UL * i).v = ff;\n"
       "}\n";
  return s;
}

template <class T>
bool same(T x, T y) {
  if (x != x || y != y) return x != x && y != y;
  return std::memcmp(&x, &y, sizeof x) == 0;
}

}  // namespace

VulkanProvider::VulkanProvider(Device& dev) : dev_(dev) {
  const DeviceInfo& in = dev.info();
  caps_.float64 = in.float64;
  caps_.storage8 = in.storage8;
  caps_.storage16 = in.storage16;
  caps_.max_groups = in.max_group_count_x;
  try {
    probe();
  } catch (const MatlabError&) {
    // No probe, no division or sqrt on this device (the rest still runs).
  }
}

void VulkanProvider::probe() {
  const bool f64 = caps_.float64;
  const size_t n = kProbeCount;
  std::vector<double> a(n), b(n), c(n);
  std::vector<float> fa(n), fb(n), fc(n);
  uint64_t s = 0x9e3779b97f4a7c15ull;
  auto next = [&] {  // xorshift64*
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ull;
  };
  const double special[] = {0.0, -0.0, 1.0, -1.0, 3.0, 0.1, INFINITY, -INFINITY, NAN,
                            4.9406564584124654e-324, 2.2250738585072014e-308, 1.7976931348623157e308};
  for (size_t i = 0; i < n; ++i) {
    uint64_t ua = next(), ub = next();
    if (i % 2) {  // moderate exponents (where most data lives)
      ua = (ua & 0x800fffffffffffffull) | ((0x3c0ull + (ua >> 52) % 128) << 52);
      ub = (ub & 0x800fffffffffffffull) | ((0x3c0ull + (ub >> 52) % 128) << 52);
    }
    std::memcpy(&a[i], &ua, 8);
    std::memcpy(&b[i], &ub, 8);
    uint32_t va = static_cast<uint32_t>(next() >> 32), vb = static_cast<uint32_t>(next() >> 32);
    if (i % 2) {
      va = (va & 0x807fffffu) | ((0x70u + (va >> 23) % 32) << 23);
      vb = (vb & 0x807fffffu) | ((0x70u + (vb >> 23) % 32) << 23);
    }
    std::memcpy(&fa[i], &va, 4);
    std::memcpy(&fb[i], &vb, 4);
    if (i < 144) {
      a[i] = special[i % 12];
      b[i] = special[i / 12];
      fa[i] = static_cast<float>(a[i]);
      fb[i] = static_cast<float>(b[i]);
    }
    // Addends of fma(a, b, c): random, or -(a*b) rounded, where the fused result is the
    // product's rounding error and an unfused one 0 (or another rounding).
    if (i % 2 == 0 || i < 144) {
      c[i] = i < 144 ? special[(7 * i) % 12] : a[(i * 31) % n] * 0.75;
      fc[i] = static_cast<float>(c[i]);
    } else {
      c[i] = -(a[i] * b[i]);
      fc[i] = -(fa[i] * fb[i]);
    }
  }
  std::vector<std::unique_ptr<DeviceCopy>> bufs;
  auto buffer = [&](const void* src, size_t bytes) {
    bufs.push_back(dev_.allocate(bytes));
    const uint64_t addr = reinterpret_cast<uint64_t>(bufs.back()->device_ptr());
    if (src) dev_.upload(addr, src, bytes);
    return addr;
  };
  uint64_t slots[14] = {};
  if (f64) {
    slots[0] = buffer(a.data(), 8 * n);
    slots[1] = buffer(b.data(), 8 * n);
    slots[2] = buffer(nullptr, 8 * n);
    slots[3] = buffer(nullptr, 8 * n);
    slots[8] = buffer(c.data(), 8 * n);
    slots[9] = buffer(nullptr, 8 * n);
    slots[12] = buffer(nullptr, 4 * n);
    slots[13] = buffer(nullptr, 8 * n);
  }
  slots[4] = buffer(fa.data(), 4 * n);
  slots[5] = buffer(fb.data(), 4 * n);
  slots[6] = buffer(nullptr, 4 * n);
  slots[7] = buffer(nullptr, 4 * n);
  slots[10] = buffer(fc.data(), 4 * n);
  slots[11] = buffer(nullptr, 4 * n);
  const uint64_t args = buffer(slots, sizeof slots);
  double secs = 0;
  std::string cache;
  const Pipeline& p = dev_.pipeline(probe_source(f64), &secs, &cache);
  dev_.wait(dev_.dispatch(p, static_cast<uint32_t>(n / kLocalSize), args));
  std::vector<double> q(n), r(n), f(n), u2d(n);
  std::vector<float> fq(n), fr(n), ff(n), cvt(n);
  if (f64) {
    dev_.download(q.data(), slots[2], 8 * n);
    dev_.download(r.data(), slots[3], 8 * n);
    dev_.download(f.data(), slots[9], 8 * n);
    dev_.download(cvt.data(), slots[12], 4 * n);
    dev_.download(u2d.data(), slots[13], 8 * n);
  }
  dev_.download(fq.data(), slots[6], 4 * n);
  dev_.download(fr.data(), slots[7], 4 * n);
  dev_.download(ff.data(), slots[11], 4 * n);
  bool div32 = true, sqrt32 = true, fma32 = true;
  bool div64 = f64, sqrt64 = f64, fma64 = f64, conv = f64;
  for (size_t i = 0; i < n; ++i) {
    div32 = div32 && same(fq[i], fa[i] / fb[i]);
    sqrt32 = sqrt32 && same(fr[i], std::sqrt(std::fabs(fa[i])));
    fma32 = fma32 && same(ff[i], std::fma(fa[i], fb[i], fc[i]));
    if (f64) {
      div64 = div64 && same(q[i], a[i] / b[i]);
      sqrt64 = sqrt64 && same(r[i], std::sqrt(std::fabs(a[i])));
      fma64 = fma64 && same(f[i], std::fma(a[i], b[i], c[i]));
      uint64_t ub;
      std::memcpy(&ub, &b[i], 8);
      conv = conv && same(cvt[i], static_cast<float>(a[i])) &&
             same(u2d[i], static_cast<double>(ub));
    }
  }
  caps_.div32 = div32;
  caps_.sqrt32 = sqrt32;
  caps_.div64 = div64;
  caps_.sqrt64 = sqrt64;
  caps_.fma32 = fma32;
  caps_.fma64 = fma64;
  caps_.cvt = conv;
}

const VulkanProvider::Rendered& VulkanProvider::rendered(const accel::Kernel& k,
                                                         const std::string* text) const {
  std::string computed;
  const std::string& t = text ? *text : (computed = k.text());
  std::lock_guard<std::mutex> l(mu_);
  auto it = rendered_.find(t);
  if (it != rendered_.end()) return it->second;
  Rendered r;
  try {
    r.shader = render(k, caps_);
  } catch (const MatlabError& e) {
    r.why = e.message();
  }
  return rendered_.emplace(t, std::move(r)).first->second;
}

bool VulkanProvider::supports(const accel::Kernel& k, const std::string* text) const {
  return rendered(k, text).shader.has_value();
}

std::string VulkanProvider::why_unsupported(const accel::Kernel& k,
                                            const std::string* text) const {
  return rendered(k, text).why;
}

double VulkanProvider::estimate_seconds(const KernelCost& c) const {
  const accel::Calibration& cal = accel::calibration();
  const double touched = static_cast<double>(c.bytes_in + c.bytes_out);
  const double t = c.launches * cal.launch_us * 1e-6 + touched / (cal.device_bandwidth_gbs * 1e9) +
                   c.ops / (cal.device_op_rate_gops * 1e9) +
                   static_cast<double>(c.bytes_to_bind) / (cal.upload_gbs * 1e9) +
                   static_cast<double>(c.bytes_to_host) / (cal.download_gbs * 1e9);
  // A CPU implementation (lavapipe) is a correctness tool: never cheaper than the host.
  return dev_.info().cpu ? 1.0 + 1e3 * t : t;
}

bool VulkanProvider::resident(const Tensor& t) const { return t.device_only() || on_vulkan(t); }

const void* VulkanProvider::bind_input(const Tensor& t, int64_t* copied_bytes) {
  const bool had = on_vulkan(t);
  const uint64_t a = device_address(dev_, t);
  if (copied_bytes) *copied_bytes = had ? 0 : static_cast<int64_t>(t.storage()->bytes());
  return reinterpret_cast<const void*>(a);
}

Tensor VulkanProvider::new_output(ClassId cls, const Dims& dims, void** address, bool complex) {
  Tensor t = device_tensor(dev_, cls, dims, complex);
  *address = t.storage()->device()->device_ptr();
  return t;
}

RunResult VulkanProvider::run(const accel::Kernel& k, const KernelArgs& args) {
  const Rendered& r = rendered(k, args.text);
  if (!r.shader) throw_error("matfuse:codegen", "%s", r.why.c_str());
  const Shader& sh = *r.shader;
  RunResult rr;
  std::vector<Device::Step> steps{{&dev_.pipeline(sh.glsl, &rr.compile_seconds, &rr.kernel_cache),
                                   sh.groups}};
  for (const Stage& st : sh.more) {
    double secs = 0;
    std::string cache;
    steps.push_back({&dev_.pipeline(st.glsl, &secs, &cache), st.groups});
    rr.compile_seconds += secs;
  }
  // The argument block: inputs, outputs, parameters, fault flag (vulkan_codegen.h).
  std::vector<uint64_t> block;
  block.reserve(sh.arg_slots);
  for (const void* a : args.inputs) block.push_back(reinterpret_cast<uint64_t>(a));
  for (void* a : args.outputs) block.push_back(reinterpret_cast<uint64_t>(a));
  for (size_t i = 0; i < args.params.size(); ++i) {
    const bool u64 = i < k.param_u64.size() && k.param_u64[i];
    uint64_t bits = args.params[i].u;
    if (!u64) {
      if (caps_.float64) {
        std::memcpy(&bits, &args.params[i].f, 8);
      } else {  // single-only devices read a float from the slot's first 4 bytes
        const float f = static_cast<float>(args.params[i].f);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        bits = u;
      }
    }
    block.push_back(bits);
  }
  std::unique_ptr<DeviceCopy> fault = dev_.allocate(sizeof(int32_t));
  const uint64_t fault_addr = reinterpret_cast<uint64_t>(fault->device_ptr());
  const int32_t zero = 0;
  dev_.upload(fault_addr, &zero, sizeof zero);
  block.push_back(fault_addr);
  // Scratch memory of multi-dispatch kernels (partials, a product's C): freed when this run
  // returns, reused only after the submission below has finished.
  std::unique_ptr<DeviceCopy> scratch;
  if (sh.scratch_bytes) {
    scratch = dev_.allocate(sh.scratch_bytes);
    block.push_back(reinterpret_cast<uint64_t>(scratch->device_ptr()));
  }
  if (block.size() != sh.arg_slots)
    throw_error("matfuse:codegen", "Vulkan kernel arguments: %zu slots for %zu.", block.size(),
                sh.arg_slots);
  std::unique_ptr<DeviceCopy> argbuf = dev_.allocate(block.size() * 8);
  const uint64_t arg_addr = reinterpret_cast<uint64_t>(argbuf->device_ptr());
  dev_.upload(arg_addr, block.data(), block.size() * 8);
  const uint64_t done = dev_.dispatch(steps, arg_addr, timing_, &rr.device_seconds);
  // argbuf is retired now: its block is reused only after this submission has finished.
  if (!sh.may_fault) return rr;
  if (defer_faults_) {
    deferred_.push_back(std::move(fault));
    rr.fault_deferred = true;
    return rr;
  }
  dev_.wait(done);
  int32_t code = 0;
  std::memcpy(&code, dev_.host_address(fault_addr, sizeof code), sizeof code);
  if (code != 0) {
    rr.ok = false;
    rr.fault = code == 2 ? "NaN converted to logical" : "a value left the real domain";
  }
  return rr;
}

std::string VulkanProvider::take_deferred_faults(size_t mark) {
  if (mark >= deferred_.size()) return "";
  dev_.synchronize();
  std::string first;
  for (size_t i = mark; i < deferred_.size() && first.empty(); ++i) {
    int32_t code = 0;
    std::memcpy(&code,
                dev_.host_address(reinterpret_cast<uint64_t>(deferred_[i]->device_ptr()), 4), 4);
    if (code != 0) first = code == 2 ? "NaN converted to logical" : "a value left the real domain";
  }
  deferred_.resize(mark);
  return first;
}

void VulkanProvider::copy(void* dst, const void* src, size_t bytes) {
  dev_.copy(reinterpret_cast<uint64_t>(dst), reinterpret_cast<uint64_t>(src), bytes);
}

std::optional<DeviceProperties> VulkanProvider::device_properties() {
  const DeviceInfo& in = dev_.info();
  DeviceProperties p;
  p.name = in.name + " (Vulkan, " + in.driver + ")";
  p.max_threads_per_block = kLocalSize;
  p.total_memory = in.device_memory;
  p.driver_version = static_cast<int>(in.driver_version);
  return p;
}

VulkanProvider* vulkan_provider() {
  static VulkanProvider* p = [] {
    Device* d = Device::get();
    return d ? new VulkanProvider(*d) : nullptr;
  }();
  return p;
}

}  // namespace matfuse::vk
