// The Vulkan device (see vulkan_device.h).
#define VK_NO_PROTOTYPES
#include "providers/vulkan/vulkan_device.h"

#include <dlfcn.h>
#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <unordered_map>

#include "providers/kernel_cache.h"
#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse::vk {
namespace {

// Bump when the kernels' launch ABI (push constants, argument block) changes.
constexpr int32_t kSpirvAbi = 2;
const kernel_cache::EntryKind kSpirv{"spv", {'M', 'F', 'S', 'P', 'I', 'R', 'V', '1'}, kSpirvAbi};

constexpr size_t kChunkBytes = size_t{64} << 20;  // pooled chunks
constexpr size_t kMaxPooled = size_t{32} << 20;   // larger blocks get their own allocation
constexpr size_t kMinBlock = 256;                 // smallest size class (and alignment)

/// A Vulkan info structure of type T, zeroed, with its sType set.
template <class T>
T make(VkStructureType type) {
  T s{};
  s.sType = type;
  return s;
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The entry points matfuse uses, fetched from the loader.
struct Api {
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
#define MF_VK_GLOBAL(X) X(CreateInstance) X(EnumerateInstanceVersion)
#define MF_VK_INSTANCE(X)                                                                      \
  X(DestroyInstance) X(EnumeratePhysicalDevices) X(GetPhysicalDeviceProperties)                \
  X(GetPhysicalDeviceProperties2) X(GetPhysicalDeviceFeatures2)                                \
  X(GetPhysicalDeviceQueueFamilyProperties) X(GetPhysicalDeviceMemoryProperties) X(CreateDevice) \
  X(GetDeviceProcAddr)
#define MF_VK_DEVICE(X)                                                                        \
  X(GetDeviceQueue) X(CreateBuffer) X(DestroyBuffer) X(GetBufferMemoryRequirements)            \
  X(AllocateMemory) X(FreeMemory) X(BindBufferMemory) X(MapMemory) X(GetBufferDeviceAddress)   \
  X(CreateShaderModule) X(DestroyShaderModule) X(CreatePipelineLayout) X(CreateComputePipelines) \
  X(CreateCommandPool) X(AllocateCommandBuffers) X(BeginCommandBuffer) X(EndCommandBuffer)     \
  X(ResetCommandBuffer) X(CmdBindPipeline) X(CmdPushConstants) X(CmdDispatch)                  \
  X(CmdPipelineBarrier) X(CmdCopyBuffer) X(QueueSubmit) X(CreateSemaphore) X(WaitSemaphores)   \
  X(GetSemaphoreCounterValue) X(DeviceWaitIdle) X(CreateQueryPool) X(CmdResetQueryPool)        \
  X(CmdWriteTimestamp) X(GetQueryPoolResults)
#define MF_VK_MEMBER(name) PFN_vk##name name = nullptr;
  MF_VK_GLOBAL(MF_VK_MEMBER)
  MF_VK_INSTANCE(MF_VK_MEMBER)
  MF_VK_DEVICE(MF_VK_MEMBER)
#undef MF_VK_MEMBER
};

std::string vk_result_name(VkResult r) {
  switch (r) {
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    default: return "VkResult " + std::to_string(static_cast<int>(r));
  }
}

void check(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return;
  if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
    throw_error("matfuse:gpuOutOfMemory", "Out of memory on the Vulkan device (%s: %s).", what,
                vk_result_name(r).c_str());
  throw_error("matfuse:vulkanError", "%s failed: %s.", what, vk_result_name(r).c_str());
}

/// SPIR-V (Vulkan 1.2, SPIR-V 1.5) of a GLSL compute shader, by glslang's C interface.
/// Raises matfuse:codegen with glslang's log on a compile or link error.
std::string compile_glsl(const std::string& glsl) {
  glslang_input_t in{};
  in.language = GLSLANG_SOURCE_GLSL;
  in.stage = GLSLANG_STAGE_COMPUTE;
  in.client = GLSLANG_CLIENT_VULKAN;
  in.client_version = GLSLANG_TARGET_VULKAN_1_2;
  in.target_language = GLSLANG_TARGET_SPV;
  in.target_language_version = GLSLANG_TARGET_SPV_1_5;
  in.code = glsl.c_str();
  in.default_version = 460;
  in.default_profile = GLSLANG_NO_PROFILE;
  in.messages = GLSLANG_MSG_DEFAULT_BIT;
  in.resource = glslang_default_resource();
  glslang_shader_t* sh = glslang_shader_create(&in);
  std::string log;
  glslang_program_t* prog = nullptr;
  if (!glslang_shader_preprocess(sh, &in) || !glslang_shader_parse(sh, &in)) {
    log = glslang_shader_get_info_log(sh);
  } else {
    prog = glslang_program_create();
    glslang_program_add_shader(prog, sh);
    if (!glslang_program_link(prog, GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT))
      log = glslang_program_get_info_log(prog);
  }
  std::string spirv;
  if (log.empty()) {
    glslang_program_SPIRV_generate(prog, GLSLANG_STAGE_COMPUTE);
    spirv.assign(reinterpret_cast<const char*>(glslang_program_SPIRV_get_ptr(prog)),
                 glslang_program_SPIRV_get_size(prog) * 4);
  }
  if (prog) glslang_program_delete(prog);
  glslang_shader_delete(sh);
  if (!log.empty()) {
    if (options().dump_kernels) std::fprintf(stderr, "%s\n", glsl.c_str());
    throw_error("matfuse:codegen", "glslang could not compile a generated kernel:\n%s",
                log.c_str());
  }
  return spirv;
}

/// SPIR-V with the float-control execution modes the device supports (SPIR-V 1.4 core; GLSL
/// cannot request them): SignedZeroInfNanPreserve (signed zeros, infinities and NaNs are not
/// optimised away: -0 from trunc(-0.5), NaN tests) and DenormPreserve (subnormal operands and
/// results are kept, as on the host), for 32- and 64-bit floats. Each gets its OpCapability
/// after the module's capabilities and its OpExecutionMode after the entry point's modes.
std::string with_float_controls(const std::string& spirv, const DeviceInfo& info) {
  std::vector<uint32_t> w(spirv.size() / 4);
  std::memcpy(w.data(), spirv.data(), w.size() * 4);
  constexpr uint32_t kOpCapability = 17, kOpEntryPoint = 15, kOpExecutionMode = 16;
  constexpr uint32_t kDenormPreserve = 4459, kSignedZeroInfNanPreserve = 4461;
  constexpr uint32_t kCapDenormPreserve = 4464, kCapSignedZeroInfNanPreserve = 4466;
  std::vector<std::pair<uint32_t, uint32_t>> modes;  // (mode, width)
  if (info.nan_preserve32) modes.push_back({kSignedZeroInfNanPreserve, 32});
  if (info.nan_preserve64 && info.float64) modes.push_back({kSignedZeroInfNanPreserve, 64});
  if (info.denorm_preserve32) modes.push_back({kDenormPreserve, 32});
  if (info.denorm_preserve64 && info.float64) modes.push_back({kDenormPreserve, 64});
  if (modes.empty() || w.size() < 5) return spirv;
  size_t last_cap = 0, after_modes = 0;
  uint32_t entry = 0;
  std::vector<uint32_t> existing;  // modes the module already has
  for (size_t i = 5; i < w.size();) {
    const uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
    if (len == 0 || i + len > w.size()) return spirv;  // malformed: leave it to the driver
    if (op == kOpCapability) last_cap = i + len;
    if (op == kOpEntryPoint) {
      entry = w[i + 2];
      after_modes = i + len;
    }
    if (op == kOpExecutionMode) {
      after_modes = i + len;
      if (len >= 4) existing.push_back(w[i + 2] << 8 | w[i + 3]);
    }
    i += len;
  }
  if (!last_cap || !entry) return spirv;
  std::vector<uint32_t> caps, exec;
  bool cap_nan = false, cap_denorm = false;
  for (auto [mode, width] : modes) {
    if (std::find(existing.begin(), existing.end(), (mode << 8) | width) != existing.end()) continue;
    exec.insert(exec.end(), {4u << 16 | kOpExecutionMode, entry, mode, width});
    bool& have = mode == kDenormPreserve ? cap_denorm : cap_nan;
    if (!have) caps.insert(caps.end(), {2u << 16 | kOpCapability,
                                        mode == kDenormPreserve ? kCapDenormPreserve
                                                                : kCapSignedZeroInfNanPreserve});
    have = true;
  }
  w.insert(w.begin() + static_cast<std::ptrdiff_t>(after_modes), exec.begin(), exec.end());
  w.insert(w.begin() + static_cast<std::ptrdiff_t>(last_cap), caps.begin(), caps.end());
  return std::string(reinterpret_cast<const char*>(w.data()), w.size() * 4);
}

}  // namespace

/// A compiled kernel.
struct Pipeline {
  VkPipeline pipeline = VK_NULL_HANDLE;
};

struct Device::Impl {
  Api api;
  void* lib = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice phys = VK_NULL_HANDLE;
  VkDevice dev = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  uint32_t memory_type = 0;
  double timestamp_period_ns = 1;
  bool timestamps = false;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkSemaphore timeline = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;

