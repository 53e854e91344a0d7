// GLSL rendering of the kernel IR (see vulkan_codegen.h). Each instruction mirrors its
// evaluation in providers/host/host_eval.cc and runtime/scalar_ops.inc.
#include "providers/vulkan/vulkan_codegen.h"

#include "providers/vulkan/vulkan_codegen_internal.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "accel/emit/schedule.h"
#include "providers/vulkan/vulkan_math.h"
#include "runtime/error.h"

namespace matfuse::vk {
namespace detail {

void unsupported(const std::string& what) {
  throw_error("matfuse:codegen", "Vulkan code generation: %s", what.c_str());
}

}  // namespace detail

namespace {

using accel::Access;
using detail::unsupported;
using accel::IKind;
using accel::Instr;
using accel::VType;

// Fault codes of the flag (as the CUDA provider's: 1 a value left the real domain, 2 NaN to
// logical).
constexpr int kFaultComplex = 1, kFaultLogicalNaN = 2;

const char* gtype(VType t) {
  switch (t) {
    case VType::F64: return "double";
    case VType::F32: return "float";
    case VType::Bool: return "bool";
  }
  return "double";
}

/// Buffer reference type and element type of a class's storage.
struct StorageType {
  const char* ref;   // buffer_reference block name
  const char* elem;  // GLSL element type
  int bytes;
};

StorageType storage_of(ClassId c, const Caps& caps) {
  auto need8 = [&] { if (!caps.storage8) unsupported("8-bit storage is not supported by the device"); };
  auto need16 = [&] { if (!caps.storage16) unsupported("16-bit storage is not supported by the device"); };
  switch (c) {
    case ClassId::Double:
      if (!caps.float64) unsupported("double precision is not supported by the device");
      return {"MfF64", "double", 8};
    case ClassId::Single: return {"MfF32", "float", 4};
    case ClassId::Int32: return {"MfI32", "int", 4};
    case ClassId::UInt32: return {"MfU32", "uint", 4};
    case ClassId::Int16: need16(); return {"MfI16", "int16_t", 2};
    case ClassId::UInt16:
    case ClassId::Char: need16(); return {"MfU16", "uint16_t", 2};
    case ClassId::Int8: need8(); return {"MfI8", "int8_t", 1};
    case ClassId::UInt8:
    case ClassId::Logical: need8(); return {"MfU8", "uint8_t", 1};
    default: unsupported("64-bit integer data");
  }
}

/// The exact bits of v as a GLSL expression of type t.
std::string literal(double v, VType t) {
  char b[96];
  switch (t) {
    case VType::F64: {
      uint64_t u;
      std::memcpy(&u, &v, 8);
      std::snprintf(b, sizeof b, "packDouble2x32(uvec2(0x%08" PRIx32 "u, 0x%08" PRIx32 "u))",
                    static_cast<uint32_t>(u), static_cast<uint32_t>(u >> 32));
      return b;
    }
    case VType::F32: {
      const float f = static_cast<float>(v);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      std::snprintf(b, sizeof b, "uintBitsToFloat(0x%08" PRIx32 "u)", u);
      return b;
    }
    case VType::Bool: return v != 0 ? "true" : "false";
  }
  return "0";
}

/// GLSL trunc, floor, ceil and MATLAB's round (half away from zero) of type T, exact under
/// round-to-nearest and round-toward-zero arithmetic alike: below 2^p (p = 52 or 23, `big`),
/// (m + 2^p) - 2^p is |a| rounded to an integer in the device's mode, corrected down by one when
/// it rounded up; from 2^p on every value is an integer. The result takes a's sign bit
/// (`copysign`, an expression of t and a, by bit operations no optimiser folds), so trunc(-0.5)
/// is -0 as IEEE and the host say. floor and ceil step from trunc; round steps from trunc when
/// the (exact) remainder |a - t| is at least 1/2.
std::string rounding_functions(const std::string& T, const std::string& big,
                               const std::string& copysign) {
  return T + " mf_trunc(" + T + " a) {\n"
         "  precise " + T + " m = abs(a), t = m;\n"
         "  if (m < " + big + ") { t = (m + " + big + ") - " + big + "; if (t > m) t = t - " + T + "(1); }\n"
         "  return " + copysign + ";\n}\n" +
         T + " mf_floor(" + T + " a) { precise " + T + " t = mf_trunc(a); return t > a ? t - " + T + "(1) : t; }\n" +
         T + " mf_ceil(" + T + " a) { precise " + T + " t = mf_trunc(a); return t < a ? t + " + T + "(1) : t; }\n" +
         T + " mf_round(" + T + " a) {\n"
         "  precise " + T + " t = mf_trunc(a), d = abs(a - t);\n"
         "  return d >= " + T + "(0.5) ? (a < " + T + "(0) ? t - " + T + "(1) : t + " + T + "(1)) : t;\n}\n";
}

class Renderer {
public:
  Renderer(const accel::Kernel& k, const Caps& caps) : k_(k), caps_(caps) {}

