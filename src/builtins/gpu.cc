// MATLAB's GPU functions (DESIGN.md decision 12): gpuArray, gather, isgpuarray, existsOnGPU,
// classUnderlying, gpuDevice, gpuDeviceCount, wait(gpuDevice), gputimeit; and the gpuArray
// propagation rules used by the interpreter (gpu.h).
//
// Without a usable device (accel::device_present() false: no driver, no GPU, MATFUSE_DEVICE=cpu)
// gpuArray values are host-backed: same values and class, existsOnGPU false, gpuDevice raises
// parallel:gpu:device:NoDevice.
#include "builtins/gpu.h"

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cstdio>
#include <string>
#include <unordered_set>

#include "accel/devices.h"
#include "accel/lazy.h"
#include "accel/telemetry.h"

namespace matfuse {

// ---------------------------------------------------------------- flag helpers

Value mark_gpu(Value v) {
  switch (v.kind()) {
    case Value::Kind::Scalar: {
      Tensor t = Tensor::scalar(v.scalar());
      t.set_gpu_array(true);
      return Value(std::move(t));
    }
    case Value::Kind::Array: {
      if (v.is_gpu_array() || v.is_char()) return v;
      Tensor t = v.tensor();
      t.set_gpu_array(true);
      return Value(std::move(t));
    }
    default: return v;
  }
}

Value strip_gpu(const Value& v) {
  if (!v.is_gpu_array()) return v;
  Tensor t = v.tensor();
  t.set_gpu_array(false);
  return Value(std::move(t));
}

bool gpu_propagates(std::string_view name) {
  // Queries and sinks: their numeric/logical outputs are host values in MATLAB.
  static const std::unordered_set<std::string_view> kQueries = {
      "size",      "numel",       "ndims",       "length",     "isempty",   "class",
      "isa",       "isgpuarray",  "existsOnGPU", "classUnderlying", "underlyingType",
      "gather",    "isreal",      "isfloat",     "isinteger",  "islogical", "isnumeric",
      "isscalar",  "isvector",    "ismatrix",    "isrow",      "iscolumn",  "issparse",
      "isequal",   "isequaln",    "ischar",      "iscell",     "isstruct",  "isstring",
      "isobject",  "isfield",     "isUnderlyingType", "fprintf", "printf",  "disp",
      "display",   "tic",         "toc",         "gputimeit",  "wait",      "gpuDevice",
      "gpuDeviceCount", "exist",  "whos",        "feval",      "builtin",        "iscomplex",  "issorted",  "isvarname"};
  return kQueries.find(name) == kQueries.end();
}

bool gpu_typename_builtin(std::string_view name) {
  static const std::unordered_set<std::string_view> kCtors = {
      "zeros", "ones", "rand", "randn", "randi", "eye",
      "true",  "false", "Inf", "inf",   "NaN",   "nan"};
  return kCtors.find(name) != kCtors.end();
}

bool is_gpuarray_text(const Value& v) {
  if (!v.is_text()) return false;
  std::string s = v.to_text();
  if (s.size() != 8) return false;
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s == "gpuarray";
}

Outputs call_builtin_gpu_aware(const Builtin& b, CallContext& ctx, Args args, int nargout) {
  if (args.empty()) return b.fn(ctx, args, nargout);
  bool flag = false;
  std::vector<Value> kept;
  // zeros(..., 'gpuArray') and rand(sz, 'single', 'gpuArray'): the type name comes last.
  const Value& last = args.back();
  if ((last.is_char() || last.is_string()) && is_gpuarray_text(last) &&
      gpu_typename_builtin(b.name)) {
    kept.assign(args.begin(), args.end() - 1);
    args = Args(kept);
    flag = true;
  }
  if (!flag && any_gpu(args) && gpu_propagates(b.name)) flag = true;
  Outputs r = b.fn(ctx, args, nargout);
  if (flag)
    for (Value& v : r) v = mark_gpu(std::move(v));
  return r;
}

namespace {

// ---------------------------------------------------------------- gpuArray / gather

bool transferable(const Value& v) {
  return v.is_scalar_double() || (v.kind() == Value::Kind::Array && !v.is_char());
}

/// gpuArray(X): X (numeric or logical) as a gpuArray. With a device, a materialised X is
/// uploaded now (its device copy stays with its storage, so kernels read it without a
/// transfer); a lazy X stays lazy (placement runs it on the device). Errors:
/// parallel:gpu:array:UnsupportedClass for other classes, matfuse:gpuOutOfMemory when the
/// device cannot hold X.
Outputs bi_gpuArray(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& x = args[0];
  if (!transferable(x))
    throw_error("parallel:gpu:array:UnsupportedClass",
                "Unable to transfer data of class '%s' to the GPU: only numeric and logical "
                "arrays are supported.",
                x.class_name().c_str());
  Tensor t = x.tensor();
  accel::device_upload(t);
  t.set_gpu_array(true);
  return {Value(std::move(t))};
}

/// Host copy of v's values with the gpuArray flag cleared; recurses into cells and structs.
Value gather_value(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::Array: {
      Tensor t = v.tensor();
      (void)t.raw();  // forces a lazy value and downloads a device-only one
      t.set_gpu_array(false);
      return Value(std::move(t));
    }
    case Value::Kind::Cell: {
      CellArray c = v.cell();
      for (int64_t i = 0; i < c.numel(); ++i)
        if (c[i].kind() >= Value::Kind::Array && c[i].kind() <= Value::Kind::Struct)
          c.at(i) = gather_value(c[i]);
      return Value(std::move(c));
    }
    case Value::Kind::Struct: {
      StructArray s = v.struct_array();
      const int nf = static_cast<int>(s.fields().size());
      for (int64_t e = 0; e < s.numel(); ++e)
        for (int f = 0; f < nf; ++f) {
          const Value& fv = s.get(e, f);
          if (fv.kind() >= Value::Kind::Array && fv.kind() <= Value::Kind::Struct)
            s.at(e, f) = gather_value(fv);
        }
      return Value(std::move(s));
    }
    default: return v;
  }
}

/// [X1, ..., Xn] = gather(A1, ..., An): host values (a sink: pending values are computed and
/// device-only values downloaded); non-gpuArray values pass through unchanged.
Outputs bi_gather(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1000);
  if (nargout > static_cast<int>(args.size()))
    throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  accel::SinkScope sink(accel::SinkReason::Gather);
  Outputs out;
  const size_t n = std::max<size_t>(1, static_cast<size_t>(std::max(nargout, 1)));
  for (size_t i = 0; i < n && i < args.size(); ++i) out.push_back(gather_value(args[i]));
  return out;
}