  std::recursive_mutex mu;
  uint64_t submitted = 0;  // last timeline value signalled by a submission

  // ---- memory
  struct Chunk {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint64_t address = 0;
    size_t bytes = 0, used = 0;
    char* host = nullptr;
  };
  std::map<uint64_t, Chunk> chunks;                    // by device address
  std::map<size_t, std::vector<uint64_t>> free_blocks;  // size class -> block addresses
  struct Retired {
    uint64_t value;  // reusable once the timeline reaches it
    uint64_t address;
    size_t size_class;  // 0: a dedicated chunk
  };
  std::deque<Retired> retired;

  // ---- command buffers in flight
  struct Slot {
    VkCommandBuffer cb = VK_NULL_HANDLE;
    uint64_t value = 0;  // timeline value of its last submission
  };
  std::vector<Slot> slots;
  size_t next_slot = 0;

  std::unordered_map<std::string, Pipeline> pipelines;  // by GLSL source

  uint64_t completed() {
    uint64_t v = 0;
    check(api.GetSemaphoreCounterValue(dev, timeline, &v), "vkGetSemaphoreCounterValue");
    return v;
  }
  void wait(uint64_t value) {
    if (value == 0) return;
    auto wi = make<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
    wi.semaphoreCount = 1;
    wi.pSemaphores = &timeline;
    wi.pValues = &value;
    check(api.WaitSemaphores(dev, &wi, UINT64_MAX), "vkWaitSemaphores");
  }
  void reclaim() {
    if (retired.empty()) return;
    const uint64_t done = completed();
    while (!retired.empty() && retired.front().value <= done) {
      const Retired r = retired.front();
      retired.pop_front();
      if (r.size_class) free_blocks[r.size_class].push_back(r.address);
      else release_chunk(r.address);
    }
  }
  void release_chunk(uint64_t address) {
    auto it = chunks.find(address);
    if (it == chunks.end()) return;
    api.DestroyBuffer(dev, it->second.buffer, nullptr);
    api.FreeMemory(dev, it->second.memory, nullptr);
    chunks.erase(it);
  }
  Chunk new_chunk(size_t bytes) {
    Chunk c;
    c.bytes = bytes;
    auto bi = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bi.size = bytes;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(api.CreateBuffer(dev, &bi, nullptr, &c.buffer), "vkCreateBuffer");
    VkMemoryRequirements req{};
    api.GetBufferMemoryRequirements(dev, c.buffer, &req);
    auto fi = make<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
    fi.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    auto ai = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.pNext = &fi;
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = memory_type;
    VkResult r = api.AllocateMemory(dev, &ai, nullptr, &c.memory);
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) {
      // Wait for the queue so that every retired dedicated allocation is freed, then try once
      // more (pooled blocks stay in their chunks for reuse).
      api.DestroyBuffer(dev, c.buffer, nullptr);
      wait(submitted);
      reclaim();
      check(api.CreateBuffer(dev, &bi, nullptr, &c.buffer), "vkCreateBuffer");
      r = api.AllocateMemory(dev, &ai, nullptr, &c.memory);
    }
    if (r != VK_SUCCESS) {
      api.DestroyBuffer(dev, c.buffer, nullptr);
      if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
        throw_error("matfuse:gpuOutOfMemory",
                    "Out of memory on the Vulkan device (requested %.1f MB).", bytes / 1e6);
      check(r, "vkAllocateMemory");
    }
    check(api.BindBufferMemory(dev, c.buffer, c.memory, 0), "vkBindBufferMemory");
    void* host = nullptr;
    check(api.MapMemory(dev, c.memory, 0, VK_WHOLE_SIZE, 0, &host), "vkMapMemory");
    c.host = static_cast<char*>(host);
    auto di = make<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
    di.buffer = c.buffer;
    c.address = api.GetBufferDeviceAddress(dev, &di);
    return c;
  }
  /// (chunk, offset) of a device address.
  const Chunk& chunk_of(uint64_t addr, size_t bytes, size_t* offset) const {
    auto it = chunks.upper_bound(addr);
    if (it == chunks.begin()) throw_error("matfuse:vulkanError", "Unknown Vulkan device address.");
    --it;
    const Chunk& c = it->second;
    if (addr + bytes > c.address + c.bytes)
      throw_error("matfuse:vulkanError", "Vulkan device address range outside its buffer.");
    *offset = addr - c.address;
    return c;
  }

