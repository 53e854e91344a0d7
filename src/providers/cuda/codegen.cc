// CUDA C code generation from the kernel IR (see codegen.h): value emission shared by every
// kernel kind, and the elementwise renderer (elementwise and loop kernels, matmul epilogues).
// Each instruction mirrors its evaluation in providers/host/host_eval.cc.
#include "providers/cuda/codegen.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>

#include "providers/cuda/codegen_internal.h"
#include "runtime/error.h"

namespace matfuse::cuda {
namespace detail {

using accel::Access;
using accel::IKind;
using accel::Instr;
using accel::VType;

void unsupported(const std::string& msg) {
  throw_error("matfuse:codegen", "CUDA code generation: %s", msg.c_str());
}

const char* ctype(VType t) {
  switch (t) {
    case VType::F64: return "double";
    case VType::F32: return "float";
    case VType::Bool: return "bool";
  }
  return "double";
}

const char* storage_type(ClassId c) {
  switch (c) {
    case ClassId::Double: return "double";
    case ClassId::Single: return "float";
    case ClassId::Logical: return "bool";
    case ClassId::Char: return "unsigned short";
    case ClassId::Int8: return "signed char";
    case ClassId::UInt8: return "unsigned char";
    case ClassId::Int16: return "short";
    case ClassId::UInt16: return "unsigned short";
    case ClassId::Int32: return "int";
    case ClassId::UInt32: return "unsigned int";
    default: unsupported("64-bit integer data");
  }
}

int storage_bytes(ClassId c) {
  switch (c) {
    case ClassId::Double: return 8;
    case ClassId::Single:
    case ClassId::Int32:
    case ClassId::UInt32: return 4;
    case ClassId::Char:
    case ClassId::Int16:
    case ClassId::UInt16: return 2;
    case ClassId::Logical:
    case ClassId::Int8:
    case ClassId::UInt8: return 1;
    default: unsupported("64-bit integer data");
  }
}

namespace {

std::string hex_double(double v) {
  char b[64];
  if (!std::isfinite(v)) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    std::snprintf(b, sizeof b, "__longlong_as_double(0x%016" PRIx64 "LL)", bits);
  } else {
    std::snprintf(b, sizeof b, "(%a)", v);
  }
  return b;
}

std::string sat_call(const std::string& x, ClassId c) {
  double lo, hi;
  if (!accel::saturation_range(c, &lo, &hi)) unsupported("saturation to a non-integer class");
  return "mf_satr(" + x + ", " + hex_double(lo) + ", " + hex_double(hi) + ")";
}

std::string op_name_of(OpId op) {
  switch (op) {
#define MF_OP(id, ...) \
  case OpId::id: return #id;
#include "runtime/ops.def"
#undef MF_OP
  }
  return "";
}

}  // namespace

std::string literal(double v, VType t) {
  switch (t) {
    case VType::F64: return hex_double(v);
    case VType::F32: return "((float)" + hex_double(v) + ")";
    case VType::Bool: return v != 0 ? "true" : "false";
  }
  return "0";
}

// ---- phases -------------------------------------------------------------------------------------

Phase::Phase(const accel::Kernel& kernel, const std::vector<Instr>& c, const Dims& s, char p)
    : k(&kernel), code(&c), space(s), pfx(p), sched(accel::schedule_phase(kernel, c)) {
  // Every access read by the phase has the space's rank (else "access rank mismatch").
  for (const Instr& in : c)
    if (in.kind == IKind::Load || in.kind == IKind::Iota) uniform_access(in.access);
}

bool Phase::has_kind(IKind kd) const {
  for (size_t v = 0; v < code->size(); ++v)
    if (!hoisted[v] && (*code)[v].kind == kd) return true;
  return false;
}

bool Phase::uniform_access(int a) const {
  const Access& ac = k->accesses.at(a);
  if (static_cast<int>(ac.strides.size()) != space.ndims()) unsupported("access rank mismatch");
  for (int64_t s : ac.strides)
    if (s) return false;
  return true;
}

bool Phase::offsets_below_2p51(int a) const {
  const Access& ac = k->accesses.at(a);
  if (!ac.param_terms.empty() || ac.base < 0) return false;
  double hi = static_cast<double>(ac.base);
  for (size_t d = 0; d < ac.strides.size() && d < static_cast<size_t>(space.ndims()); ++d) {
    if (ac.strides[d] < 0) return false;
    hi += static_cast<double>(ac.strides[d]) * static_cast<double>(space[d] - 1);
  }
  return hi < 0x1p51;
}

bool Phase::contiguous(int a) const {
  const Access& ac = k->accesses.at(a);
  if (static_cast<int>(ac.strides.size()) != space.ndims()) unsupported("access rank mismatch");
  return accel::contiguous_access(*k, a, space);
}

bool Phase::interleaved(int a) const {
  const Access& ac = k->accesses.at(a);
  if (static_cast<int>(ac.strides.size()) != space.ndims()) unsupported("access rank mismatch");
  auto st = strides_of(space);
  bool any = false;
  for (int d = 0; d < space.ndims(); ++d) {
    if (ac.strides[d] != (space[d] == 1 ? 0 : 2 * st[d])) return false;
    any |= ac.strides[d] != 0;
  }
  return any;
}

std::string Phase::offset(int a) const {
  const std::string base = "ab" + std::to_string(a);
  if (contiguous(a)) return "(" + base + " + i)";
  if (interleaved(a)) return "(" + base + " + 2LL * (long long)i)";
  const Access& ac = k->accesses[a];
  std::string s = "(" + base;
  for (int d = 0; d < space.ndims(); ++d)
    if (ac.strides[d] && space[d] > 1)
      s += " + (long long)x" + std::to_string(d) + " * " + std::to_string(ac.strides[d]) + "LL";
  return s + ")";
}

std::string Phase::store_expr(int v, ClassId c) const {
  const VType t = (*code)[v].type;
  const std::string x = name(v);
  switch (c) {
    case ClassId::Double: return "(double)" + x;
    case ClassId::Single: return "(float)" + x;
    case ClassId::Logical: return "(bool)" + x;
    default:
      if (t == VType::Bool) return std::string("(") + storage_type(c) + ")" + x;
      return std::string("(") + storage_type(c) + ")" + sat_call("(double)" + x, c);
  }
}

std::string Phase::rng_call(int v, const std::string& sfx, const std::string& pos) const {
  const Instr& in = (*code)[v];
  auto u64 = [&](int s) {
    if (s < 0 || s >= static_cast<int>(k->param_u64.size())) unsupported("bad parameter slot");
    return (k->param_u64[s] ? "p" : "(unsigned long long)p") + std::to_string(s);
  };
  const bool normal = in.gen == accel::GenKind::Randn;
  return std::string(normal ? "mf_randn_" : "mf_rand_") + (in.type == VType::F32 ? "f" : "d") +
         sfx + "(" + u64(in.slot) + ", " + u64(in.slot2) + " + (unsigned long long)" + pos + ")";
}

std::string Phase::instr_code(int v, const std::function<std::string(int)>& load_expr) const {
  const Instr& in = (*code)[v];
  const std::string nm = name(v), ty = ctype(in.type);
  const std::string decl = "const " + ty + " " + nm + " = ";
  auto val = [&](int x) { return name(x); };
  auto src_float = [&](int x) { return (*code)[x].type != VType::Bool; };
  auto pslot = [&](int s) {
    if (s < 0 || s >= static_cast<int>(k->param_u64.size())) unsupported("bad parameter slot");
    return "p" + std::to_string(s);
  };
  switch (in.kind) {
    case IKind::Load: {
      const ClassId ic = k->inputs.at(in.input).cls;
      storage_type(ic);
      if (accel::vtype_of(ic) != in.type) unsupported("load type differs from the input class");
      if (load_expr) {
        std::string e = load_expr(v);
        if (!e.empty()) return decl + "(" + ty + ")" + e + ";\n";
      }
      const std::string off = uniform_access(in.access) ? "ab" + std::to_string(in.access)
                                                        : offset(in.access);
      return decl + "(" + ty + ")in" + std::to_string(in.input) + "[" + off + "];\n";
    }
    case IKind::Const: return decl + literal(in.imm, in.type) + ";\n";
    case IKind::Param:
      return decl + "(" + ty + ")" + pslot(in.slot) + ";\n";
    case IKind::Iota: {
      const std::string off = uniform_access(in.access) ? "ab" + std::to_string(in.access)
                                                        : offset(in.access);
      if (in.type == VType::F64 && offsets_below_2p51(in.access))
        return decl + "mf_i2d_(" + off + ");\n";
      return decl + "(" + ty + ")" + off + ";\n";
    }
    case IKind::Convert: {
      if (in.type == VType::Bool) {
        std::string s = decl + "(" + val(in.a) + " != 0);\n";
        if (src_float(in.a))
          s += "if (mf_isnan(" + val(in.a) + ")) mf_fault(fault, 2);\n";
        return s;
      }
      return decl + "(" + ty + ")" + val(in.a) + ";\n";
    }
    case IKind::Op: {
      const VType w = (*code)[in.a].type;
      const bool logical = op_category(in.op) == OpCategory::Logical;
      if (!logical && w == VType::Bool)
        unsupported(std::string(op_name(in.op)) + " on logical operands");
      if (in.b >= 0 && (*code)[in.b].type != w) unsupported("operands of different types");
      if (op_arity(in.op) == 2 && in.b < 0) unsupported("binary op without a second operand");
      const std::string fn = op_name_of(in.op);
      std::string args = val(in.a);
      if (in.b >= 0) args += ", " + val(in.b);
      // A divisor computed once per thread: its reciprocal is too (hoisted_code), and the
      // quotient costs multiplications and FMAs (mf_div_rcp, same bits as the division).
      const int dv = hoisted_divisor(v);
      // Fast mode: CUDA's single-precision library function where it has one (docs/math-modes.md).
      const bool fast = k->math == accel::MathMode::Fast && w == VType::F32 && has_fast_op(in.op);
      std::string s = dv >= 0 ? decl + "mf_div_rcp(" + val(in.op == OpId::Div ? in.a : in.b) +
                                    ", " + name(dv) + ", " + name(dv) + "r);\n"
                              : decl + (fast ? "mf_fast_" : "mf_") + fn + "(" + args + ");\n";
      if (in.check_real && w != VType::Bool && op_has(in.op, kRealToComplex))
        s += "if (!mf_ok_" + fn + "(" + args + ")) mf_fault(fault, 1);\n";
      return s;
    }
    case IKind::Saturate:
      if ((*code)[in.a].type != VType::F64) unsupported("saturate of a non-double value");
      return decl + sat_call(val(in.a), in.cls) + ";\n";
    case IKind::Cast: {
      const std::string a = val(in.a);
      if (in.cls == ClassId::Logical) {
        std::string s = decl + "(" + a + " != 0);\n";
        if (src_float(in.a)) s += "if (mf_isnan(" + a + ")) mf_fault(fault, 2);\n";
        return s;
      }
      if (in.cls == ClassId::Single) return decl + "(float)" + a + ";\n";
      if (in.cls == ClassId::Double) return decl + "(double)" + a + ";\n";
      if (in.type != VType::F64) unsupported("integer cast to a non-double value");
      return decl + sat_call("(double)" + a, in.cls) + ";\n";
    }
    case IKind::Rng: {
      if (in.type == VType::Bool) unsupported("logical random numbers");
      if (load_expr) {
        std::string e = load_expr(v);
        if (!e.empty()) return decl + e + ";\n";
      }
      // The element index: an Iota's integer offset itself (its F64 value is that integer,
      // exact below 2^53), which spares two 64-bit int<->double conversions per call.
      const Instr& src = (*code)[in.a];
      std::string idx = val(in.a);
      if (src.kind == IKind::Iota && src.type == VType::F64)
        idx = uniform_access(src.access) ? "ab" + std::to_string(src.access) : offset(src.access);
      return decl + rng_call(v, "_ni", idx) + ";\n";
    }
    case IKind::Gen: {
      // The element index as a double (an exact integer: the Iota's value, never converted
      // back and forth) and, for eye, as an integer.
      const std::string xd = val(in.a);
      const long long num = static_cast<long long>(in.imm);
      const std::string last = hex_double(static_cast<double>(num - 1));
      std::string g;  // statements setting double g_
      switch (in.gen) {
        case accel::GenKind::Eye: {
          const std::string r = std::to_string(num) + "LL";
          g = "const long long gi_ = (long long)" + xd + ";\nconst double g_ = (gi_ % " + r +
              ") == (gi_ / " + r + ") ? 1.0 : 0.0;\n";
          break;
        }
        case accel::GenKind::Linspace: {
          if (fast_linspace(in)) {
            // Fast mode: in single precision, endpoints exact. The index as the Iota's integer
            // offset where it is one (no conversions through double).
            const Instr& src = (*code)[in.a];
            std::string ki = "(long long)" + xd;
            if (src.kind == IKind::Iota)
              ki = uniform_access(src.access) ? "ab" + std::to_string(src.access)
                                              : offset(src.access);
            const std::string kv = nm + "k";
            return "const long long " + kv + " = " + ki + ";\nconst float " + nm + " = " + kv +
                   " == " + std::to_string(num - 1) + "LL ? " + nm + "fb : " + kv + " == 0LL ? " +
                   nm + "fa : " + nm + "fa + (float)" + kv + " * " + nm + "fs;\n";
          }
          // MATLAB's d1 + (k*(d2-d1))/(n-1) in double, the uniform parts per thread
          // (gen_setup); 1/(n-1) is a literal (n - 1 in [1, 2^53] is in mf_div_rcp's range).
          const std::string rcp = num >= 2 ? hex_double(1.0 / static_cast<double>(num - 1))
                                           : "mf_rcp_setup(" + last + ").r";
          // With d = d2 - d1 in [2^-300, 2^247] in magnitude (nm + "f", per thread), every
          // numerator k*d (1 <= k <= n - 1 <= 2^53) is in mf_div_rcp's range: no check per point.
          g = "double g_;\nif (" + xd + " == " + last + ") g_ = " + nm + "b;\nelse if (" + xd +
              " == 0.0) g_ = " + nm + "a;\nelse if (" + nm + "f) g_ = " + nm + "a + mf_div_rcp2(" +
              xd + " * " + nm + "d, " + last + ", " + rcp + ");\nelse if (!mf_isinf(" + nm +
              "d)) g_ = " + nm + "a + (" + xd + " * " + nm + "d) / " + last + ";\nelse g_ = " + nm +
              "a + (" + nm + "b / " + last + ") * " + xd + " - (" + nm + "a / " + last + ") * " +
              xd + ";\n";
          break;
        }
        case accel::GenKind::Colon:
          if (in.type == VType::F32)
            return "const float " + nm + " = " + xd + " == " + last + " ? " + nm + "l : " + nm +
                   "a + (float)" + xd + " * " + nm + "d;\n";
          g = "const double g_ = " + xd + " == " + last + " ? " + nm + "l : " + nm + "a + " + xd +
              " * " + nm + "d;\n";
          break;
        default: unsupported("generator kind");
      }
      return ty + " " + nm + ";\n{\n" + g + nm + " = (" + ty + ")g_;\n}\n";
    }
    case IKind::ReduceResult:
      if (in.reduce < 0 || in.reduce >= static_cast<int>(reduce_exprs.size()))
        unsupported("reduction result outside a reduction epilogue");
      return decl + reduce_exprs[in.reduce] + ";\n";
    case IKind::MatMulResult:
      if (!k->matmul) unsupported("matrix product result without a matrix product");
      if (k->matmul->diag)  // epilogue over the main diagonal: point i is C(i,i)
        return decl + "(" + ty + ")mm[i * " + std::to_string(k->matmul->m + 1) + "LL];\n";
      if (k->matmul->syrk) {  // lower triangle only: C(i,j), i < j, is read at (j,i)
        const std::string M = std::to_string(k->matmul->m) + "LL";
        return decl + "(" + ty + ")mm[(i % " + M + ") >= (i / " + M + ") ? i : (i / " + M +
               ") + (i % " + M + ") * " + M + "];\n";
      }
      return decl + "(" + ty + ")mm[i];\n";
  }
  unsupported("instruction kind");
}

std::string Phase::gen_setup(int v) const {
  const Instr& in = (*code)[v];
  if (in.kind != IKind::Gen) return "";
  const std::string nm = name(v);
  // Linspace computes in double whatever its class; colon in its class.
  const std::string t =
      in.type == VType::F32 && in.gen == accel::GenKind::Colon ? "float" : "double";
  auto p = [&](int slot) {
    if (slot < 0 || slot >= static_cast<int>(k->param_u64.size()))
      unsupported("bad parameter slot");
    return "(" + t + ")p" + std::to_string(slot);
  };
  if (fast_linspace(in)) {
    const std::string n1 = hex_double(static_cast<double>(static_cast<long long>(in.imm) - 1));
    return "const float " + nm + "fa = (float)" + p(in.slot) + ", " + nm + "fb = (float)" +
           p(in.slot2) + ";\nconst float " + nm + "fs = " + n1 + " > 0.0 ? (" + nm + "fb - " +
           nm + "fa) / (float)" + n1 + " : 0.0f;\n";
  }
  if (in.gen == accel::GenKind::Linspace)
    return "const double " + nm + "a = " + p(in.slot) + ", " + nm + "b = " + p(in.slot2) + ", " +
           nm + "d = " + nm + "b - " + nm + "a;\nconst bool " + nm + "f = fabs(" + nm +
           "d) >= 0x1p-300 && fabs(" + nm + "d) <= 0x1p247;\n";
  if (in.gen == accel::GenKind::Colon)
    return "const " + t + " " + nm + "a = " + p(in.slot) + ", " + nm + "d = " + p(in.slot2) + ", " +
           nm + "l = " + p(in.slot3) + ";\n";
  return "";
}

std::string Phase::hoisted_code() const {
  std::string s;
  for (int v : sched.hoisted_values) s += gen_setup(v) + instr_code(v, {});
  // Per-thread parts of per-point instructions: reciprocals of hoisted divisors (once per
  // divisor) and the uniform values of generators.
  for (const accel::ThreadSetup& e : sched.setup)
    s += e.kind == accel::ThreadSetup::Kind::Reciprocal
             ? "const auto " + name(e.value) + "r = mf_rcp_setup(" + name(e.value) + ");\n"
             : gen_setup(e.value);
  return s;
}

std::string Phase::index_code() const {
  // Decomposed index x<d> when some non-uniform, non-contiguous access is used.
  bool need = false;
  auto uses = [&](int a) { return !uniform_access(a) && !contiguous(a) && !interleaved(a); };
  for (size_t v = 0; v < code->size(); ++v) {
    const Instr& in = (*code)[v];
    if (!hoisted[v] && (in.kind == IKind::Load || in.kind == IKind::Iota) && uses(in.access))
      need = true;
  }
  // Outputs stored by this phase: every output of an elementwise kernel from its body; in
  // reduction and matmul kernels the in_body ones from the body, the others from the epilogue.
  const bool split = k->fusion_kind == accel::FusionKind::Reduction || k->matmul.has_value();
  const bool body_phase = code == &k->body;
  for (const accel::KOutput& o : k->outputs)
    if ((split ? o.in_body == body_phase : body_phase) && uses(o.access)) need = true;
  std::string s;
  if (need) {
    const bool small = space.numel() <= std::numeric_limits<int32_t>::max();
    const char* it = small ? "unsigned" : "unsigned long long";
    s += std::string(it) + " xr_ = (" + it + ")i;\n";
    for (int d = 0; d < space.ndims(); ++d) {
      const std::string xd = "x" + std::to_string(d);
      if (d + 1 == space.ndims()) {
        s += std::string("const ") + it + " " + xd + " = xr_;\n";
      } else {
        const std::string n = std::to_string(space[d]) + (small ? "u" : "ull");
        s += std::string("const ") + it + " " + xd + " = xr_ % " + n + ";\nxr_ /= " + n + ";\n";
      }
    }
  }
  return s;
}

std::string Phase::range_code(size_t lo, size_t hi,
                              const std::function<std::string(int)>& load_expr) const {
  std::string s;
  for (size_t v = lo; v < hi; ++v)
    if (!hoisted[v] && alias[v] == static_cast<int>(v)) s += instr_code(static_cast<int>(v), load_expr);
  return s;
}

std::string Phase::point_code(const std::function<std::string(int)>& load_expr) const {
  return index_code() + range_code(0, code->size(), load_expr);
}

std::string param_list(const accel::Kernel& k, const Program& prog) {
  std::vector<std::string> ps;
  for (size_t i = 0; i < k.inputs.size(); ++i)
    ps.push_back(std::string("const ") + storage_type(k.inputs[i].cls) + "* __restrict__ in" +
                 std::to_string(i));
  for (size_t i = 0; i < k.outputs.size(); ++i)
    ps.push_back(std::string(storage_type(k.outputs[i].cls)) + "* __restrict__ out" +
                 std::to_string(i));
  for (size_t i = 0; i < k.param_u64.size(); ++i)
    ps.push_back(std::string(k.param_u64[i] ? "unsigned long long" : "double") + " p" +
                 std::to_string(i));
  if (k.matmul)
    ps.push_back(std::string("const ") + (k.matmul->type == VType::F32 ? "float" : "double") +
                 "* __restrict__ mm");
  if (prog.scratch_bytes > 0) ps.push_back("unsigned char* __restrict__ scratch");
  if (prog.may_fault) ps.push_back("int* __restrict__ fault");
  std::string s;
  for (size_t i = 0; i < ps.size(); ++i) s += (i ? ",\n    " : "\n    ") + ps[i];
  return s;
}

std::string access_bases(const accel::Kernel& k) {
  std::string s;
  for (size_t a = 0; a < k.accesses.size(); ++a) {
    const Access& ac = k.accesses[a];
    s += "const long long ab" + std::to_string(a) + " = " + std::to_string(ac.base) + "LL";
    for (auto& [slot, coef] : ac.param_terms) {
      if (slot < 0 || slot >= static_cast<int>(k.param_u64.size())) unsupported("bad slot");
      s += " + (long long)p" + std::to_string(slot) + " * " + std::to_string(coef) + "LL";
    }
    s += ";\n";
  }
  return s;
}

bool may_fault(const std::vector<Instr>& code) {
  for (const Instr& in : code) {
    const bool float_src = in.a >= 0 && code[in.a].type != VType::Bool;
    if (in.kind == IKind::Op && in.check_real && op_has(in.op, kRealToComplex)) return true;
    if (in.kind == IKind::Convert && in.type == VType::Bool && float_src) return true;
    if (in.kind == IKind::Cast && in.cls == ClassId::Logical && float_src) return true;
  }
  return false;
}

std::vector<MapStore> output_map_stores(const accel::Kernel& k, const Phase& ph,
                                        bool in_body_only) {
  std::vector<MapStore> out;
  for (size_t o = 0; o < k.outputs.size(); ++o) {
    const accel::KOutput& ko = k.outputs[o];
    if (in_body_only && !ko.in_body) continue;
    MapStore st;
    st.value = ko.value;
    st.st = storage_type(ko.cls);
    st.bytes = storage_bytes(ko.cls);
    st.expr = ph.store_expr(ko.value, ko.cls);
    st.contiguous = ph.contiguous(ko.access);
    st.base = "out" + std::to_string(o) + " + ab" + std::to_string(ko.access);
    st.scalar = "out" + std::to_string(o) + "[" + ph.offset(ko.access) + "]";
    out.push_back(std::move(st));
  }
  return out;
}

/// Elementwise kernel over phase ph (body over space, or a matmul epilogue over out_space):
/// grid-stride loop, with a group path of V consecutive elements per thread as the phase's map
/// schedule says (accel::schedule_map: the vector path, 16-byte vector loads and stores of a
/// light body when every pointer is aligned, else the plain loop; the random-number path, 4
/// elements per thread so that each Philox block serves all its lanes, contiguous loads and
/// outputs moved as vectors when aligned, element by element otherwise). The tail (n mod V
/// elements) runs the plain loop. Every path computes each element with the same operations,
/// so the same bits.
void render_map(const accel::Kernel& k, const Target& t, const Phase& ph,
                const std::vector<MapStore>& stores, const std::string& entry, Program& prog) {
  const int64_t n = ph.space.numel();
  std::vector<accel::MapStoreShape> shapes;
  for (const MapStore& st : stores) shapes.push_back({st.value, st.bytes, st.contiguous});
  const accel::MapSchedule ms = accel::schedule_map(k, *ph.code, ph.space, ph.sched, shapes);
  const bool rgroup = ms.path == accel::MapSchedule::Path::RngGroups;
  const bool vec = ms.path == accel::MapSchedule::Path::Vector;
  const int V = ms.width;
  const std::vector<int>& vloads = ms.group_loads;
  // The prelude's grouped generators (mf_rand_d_x4 ...) serve 4 lanes.
  if (rgroup && V != 4) unsupported("random-number groups of other than 4 lanes");

  std::ostringstream os;
  os << "\nextern \"C\" __global__ void " << entry << "(" << param_list(k, prog) << ") {\n";
  os << access_bases(k) << ph.hoisted_code();
  os << "const long long n_ = " << n << "LL;\n"
     << "const long long stride_ = (long long)gridDim.x * blockDim.x;\n"
     << "const long long tid_ = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     << (rgroup ? "" : "long long i0_ = 0;\n");
  auto vt = [&](const std::string& st) {
    return "mf_vec<" + st + ", " + std::to_string(V) + ">";
  };
  // Plain stores (or, in a group, the lanes of the vector stores and the other stores).
  auto output_stores = [&](bool group) {
    std::string s;
    for (size_t o = 0; o < stores.size(); ++o) {
      const MapStore& st = stores[o];
      if (group && st.contiguous) s += "S" + std::to_string(o) + "_.v[l_] = " + st.expr + ";\n";
      else s += st.scalar + " = " + st.expr + ";\n";
    }
    return s;
  };
  if (vec || rgroup) {
    // Alignment of every vectorized pointer (uniform over the grid).
    std::string aligned = "true";
    for (int v : vloads) {
      const Instr& in = (*ph.code)[v];
      aligned += " && ((unsigned long long)(in" + std::to_string(in.input) + " + ab" +
                 std::to_string(in.access) + ") % sizeof(" +
                 vt(storage_type(k.inputs[in.input].cls)) + ")) == 0";
    }
    for (const MapStore& st : stores)
      if (st.contiguous)
        aligned += " && ((unsigned long long)(" + st.base + ") % sizeof(" + vt(st.st) + ")) == 0";
    // The vector path needs aligned pointers; the random-number path picks per access.
    if (vec) os << "if (" << aligned << ") {\n";
    else os << "const bool al_ = " << aligned << ";\n";
    const std::string al = vec ? "true" : "al_";
    // The random-number path has no tail loop (it would be a fifth copy of a heavy body): its
    // last group is partial when V does not divide n, with guarded accesses and lanes.
    const bool partial = ms.partial;
    const std::string cnt = partial ? "(ib_ + " + std::to_string(V) + " <= n_ ? " +
                                          std::to_string(V) + " : (int)(n_ - ib_))"
                                    : std::to_string(V);
    os << "const long long nv_ = " << (rgroup ? "(n_ + " + std::to_string(V - 1) + ")" : "n_")
       << " / " << V << ";\n"
       << "for (long long q_ = tid_; q_ < nv_; q_ += stride_) {\n"
       << "const long long ib_ = q_ * " << V << ";\n";
    if (partial) os << "const int cnt_ = " << cnt << ";\n";
    const std::string c = partial ? "cnt_" : std::to_string(V);
    for (int v : vloads) {
      const Instr& in = (*ph.code)[v];
      const char* st = storage_type(k.inputs[in.input].cls);
      os << "const " << vt(st) << " L" << v << "_ = mf_ldv<" << st << ", " << V << ">(in"
         << in.input << " + ab" << in.access << " + ib_, " << al << ", " << c << ");\n";
    }
    for (size_t o = 0; o < stores.size(); ++o)
      if (stores[o].contiguous) os << vt(stores[o].st) << " S" << o << "_;\n";
    auto group_expr = [&](int v) -> std::string {
      const char* p = (*ph.code)[v].kind == IKind::Rng ? "R" : "L";
      const bool listed = ms.is_group_load(v) || ms.is_rng_group(v);
      return listed ? p + std::to_string(v) + "_.v[l_]" : "";
    };
    // Segments (the schedule's): a group Rng value's lanes are computed between two lane
    // loops; a value read in a later segment crosses over in a V-lane array (registers: the
    // loops are unrolled).
    const size_t nc = ph.code->size();
    const int nseg = ms.segments();
    auto name = [&](size_t v) { return ph.name(static_cast<int>(v)); };
    for (size_t v = 0; v < nc; ++v)
      if (ms.crosses[v]) os << ctype((*ph.code)[v].type) << " " << name(v) << "x_[" << V << "];\n";
    for (int j = 0; j < nseg; ++j) {
      const int r0 = static_cast<int>(ms.segment_starts[j]);
      if (ms.is_rng_group(r0)) {
        const int iota = (*ph.code)[r0].a;
        os << "const " << vt(ctype((*ph.code)[r0].type)) << " R" << r0 << "_ = "
           << ph.rng_call(r0, "_x4", "(ab" + std::to_string((*ph.code)[iota].access) + " + ib_)")
           << ";\n";
      }
      os << "#pragma unroll\nfor (int l_ = 0; l_ < " << V << "; ++l_) {\n"
         << "const long long i = ib_ + l_;\n" << (partial ? "if (l_ < cnt_) {\n" : "")
         << ph.index_code();
      for (int r : ms.restores[j])
        os << "const " << ctype((*ph.code)[r].type) << " " << name(r) << " = " << name(r)
           << "x_[l_];\n";
      os << ph.range_code(ms.segment_starts[j], ms.segment_starts[j + 1], group_expr);
      for (size_t v = ms.segment_starts[j]; v < ms.segment_starts[j + 1]; ++v)
        if (ms.crosses[v]) os << name(v) << "x_[l_] = " << name(v) << ";\n";
      if (j == nseg - 1) os << output_stores(true);
      os << (partial ? "}\n" : "") << "}\n";
    }
    for (size_t o = 0; o < stores.size(); ++o)
      if (stores[o].contiguous)
        os << "mf_stv<" << stores[o].st << ", " << V << ">(" << stores[o].base << " + ib_, S" << o
           << "_, " << al << ", " << c << ");\n";
    os << "}\n";
    if (vec) os << "i0_ = nv_ * " << V << ";\n}\n";
  }
  if (!rgroup)
    os << "for (long long i = i0_ + tid_; i < n_; i += stride_) {\n"
       << ph.point_code() << output_stores(false) << "}\n";
  os << "}\n";
  prog.source += os.str();

  Launch l;
  l.entry = entry;
  l.block_x = static_cast<unsigned>(std::min(kBlock, t.max_threads_per_block));
  const int64_t per = static_cast<int64_t>(l.block_x) * (vec || rgroup ? V : 1);
  const int64_t cap = static_cast<int64_t>(std::max(1, t.sm_count)) * 8;
  l.grid_x = static_cast<unsigned>(std::clamp<int64_t>((n + per - 1) / per, 1, cap));
  prog.launches.push_back(l);
}

}  // namespace detail