Outputs bi_isgpuarray(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value::logical(args[0].is_gpu_array())};
}

/// existsOnGPU(X): true for a gpuArray when a device holds this session's gpuArrays (a
/// host-backed gpuArray, without a device, gives false; non-gpuArrays give false).
Outputs bi_existsOnGPU(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value::logical(args[0].is_gpu_array() && accel::device_present())};
}

/// classUnderlying(X): the class of the elements ('single', 'double', ...); for a non-gpuArray
/// its class (MATLAB's underlyingType behaviour).
Outputs bi_classUnderlying(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value::from_chars(args[0].class_name())};
}

// ---------------------------------------------------------------- gpuDevice

[[noreturn]] void no_device() {
  const std::string why = accel::device_absent_reason();
  throw_error("parallel:gpu:device:NoDevice",
              "No supported GPU device was found on this computer%s%s%s.",
              why.empty() ? "" : " (", why.c_str(), why.empty() ? "" : ")");
}

double version_number(int major, int minor) { return major + minor / 10.0; }

/// The GPUDevice value: a 1x1 struct of the device's properties (MATLAB's GPUDevice names).
Value device_struct(const DeviceProperties& in) {
  const size_t free_b = in.free_memory, total_b = in.total_memory;
  StructArray s;
  auto set = [&](std::string_view name, Value v) { s.at(0, s.add_field(name)) = std::move(v); };
  char cc[32];
  std::snprintf(cc, sizeof cc, "%d.%d", in.cc_major, in.cc_minor);
  set("Name", Value::from_chars(in.name));
  set("Index", Value(static_cast<double>(in.ordinal + 1)));
  set("ComputeCapability", Value::from_chars(cc));
  set("SupportsDouble", Value::logical(true));
  set("DriverVersion", Value(version_number(in.driver_version / 1000,
                                            (in.driver_version % 1000) / 10)));
  set("ToolkitVersion", Value(version_number(in.compiler_major, in.compiler_minor)));
  set("MaxThreadsPerBlock", Value(static_cast<double>(in.max_threads_per_block)));
  set("TotalMemory", Value(static_cast<double>(total_b)));
  set("AvailableMemory", Value(static_cast<double>(free_b)));
  set("MultiprocessorCount", Value(static_cast<double>(in.multiprocessors)));
  set("DeviceAvailable", Value::logical(true));
  set("DeviceSelected", Value::logical(true));
  return Value(std::move(s));
}