  /// A command buffer ready for recording (its previous submission has finished).
  Slot& begin() {
    Slot& s = slots[next_slot];
    next_slot = (next_slot + 1) % slots.size();
    wait(s.value);
    check(api.ResetCommandBuffer(s.cb, 0), "vkResetCommandBuffer");
    auto bi = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(api.BeginCommandBuffer(s.cb, &bi), "vkBeginCommandBuffer");
    // Ordered after every earlier submission's shader and transfer writes.
    auto mb = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                       VK_ACCESS_HOST_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    api.CmdPipelineBarrier(s.cb,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                               VK_PIPELINE_STAGE_HOST_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                           0, 1, &mb, 0, nullptr, 0, nullptr);
    return s;
  }
  /// Ends and submits s; returns the timeline value it signals.
  uint64_t submit(Slot& s) {
    auto mb = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    api.CmdPipelineBarrier(s.cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    check(api.EndCommandBuffer(s.cb), "vkEndCommandBuffer");
    const uint64_t value = submitted + 1;
    auto ti = make<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
    ti.signalSemaphoreValueCount = 1;
    ti.pSignalSemaphoreValues = &value;
    auto si = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.pNext = &ti;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &s.cb;
    si.signalSemaphoreCount = 1;
    si.pSignalSemaphores = &timeline;
    check(api.QueueSubmit(queue, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
    submitted = value;
    s.value = value;
    return value;
  }
};

namespace {

std::string& why_storage() {
  static std::string w;
  return w;
}

/// A block of Vulkan device memory; returned to the pool when destroyed.
class Block final : public DeviceCopy {
public:
  Block(std::shared_ptr<Device::Impl> impl, uint64_t address, size_t size_class)
      : impl_(std::move(impl)), address_(address), size_class_(size_class) {}
  ~Block() override {
    std::lock_guard<std::recursive_mutex> l(impl_->mu);
    impl_->retired.push_back({impl_->submitted, address_, size_class_});
  }
  void* device_ptr() const override { return reinterpret_cast<void*>(address_); }
  void download(void* host, size_t bytes) const override {
    std::lock_guard<std::recursive_mutex> l(impl_->mu);
    impl_->wait(impl_->submitted);
    size_t off = 0;
    const Device::Impl::Chunk& c = impl_->chunk_of(address_, bytes, &off);
    std::memcpy(host, c.host + off, bytes);
  }
  const char* provider() const override { return "vulkan"; }

private:
  std::shared_ptr<Device::Impl> impl_;
  uint64_t address_;
  size_t size_class_;
};

}  // namespace

Device* Device::get() {
  static Device* d = [] {
    auto* dev = new Device();
    if (!dev->init(&why_storage())) {
      delete dev;
      return static_cast<Device*>(nullptr);
    }
    return dev;
  }();
  return d;
}

const std::string& Device::unavailable_reason() {
  get();
  return why_storage();
}

bool Device::init(std::string* why) {
  if (options().device == DeviceOption::Cpu || options().device == DeviceOption::Cuda) {
    *why = options().device == DeviceOption::Cpu ? "MATFUSE_DEVICE=cpu" : "MATFUSE_DEVICE=cuda";
    return false;
  }
  auto impl = std::make_shared<Impl>();
  Api& a = impl->api;
  impl->lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!impl->lib) {
    *why = "no Vulkan loader (libvulkan.so.1)";
    return false;
  }
  a.GetInstanceProcAddr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(impl->lib, "vkGetInstanceProcAddr"));
  if (!a.GetInstanceProcAddr) {
    *why = "the Vulkan loader has no vkGetInstanceProcAddr";
    return false;
  }
#define MF_VK_LOAD_GLOBAL(name) \
  a.name = reinterpret_cast<PFN_vk##name>(a.GetInstanceProcAddr(nullptr, "vk" #name));
  MF_VK_GLOBAL(MF_VK_LOAD_GLOBAL)
#undef MF_VK_LOAD_GLOBAL
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (!a.CreateInstance || !a.EnumerateInstanceVersion ||
      a.EnumerateInstanceVersion(&loader_version) != VK_SUCCESS ||
      loader_version < VK_API_VERSION_1_2) {
    *why = "the Vulkan loader predates Vulkan 1.2";
    return false;
  }
  auto app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "matfuse";
  app.pEngineName = "matfuse";
  app.apiVersion = VK_API_VERSION_1_2;
  auto ici = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  ici.pApplicationInfo = &app;
  if (VkResult r = a.CreateInstance(&ici, nullptr, &impl->instance); r != VK_SUCCESS) {
    *why = "vkCreateInstance failed (" + vk_result_name(r) + ")";
    return false;
  }
#define MF_VK_LOAD_INSTANCE(name) \
  a.name = reinterpret_cast<PFN_vk##name>(a.GetInstanceProcAddr(impl->instance, "vk" #name));
  MF_VK_INSTANCE(MF_VK_LOAD_INSTANCE)
#undef MF_VK_LOAD_INSTANCE
  uint32_t n = 0;
  a.EnumeratePhysicalDevices(impl->instance, &n, nullptr);
  std::vector<VkPhysicalDevice> phys(n);
  if (n) a.EnumeratePhysicalDevices(impl->instance, &n, phys.data());
  if (phys.empty()) {
    *why = "no Vulkan device";
    return false;
  }
  // The device: MATFUSE_VULKAN_DEVICE, else discrete > integrated/virtual > the rest.
  size_t pick = 0;
  if (options().vulkan_device >= 0) {
    pick = static_cast<size_t>(options().vulkan_device);
    if (pick >= phys.size()) {
      *why = "MATFUSE_VULKAN_DEVICE=" + std::to_string(pick) + " but there are " +
             std::to_string(phys.size()) + " Vulkan devices";
      return false;
    }
  } else {
    auto rank = [&](VkPhysicalDevice p) {
      VkPhysicalDeviceProperties pr{};
      a.GetPhysicalDeviceProperties(p, &pr);
      switch (pr.deviceType) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 3;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
        default: return 1;
      }
    };
    for (size_t i = 1; i < phys.size(); ++i)
      if (rank(phys[i]) > rank(phys[pick])) pick = i;
  }
  impl->phys = phys[pick];