  Shader render() {
    if (k_.matmul || k_.fusion_kind == accel::FusionKind::Reduction || !k_.reduces.empty())
      unsupported(std::string("fusion_kind ") +
                  std::string(accel::fusion_kind_name(k_.fusion_kind)));
    if (k_.space.numel() == 0) unsupported("empty iteration space");
    for (const Instr& in : k_.body) check_types(in);
    const std::vector<Instr>& code = k_.body;
    const int64_t n = k_.space.numel();
    std::ostringstream body, pre;
    // Uniform values once per invocation, before the loop; the rest per point.
    for (size_t v = 0; v < code.size(); ++v)
      (code[v].uniform ? pre : body) << instr(static_cast<int>(v));
    for (size_t o = 0; o < k_.outputs.size(); ++o) body << store(o);

    Shader sh;
    const size_t nin = k_.inputs.size(), nout = k_.outputs.size(), np = k_.param_u64.size();
    sh.arg_slots = nin + nout + np + 1;
    std::ostringstream os;
    os << preamble() << "void main() {\n" << args_code(0) << pre.str();
    os << "const int64_t n_ = " << n << "L;\n"
       << "const int64_t stride_ = int64_t(gl_NumWorkGroups.x) * " << kLocalSize << "L;\n"
       << "for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < n_; i += stride_) {\n"
       << index_code() << body.str() << "}\n}\n";
    sh.glsl = os.str();
    sh.may_fault = may_fault_;
    const int64_t groups = (n + kLocalSize - 1) / kLocalSize;
    sh.groups = static_cast<uint32_t>(
        std::clamp<int64_t>(groups, 1, std::min<int64_t>(caps_.max_groups, 65535)));
    return sh;
  }

  /// Everything before main(): version, extensions, buffer types, push constant, functions.
  std::string preamble() const {
    std::ostringstream os;
    os << "#version 460\n"
       << "#extension GL_EXT_buffer_reference : require\n"
       << "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n";
    if (caps_.storage8)
      os << "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n"
         << "#extension GL_EXT_shader_8bit_storage : require\n";
    if (caps_.storage16)
      os << "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n"
         << "#extension GL_EXT_shader_16bit_storage : require\n";
    os << "layout(local_size_x = " << kLocalSize << ") in;\n";
    auto ref = [&](const char* name, const char* elem, int align) {
      os << "layout(buffer_reference, std430, buffer_reference_align = " << align
         << ") buffer " << name << " { " << elem << " v; };\n";
    };
    ref("MfU64", "uint64_t", 8);
    if (caps_.float64) ref("MfF64", "double", 8);
    ref("MfF32", "float", 4);
    ref("MfI32", "int", 4);
    ref("MfU32", "uint", 4);
    if (caps_.storage16) {
      ref("MfI16", "int16_t", 2);
      ref("MfU16", "uint16_t", 2);
    }
    if (caps_.storage8) {
      ref("MfI8", "int8_t", 1);
      ref("MfU8", "uint8_t", 1);
    }
    os << "layout(push_constant) uniform MfPush { uint64_t args; } pc;\n";
    os << rounding_functions("float", "8388608.0", "uintBitsToFloat((floatBitsToUint(t) & "
                             "0x7fffffffu) | (floatBitsToUint(a) & 0x80000000u))");
    if (caps_.float64)
      os << rounding_functions("double", "4503599627370496.0LF",
                               "packDouble2x32(uvec2(unpackDouble2x32(t).x, (unpackDouble2x32(t).y "
                               "& 0x7fffffffu) | (unpackDouble2x32(a).y & 0x80000000u)))");
    if (caps_.float64)
      os << "double mf_satr(double v, double lo, double hi) {\n"
            "  if (isnan(v)) return 0.0LF;\n"
            "  precise double r = mf_round(v);\n"
            "  return r <= lo ? lo : r >= hi ? hi : r;\n"
            "}\n";
    os << math_prelude(math_, caps_);  // the ports of mf_math.inc / philox.inc the kernel calls
    return os.str();
  }

protected:
  const accel::Kernel& k_;
  const Caps& caps_;
  bool may_fault_ = false;
  // The phase rendered (vulkan_codegen_internal.h): the body over `space` by default.
  const std::vector<Instr>* code_ = &k_.body;
  const Dims* space_ = &k_.space;
  std::string prefix_ = "v";
  std::vector<std::string> results_;  ///< ReduceResult r / MatMulResult (0) expressions
  mutable MathParts math_ = 0;         ///< parts of vulkan_math.h the rendered phases call