/// D = gpuDevice, gpuDevice(idx), gpuDevice([]) (deselect: no output). Only index 1 exists
/// (matfuse uses one device). No device: parallel:gpu:device:NoDevice.
Outputs bi_gpuDevice(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  if (args.size() == 1 && args[0].is_tensor() && args[0].numel() == 0) return {};
  const std::optional<DeviceProperties> dev = accel::device_info();
  if (!dev) no_device();
  if (args.size() == 1) {
    const double idx = args[0].to_double("device index");
    if (idx != 1)
      throw_error("parallel:gpu:device:InvalidInput",
                  "The GPU device index must be an integer between 1 and 1.");
  }
  Value d = device_struct(*dev);
  if (nargout == 0) {
    ctx.display(d, "ans");
    return {};
  }
  return {d};
}

/// n = gpuDeviceCount; [n, indices] = gpuDeviceCount: 1 with a usable device, else 0.
Outputs bi_gpuDeviceCount(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 2);
  const double n = accel::device_present() ? 1 : 0;
  Outputs r{Value(n)};
  if (nargout >= 2) r.push_back(n > 0 ? Value(1.0) : Value(Tensor::zeros(ClassId::Double, Dims(1, 0))));
  return r;
}

bool is_device_value(const Value& v) {
  if (!v.is_struct() || v.numel() != 1) return false;
  const StructArray& s = v.struct_array();
  return s.field_index("ComputeCapability") >= 0 && s.field_index("DeviceAvailable") >= 0;
}

/// wait(gpuDevice): waits until every queued device kernel and copy has finished.
Outputs bi_wait(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  if (!is_device_value(args[0]))
    throw_error("MATLAB:UndefinedFunction",
                "Undefined function 'wait' for input arguments of type '%s'.",
                args[0].class_name().c_str());
  accel::device_synchronize();
  return {};
}

// ---------------------------------------------------------------- gputimeit

/// Forces pending outputs (computed where placement puts them; not gathered).
void complete(const Outputs& outs) {
  for (const Value& v : outs)
    if (v.kind() == Value::Kind::Array) {
      const Tensor t = v.tensor();
      t.force();
    }
}

/// t = gputimeit(F) / gputimeit(F, numOutputs): seconds one call of the zero-argument function
/// F takes, with the device synchronised before and after each call: one warm-up call, then
/// the median of several timed calls (11 for fast functions, fewer for slow ones), like
/// MATLAB's gputimeit. Pending results are computed (not gathered) inside the timing.
Outputs bi_gputimeit(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  if (!args[0].is_function())
    throw_error("MATLAB:gputimeit:InvalidFunction",
                "The first input to gputimeit must be a function handle.");
  int nout = 1;
  if (args.size() == 2) nout = static_cast<int>(args[1].to_index("numOutputs"));
  auto once = [&] {
    accel::device_synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    Outputs o = ctx.call(args[0], {}, nout);
    complete(o);
    accel::device_synchronize();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const double first = once();  // warm-up: compiles kernels, fills caches
  const int runs = first < 0.05 ? 11 : first < 0.5 ? 5 : 3;
  std::vector<double> ts;
  for (int i = 0; i < runs; ++i) ts.push_back(once());
  std::sort(ts.begin(), ts.end());
  return {Value(ts[ts.size() / 2])};
}

}  // namespace

void register_gpu(Registry& r) {
  r.add("gpuArray", bi_gpuArray);
  r.add("gather", bi_gather);
  r.add("isgpuarray", bi_isgpuarray);
  r.add("existsOnGPU", bi_existsOnGPU);
  r.add("classUnderlying", bi_classUnderlying);
  r.add("gpuDevice", bi_gpuDevice);
  r.add("gpuDeviceCount", bi_gpuDeviceCount);
  r.add("wait", bi_wait);
  r.add("gputimeit", bi_gputimeit);
}

}  // namespace matfuse