  auto fc = make<VkPhysicalDeviceFloatControlsProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES);
  auto dp = make<VkPhysicalDeviceDriverProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
  dp.pNext = &fc;
  auto p2 = make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  p2.pNext = &dp;
  a.GetPhysicalDeviceProperties2(impl->phys, &p2);
  const VkPhysicalDeviceProperties& pr = p2.properties;
  info_.name = pr.deviceName;
  info_.driver = dp.driverName;
  info_.api_version = pr.apiVersion;
  info_.driver_version = pr.driverVersion;
  info_.vendor_id = pr.vendorID;
  info_.device_id = pr.deviceID;
  info_.cpu = pr.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  info_.max_group_count_x = pr.limits.maxComputeWorkGroupCount[0];
  info_.denorm_preserve32 = fc.shaderDenormPreserveFloat32;
  info_.denorm_preserve64 = fc.shaderDenormPreserveFloat64;
  info_.nan_preserve32 = fc.shaderSignedZeroInfNanPreserveFloat32;
  info_.nan_preserve64 = fc.shaderSignedZeroInfNanPreserveFloat64;
  impl->timestamp_period_ns = pr.limits.timestampPeriod;
  if (pr.apiVersion < VK_API_VERSION_1_2) {
    *why = std::string(pr.deviceName) + " supports only Vulkan " +
           std::to_string(VK_API_VERSION_MAJOR(pr.apiVersion)) + "." +
           std::to_string(VK_API_VERSION_MINOR(pr.apiVersion)) + " (1.2 needed)";
    return false;
  }

  auto f12 = make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto f11 = make<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  f12.pNext = &f11;
  auto f2 = make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  f2.pNext = &f12;
  a.GetPhysicalDeviceFeatures2(impl->phys, &f2);
  if (!f12.bufferDeviceAddress || !f12.timelineSemaphore || !f2.features.shaderInt64) {
    *why = std::string(pr.deviceName) +
           " lacks bufferDeviceAddress, timelineSemaphore or shaderInt64";
    return false;
  }
  info_.float64 = f2.features.shaderFloat64;
  info_.storage8 = f12.storageBuffer8BitAccess && f12.shaderInt8;
  info_.storage16 = f11.storageBuffer16BitAccess && f2.features.shaderInt16;

  // Queue: the first family with compute.
  uint32_t nq = 0;
  a.GetPhysicalDeviceQueueFamilyProperties(impl->phys, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> qf(nq);
  a.GetPhysicalDeviceQueueFamilyProperties(impl->phys, &nq, qf.data());
  bool found = false;
  for (uint32_t i = 0; i < nq && !found; ++i)
    if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      impl->queue_family = i;
      impl->timestamps = qf[i].timestampValidBits > 0;
      found = true;
    }
  if (!found) {
    *why = std::string(pr.deviceName) + " has no compute queue";
    return false;
  }
  // Memory: host-visible and coherent, device-local too where such a type exists.
  VkPhysicalDeviceMemoryProperties mp{};
  a.GetPhysicalDeviceMemoryProperties(impl->phys, &mp);
  int best = -1, best_rank = -1;
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags fl = mp.memoryTypes[i].propertyFlags;
    const VkMemoryPropertyFlags need =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    if ((fl & need) != need) continue;
    const int rank = (fl & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) ? 2 : 1;
    if (rank > best_rank) {
      best = static_cast<int>(i);
      best_rank = rank;
    }
  }
  for (uint32_t h = 0; h < mp.memoryHeapCount; ++h)
    if (mp.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      info_.device_memory = std::max<size_t>(info_.device_memory, mp.memoryHeaps[h].size);
  if (best < 0) {
    *why = std::string(pr.deviceName) + " has no host-visible coherent memory";
    return false;
  }
  impl->memory_type = static_cast<uint32_t>(best);

  // Logical device with the features kernels use.
  auto e12 = make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  e12.bufferDeviceAddress = VK_TRUE;
  e12.timelineSemaphore = VK_TRUE;
  e12.storageBuffer8BitAccess = info_.storage8;
  e12.shaderInt8 = info_.storage8;
  auto e11 = make<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  e11.storageBuffer16BitAccess = info_.storage16;
  e12.pNext = &e11;
  auto e2 = make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  e2.pNext = &e12;
  e2.features.shaderInt64 = VK_TRUE;
  e2.features.shaderFloat64 = info_.float64;
  e2.features.shaderInt16 = info_.storage16;
  const float prio = 1.0f;
  auto qci = make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qci.queueFamilyIndex = impl->queue_family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &prio;
  auto dci = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  dci.pNext = &e2;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  if (VkResult r = a.CreateDevice(impl->phys, &dci, nullptr, &impl->dev); r != VK_SUCCESS) {
    *why = "vkCreateDevice failed (" + vk_result_name(r) + ")";
    return false;
  }
#define MF_VK_LOAD_DEVICE(name) \
  a.name = reinterpret_cast<PFN_vk##name>(a.GetDeviceProcAddr(impl->dev, "vk" #name));
  MF_VK_DEVICE(MF_VK_LOAD_DEVICE)
#undef MF_VK_LOAD_DEVICE
  a.GetDeviceQueue(impl->dev, impl->queue_family, 0, &impl->queue);

  try {
    VkPushConstantRange pc{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    auto lci = make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    lci.pushConstantRangeCount = 1;
    lci.pPushConstantRanges = &pc;
    check(a.CreatePipelineLayout(impl->dev, &lci, nullptr, &impl->layout), "vkCreatePipelineLayout");
    auto cpi = make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    cpi.queueFamilyIndex = impl->queue_family;
    check(a.CreateCommandPool(impl->dev, &cpi, nullptr, &impl->pool), "vkCreateCommandPool");
    impl->slots.resize(16);
    for (auto& s : impl->slots) {
      auto cai = make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
      cai.commandPool = impl->pool;
      cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      cai.commandBufferCount = 1;
      check(a.AllocateCommandBuffers(impl->dev, &cai, &s.cb), "vkAllocateCommandBuffers");
    }
    auto sti = make<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
    sti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    auto sci = make<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
    sci.pNext = &sti;
    check(a.CreateSemaphore(impl->dev, &sci, nullptr, &impl->timeline), "vkCreateSemaphore");
    if (impl->timestamps) {
      auto qpi = make<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
      qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
      qpi.queryCount = 2;
      if (a.CreateQueryPool(impl->dev, &qpi, nullptr, &impl->queries) != VK_SUCCESS)
        impl->timestamps = false;
    }
  } catch (const MatlabError& e) {
    *why = e.what();
    return false;
  }
  if (!glslang_initialize_process()) {
    *why = "glslang_initialize_process failed";
    return false;
  }
  impl_ = std::move(impl);
  return true;
}

std::unique_ptr<DeviceCopy> Device::allocate(size_t bytes) {
  Impl& m = *impl_;
  std::lock_guard<std::recursive_mutex> l(m.mu);
  m.reclaim();
  if (bytes > kMaxPooled) {
    const size_t rounded = (bytes + 4095) & ~size_t{4095};
    const Impl::Chunk c = m.new_chunk(rounded);
    m.chunks[c.address] = c;
    return std::make_unique<Block>(impl_, c.address, 0);
  }
  const size_t cls = std::max(kMinBlock, std::bit_ceil(std::max<size_t>(bytes, 1)));
  std::vector<uint64_t>& list = m.free_blocks[cls];
  if (!list.empty()) {
    const uint64_t a = list.back();
    list.pop_back();
    return std::make_unique<Block>(impl_, a, cls);
  }
  // Carve from the last pooled chunk with room, else a new chunk.
  for (auto it = m.chunks.rbegin(); it != m.chunks.rend(); ++it) {
    Impl::Chunk& c = it->second;
    if (c.bytes != kChunkBytes || c.used + cls > c.bytes) continue;
    const uint64_t a = c.address + c.used;
    c.used += cls;
    return std::make_unique<Block>(impl_, a, cls);
  }
  Impl::Chunk c = m.new_chunk(kChunkBytes);
  c.used = cls;
  m.chunks[c.address] = c;
  return std::make_unique<Block>(impl_, c.address, cls);
}

void* Device::host_address(uint64_t addr, size_t bytes) const {
  std::lock_guard<std::recursive_mutex> l(impl_->mu);
  size_t off = 0;
  const Impl::Chunk& c = impl_->chunk_of(addr, bytes, &off);
  return c.host + off;
}

void Device::upload(uint64_t dst, const void* src, size_t bytes) {
  if (bytes) std::memcpy(host_address(dst, bytes), src, bytes);
}

void Device::download(void* dst, uint64_t src, size_t bytes) {
  synchronize();
  if (bytes) std::memcpy(dst, host_address(src, bytes), bytes);
}

void Device::copy(uint64_t dst, uint64_t src, size_t bytes) {
  if (!bytes) return;
  Impl& m = *impl_;
  std::lock_guard<std::recursive_mutex> l(m.mu);
  size_t so = 0, doff = 0;
  const Impl::Chunk& sc = m.chunk_of(src, bytes, &so);
  const Impl::Chunk& dc = m.chunk_of(dst, bytes, &doff);
  Impl::Slot& s = m.begin();
  VkBufferCopy region{so, doff, bytes};
  m.api.CmdCopyBuffer(s.cb, sc.buffer, dc.buffer, 1, &region);
  m.submit(s);
}

const Pipeline& Device::pipeline(const std::string& glsl, double* compile_seconds,
                                 std::string* cache) {
  Impl& m = *impl_;
  std::lock_guard<std::recursive_mutex> l(m.mu);
  if (auto it = m.pipelines.find(glsl); it != m.pipelines.end()) {
    *cache = "memory";
    *compile_seconds = 0;
    return it->second;
  }
  const double t0 = now();
  uint64_t key = kernel_cache::fnv1a(glsl, kernel_cache::kFnvBasis);
  key = kernel_cache::fnv1a(info_.name + "/" + info_.driver + "/" +
                                std::to_string(info_.driver_version) + "/abi " +
                                std::to_string(kSpirvAbi),
                            key);
  bool corrupt = false;
  std::string spirv = kernel_cache::read_entry(kSpirv, key, &corrupt);
  *cache = "disk";
  if (spirv.empty() || spirv.size() % 4 != 0) {
    if (options().dump_kernels)
      std::fprintf(stderr, "// ---- Vulkan kernel %016llx ----\n%s\n",
                   static_cast<unsigned long long>(key), glsl.c_str());
    spirv = with_float_controls(compile_glsl(glsl), info_);
    kernel_cache::write_entry(kSpirv, key, spirv);
    *cache = "compiled";
  }
  auto smi = make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  smi.codeSize = spirv.size();
  smi.pCode = reinterpret_cast<const uint32_t*>(spirv.data());
  VkShaderModule mod = VK_NULL_HANDLE;
  check(m.api.CreateShaderModule(m.dev, &smi, nullptr, &mod), "vkCreateShaderModule");
  auto pci = make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  pci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pci.stage.module = mod;
  pci.stage.pName = "main";
  pci.layout = m.layout;
  Pipeline p;
  const VkResult r = m.api.CreateComputePipelines(m.dev, VK_NULL_HANDLE, 1, &pci, nullptr, &p.pipeline);
  m.api.DestroyShaderModule(m.dev, mod, nullptr);
  check(r, "vkCreateComputePipelines");
  *compile_seconds = now() - t0;
  return m.pipelines.emplace(glsl, p).first->second;
}

uint64_t Device::dispatch(const Pipeline& p, uint32_t groups, uint64_t args, bool timed,
                          double* seconds) {
  return dispatch(std::vector<Step>{{&p, groups}}, args, timed, seconds);
}

uint64_t Device::dispatch(const std::vector<Step>& steps, uint64_t args, bool timed,
                          double* seconds) {
  Impl& m = *impl_;
  std::lock_guard<std::recursive_mutex> l(m.mu);
  Impl::Slot& s = m.begin();
  timed = timed && m.timestamps;
  if (timed) {
    m.api.CmdResetQueryPool(s.cb, m.queries, 0, 2);
    m.api.CmdWriteTimestamp(s.cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, m.queries, 0);
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    if (i > 0) {  // the previous dispatches' writes, visible to this one
      auto mb = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
      mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
      mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      m.api.CmdPipelineBarrier(s.cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0,
                               nullptr);
    }
    m.api.CmdBindPipeline(s.cb, VK_PIPELINE_BIND_POINT_COMPUTE, steps[i].pipeline->pipeline);
    m.api.CmdPushConstants(s.cb, m.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, &args);
    m.api.CmdDispatch(s.cb, std::max<uint32_t>(steps[i].groups, 1), 1, 1);
  }
  if (timed) m.api.CmdWriteTimestamp(s.cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m.queries, 1);
  const uint64_t v = m.submit(s);
  if (timed) {
    m.wait(v);
    uint64_t ts[2] = {};
    if (m.api.GetQueryPoolResults(m.dev, m.queries, 0, 2, sizeof ts, ts, 8,
                                  VK_QUERY_RESULT_64_BIT) == VK_SUCCESS && seconds)
      *seconds = static_cast<double>(ts[1] - ts[0]) * m.timestamp_period_ns * 1e-9;
  }
  return v;
}

void Device::wait(uint64_t value) {
  std::lock_guard<std::recursive_mutex> l(impl_->mu);
  impl_->wait(value);
}

void Device::synchronize() {
  std::lock_guard<std::recursive_mutex> l(impl_->mu);
  impl_->wait(impl_->submitted);
}

uint64_t device_address(Device& dev, const Tensor& t) {
  const std::shared_ptr<Storage>& s = t.storage();
  const DeviceCopy* d = s->device();
  if (!d || std::strcmp(d->provider(), "vulkan") != 0) {
    std::unique_ptr<DeviceCopy> buf = dev.allocate(s->bytes());
    dev.upload(reinterpret_cast<uint64_t>(buf->device_ptr()), s->host_read(), s->bytes());
    s->attach_device(std::move(buf));
    d = s->device();
  }
  return reinterpret_cast<uint64_t>(d->device_ptr()) + t.storage_offset();
}

bool on_vulkan(const Tensor& t) {
  if (t.is_lazy()) return false;
  const DeviceCopy* d = t.storage()->device();
  return d && std::strcmp(d->provider(), "vulkan") == 0;
}

Tensor device_tensor(Device& dev, ClassId cls, const Dims& dims, bool complex) {
  const size_t bytes = static_cast<size_t>(dims.numel()) * static_cast<size_t>(element_size(cls)) *
                       (complex ? 2 : 1);
  return Tensor::on_device(cls, dims, complex, dev.allocate(bytes));
}

}  // namespace matfuse::vk