  /// Declarations at the start of main(): argument block slots (inputs, outputs, parameters,
  /// the fault flag, then `extra` slots named extra<k>) and the access bases.
  std::string args_code(size_t extra) const {
    const size_t nin = k_.inputs.size(), nout = k_.outputs.size(), np = k_.param_u64.size();
    std::ostringstream os;
    auto slot = [](size_t s) { return "MfU64(pc.args + " + std::to_string(8 * s) + "UL).v"; };
    for (size_t i = 0; i < nin; ++i) os << "const uint64_t in" << i << " = " << slot(i) << ";\n";
    for (size_t i = 0; i < nout; ++i)
      os << "const uint64_t out" << i << " = " << slot(nin + i) << ";\n";
    for (size_t i = 0; i < np; ++i) {
      const size_t s = nin + nout + i;
      if (k_.param_u64[i]) os << "const uint64_t p" << i << " = " << slot(s) << ";\n";
      else if (caps_.float64)
        os << "const double p" << i << " = MfF64(pc.args + " << 8 * s << "UL).v;\n";
      else  // single-only devices: double parameters are read as bits (used only by F32 code)
        os << "const float p" << i << " = float(uint64BitsToDouble(" << slot(s) << "));\n";
    }
    os << "const uint64_t fault = " << slot(nin + nout + np) << ";\n";
    for (size_t e = 0; e < extra; ++e)
      os << "const uint64_t extra" << e << " = " << slot(nin + nout + np + 1 + e) << ";\n";
    for (size_t a = 0; a < k_.accesses.size(); ++a) {
      const Access& ac = k_.accesses[a];
      os << "const int64_t ab" << a << " = " << ac.base << "L";
      for (auto& [s, coef] : ac.param_terms) {
        if (s < 0 || s >= static_cast<int>(np)) unsupported("bad parameter slot");
        os << " + int64_t(p" << s << ") * " << coef << "L";
      }
      os << ";\n";
    }
    return os.str();
  }

  std::string name(int v) const { return prefix_ + std::to_string(v); }
  VType type(int v) const { return code_->at(static_cast<size_t>(v)).type; }

  void check_types(const Instr& in) const {
    if (in.type == VType::F64 && !caps_.float64)
      unsupported("double precision is not supported by the device");
  }

  bool uniform_access(int a) const {
    for (int64_t s : k_.accesses.at(a).strides)
      if (s) return false;
    return true;
  }

  /// Element offset of access a at point i (x<d>: the decomposed index).
  std::string offset(int a) const {
    const Access& ac = k_.accesses.at(a);
    const Dims& sp = *space_;
    if (static_cast<int>(ac.strides.size()) != sp.ndims()) unsupported("access rank mismatch");
    if (uniform_access(a)) return "ab" + std::to_string(a);
    if (accel::contiguous_access(k_, a, sp)) return "(ab" + std::to_string(a) + " + i)";
    std::string s = "(ab" + std::to_string(a);
    for (int d = 0; d < sp.ndims(); ++d)
      if (ac.strides[d] && sp[d] > 1)
        s += " + x" + std::to_string(d) + " * " + std::to_string(ac.strides[d]) + "L";
    return s + ")";
  }