Program render(const accel::Kernel& k, const Target& t) {
  using namespace detail;
  const std::string problem = accel::verify_kernel(k);
  if (!problem.empty()) unsupported("invalid kernel: " + problem);
  for (const auto& in : k.inputs) storage_type(in.cls);
  for (const auto& o : k.outputs) storage_type(o.cls);
  Program prog;
  prog.fast_math = k.math == accel::MathMode::Fast;
  prog.source = device_prelude();
  if (prog.fast_math) prog.source += fast_prelude();
  prog.source += "\n// ---- kernel (fusion_kind " + std::string(accel::fusion_kind_name(k.fusion_kind)) +
                 ") ----\n";
  if (k.space.numel() == 0 || (k.fusion_kind == accel::FusionKind::Reduction && k.n == 0))
    unsupported("empty iteration space");
  if (k.matmul) {
    prog.may_fault = may_fault(k.epilogue);
    Phase ph(k, k.epilogue, k.out_space, 'e');
    render_map(k, t, ph, output_map_stores(k, ph, false), "mf_elementwise", prog);
  } else if (k.fusion_kind == accel::FusionKind::Reduction) {
    prog.may_fault = may_fault(k.body) || may_fault(k.epilogue);
    render_reduction(k, t, prog);
  } else {
    prog.may_fault = may_fault(k.body);
    Phase ph(k, k.body, k.space, 'v');
    render_map(k, t, ph, output_map_stores(k, ph, false), "mf_elementwise", prog);
  }
  return prog;
}

}  // namespace matfuse::cuda
