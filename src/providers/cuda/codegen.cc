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
#include <map>
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

/// Integer range [lo, hi] of an integer or char class (saturation bounds).
bool int_range(ClassId c, double& lo, double& hi) {
  switch (c) {
    case ClassId::Char: lo = 0; hi = 65535; return true;
    case ClassId::Int8: lo = -128; hi = 127; return true;
    case ClassId::UInt8: lo = 0; hi = 255; return true;
    case ClassId::Int16: lo = -32768; hi = 32767; return true;
    case ClassId::UInt16: lo = 0; hi = 65535; return true;
    case ClassId::Int32: lo = -2147483648.0; hi = 2147483647.0; return true;
    case ClassId::UInt32: lo = 0; hi = 4294967295.0; return true;
    default: return false;
  }
}

std::string sat_call(const std::string& x, ClassId c) {
  double lo, hi;
  if (!int_range(c, lo, hi)) unsupported("saturation to a non-integer class");
  return "mf_satr(" + x + ", " + hex_double(lo) + ", " + hex_double(hi) + ")";
}

std::string op_name_of(OpId op) {
  switch (op) {
#define MF_OP(id, ...) \
  case OpId::id: return #id;
#include "accel/ops.def"
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
    : k(&kernel), code(&c), space(s), pfx(p), hoisted(c.size(), false) {
  for (size_t i = 0; i < c.size(); ++i) {
    const Instr& in = c[i];
    bool h = in.uniform && in.kind != IKind::ReduceResult && in.kind != IKind::MatMulResult;
    if ((in.kind == IKind::Load || in.kind == IKind::Iota) && !uniform_access(in.access)) h = false;
    if (in.a >= 0 && in.kind != IKind::Load && in.kind != IKind::Iota) h &= hoisted[in.a];
    if (in.b >= 0) h &= hoisted[in.b];
    hoisted[i] = h;
  }
  // Common subexpressions: same instruction over the same (aliased) operands.
  std::map<std::string, int> seen;
  alias.resize(c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    const Instr& in = c[i];
    alias[i] = static_cast<int>(i);
    if (in.kind == IKind::Gen) continue;  // emitted with a block-scoped temporary: keep simple
    std::ostringstream key;
    key.precision(17);
    uint64_t immbits;
    std::memcpy(&immbits, &in.imm, 8);
    key << static_cast<int>(in.kind) << ',' << static_cast<int>(in.type) << ','
        << static_cast<int>(in.cls) << ',' << (in.a >= 0 ? alias[in.a] : -1) << ','
        << (in.b >= 0 ? alias[in.b] : -1) << ',' << in.input << ',' << in.access << ','
        << in.slot << ',' << in.slot2 << ',' << in.slot3 << ',' << in.reduce << ',' << immbits
        << ',' << static_cast<int>(in.op) << ',' << in.check_real << ','
        << static_cast<int>(in.gen) << ',' << hoisted[i];
    auto [it, fresh] = seen.emplace(key.str(), static_cast<int>(i));
    if (!fresh) alias[i] = it->second;
  }
}

int Phase::point_instrs() const {
  int n = 0;
  for (size_t v = 0; v < code->size(); ++v) n += !hoisted[v] && alias[v] == static_cast<int>(v);
  return n;
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

bool Phase::contiguous(int a) const {
  const Access& ac = k->accesses.at(a);
  if (static_cast<int>(ac.strides.size()) != space.ndims()) unsupported("access rank mismatch");
  auto st = strides_of(space);
  for (int d = 0; d < space.ndims(); ++d)
    if (ac.strides[d] != (space[d] == 1 ? 0 : st[d])) return false;
  return true;
}

std::string Phase::offset(int a) const {
  const std::string base = "ab" + std::to_string(a);
  if (contiguous(a)) return "(" + base + " + i)";
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
      std::string s = decl + "mf_" + fn + "(" + args + ");\n";
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
      auto u64 = [&](int s) {
        return k->param_u64.at(s) ? pslot(s) : "(unsigned long long)" + pslot(s);
      };
      const bool normal = in.gen == accel::GenKind::Randn;
      const std::string fn = std::string(normal ? "mf_randn_" : "mf_rand_") +
                             (in.type == VType::F32 ? "f_ni" : "d_ni");
      if (in.type == VType::Bool) unsupported("logical random numbers");
      // The element index: an Iota's integer offset itself (its F64 value is that integer,
      // exact below 2^53), which spares two 64-bit int<->double conversions per call.
      const Instr& src = (*code)[in.a];
      std::string idx = val(in.a);
      if (src.kind == IKind::Iota && src.type == VType::F64)
        idx = uniform_access(src.access) ? "ab" + std::to_string(src.access) : offset(src.access);
      return decl + fn + "(" + u64(in.slot) + ", " + u64(in.slot2) +
             " + (unsigned long long)" + idx + ");\n";
    }
    case IKind::Gen: {
      const std::string idx = "(long long)" + val(in.a);
      const long long num = static_cast<long long>(in.imm);
      std::string g;  // statements setting double g_
      switch (in.gen) {
        case accel::GenKind::Eye: {
          const std::string r = std::to_string(num) + "LL";
          g = "const long long gi_ = " + idx + ";\nconst double g_ = (gi_ % " + r +
              ") == (gi_ / " + r + ") ? 1.0 : 0.0;\n";
          break;
        }
        case accel::GenKind::Linspace:
          // MATLAB's d1 + (k*(d2-d1))/(n-1) in double; n - 1 in [1, 2^53] is in mf_div_rcp's range.
          g = "const double ga_ = " + pslot(in.slot) + ", gb_ = " + pslot(in.slot2) +
              ";\nconst long long gi_ = " + idx + ";\nconst double gn1_ = (double)" +
              std::to_string(num - 1) + "LL, gd_ = gb_ - ga_;\ndouble g_;\nif (gi_ == " +
              std::to_string(num - 1) +
              "LL) g_ = gb_;\nelse if (gi_ == 0) g_ = ga_;\nelse if (mf_isinf(gd_)) g_ = ga_ + "
              "(gb_ / gn1_) * (double)gi_ - (ga_ / gn1_) * (double)gi_;\nelse g_ = ga_ + "
              "mf_div_rcp((double)gi_ * gd_, gn1_, 1.0 / gn1_);\n";
          break;
        case accel::GenKind::Colon:
          if (in.type == VType::F32) {
            return "float " + nm + ";\n{\nconst float ga_ = (float)" + pslot(in.slot) +
                   ", gd_ = (float)" + pslot(in.slot2) + ", gl_ = (float)" + pslot(in.slot3) +
                   ";\nconst long long gk_ = " + idx + ";\n" + nm + " = gk_ == " +
                   std::to_string(num - 1) + "LL ? gl_ : ga_ + (float)gk_ * gd_;\n}\n";
          }
          g = "const double ga_ = " + pslot(in.slot) + ", gd_ = " + pslot(in.slot2) +
              ", gl_ = " + pslot(in.slot3) + ";\nconst long long gk_ = " + idx +
              ";\nconst double g_ = gk_ == " + std::to_string(num - 1) +
              "LL ? gl_ : ga_ + (double)gk_ * gd_;\n";
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
      return decl + "(" + ty + ")mm[i];\n";
  }
  unsupported("instruction kind");
}

std::string Phase::hoisted_code() const {
  std::string s;
  for (size_t v = 0; v < code->size(); ++v)
    if (hoisted[v] && alias[v] == static_cast<int>(v)) s += instr_code(static_cast<int>(v), {});
  return s;
}

std::string Phase::point_code(const std::function<std::string(int)>& load_expr) const {
  // Decomposed index x<d> when some non-uniform, non-contiguous access is used.
  bool need = false;
  auto uses = [&](int a) { return !uniform_access(a) && !contiguous(a); };
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
  for (size_t v = 0; v < code->size(); ++v)
    if (!hoisted[v] && alias[v] == static_cast<int>(v)) s += instr_code(static_cast<int>(v), load_expr);
  return s;
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

namespace {

/// Bodies with more point instructions than this are compute bound: no vector path.
constexpr int kVectorMaxInstrs = 24;

/// Elementwise kernel over phase ph (body over space, or a matmul epilogue over out_space):
/// grid-stride loop, with a 16-byte vector path when every non-uniform load and every output
/// is contiguous over the space.
void render_elementwise(const accel::Kernel& k, const Target& t, const Phase& ph,
                        Program& prog) {
  const int64_t n = ph.space.numel();
  // Vector path eligibility and width.
  bool vec = n >= 2;
  int maxb = 1;
  std::vector<int> vloads;  // non-uniform Load instructions, read by vector loads
  for (size_t v = 0; v < ph.code->size(); ++v) {
    const Instr& in = (*ph.code)[v];
    if (ph.hoisted[v] || ph.alias[v] != static_cast<int>(v)) continue;
    if (in.kind == IKind::Load) {
      if (!ph.contiguous(in.access)) vec = false;
      maxb = std::max(maxb, storage_bytes(k.inputs[in.input].cls));
      vloads.push_back(static_cast<int>(v));
    }
  }
  for (const accel::KOutput& o : k.outputs) {
    if (!ph.contiguous(o.access)) vec = false;
    maxb = std::max(maxb, storage_bytes(o.cls));
  }
  const int V = std::clamp(16 / maxb, 2, 4);
  if (vloads.empty() && k.outputs.empty()) vec = false;
  // The vector path copies the body V + 1 times: only for light, memory-bound bodies.
  if (ph.has_kind(IKind::Rng) || ph.point_instrs() > kVectorMaxInstrs)
    vec = false;

  std::ostringstream os;
  os << "\nextern \"C\" __global__ void mf_elementwise(" << param_list(k, prog) << ") {\n";
  os << access_bases(k) << ph.hoisted_code();
  os << "const long long n_ = " << n << "LL;\n"
     << "const long long stride_ = (long long)gridDim.x * blockDim.x;\n"
     << "const long long tid_ = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
     << "long long i0_ = 0;\n";
  auto output_stores = [&](bool vector) {
    std::string s;
    for (size_t o = 0; o < k.outputs.size(); ++o) {
      const auto& ko = k.outputs[o];
      if (vector) s += "S" + std::to_string(o) + "_.v[l_] = " + ph.store_expr(ko.value, ko.cls) + ";\n";
      else
        s += "out" + std::to_string(o) + "[" + ph.offset(ko.access) + "] = " +
             ph.store_expr(ko.value, ko.cls) + ";\n";
    }
    return s;
  };
  if (vec) {
    // Alignment of every vectorized pointer (uniform over the grid).
    std::string aligned = "true";
    auto vt = [&](const char* st) { return std::string("mf_vec<") + st + ", " + std::to_string(V) + ">"; };
    for (int v : vloads) {
      const Instr& in = (*ph.code)[v];
      aligned += " && ((unsigned long long)(in" + std::to_string(in.input) + " + ab" +
                 std::to_string(in.access) + ") % sizeof(" +
                 vt(storage_type(k.inputs[in.input].cls)) + ")) == 0";
    }
    for (size_t o = 0; o < k.outputs.size(); ++o)
      aligned += " && ((unsigned long long)(out" + std::to_string(o) + " + ab" +
                 std::to_string(k.outputs[o].access) + ") % sizeof(" +
                 vt(storage_type(k.outputs[o].cls)) + ")) == 0";
    os << "if (" << aligned << ") {\n"
       << "const long long nv_ = n_ / " << V << ";\n"
       << "for (long long q_ = tid_; q_ < nv_; q_ += stride_) {\n"
       << "const long long ib_ = q_ * " << V << ";\n";
    for (int v : vloads) {
      const Instr& in = (*ph.code)[v];
      const std::string T = vt(storage_type(k.inputs[in.input].cls));
      os << "const " << T << " L" << v << "_ = *(const " << T << "*)(in" << in.input << " + ab"
         << in.access << " + ib_);\n";
    }
    for (size_t o = 0; o < k.outputs.size(); ++o)
      os << vt(storage_type(k.outputs[o].cls)) << " S" << o << "_;\n";
    os << "#pragma unroll\nfor (int l_ = 0; l_ < " << V << "; ++l_) {\n"
       << "const long long i = ib_ + l_;\n"
       << ph.point_code([](int v) { return "L" + std::to_string(v) + "_.v[l_]"; })
       << output_stores(true) << "}\n";
    for (size_t o = 0; o < k.outputs.size(); ++o) {
      const std::string T = vt(storage_type(k.outputs[o].cls));
      os << "*(" << T << "*)(out" << o << " + ab" << k.outputs[o].access << " + ib_) = S" << o
         << "_;\n";
    }
    os << "}\ni0_ = nv_ * " << V << ";\n}\n";
  }
  os << "for (long long i = i0_ + tid_; i < n_; i += stride_) {\n"
     << ph.point_code() << output_stores(false) << "}\n}\n";
  prog.source += os.str();

  Launch l;
  l.entry = "mf_elementwise";
  l.block_x = static_cast<unsigned>(std::min(kBlock, t.max_threads_per_block));
  const int64_t per = static_cast<int64_t>(l.block_x) * (vec ? V : 1);
  const int64_t cap = static_cast<int64_t>(std::max(1, t.sm_count)) * 8;
  l.grid_x = static_cast<unsigned>(std::clamp<int64_t>((n + per - 1) / per, 1, cap));
  prog.launches.push_back(l);
}

}  // namespace
}  // namespace detail

Program render(const accel::Kernel& k, const Target& t) {
  using namespace detail;
  const std::string problem = accel::verify_kernel(k);
  if (!problem.empty()) unsupported("invalid kernel: " + problem);
  for (const auto& in : k.inputs) storage_type(in.cls);
  for (const auto& o : k.outputs) storage_type(o.cls);
  Program prog;
  prog.source = device_prelude();
  prog.source += "\n// ---- kernel (fusion_kind " + std::string(accel::fusion_kind_name(k.fusion_kind)) +
                 ") ----\n";
  if (k.space.numel() == 0 || (k.fusion_kind == accel::FusionKind::Reduction && k.n == 0))
    unsupported("empty iteration space");
  if (k.matmul) {
    prog.may_fault = may_fault(k.epilogue);
    Phase ph(k, k.epilogue, k.out_space, 'e');
    render_elementwise(k, t, ph, prog);
  } else if (k.fusion_kind == accel::FusionKind::Reduction) {
    prog.may_fault = may_fault(k.body) || may_fault(k.epilogue);
    render_reduction(k, t, prog);
  } else {
    prog.may_fault = may_fault(k.body);
    Phase ph(k, k.body, k.space, 'v');
    render_elementwise(k, t, ph, prog);
  }
  return prog;
}

}  // namespace matfuse::cuda