  std::string index_code() const {
    std::string s = "int64_t xr_ = i;\n";
    for (int d = 0; d < space_->ndims(); ++d) {
      const std::string xd = "x" + std::to_string(d);
      if (d + 1 == space_->ndims()) {
        s += "const int64_t " + xd + " = xr_;\n";
      } else {
        const std::string n = std::to_string((*space_)[d]) + "L";
        s += "const int64_t " + xd + " = xr_ % " + n + ";\nxr_ /= " + n + ";\n";
      }
    }
    return s;
  }

  std::string element(const std::string& base, int a, const StorageType& st) const {
    return std::string(st.ref) + "(" + base + " + uint64_t(" + offset(a) + ") * " +
           std::to_string(st.bytes) + "UL).v";
  }

  std::string fault(const std::string& cond, int code) {
    may_fault_ = true;
    return "if (" + cond + ") atomicCompSwap(MfI32(fault).v, 0, " + std::to_string(code) + ");\n";
  }

  std::string sat(const std::string& x, ClassId c) const {
    double lo, hi;
    if (!accel::saturation_range(c, &lo, &hi)) unsupported("saturation to a non-integer class");
    if (!caps_.float64) unsupported("integer saturation needs double precision");
    return "mf_satr(" + x + ", " + literal(lo, VType::F64) + ", " + literal(hi, VType::F64) + ")";
  }

  std::string decl(int v) const {
    const VType t = type(v);
    return std::string(t == VType::Bool ? "const " : "precise ") + gtype(t) + " " + name(v) + " = ";
  }

  std::string op(const Instr& in) const {
    const VType w = type(in.a);
    const std::string a = name(in.a), b = in.b >= 0 ? name(in.b) : "";
    const std::string T = gtype(w);
    if (in.b >= 0 && type(in.b) != w) unsupported("operands of different types");
    const bool logical = op_category(in.op) == OpCategory::Logical;
    if (!logical && w == VType::Bool) unsupported(std::string(op_name(in.op)) + " on logical operands");
    auto need_div = [&] {
      if (!(w == VType::F32 ? caps_.div32 : caps_.div64))
        unsupported("the device's division is not correctly rounded");
    };
    // Elementary functions: the single-precision ports of mf_math.inc (scalar_ops.inc's float
    // bodies); x.^2 stays the product below, as mf_Pow's exponent-2 case.
    const bool square = in.op == OpId::Pow &&
                        code_->at(static_cast<size_t>(in.b)).kind == IKind::Const &&
                        code_->at(static_cast<size_t>(in.b)).imm == 2.0;
    MathParts parts = 0;
    const std::string fn = square ? "" : math_function(in.op, w == VType::F32, &parts);
    if (fn.empty() && !square && w == VType::F64 && !math_function(in.op, true, &parts).empty())
      unsupported("double-precision " + std::string(op_name(in.op)) + " (the host's C library)");
    if (!fn.empty()) {
      const std::string why = math_unsupported(parts, caps_);
      if (!why.empty()) unsupported(std::string(op_name(in.op)) + ": " + why);
      math_ |= parts;
      if (in.op == OpId::Pow)  // mf_Pow(float): b == 2 ? a*a : mf_powf(a, b)
        return "(" + b + " == 2.0 ? " + a + " * " + a + " : mf_powf(" + a + ", " + b + "))";
      return fn + "(" + a + (in.b >= 0 ? ", " + b : "") + ")";
    }
    switch (in.op) {
      case OpId::Add: return a + " + " + b;
      case OpId::Sub: return a + " - " + b;
      case OpId::Mul: return a + " * " + b;
      case OpId::Div: need_div(); return a + " / " + b;
      case OpId::LDiv: need_div(); return b + " / " + a;
      case OpId::Pow: {
        const Instr& e = code_->at(static_cast<size_t>(in.b));
        if (e.kind == IKind::Const && e.imm == 2.0) return a + " * " + a;
        unsupported("power (no exact GLSL pow)");
      }
      // NaN-ignoring max/min: NaN only when both are NaN; ties keep a (scalar_ops.inc).
      case OpId::Max: return "isnan(" + a + ") ? " + b + " : isnan(" + b + ") ? " + a + " : (" + b + " > " + a + " ? " + b + " : " + a + ")";
      case OpId::Min: return "isnan(" + a + ") ? " + b + " : isnan(" + b + ") ? " + a + " : (" + b + " < " + a + " ? " + b + " : " + a + ")";
      case OpId::Neg: return "-" + a;
      case OpId::UPlus:
      case OpId::Real:
      case OpId::Conj: return a;
      case OpId::Imag: return T + "(0)";
      case OpId::Eq: return "(" + a + " == " + b + ")";
      case OpId::Ne: return "!(" + a + " == " + b + ")";
      case OpId::Lt: return "(" + a + " < " + b + ")";
      case OpId::Le: return "(" + a + " <= " + b + ")";
      case OpId::Gt: return "(" + a + " > " + b + ")";
      case OpId::Ge: return "(" + a + " >= " + b + ")";
      case OpId::And: return "(" + a + " && " + b + ")";
      case OpId::Or: return "(" + a + " || " + b + ")";
      case OpId::Xor: return "(" + a + " != " + b + ")";
      case OpId::Not: return "!" + a;
      case OpId::Abs: return "abs(" + a + ")";
      case OpId::Sign: return a + " > " + T + "(0) ? " + T + "(1) : " + a + " < " + T + "(0) ? " + T + "(-1) : " + a;
      // Rounding by additions (mf_trunc: exact, see rounding_functions), not GLSL's floor/
      // ceil/trunc, which some implementations lower through 32-bit integers.
      case OpId::Floor: return "mf_floor(" + a + ")";
      case OpId::Ceil: return "mf_ceil(" + a + ")";
      case OpId::Fix: return "mf_trunc(" + a + ")";
      case OpId::Round: return "mf_round(" + a + ")";
      case OpId::Sqrt:
        if (!(w == VType::F32 ? caps_.sqrt32 : caps_.sqrt64))
          unsupported("the device's sqrt is not correctly rounded");
        return "sqrt(" + a + ")";
      case OpId::IsNaN: return "isnan(" + a + ")";
      case OpId::IsInf: return "isinf(" + a + ")";
      case OpId::IsFinite: return "!(isnan(" + a + ") || isinf(" + a + "))";
      default: unsupported(std::string(op_name(in.op)) + " (no exact GLSL rendering)");
    }
  }

  std::string instr(int v) {
    const Instr& in = (*code_)[static_cast<size_t>(v)];
    const std::string d = decl(v);
    const std::string T = gtype(in.type);
    switch (in.kind) {
      case IKind::Load: {
        const ClassId ic = k_.inputs.at(in.input).cls;
        if (accel::vtype_of(ic) != in.type) unsupported("load type differs from the input class");
        const StorageType st = storage_of(ic, caps_);
        const std::string e = element("in" + std::to_string(in.input), in.access, st);
        if (in.type == VType::Bool) return d + "(" + e + " != uint8_t(0));\n";
        return d + T + "(" + e + ");\n";
      }
      case IKind::Const: return d + literal(in.imm, in.type) + ";\n";
      case IKind::Param:
        if (in.slot < 0 || in.slot >= static_cast<int>(k_.param_u64.size()))
          unsupported("bad parameter slot");
        return d + T + "(p" + std::to_string(in.slot) + ");\n";
      case IKind::Iota: return d + T + "(" + offset(in.access) + ");\n";
      case IKind::Convert: {
        if (in.type == VType::Bool) {
          std::string s = d + "!(" + name(in.a) + " == " + gtype(type(in.a)) + "(0));\n";
          if (type(in.a) != VType::Bool) s += fault("isnan(" + name(in.a) + ")", kFaultLogicalNaN);
          return s;
        }
        return d + T + "(" + name(in.a) + ");\n";
      }
      case IKind::Op: {
        std::string s = d + op(in) + ";\n";
        if (in.check_real && type(in.a) != VType::Bool && op_has(in.op, kRealToComplex)) {
          const std::string cond = real_domain_violation(
              in.op, name(in.a), in.b >= 0 ? name(in.b) : "", gtype(type(in.a)));
          if (cond.empty()) unsupported("domain check of " + std::string(op_name(in.op)));
          s += fault(cond, kFaultComplex);
        }
        return s;
      }
      case IKind::Saturate:
        if (type(in.a) != VType::F64) unsupported("saturate of a non-double value");
        return d + sat(name(in.a), in.cls) + ";\n";
      case IKind::Cast: {
        const std::string a = name(in.a);
        if (in.cls == ClassId::Logical) {
          std::string s = d + "!(" + a + " == " + gtype(type(in.a)) + "(0));\n";
          if (type(in.a) != VType::Bool) s += fault("isnan(" + a + ")", kFaultLogicalNaN);
          return s;
        }
        if (in.cls == ClassId::Single || in.cls == ClassId::Double) return d + T + "(" + a + ");\n";
        if (in.type != VType::F64) unsupported("integer cast to a non-double value");
        return d + sat("double(" + a + ")", in.cls) + ";\n";
      }
      case IKind::Gen: return gen(v);
      case IKind::Rng: {
        // Stream position = offset + element index, key (runtime/philox.inc, as host_eval).
        const int np = static_cast<int>(k_.param_u64.size());
        if (in.slot < 0 || in.slot >= np || in.slot2 < 0 || in.slot2 >= np ||
            !k_.param_u64[in.slot] || !k_.param_u64[in.slot2])
          unsupported("bad random-number parameter slots");
        if (in.type == VType::Bool) unsupported("logical random numbers");
        MathParts parts = 0;
        const std::string fn = rng_function(in.gen, in.type == VType::F32, &parts);
        const std::string why = math_unsupported(parts, caps_);
        if (!why.empty()) unsupported("random numbers: " + why);
        math_ |= parts;
        return d + fn + "(p" + std::to_string(in.slot) + ", p" + std::to_string(in.slot2) +
               " + uint64_t(" + name(in.a) + "));\n";
      }
      case IKind::ReduceResult:
      case IKind::MatMulResult: {
        const size_t r = in.kind == IKind::MatMulResult ? 0 : static_cast<size_t>(in.reduce);
        if (r >= results_.size()) unsupported("reduction or product result");
        return d + results_[r] + ";\n";
      }
    }
    unsupported("instruction kind");
  }

  std::string gen(int v) {
    const Instr& in = (*code_)[static_cast<size_t>(v)];
    const std::string x = name(in.a), nm = name(v), T = gtype(in.type);
    const long long num = static_cast<long long>(in.imm);
    auto p = [&](int slot, const char* t) {
      if (slot < 0 || slot >= static_cast<int>(k_.param_u64.size())) unsupported("bad parameter slot");
      return std::string(t) + "(p" + std::to_string(slot) + ")";
    };
    switch (in.gen) {
      case accel::GenKind::Eye:
        return decl(v) + "(int64_t(" + x + ") % " + std::to_string(num) + "L) == (int64_t(" + x +
               ") / " + std::to_string(num) + "L) ? " + T + "(1) : " + T + "(0);\n";
      case accel::GenKind::Colon: {
        // a + k*d in the class's precision, the last element exactly `l` (scalar_ops: colon).
        const char* ct = in.type == VType::F32 ? "float" : "double";
        if (std::strcmp(ct, "double") == 0 && !caps_.float64) unsupported("double precision");
        const std::string last = literal(static_cast<double>(num - 1), type(in.a));
        return "precise " + std::string(ct) + " " + nm + "k = " + ct + "(" + x + ");\n" + decl(v) +
               T + "(" + x + " == " + last + " ? " + p(in.slot3, ct) + " : " + p(in.slot, ct) +
               " + " + nm + "k * " + p(in.slot2, ct) + ");\n";
      }
      case accel::GenKind::Linspace: {
        // host_eval.cc (eval_gen): MATLAB's a + (k*(b-a))/(n-1) in double, the ends exact, the
        // infinite-difference form when b - a overflows; Fast math on single: the single
        // precision form with one step (docs/math-modes.md).
        const std::string k = nm + "k", a = nm + "a", b = nm + "b";
        const std::string last = std::to_string(num - 1) + "L";
        std::string s = "const int64_t " + k + " = int64_t(" + x + ");\n";
        if (in.type == VType::F32 && k_.math == accel::MathMode::Fast) {
          if (!caps_.div32) unsupported("the device's division is not correctly rounded");
          const std::string st = nm + "s";
          const std::string n1 = literal(static_cast<double>(num > 1 ? num - 1 : 1), VType::F32);
          s += "precise float " + a + " = " + p(in.slot, "float") + ", " + b + " = " +
               p(in.slot2, "float") + ";\n";
          s += "precise float " + st + " = " +
               (num > 1 ? "(" + b + " - " + a + ") / " + n1 : std::string("0.0")) + ";\n";
          return s + decl(v) + k + " == " + last + " ? " + b + " : " + k + " == 0L ? " + a +
                 " : " + a + " + float(" + k + ") * " + st + ";\n";
        }
        if (!caps_.float64) unsupported("linspace needs double precision");
        if (!caps_.div64) unsupported("the device's division is not correctly rounded");
        const std::string n1 = literal(static_cast<double>(num - 1), VType::F64);
        const std::string df = nm + "d", r = nm + "r", kd = "double(" + k + ")";
        const std::string inf_form =
            a + " + (" + b + " / " + n1 + ") * " + kd + " - (" + a + " / " + n1 + ") * " + kd;
        const std::string form = a + " + (" + kd + " * " + df + ") / " + n1;
        s += "precise double " + a + " = " + p(in.slot, "double") + ", " + b + " = " +
             p(in.slot2, "double") + ", " + df + " = " + b + " - " + a + ";\n";
        s += "precise double " + r + " = " + k + " == " + last + " ? " + b + " : " + k +
             " == 0L ? " + a + " : isinf(" + df + ") ? " + inf_form + " : " + form + ";\n";
        if (in.type == VType::Bool) return s + decl(v) + "!(" + r + " == 0.0LF);\n";
        if (in.type == VType::F32 && !caps_.cvt)
          unsupported("the device's narrowing conversions do not round to nearest");
        return s + decl(v) + T + "(" + r + ");\n";
      }
      default: unsupported("generator kind");
    }
  }

  std::string store(size_t o) const {
    const accel::KOutput& ko = k_.outputs[o];
    const StorageType st = storage_of(ko.cls, caps_);
    const std::string x = name(ko.value);
    const VType t = type(ko.value);
    std::string e;
    switch (ko.cls) {
      case ClassId::Double: e = "double(" + x + ")"; break;
      case ClassId::Single: e = "float(" + x + ")"; break;
      case ClassId::Logical: e = "uint8_t(" + x + " ? 1 : 0)"; break;
      default:
        e = t == VType::Bool ? std::string(st.elem) + "(" + x + " ? 1 : 0)"
                             : std::string(st.elem) + "(" + sat("double(" + x + ")", ko.cls) + ")";
    }
    return element("out" + std::to_string(o), ko.access, st) + " = " + e + ";\n";
  }
};

}  // namespace

namespace detail {

struct Codegen::Impl : Renderer {
  using Renderer::Renderer;
  friend class Codegen;
};

Codegen::Codegen(const accel::Kernel& k, const Caps& caps) : impl_(std::make_unique<Impl>(k, caps)) {}
Codegen::~Codegen() = default;

void Codegen::phase(const std::vector<accel::Instr>& code, const Dims& space,
                    const std::string& prefix, std::vector<std::string> results) {
  impl_->code_ = &code;
  impl_->space_ = &space;
  impl_->prefix_ = prefix;
  impl_->results_ = std::move(results);
}
std::string Codegen::name(int v) const { return impl_->name(v); }
std::string Codegen::instr(int v) {
  impl_->check_types(impl_->code_->at(static_cast<size_t>(v)));
  return impl_->instr(v);
}
std::string Codegen::index_code() const { return impl_->index_code(); }
std::string Codegen::store(size_t o) const { return impl_->store(o); }
std::string Codegen::preamble() const { return impl_->preamble(); }
std::string Codegen::args_code(size_t extra) const { return impl_->args_code(extra); }
size_t Codegen::base_slots() const {
  const accel::Kernel& k = impl_->k_;
  return k.inputs.size() + k.outputs.size() + k.param_u64.size() + 1;
}
bool Codegen::may_fault() const { return impl_->may_fault_; }

}  // namespace detail

Shader render(const accel::Kernel& k, const Caps& caps) {
  const std::string problem = accel::verify_kernel(k);
  if (!problem.empty()) unsupported("invalid kernel: " + problem);
  if (k.matmul) return detail::render_matmul(k, caps);
  if (k.fusion_kind == accel::FusionKind::Reduction || !k.reduces.empty())
    return detail::render_reduction(k, caps);
  return Renderer(k, caps).render();
}

}  // namespace matfuse::vk
